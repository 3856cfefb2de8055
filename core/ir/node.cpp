#include "core/ir/node.h"

#include <absl/container/node_hash_set.h>

#include <algorithm>
#include <mutex>

#include "core/ir/graph.h"

namespace passlab::ir {

const std::string& internOpName(std::string_view name) {
  // Never destroyed: nodes of static models may outlive any static table.
  static auto* table = new absl::node_hash_set<std::string>();
  static auto* mutex = new std::mutex();
  std::lock_guard<std::mutex> lock(*mutex);
  return *table->emplace(name).first;
}

Node::Node() {
  static const std::string* const empty = &internOpName("");
  opType_ = empty;
  domain_ = empty;
}

namespace {
const std::string kNoString;
const std::vector<std::pair<std::string, std::string>> kNoMetadata;
}  // namespace

Node::Extras& Node::extras() {
  if (!extras_) extras_ = std::make_unique<Extras>();
  return *extras_;
}

const std::string& Node::overload() const {
  return extras_ ? extras_->overload : kNoString;
}
void Node::setOverload(std::string o) {
  if (o.empty() && !extras_) return;
  extras().overload = std::move(o);
}
const std::string& Node::docString() const {
  return extras_ ? extras_->docString : kNoString;
}
void Node::setDocString(std::string s) {
  if (s.empty() && !extras_) return;
  extras().docString = std::move(s);
}
const std::string& Node::unknownFields() const {
  return extras_ ? extras_->unknownFields : kNoString;
}
void Node::setUnknownFields(std::string b) {
  if (b.empty() && !extras_) return;
  extras().unknownFields = std::move(b);
}
const std::vector<std::pair<std::string, std::string>>& Node::metadata() const {
  return extras_ ? extras_->metadata : kNoMetadata;
}

std::string Node::qualifiedOpType() const {
  return domain_->empty() ? *opType_ : *domain_ + "." + *opType_;
}

void Node::attachUse(size_t i) {
  Value* v = inputs_[i];
  if (v == nullptr) return;
  useSlots_[i] = static_cast<uint32_t>(v->uses_.size());
  v->uses_.push_back({this, static_cast<int>(i)});
}

void Node::detachUse(size_t i) {
  Value* v = inputs_[i];
  if (v == nullptr) return;
  std::vector<Use>& uses = v->uses_;
  const Use mine{this, static_cast<int>(i)};
  size_t slot = useSlots_[i];
  if (slot >= uses.size() || !(uses[slot] == mine)) {  // not expected; stay correct anyway
    auto it = std::find(uses.begin(), uses.end(), mine);
    if (it == uses.end()) return;
    slot = static_cast<size_t>(it - uses.begin());
  }
  // Swap with the last Use: O(1), and use lists carry no order anyone relies on.
  const Use last = uses.back();
  uses[slot] = last;
  last.node->useSlots_[static_cast<size_t>(last.inputIndex)] = static_cast<uint32_t>(slot);
  uses.pop_back();
}

void Node::setInput(size_t i, Value* v) {
  if (i >= inputs_.size()) {
    inputs_.resize(i + 1, nullptr);
    useSlots_.resize(i + 1, 0);
  }
  if (inputs_[i] == v) return;
  detachUse(i);
  inputs_[i] = v;
  attachUse(i);
}

void Node::addInput(Value* v) {
  inputs_.push_back(v);
  useSlots_.push_back(0);
  attachUse(inputs_.size() - 1);
}

void Node::removeLastInput() {
  if (inputs_.empty()) return;
  detachUse(inputs_.size() - 1);
  inputs_.pop_back();
  useSlots_.pop_back();
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
  forgetSubgraphFlag();  // the caller may attach a graph through it
  for (auto& a : attrs_)
    if (a.name() == name) return &a;
  return nullptr;
}

void Node::setAttr(Attribute a) {
  forgetSubgraphFlag();
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
  forgetSubgraphFlag();
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
  if (!hasSubgraphs()) return out;
  for (const auto& a : attrs_) {
    if (a.g) out.push_back(a.g.get());
    for (const auto& g : a.graphs) out.push_back(g.get());
  }
  return out;
}

bool Node::scanForSubgraphs() const {
  for (const auto& a : attrs_)
    if (a.g || !a.graphs.empty()) return true;
  return false;
}

std::string Node::label() const {
  std::string s = qualifiedOpType();
  if (!name_.empty()) s += " '" + name_ + "'";
  return s;
}

std::string Node::describe() const {
  return label() + " (#" + std::to_string(id_) + ")";
}

}  // namespace passlab::ir
