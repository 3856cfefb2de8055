#include "core/ir/undo_log.h"

#include "core/ir/deferred_free.h"

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
    if (r.node)
      r.node->setInput(r.index, nullptr);
    else
      r.value->removeOutputOf(r.graph);
  }
  return reads;
}

void UndoLog::restoreOuterReads(const std::vector<OuterRead>& reads) {
  for (const OuterRead& r : reads) {
    if (r.node)
      r.node->setInput(r.index, r.value);
    else
      r.value->addOutputOf(r.graph);
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

UndoLog::Record& UndoLog::add(Kind kind, Graph* g, Node* n, Value* v) {
  Record& r = records_.emplace_back();
  r.kind = kind;
  r.graph = g;
  r.node = n;
  r.value = v;
  return r;
}

void UndoLog::nodeAdded(Node* n) {
  add(Kind::kNodeAdded, n->owner(), n, nullptr);
}

void UndoLog::inputSet(Node* n, size_t index, Value* old) {
  Record& r = add(Kind::kInputSet, n->owner(), n, old);
  r.index = index;
  // Before the edit (the Rewriter records first): an input set past the end
  // grows the list, and undoing it must shrink it back.
  r.inputCount = static_cast<uint32_t>(n->inputs_.size());
}

void UndoLog::attrAboutToChange(Node* n, const std::string& name) {
  Record& r = add(Kind::kAttr, n->owner(), n, nullptr);
  r.extra().name = name;
  n->forgetSubgraphFlag();
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
    if (!subs.empty()) nestedNodesChanged_ = true;  // a subgraph leaves with the old value
    r.payload->outerReads = cutOuterReads(subs);
    r.payload->attr = std::make_unique<Attribute>(std::move(*it));
    *it = Attribute::makeInt(name, 0);
  }
}

void UndoLog::typeSet(Value* v, Type old) {
  add(Kind::kType, v->owner(), nullptr, v).extra().type = std::make_unique<Type>(std::move(old));
}

void UndoLog::outputSet(Graph* g, size_t index, Value* old) {
  add(Kind::kOutputSet, g, nullptr, old).index = index;
}

void UndoLog::renamed(Value* v, std::string oldName) {
  add(Kind::kRenamed, v->owner(), nullptr, v).extra().name = std::move(oldName);
}

void UndoLog::initializerAdded(Value* v) {
  add(Kind::kInitializerAdded, v->owner(), nullptr, v);
}

void UndoLog::initializerAboutToChange(Value* v) {
  Record& r = add(Kind::kInitializerChanged, v->owner(), nullptr, v);
  r.flag = v->initializer_ != nullptr;
  if (r.flag) r.extra().tensor = std::make_unique<Tensor>(*v->initializer_);
  r.extra().type = std::make_unique<Type>(v->type_);
}

void UndoLog::takeNode(Graph* g, Node* n) {
  const std::vector<Value*>& inputs = n->inputs_;
  std::vector<OuterRead> outerReads;
  // Scanned, not the cached flag: a node holding a subgraph must never be
  // freed on another thread (deferred_free.h), whatever a stale flag says.
  const bool nested = n->scanForSubgraphs();
  n->subgraphFlag_.store(nested ? Node::kYes : Node::kNo, std::memory_order_relaxed);
  if (nested) {
    outerReads = cutOuterReads(n->subgraphs());
    nestedNodesChanged_ = true;
  }
  --removedOps_[{n->domainKey(), n->opTypeKey()}];
  Record& r = add(Kind::kNodeRemoved, g, n, nullptr);
  r.index = removedInputs_.size();
  r.inputCount = static_cast<uint32_t>(inputs.size());
  removedInputs_.insert(removedInputs_.end(), inputs.begin(), inputs.end());
  if (!outerReads.empty()) r.extra().outerReads = std::move(outerReads);
  // Undo runs last to first, so when this record is undone the graph is
  // as it was just after the removal, and the successor is in it again.
  r.nodeSuccessor = g->nodes_.next(n);
  r.flag = nested;
  auto& held = r.flag ? removedNestedNodes_ : removedNodes_;
  held.push_back(g->nodes_.take(n));
}

void UndoLog::takeValue(Graph* g, Value* v) {
  Record& r = add(Kind::kValueRemoved, g, nullptr, v);
  r.valuePos = std::next(v->self_);
  removedValues_.splice(removedValues_.end(), g->values_, v->self_);
}

void UndoLog::inputRemoved(Graph* g, Value* v, size_t index) {
  add(Kind::kInputRemoved, g, nullptr, v).index = index;
}

void UndoLog::initializerRemoved(Graph* g, Value* v, size_t index) {
  Record& r = add(Kind::kInitializerRemoved, g, nullptr, v);
  r.index = index;
  r.extra().tensor = std::move(v->initializer_);  // the caller drops it next
}

void UndoLog::undoOne(Record& r) {
  Graph* g = r.graph;
  switch (r.kind) {
    case Kind::kNodeAdded:
      g->removeNode(r.node);
      break;
    case Kind::kNodeRemoved: {
      Node* n = r.node;
      auto& held = r.flag ? removedNestedNodes_ : removedNodes_;
      // The last one held (undo runs last to first); searched to be safe.
      auto it = std::find_if(held.rbegin(), held.rend(),
                             [n](const std::unique_ptr<Node>& h) { return h.get() == n; });
      if (it == held.rend()) throw std::logic_error("UndoLog: a removed node is not held");
      g->nodes_.insert(std::move(*it), r.nodeSuccessor);
      held.erase(std::next(it).base());
      if (!g->nodeIndexStale_) g->nodeIndex_.emplace(n->id_, n);
      for (Value* out : n->outputs_)
        if (out) out->producer_ = n;
      for (uint32_t i = 0; i < r.inputCount; ++i)
        if (Value* in = removedInputs_[r.index + i]) n->setInput(i, in);
      if (r.payload) {
        restoreOuterReads(r.payload->outerReads);
        r.payload->outerReads.clear();  // restored: nothing left to drop on commit
      }
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
      while (r.node->inputs_.size() > r.inputCount && !r.node->inputs_.back()) {
        r.node->inputs_.pop_back();
        r.node->useSlots_.pop_back();
      }
      break;
    case Kind::kAttr: {
      Payload& p = *r.payload;
      r.node->forgetSubgraphFlag();
      auto& attrs = r.node->attrs_;
      auto it = std::find_if(attrs.begin(), attrs.end(),
                             [&](const Attribute& a) { return a.name() == p.name; });
      if (!p.attr) {  // the attribute was added
        if (it != attrs.end()) attrs.erase(it);
        break;
      }
      if (it != attrs.end() && static_cast<size_t>(it - attrs.begin()) == r.index) {
        *it = std::move(*p.attr);
      } else {
        if (it != attrs.end()) attrs.erase(it);
        size_t at = std::min(r.index, attrs.size());
        attrs.insert(attrs.begin() + static_cast<std::ptrdiff_t>(at), std::move(*p.attr));
      }
      restoreOuterReads(p.outerReads);
      p.outerReads.clear();  // restored: nothing left to drop on commit
      break;
    }
    case Kind::kType:
      r.value->type_ = std::move(*r.payload->type);
      break;
    case Kind::kOutputSet:
      g->setOutput(r.index, r.value);
      break;
    case Kind::kRenamed:
      if (!g->renameValue(r.value, r.payload->name))
        throw std::logic_error("undo: cannot rename '" + r.value->name() + "' back to '" +
                               r.payload->name + "'");
      break;
    case Kind::kInitializerAdded:
      g->removeInitializer(r.value);
      break;
    case Kind::kInitializerChanged: {
      Value* v = r.value;
      if (r.flag) {
        v->initializer_ = std::move(r.payload->tensor);
      } else {
        auto& inits = g->initializers_;
        auto it = std::find(inits.rbegin(), inits.rend(), v);
        if (it != inits.rend()) inits.erase(std::next(it).base());
        v->initializer_.reset();
      }
      v->type_ = std::move(*r.payload->type);
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
      r.value->initializer_ = std::move(r.payload->tensor);
      break;
    }
  }
}

absl::flat_hash_set<const Node*> UndoLog::touchedNodes() const {
  absl::flat_hash_set<const Node*> touched, removed;
  std::vector<const Graph*> subgraphs;
  auto add = [&](const Node* n) {
    if (!n || !touched.insert(n).second) return;
    if (n->hasSubgraphs())
      for (Graph* g : n->subgraphs()) subgraphs.push_back(g);
  };
  auto addValue = [&](const Value* v) {
    add(v->producer());
    for (const Use& u : v->uses()) add(u.node);
  };
  for (const Record& r : records_) switch (r.kind) {
      case Kind::kNodeAdded:
      case Kind::kInputSet:
      case Kind::kAttr:
        add(r.node);
        break;
      case Kind::kType:
      case Kind::kInitializerAdded:
      case Kind::kInitializerChanged:
      case Kind::kInitializerRemoved:
      case Kind::kInputRemoved:
        addValue(r.value);
        break;
      case Kind::kNodeRemoved:
        removed.insert(r.node);
        break;
      case Kind::kRenamed:  // schema messages name the value
        addValue(r.value);
        break;
      case Kind::kValueRemoved:
      case Kind::kOutputSet:
        break;  // structure only (structureFootprint)
    }
  // A touched node's subgraphs are checked throughout (they may have
  // arrived with it or with an attribute).
  while (!subgraphs.empty()) {
    const Graph* g = subgraphs.back();
    subgraphs.pop_back();
    for (const auto& n : g->nodes()) add(n.get());
  }
  for (const Node* n : removed) touched.erase(n);
  return touched;
}

UndoLog::StructureFootprint UndoLog::structureFootprint() const {
  StructureFootprint out;
  for (const Record& r : records_) switch (r.kind) {
      case Kind::kInputSet:  // the value the input read before
        if (r.value) out.values.push_back(r.value);
        break;
      case Kind::kNodeRemoved:  // its inputs lost a use each
        for (uint32_t i = 0; i < r.inputCount; ++i)
          if (const Value* in = removedInputs_[r.index + i]) out.values.push_back(in);
        break;
      case Kind::kValueRemoved:
      case Kind::kInitializerAdded:  // a second producer?
      case Kind::kInitializerChanged:
      case Kind::kInitializerRemoved:
      case Kind::kInputRemoved:
        out.values.push_back(r.value);
        break;
      case Kind::kOutputSet:
        out.outputsSet.push_back(r.graph);
        if (r.value) out.values.push_back(r.value);
        break;
      case Kind::kNodeAdded:  // the nodes are touchedNodes()
      case Kind::kAttr:
      case Kind::kType:
      case Kind::kRenamed:
        break;
    }
  return out;
}

std::optional<absl::flat_hash_map<UndoLog::OpKey, int64_t>> UndoLog::opCountDelta() const {
  if (nestedNodesChanged_) return std::nullopt;
  absl::flat_hash_map<OpKey, int64_t> delta = removedOps_;
  // Added nodes are read now, not when recorded: the pass may have given
  // them their attributes (a subgraph too) after creating them. Scanned, not
  // the cached flag, as a count that is off would stay off for the session.
  // A re-attributed node that holds a subgraph now may have gained it.
  for (const Record& r : records_)
    if (r.kind == Kind::kNodeAdded || r.kind == Kind::kAttr) {
      if (r.node->scanForSubgraphs()) return std::nullopt;
      if (r.kind == Kind::kNodeAdded) ++delta[{r.node->domainKey(), r.node->opTypeKey()}];
    }
  return delta;
}

void UndoLog::undo() {
  for (size_t i = records_.size(); i-- > 0;) undoOne(records_[i]);
  commit();
}

void UndoLog::commit() {
  // Everything held here was cut from the values it read, so the order in
  // which it is freed does not matter.
  for (const Record& r : records_)
    if (r.payload) dropOuterOutputs(r.payload->outerReads);
  records_.clear();
  removedOps_.clear();
  nestedNodesChanged_ = false;
  removedInputs_.clear();
  removedNestedNodes_.clear();
  freeRemoved(removedNodes_, removedValues_);
}

}  // namespace passlab::ir
