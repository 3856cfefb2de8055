#include "core/ir/graph.h"

#include "core/ir/attribute_copy.h"
#include "core/ir/undo_log.h"

#include <algorithm>
#include <stdexcept>

namespace passlab::ir {

Graph::Graph(std::shared_ptr<GraphContext> ctx)
    : ctx_(ctx ? std::move(ctx) : std::make_shared<GraphContext>()) {}

Graph::~Graph() {
  // Detach nodes last-to-first so outer values lose the uses of nested nodes
  // while both are still alive.
  while (!nodes_.empty()) {
    Node* n = nodes_.back().get();
    for (size_t i = n->inputs_.size(); i-- > 0;) n->setInput(i, nullptr);
    nodes_.take(n);  // and destroyed
  }
  for (Value* v : outputs_) v->removeOutputOf(this);
}

Graph* Graph::parent() const {
  return parentNode_ ? parentNode_->owner() : nullptr;
}

Value* Graph::findValue(std::string_view name) const {
  auto it = valueIndex_.find(name);
  return it == valueIndex_.end() ? nullptr : it->second;
}

Value* Graph::lookup(std::string_view name) const {
  for (const Graph* g = this; g != nullptr; g = g->parent())
    if (Value* v = g->findValue(name)) return v;
  return nullptr;
}

Value* Graph::newValue(std::string name) {
  auto v = std::unique_ptr<Value>(new Value());
  v->owner_ = this;
  v->name_ = std::move(name);
  v->denseId_ = ctx_->nextValueId++;
  Value* raw = v.get();
  values_.push_back(std::move(v));
  raw->self_ = std::prev(values_.end());
  if (!raw->name_.empty()) {
    valueIndex_.emplace(raw->name_, raw);
    ctx_->names.insert(raw->name_);
  }
  return raw;
}

void Graph::eraseValue(Value* v, UndoLog* undo) {
  auto it = valueIndex_.find(v->name_);
  if (it != valueIndex_.end() && it->second == v) valueIndex_.erase(it);
  if (undo)
    undo->takeValue(this, v);
  else
    values_.erase(v->self_);
}

Value* Graph::addInput(std::string name, Type type) {
  Value* v = findValue(name);
  if (v == nullptr) v = newValue(std::move(name));
  v->type_ = std::move(type);
  v->isGraphInput_ = true;
  inputs_.push_back(v);
  return v;
}

void Graph::removeInput(Value* v, UndoLog* undo) {
  auto it = std::find(inputs_.begin(), inputs_.end(), v);
  if (it == inputs_.end()) return;
  size_t index = static_cast<size_t>(it - inputs_.begin());
  inputs_.erase(it);
  v->isGraphInput_ = false;
  if (undo) undo->inputRemoved(this, v, index);
  if (!v->isInitializer() && !v->hasUses() && v->producer_ == nullptr && !v->isGraphOutput())
    eraseValue(v, undo);
}

Value* Graph::addInitializer(std::string name, Tensor t) {
  Value* v = findValue(name);
  if (v == nullptr) v = newValue(std::move(name));
  setInitializer(v, std::move(t));
  return v;
}

void Graph::setInitializer(Value* v, Tensor t) {
  if (!v->isInitializer()) initializers_.push_back(v);
  if (!v->isGraphInput_ || v->type_.isUndefined()) v->type_ = Type::tensor(t.dtype(), t.shape());
  if (v->initializer_)
    *v->initializer_ = std::move(t);
  else
    v->initializer_ = std::make_unique<Tensor>(std::move(t));
}

void Graph::removeInitializer(Value* v, UndoLog* undo) {
  auto it = std::find(initializers_.begin(), initializers_.end(), v);
  if (it == initializers_.end()) return;
  size_t index = static_cast<size_t>(it - initializers_.begin());
  initializers_.erase(it);
  if (undo) undo->initializerRemoved(this, v, index);
  v->initializer_.reset();
  if (!v->isGraphInput_ && !v->hasUses() && v->producer_ == nullptr && !v->isGraphOutput())
    eraseValue(v, undo);
}

Value* Graph::addSparseInitializer(std::string name, SparseTensor t) {
  Value* v = findValue(name);
  if (v == nullptr) v = newValue(std::move(name));
  if (!v->type_.isTensor() && !v->isGraphInput_) {
    DataType dt = t.values.dtype();
    v->type_ = Type::tensor(dt, Shape::fromValues(t.dims));
  }
  v->extras().sparseInitializer = std::make_unique<SparseTensor>(std::move(t));
  sparseInitializers_.push_back(v);
  return v;
}

void Graph::addOutput(Value* v) {
  outputs_.push_back(v);
  v->addOutputOf(this);
}

void Graph::setOutput(size_t i, Value* v) {
  Value* old = outputs_.at(i);
  if (old == v) return;
  old->removeOutputOf(this);
  outputs_[i] = v;
  v->addOutputOf(this);
}

void Graph::removeOutput(size_t i) {
  Value* old = outputs_.at(i);
  old->removeOutputOf(this);
  outputs_.erase(outputs_.begin() + static_cast<std::ptrdiff_t>(i));
}

size_t Graph::nodeCountRecursive() const {
  size_t n = 0;
  forEachNodeRecursive([&](Node*) { ++n; });
  return n;
}

Node* Graph::newNode(std::string opType, std::string domain, Node* before) {
  if (before && (before->owner_ != this || before->chunk_ == nullptr))
    throw std::logic_error("addNode: " + before->describe() + " is not in this graph");
  auto n = std::unique_ptr<Node>(new Node());
  n->id_ = ctx_->nextNodeId++;
  n->setOpType(opType);
  n->setDomain(domain);
  n->owner_ = this;
  Node* raw = n.get();
  nodes_.insert(std::move(n), before);
  if (!nodeIndexStale_) nodeIndex_.emplace(raw->id_, raw);
  return raw;
}

Node* Graph::addNode(std::string opType, std::string domain, const std::vector<Value*>& inputs,
                     const std::vector<std::string>& outputNames, Node* before) {
  Node* n = newNode(std::move(opType), std::move(domain), before);
  for (Value* v : inputs) n->addInput(v);
  for (const std::string& name : outputNames) {
    if (name.empty()) {
      n->outputs_.push_back(nullptr);
      continue;
    }
    Value* v = newValue(findValue(name) ? freshName(name) : name);
    v->producer_ = n;
    v->producerIndex_ = static_cast<int>(n->outputs_.size());
    n->outputs_.push_back(v);
  }
  return n;
}

Node* Graph::addNode(std::string opType, std::string domain, const std::vector<Value*>& inputs,
                     size_t numOutputs, Node* before, std::string_view nameHint) {
  std::string hint = nameHint.empty() ? opType : std::string(nameHint);
  std::vector<std::string> names;
  for (size_t i = 0; i < numOutputs; ++i) names.push_back(freshName(hint + "_out"));
  return addNode(std::move(opType), std::move(domain), inputs, names, before);
}

void Graph::removeNode(Node* n, UndoLog* undo) {
  if (n->owner_ != this || n->chunk_ == nullptr)  // another graph's, or removed already
    throw std::logic_error("removeNode: " + n->describe() + " is not in this graph");
  for (Value* out : n->outputs_) {
    if (out && (out->hasUses() || out->isGraphOutput()))
      throw std::logic_error("removeNode: output '" + out->name() + "' of " + n->describe() +
                             " is still used");
  }
  nodeIndexStale_ = true;  // rebuilt by the next findNode
  // The log keeps the node (and the inputs it had) instead of destroying it.
  if (undo) undo->takeNode(this, n);
  for (size_t i = n->inputs_.size(); i-- > 0;) n->setInput(i, nullptr);
  for (Value* out : n->outputs_) {
    if (!out) continue;
    out->producer_ = nullptr;
    if (!out->isGraphInput_ && !out->isInitializer()) eraseValue(out, undo);
  }
  if (!undo) nodes_.take(n);  // and destroyed
}

void Graph::moveBefore(Node* n, Node* pos) {
  // Removed nodes an undo log holds keep their owner but have no place.
  auto placed = [this](const Node* m) { return m->owner_ == this && m->chunk_ != nullptr; };
  if (!placed(n) || (pos && !placed(pos)))
    throw std::logic_error("moveBefore: " + n->describe() +
                           " or its new place is not in this graph");
  nodes_.move(n, pos);
}

Node* Graph::findNode(NodeId id) const {
  // The lock lets several readers call this at once; editing the graph while
  // anyone reads it is still not allowed.
  std::lock_guard<std::mutex> lock(nodeIndexMutex_);
  if (nodeIndexStale_) {
    nodeIndex_.clear();
    nodeIndex_.reserve(nodes_.size());
    for (const auto& n : nodes_) nodeIndex_.emplace(n->id_, n.get());
    nodeIndexStale_ = false;
  }
  auto it = nodeIndex_.find(id);
  return it == nodeIndex_.end() ? nullptr : it->second;
}

void Graph::adoptSubgraph(Node* owner, Graph* sub) {
  sub->parentNode_ = owner;
  if (sub->ctx_ != ctx_) sub->joinContext(ctx_);
}

// A subgraph built on its own joins the model: its nodes and values (and
// those of its nested subgraphs) get ids from the model's counters and its
// value names enter the model's name set, so no two nodes or values of one
// model share an id and fresh names stay unique.
void Graph::joinContext(const std::shared_ptr<GraphContext>& ctx) {
  ctx_ = ctx;
  for (auto& v : values_) {
    v->denseId_ = ctx_->nextValueId++;
    if (!v->name_.empty()) ctx_->names.insert(v->name_);
  }
  nodeIndex_.clear();
  for (auto& n : nodes_) {
    n->id_ = ctx_->nextNodeId++;
    nodeIndex_.emplace(n->id_, n.get());
    for (Graph* g : n->subgraphs()) g->joinContext(ctx);
  }
  nodeIndexStale_ = false;
}

void Graph::replaceAllUsesWith(Value* from, Value* to) {
  if (from == to) return;
  std::vector<Use> uses = from->uses_;
  for (const Use& u : uses) u.node->setInput(static_cast<size_t>(u.inputIndex), to);
  std::vector<Graph*> graphs = from->outputOf();
  for (Graph* g : graphs)
    for (size_t i = 0; i < g->outputs_.size(); ++i)
      if (g->outputs_[i] == from) g->setOutput(i, to);
}

std::string Graph::freshName(std::string_view hint) {
  std::string base = hint.empty() ? std::string("v") : std::string(hint);
  if (!ctx_->names.count(base)) return base;
  while (true) {
    std::string candidate = base + "_" + std::to_string(++ctx_->nameCounter);
    if (!ctx_->names.count(candidate)) return candidate;
  }
}

bool Graph::renameValue(Value* v, std::string newName) {
  if (v->name_ == newName) return true;
  if (lookup(newName) != nullptr) return false;
  Graph* g = v->owner_;
  auto it = g->valueIndex_.find(v->name_);
  if (it != g->valueIndex_.end() && it->second == v) g->valueIndex_.erase(it);
  v->name_ = std::move(newName);
  g->valueIndex_.emplace(v->name_, v);
  ctx_->names.insert(v->name_);
  return true;
}

void Graph::removeValue(Value* v) {
  if (v->producer_ || v->hasUses() || v->isGraphInput_ || v->isInitializer() ||
      !!v->isGraphOutput())
    throw std::logic_error("removeValue: '" + v->name() + "' is still referenced");
  eraseValue(v);
}

namespace {
// Values of `g` read by nodes of `n`'s subgraphs (implicit inputs of n).
void collectOuterReads(const Node* n, const Graph* g, std::vector<Value*>& out) {
  for (Graph* sub : n->subgraphs()) {
    sub->forEachNodeRecursive([&](Node* inner) {
      for (Value* v : inner->inputs())
        if (v && v->owner() == g) out.push_back(v);
    });
  }
}
}  // namespace

bool Graph::sortTopologically() {
  // Depth-first, visiting nodes in their current order, so an already sorted
  // graph keeps its order exactly. O(nodes + edges).
  enum : uint8_t { kNew, kActive, kDone };
  std::unordered_map<const Node*, uint8_t> state;
  state.reserve(nodes_.size());
  std::vector<Node*> order;
  order.reserve(nodes_.size());
  auto deps = [&](const Node* n) {
    std::vector<Value*> vals(n->inputs_.begin(), n->inputs_.end());
    if (n->hasSubgraphs()) collectOuterReads(n, this, vals);
    std::vector<Node*> out;
    for (Value* v : vals)
      if (v && v->producer_ && v->producer_->owner_ == this) out.push_back(v->producer_);
    return out;
  };
  struct Frame {
    Node* node;
    std::vector<Node*> deps;
    size_t next;
  };
  for (const auto& start : nodes_) {
    if (state[start.get()] != kNew) continue;
    std::vector<Frame> stack;
    stack.push_back({start.get(), deps(start.get()), 0});
    state[start.get()] = kActive;
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next < f.deps.size()) {
        Node* d = f.deps[f.next++];
        uint8_t s = state[d];
        if (s == kActive) return false;  // cycle
        if (s == kNew) {
          state[d] = kActive;
          stack.push_back({d, deps(d), 0});
        }
        continue;
      }
      state[f.node] = kDone;
      order.push_back(f.node);
      stack.pop_back();
    }
  }
  nodes_.reorder(order);
  return true;
}

