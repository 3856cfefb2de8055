#include "core/ir/undo_log.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

namespace passlab::ir {

UndoLog::~UndoLog() {
  commit();
}

std::vector<UndoLog::OuterRead> UndoLog::cutOuterReads(const std::vector<Graph*>& subgraphs) {
  std::unordered_set<const Graph*> inside;
  std::vector<Graph*> work(subgraphs.begin(), subgraphs.end());
  while (!work.empty()) {
    Graph* g = work.back();
    work.pop_back();
    if (!inside.insert(g).second) continue;
    for (const auto& n : g->nodes())
      for (Graph* sub : n->subgraphs()) work.push_back(sub);
  }
  std::vector<OuterRead> reads;
  for (const Graph* g : inside)
    for (const auto& n : g->nodes())
      for (size_t i = 0; i < n->inputs().size(); ++i) {
        Value* v = n->inputs()[i];
        if (v && !inside.count(v->owner())) reads.push_back({n.get(), i, v});
      }
  for (const Graph* g : inside)
    for (size_t i = 0; i < g->outputs().size(); ++i) {
      Value* v = g->outputs()[i];
      if (v && !inside.count(v->owner())) reads.push_back({nullptr, i, v, const_cast<Graph*>(g)});
    }
  for (const OuterRead& r : reads) {
    if (r.node) {
      r.node->setInput(r.index, nullptr);
    } else {
      auto& of = r.value->outputOf_;
      auto it = std::find(of.begin(), of.end(), r.graph);
      if (it != of.end()) of.erase(it);
    }
  }
  return reads;
}

void UndoLog::restoreOuterReads(const std::vector<OuterRead>& reads) {
  for (const OuterRead& r : reads) {
    if (r.node)
      r.node->setInput(r.index, r.value);
    else
      r.value->outputOf_.push_back(r.graph);
  }
}

void UndoLog::dropOuterOutputs(const std::vector<OuterRead>& reads) {
  // The outer value may be gone by now; the subgraph must not touch it when freed.
  for (const OuterRead& r : reads)
    if (!r.node) {
      auto& outs = r.graph->outputs_;
      outs.erase(std::remove(outs.begin(), outs.end(), r.value), outs.end());
    }
}

void UndoLog::nodeAdded(Node* n) {
  records_.push_back({Kind::kNodeAdded, n->owner(), n});
}

void UndoLog::inputSet(Node* n, size_t index, Value* old) {
  Record r{Kind::kInputSet, n->owner(), n, old};
  r.index = index;
  records_.push_back(std::move(r));
}

void UndoLog::attrAboutToChange(Node* n, const std::string& name) {
  Record r{Kind::kAttr, n->owner(), n};
  r.name = name;
  auto& attrs = n->attrs_;
  auto it = std::find_if(attrs.begin(), attrs.end(),
                         [&](const Attribute& a) { return a.name() == name; });
  if (it != attrs.end()) {
    // Keep the old attribute here; leave a placeholder of the same name so the
    // edit that follows replaces it in place (or removes it).
    r.index = static_cast<size_t>(it - attrs.begin());
    std::vector<Graph*> subs;
    if (it->g) subs.push_back(it->g.get());
    for (auto& g : it->graphs) subs.push_back(g.get());
    r.outerReads = cutOuterReads(subs);
    r.attr = std::make_unique<Attribute>(std::move(*it));
    *it = Attribute::makeInt(name, 0);
  }
  records_.push_back(std::move(r));
}

void UndoLog::typeSet(Value* v, Type old) {
  Record r{Kind::kType, v->owner(), nullptr, v};
  r.type = std::make_unique<Type>(std::move(old));
  records_.push_back(std::move(r));
}

void UndoLog::outputSet(Graph* g, size_t index, Value* old) {
  Record r{Kind::kOutputSet, g, nullptr, old};
  r.index = index;
  records_.push_back(std::move(r));
}

void UndoLog::renamed(Value* v, std::string oldName) {
  Record r{Kind::kRenamed, v->owner(), nullptr, v};
  r.name = std::move(oldName);
  records_.push_back(std::move(r));
}

void UndoLog::initializerAdded(Value* v) {
  records_.push_back({Kind::kInitializerAdded, v->owner(), nullptr, v});
}

void UndoLog::initializerAboutToChange(Value* v) {
  Record r{Kind::kInitializerChanged, v->owner(), nullptr, v};
  r.flag = v->initializer_ != nullptr;
  if (r.flag) r.tensor = std::make_unique<Tensor>(*v->initializer_);
  r.type = std::make_unique<Type>(v->type_);
  records_.push_back(std::move(r));
}

void UndoLog::takeNode(Graph* g, Node* n, std::vector<Value*> inputs) {
  Record r{Kind::kNodeRemoved, g, n};
  r.values = std::move(inputs);
  r.outerReads = cutOuterReads(n->subgraphs());
  r.nodePos = std::next(n->self_);
  removedNodes_.splice(removedNodes_.end(), g->nodes_, n->self_);
  records_.push_back(std::move(r));
}

void UndoLog::takeValue(Graph* g, Value* v) {
  Record r{Kind::kValueRemoved, g, nullptr, v};
  r.valuePos = std::next(v->self_);
  removedValues_.splice(removedValues_.end(), g->values_, v->self_);
  records_.push_back(std::move(r));
}

void UndoLog::inputRemoved(Graph* g, Value* v, size_t index) {
  Record r{Kind::kInputRemoved, g, nullptr, v};
  r.index = index;
  records_.push_back(std::move(r));
}

void UndoLog::initializerRemoved(Graph* g, Value* v, size_t index) {
  Record r{Kind::kInitializerRemoved, g, nullptr, v};
  r.index = index;
  r.tensor = std::move(v->initializer_);  // the caller drops it next
  records_.push_back(std::move(r));
}

void UndoLog::undoOne(Record& r) {
  Graph* g = r.graph;
  switch (r.kind) {
    case Kind::kNodeAdded:
      g->removeNode(r.node);
      break;
    case Kind::kNodeRemoved: {
      Node* n = r.node;
      g->nodes_.splice(r.nodePos, removedNodes_, n->self_);
      g->nodeIndex_.emplace(n->id_, n);
      for (Value* out : n->outputs_)
        if (out) out->producer_ = n;
      for (size_t i = 0; i < r.values.size(); ++i)
        if (r.values[i]) n->setInput(i, r.values[i]);
      restoreOuterReads(r.outerReads);
      r.outerReads.clear();  // restored: nothing left to drop on commit
      break;
    }
    case Kind::kValueRemoved: {
      Value* v = r.value;
      g->values_.splice(r.valuePos, removedValues_, v->self_);
      if (!v->name_.empty()) g->valueIndex_.emplace(v->name_, v);
      break;
    }
    case Kind::kInputSet:
      r.node->setInput(r.index, r.value);
      break;
    case Kind::kAttr: {
      auto& attrs = r.node->attrs_;
      auto it = std::find_if(attrs.begin(), attrs.end(),
                             [&](const Attribute& a) { return a.name() == r.name; });
      if (!r.attr) {  // the attribute was added
        if (it != attrs.end()) attrs.erase(it);
        break;
      }
      if (it != attrs.end() && static_cast<size_t>(it - attrs.begin()) == r.index) {
        *it = std::move(*r.attr);
      } else {
        if (it != attrs.end()) attrs.erase(it);
        size_t at = std::min(r.index, attrs.size());
        attrs.insert(attrs.begin() + static_cast<std::ptrdiff_t>(at), std::move(*r.attr));
      }
      restoreOuterReads(r.outerReads);
      r.outerReads.clear();  // restored: nothing left to drop on commit
      break;
    }
    case Kind::kType:
      r.value->type_ = std::move(*r.type);
      break;
    case Kind::kOutputSet:
      g->setOutput(r.index, r.value);
      break;
    case Kind::kRenamed:
      if (!g->renameValue(r.value, r.name))
        throw std::logic_error("undo: cannot rename '" + r.value->name() + "' back to '" + r.name +
                               "'");
      break;
    case Kind::kInitializerAdded:
      g->removeInitializer(r.value);
      break;
    case Kind::kInitializerChanged: {
      Value* v = r.value;
      if (r.flag) {
        v->initializer_ = std::move(r.tensor);
      } else {
        auto& inits = g->initializers_;
        auto it = std::find(inits.rbegin(), inits.rend(), v);
        if (it != inits.rend()) inits.erase(std::next(it).base());
        v->initializer_.reset();
      }
      v->type_ = std::move(*r.type);
      break;
    }
    case Kind::kInputRemoved: {
      auto& ins = g->inputs_;
      ins.insert(ins.begin() + static_cast<std::ptrdiff_t>(std::min(r.index, ins.size())), r.value);
      r.value->isGraphInput_ = true;
      break;
    }
    case Kind::kInitializerRemoved: {
      auto& inits = g->initializers_;
      inits.insert(inits.begin() + static_cast<std::ptrdiff_t>(std::min(r.index, inits.size())),
                   r.value);
      r.value->initializer_ = std::move(r.tensor);
      break;
    }
  }
}

void UndoLog::undo() {
  for (size_t i = records_.size(); i-- > 0;) undoOne(records_[i]);
  commit();
}

void UndoLog::commit() {
  // Everything held here was cut from the values it read, so the order in
  // which it is freed does not matter.
  for (const Record& r : records_) dropOuterOutputs(r.outerReads);
  records_.clear();
  removedValues_.clear();
  removedNodes_.clear();
}

}  // namespace passlab::ir
