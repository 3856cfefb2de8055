#include "core/ir/node.h"

#include <algorithm>

#include "core/ir/graph.h"

namespace passlab::ir {

namespace {
void removeUse(Value* v, Node* n, int index) {
  if (v == nullptr) return;
  auto& uses = const_cast<std::vector<Use>&>(v->uses());
  // Search from the back: nodes are usually detached in reverse creation order.
  for (auto it = uses.rbegin(); it != uses.rend(); ++it) {
    if (it->node == n && it->inputIndex == index) {
      uses.erase(std::next(it).base());
      return;
    }
  }
}
void addUse(Value* v, Node* n, int index) {
  if (v != nullptr) const_cast<std::vector<Use>&>(v->uses()).push_back({n, index});
}
}  // namespace

std::string Node::qualifiedOpType() const {
  return domain_.empty() ? opType_ : domain_ + "." + opType_;
}

void Node::setInput(size_t i, Value* v) {
  if (i >= inputs_.size()) inputs_.resize(i + 1, nullptr);
  if (inputs_[i] == v) return;
  removeUse(inputs_[i], this, static_cast<int>(i));
  inputs_[i] = v;
  addUse(v, this, static_cast<int>(i));
}

void Node::addInput(Value* v) {
  inputs_.push_back(v);
  addUse(v, this, static_cast<int>(inputs_.size() - 1));
}

void Node::removeLastInput() {
  if (inputs_.empty()) return;
  removeUse(inputs_.back(), this, static_cast<int>(inputs_.size() - 1));
  inputs_.pop_back();
}

void Node::replaceInput(Value* from, Value* to) {
  for (size_t i = 0; i < inputs_.size(); ++i)
    if (inputs_[i] == from) setInput(i, to);
}

const Attribute* Node::attr(std::string_view name) const {
  for (const auto& a : attrs_)
    if (a.name() == name) return &a;
  return nullptr;
}

Attribute* Node::attr(std::string_view name) {
  for (auto& a : attrs_)
    if (a.name() == name) return &a;
  return nullptr;
}

void Node::setAttr(Attribute a) {
  for (auto& existing : attrs_) {
    if (existing.name() == a.name()) {
      existing = std::move(a);
      if (owner_) {
        if (existing.g) owner_->adoptSubgraph(this, existing.g.get());
        for (auto& g : existing.graphs) owner_->adoptSubgraph(this, g.get());
      }
      return;
    }
  }
  attrs_.push_back(std::move(a));
  auto& added = attrs_.back();
  if (owner_) {
    if (added.g) owner_->adoptSubgraph(this, added.g.get());
    for (auto& g : added.graphs) owner_->adoptSubgraph(this, g.get());
  }
}

bool Node::removeAttr(std::string_view name) {
  auto it = std::find_if(attrs_.begin(), attrs_.end(),
                         [&](const Attribute& a) { return a.name() == name; });
  if (it == attrs_.end()) return false;
  attrs_.erase(it);
  return true;
}

int64_t Node::attrInt(std::string_view name, int64_t fallback) const {
  const Attribute* a = attr(name);
  return a && a->type() == AttrType::kInt ? a->i : fallback;
}

float Node::attrFloat(std::string_view name, float fallback) const {
  const Attribute* a = attr(name);
  return a && a->type() == AttrType::kFloat ? a->f : fallback;
}

std::string Node::attrString(std::string_view name, std::string fallback) const {
  const Attribute* a = attr(name);
  return a && a->type() == AttrType::kString ? a->s : fallback;
}

std::vector<int64_t> Node::attrInts(std::string_view name, std::vector<int64_t> fallback) const {
  const Attribute* a = attr(name);
  return a && a->type() == AttrType::kInts ? a->ints : fallback;
}

std::vector<float> Node::attrFloats(std::string_view name, std::vector<float> fallback) const {
  const Attribute* a = attr(name);
  return a && a->type() == AttrType::kFloats ? a->floats : fallback;
}

std::vector<Graph*> Node::subgraphs() const {
  std::vector<Graph*> out;
  for (const auto& a : attrs_) {
    if (a.g) out.push_back(a.g.get());
    for (const auto& g : a.graphs) out.push_back(g.get());
  }
  return out;
}

bool Node::hasSubgraphs() const {
  for (const auto& a : attrs_)
    if (a.g || !a.graphs.empty()) return true;
  return false;
}

std::string Node::describe() const {
  std::string s = qualifiedOpType();
  if (!name_.empty()) s += " '" + name_ + "'";
  return s + " (#" + std::to_string(id_) + ")";
}

}  // namespace passlab::ir