void Graph::forEachNodeRecursive(const std::function<void(Node*)>& f) const {
  for (const auto& n : nodes_) {
    f(n.get());
    if (n->hasSubgraphs())
      for (Graph* sub : n->subgraphs()) sub->forEachNodeRecursive(f);
  }
}

std::unique_ptr<Graph> Graph::clone() const {
  auto ctx = parentNode_ ? ctx_ : std::make_shared<GraphContext>(*ctx_);
  auto dst = std::make_unique<Graph>(ctx);
  std::unordered_map<const Value*, Value*> map;
  cloneInto(*dst, map);
  return dst;
}

void Graph::cloneInto(Graph& dst, std::unordered_map<const Value*, Value*>& map) const {
  dst.name_ = name_;
  dst.docString_ = docString_;
  dst.unknownFields_ = unknownFields_;
  dst.metadata_ = metadata_;
  dst.quantAnnotations_ = quantAnnotations_;
  for (const auto& v : values_) {
    Value* nv = dst.newValue(v->name_);
    nv->type_ = v->type_;
    nv->isGraphInput_ = v->isGraphInput_;
    nv->declaredInValueInfo_ = v->declaredInValueInfo_;
    if (v->initializer_) nv->initializer_ = std::make_unique<Tensor>(*v->initializer_);
    // Not outputOf: the clone's graphs list their own outputs (and a value
    // whose extras held only that gets none).
    if (v->extras_ && (v->extras_->sparseInitializer || !v->extras_->docString.empty() ||
                       !v->extras_->metadata.empty())) {
      Value::Extras& e = nv->extras();
      if (v->extras_->sparseInitializer)
        e.sparseInitializer = std::make_unique<SparseTensor>(*v->extras_->sparseInitializer);
      e.docString = v->extras_->docString;
      e.metadata = v->extras_->metadata;
    }
    map[v.get()] = nv;
  }
  auto mapped = [&](Value* v) -> Value* {
    if (!v) return nullptr;
    auto it = map.find(v);
    return it == map.end() ? v : it->second;  // outer scope outside the clone: same value
  };
  for (Value* v : inputs_) dst.inputs_.push_back(mapped(v));
  for (Value* v : initializers_) dst.initializers_.push_back(mapped(v));
  for (Value* v : sparseInitializers_) dst.sparseInitializers_.push_back(mapped(v));
  for (const auto& n : nodes_) {
    auto nn = std::unique_ptr<Node>(new Node());
    Node* raw = nn.get();
    raw->id_ = n->id_;
    raw->name_ = n->name_;
    raw->opType_ = n->opType_;
    raw->domain_ = n->domain_;
    if (n->extras_) raw->extras_ = std::make_unique<Node::Extras>(*n->extras_);
    raw->owner_ = &dst;
    dst.nodes_.insert(std::move(nn), nullptr);
    dst.nodeIndex_.emplace(raw->id_, raw);
    for (Value* in : n->inputs_) raw->addInput(mapped(in));
    for (Value* out : n->outputs_) {
      Value* no = mapped(out);
      if (no) {
        no->producer_ = raw;
        no->producerIndex_ = static_cast<int>(raw->outputs_.size());
      }
      raw->outputs_.push_back(no);
    }
    for (const Attribute& a : n->attrs_) {
      Attribute na(a.name(), a.type());
      copyAttributeData(a, na);
      auto cloneSub = [&](const Graph& sub) {
        auto g = std::make_unique<Graph>(dst.ctx_);
        g->parentNode_ = raw;
        sub.cloneInto(*g, map);
        return g;
      };
      if (a.g) na.g = cloneSub(*a.g);
      for (const auto& g : a.graphs) na.graphs.push_back(cloneSub(*g));
      raw->attrs_.push_back(std::move(na));
      raw->forgetSubgraphFlag();
    }
  }
  for (Value* v : outputs_) dst.addOutput(mapped(v));
}

Node* findNodeRecursive(const Graph& g, NodeId id) {
  if (Node* n = g.findNode(id)) return n;
  for (const auto& n : g.nodes())
    for (Graph* sub : n->subgraphs())
      if (Node* found = findNodeRecursive(*sub, id)) return found;
  return nullptr;
}

}  // namespace passlab::ir
