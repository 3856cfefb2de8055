#include "core/rewrite/rewriter.h"

#include <stdexcept>

namespace passlab::rewrite {

Rewriter::Rewriter(ir::Model& model, EditLog& log, Provenance* provenance, std::string passId)
    : model_(model), log_(log), provenance_(provenance), passId_(std::move(passId)) {}

void Rewriter::record(EditKind kind, ir::NodeId node, ir::NodeId graphOwner, int index,
                      std::string from, std::string to, std::string detail) {
  log_.record({kind, node, graphOwner, index, std::move(from), std::move(to), std::move(detail)});
}

ir::Node* Rewriter::addNode(ir::Graph& graph, std::string opType, std::string domain,
                            const std::vector<ir::Value*>& inputs, size_t numOutputs,
                            ir::Node* before, std::string name,
                            const std::vector<const ir::Node*>& derivedFrom) {
  std::string hint = name.empty() ? opType : name;
  ir::Graph& g = before ? *before->owner() : graph;
  ir::Node* n = g.addNode(opType, std::move(domain), inputs, numOutputs, before, hint);
  n->setName(uniqueNodeName(g, name.empty() ? g.freshName(hint) : name));
  if (undo_) undo_->nodeAdded(n);
  typesMayChange_ = true;
  record(EditKind::kNodeAdded, n->id(), ownerId(g), -1, "", "", n->opType());
  if (provenance_) {
    std::vector<ir::NodeId> from;
    for (const ir::Node* d : derivedFrom) from.push_back(d->id());
    if (!from.empty()) provenance_->recordDerived(n->id(), from, passId_);
  }
  return n;
}

std::string Rewriter::uniqueNodeName(const ir::Graph& g, std::string wanted) {
  auto [it, fresh] = nodeNames_.try_emplace(&g);
  std::unordered_set<std::string>& names = it->second;
  if (fresh)
    for (const auto& n : g.nodes())
      if (!n->name().empty()) names.insert(n->name());
  std::string name = wanted;
  for (int k = 1; names.count(name); ++k) name = wanted + "_" + std::to_string(k);
  names.insert(name);
  return name;
}

void Rewriter::removeNode(ir::Node* node) {
  ir::Graph* g = node->owner();
  record(EditKind::kNodeRemoved, node->id(), ownerId(*g), -1, "", "", node->opType());
  g->removeNode(node, undo_);
}

size_t Rewriter::eraseIfDead(ir::Node* node) {
  size_t removed = 0;
  std::vector<ir::Node*> work{node};
  while (!work.empty()) {
    ir::Node* n = work.back();
    work.pop_back();
    bool dead = true;
    for (ir::Value* out : n->outputs())
      if (out && (out->hasUses() || out->isGraphOutput())) dead = false;
    if (!dead) continue;
    std::vector<ir::Node*> producers;
    for (ir::Value* in : n->inputs())
      if (in && in->producer() && in->producer()->owner() == n->owner())
        producers.push_back(in->producer());
    removeNode(n);
    ++removed;
    for (ir::Node* p : producers)
      if (std::find(work.begin(), work.end(), p) == work.end()) work.push_back(p);
  }
  return removed;
}

void Rewriter::setInput(ir::Node* node, size_t index, ir::Value* value) {
  ir::Value* old = node->input(index);
  if (old == value) return;
  noteRewire(old, value);
  record(EditKind::kInputRewired, node->id(), ownerId(*node->owner()), static_cast<int>(index),
         old ? old->name() : "", value ? value->name() : "");
  if (undo_) undo_->inputSet(node, index, old);  // first: it notes the input count before
  node->setInput(index, value);
}

void Rewriter::noteRewire(const ir::Value* from, const ir::Value* to) {
  if (typesMayChange_) return;
  auto contentsReadable = [&](const ir::Value* v) {
    if (v->isInitializer()) return true;
    const ir::Node* p = v->producer();
    if (p && p->opType() == "Constant" && p->domain().empty()) return true;
    size_t id = v->denseId();
    return id >= knownContents_->size() || (*knownContents_)[id];
  };
  const bool floatTensor =
      from && to && from->type().isTensor() && ir::isFloatingPoint(from->type().elemType());
  if (!knownContents_ || !floatTensor || !(from->type() == to->type()) || contentsReadable(from) ||
      contentsReadable(to))
    typesMayChange_ = true;
}

void Rewriter::setAttr(ir::Node* node, ir::Attribute attr) {
  typesMayChange_ = true;
  record(EditKind::kAttributeChanged, node->id(), ownerId(*node->owner()), -1, "", "", attr.name());
  if (undo_) undo_->attrAboutToChange(node, attr.name());
  node->setAttr(std::move(attr));
}

bool Rewriter::removeAttr(ir::Node* node, const std::string& name) {
  if (!node->hasAttr(name)) return false;
  typesMayChange_ = true;
  record(EditKind::kAttributeChanged, node->id(), ownerId(*node->owner()), -1, "", "", name);
  if (undo_) undo_->attrAboutToChange(node, name);
  return node->removeAttr(name);
}

Text Rewriter::canReplace(const ir::Value* from, const ir::Value* to) {
  if (from == to) return "a value cannot replace itself";
  if (!to)
    return from->isGraphOutput()
               ? Text::of("'%1' is a graph output and cannot be replaced by nothing", from->name())
               : Text();
  bool mainOutput = false;
  for (const ir::Graph* g : from->outputOf())
    if (!g->parentNode()) mainOutput = true;
  if (!mainOutput) return "";
  // `to` must be able to take the output's name.
  if (to->isGraphInput() || to->isInitializer() || !to->producer())
    return Text::of(
        "'%1' is a model output and '%2' is a model input or constant, so the output would be "
        "renamed",
        from->name(), to->name());
  if (to->isGraphOutput())
    return Text::of("'%1' and '%2' are both model outputs", from->name(), to->name());
  if (to->owner()->parentNode()) return Text::of("'%1' lives in a subgraph", to->name());
  return "";
}

namespace {

// `to` as subgraph `g` may return it in place of `from`: itself, or an
// Identity of it when it is a value of an outer scope (ONNX Runtime refuses
// a subgraph returning an outer value directly).
ir::Value* returnableIn(Rewriter& rw, ir::Graph& g, const ir::Value* from, ir::Value* to) {
  if (!g.parentNode() || !to || to->owner() == &g) return to;
  std::vector<const ir::Node*> derivedFrom;
  if (from->producer()) derivedFrom.push_back(from->producer());
  ir::Node* id = rw.addNode(g, "Identity", "", {to}, 1, nullptr, "", derivedFrom);
  rw.setType(id->output(0), from->type().isUndefined() ? to->type() : from->type());
  return id->output(0);
}

}  // namespace

void Rewriter::replaceAllUsesWith(ir::Value* from, ir::Value* to) {
  if (from == to) return;
  // A null `to` leaves node inputs omitted (as setInput does), but a graph
  // cannot return nothing: refused before any edit is made.
  if (!to && from->isGraphOutput())
    throw std::logic_error(
        Text::of("replaceAllUsesWith: '%1' is a graph output and cannot be replaced by nothing",
                 from->name())
            .str());
  std::vector<ir::Use> uses = from->uses();
  // As setInput, with the type comparison made once for all the uses.
  if (!uses.empty()) noteRewire(from, to);
  for (const ir::Use& u : uses) {
    const size_t index = static_cast<size_t>(u.inputIndex);
    record(EditKind::kInputRewired, u.node->id(), ownerId(*u.node->owner()),
           static_cast<int>(index), from->name(), to ? to->name() : "");
    u.node->setInput(index, to);
    if (undo_) undo_->inputSet(u.node, index, from);
  }
  std::vector<ir::Graph*> graphs = from->outputOf();
  bool mainOutput = false;
  for (ir::Graph* g : graphs) {
    if (!g->parentNode()) mainOutput = true;
    for (size_t i = 0; i < g->outputs().size(); ++i)
      if (g->outputs()[i] == from) setGraphOutput(*g, i, returnableIn(*this, *g, from, to));
  }
  if (mainOutput) {
    // Keep the model's output name: `to` takes it, `from` gets a fresh one.
    std::string keep = from->name();
    ir::Graph& g = *from->owner();
    std::string tmp = g.freshName(keep + "_replaced");
    std::string toOld = to->name();
    if (g.renameValue(from, tmp) && undo_) undo_->renamed(from, keep);
    if (to->owner()->renameValue(to, keep) && undo_) undo_->renamed(to, toOld);
    record(EditKind::kValueRenamed, to->producer() ? to->producer()->id() : 0,
           ownerId(*to->owner()), -1, toOld, keep);
    if (!from->type().isUndefined() && to->type().isUndefined()) setType(to, from->type());
  }
}

void Rewriter::setType(ir::Value* value, ir::Type type) {
  typesMayChange_ = true;
  if (undo_) undo_->typeSet(value, value->type());
  value->setType(std::move(type));
}

ir::Value* Rewriter::addInitializer(ir::Graph& graph, const std::string& nameHint,
                                    ir::Tensor tensor) {
  typesMayChange_ = true;
  std::string name = graph.freshName(nameHint.empty() ? "const" : nameHint);
  tensor.setName(name);
  ir::Value* v = graph.addInitializer(name, std::move(tensor));
  if (undo_) undo_->initializerAdded(v);
  record(EditKind::kInitializerAdded, 0, ownerId(graph), -1, "", name);
  return v;
}

void Rewriter::setInitializer(ir::Value* value, ir::Tensor tensor) {
  typesMayChange_ = true;
  record(EditKind::kInitializerChanged, 0, ownerId(*value->owner()), -1, value->name(),
         value->name());
  if (undo_) undo_->initializerAboutToChange(value);
  value->owner()->setInitializer(value, std::move(tensor));
}

void Rewriter::removeInitializer(ir::Value* value) {
  if (value->hasUses() || value->isGraphOutput())
    throw std::logic_error(Text::of("removeInitializer: '%1' is still used", value->name()).str());
  record(EditKind::kInitializerRemoved, 0, ownerId(*value->owner()), -1, value->name(), "");
  ir::Graph* g = value->owner();
  if (value->isGraphInput()) g->removeInput(value, undo_);
  g->removeInitializer(value, undo_);
}

void Rewriter::freezeInitializer(ir::Value* value) {
  if (!value->isInitializer() || !value->isGraphInput()) return;
  typesMayChange_ = true;
  record(EditKind::kInitializerChanged, 0, ownerId(*value->owner()), -1, value->name(),
         value->name(), "no longer a graph input");
  raiseIrVersion(4);
  value->owner()->removeInput(value, undo_);
}

void Rewriter::raiseIrVersion(int64_t version) {
  if (model_.irVersion < version) model_.irVersion = version;
}

void Rewriter::setGraphOutput(ir::Graph& graph, size_t index, ir::Value* value) {
  ir::Value* old = graph.outputs().at(index);
  if (old == value) return;
  noteRewire(old, value);
  record(EditKind::kGraphOutputRewired, 0, ownerId(graph), static_cast<int>(index), old->name(),
         value->name());
  graph.setOutput(index, value);
  if (undo_) undo_->outputSet(&graph, index, old);
}

void Rewriter::setOpsetVersion(const std::string& domain, int64_t version) {
  const std::optional<int64_t> old = model_.opsetVersion(domain);
  if (old == version) return;
  record(EditKind::kOpsetChanged, 0, 0, -1, old ? std::to_string(*old) : "",
         std::to_string(version), domain.empty() ? "ai.onnx" : domain);
  model_.setOpsetVersion(domain, version);
}

}  // namespace passlab::rewrite
