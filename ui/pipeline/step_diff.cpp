#include "ui/pipeline/step_diff.h"

#include <algorithm>
#include <unordered_set>

#include "ui/document/document.h"
#include "ui/pipeline/pipeline_session.h"

namespace passlab::ui {

namespace {

// The main-graph node standing for `n` (itself, or the node owning its body).
ir::Node* topLevel(const ir::Graph& main, ir::Node* n) {
  while (n != nullptr && n->owner() != &main) n = n->owner() ? n->owner()->parentNode() : nullptr;
  return n;
}

}  // namespace

StepDiff buildStepDiff(const AppliedStep& applied) {
  StepDiff d;
  const rewrite::EditSummary& sum = applied.step.summary;
  d.model = std::make_unique<ir::Model>(applied.after->clone());
  ir::Graph& g = d.model->graph();
  const ir::Graph& before = applied.before->graph();
  d.added = sum.added.size();
  d.removed = sum.removed.size();
  d.rewired = sum.rewired.size();
  d.attributesChanged = sum.attributeChanged.size();

  auto mark = [&](ir::NodeId id, DiffMark m) {
    ir::Node* n = ir::findNodeRecursive(g, id);
    ir::Node* top = topLevel(g, n);
    if (top == nullptr) return;
    // Inside a body, the owner shows it, as a change of its own.
    DiffMark shown = top == n ? m : DiffMark::kChanged;
    DiffMark& slot = d.marks[top->id()];
    // A node added by the Step stays "added" when it is also rewired later in it.
    if (slot == DiffMark::kAdded || slot == DiffMark::kRemoved) return;
    slot = slot == DiffMark::kNone ? shown : combineDiff(slot, shown);
  };
  for (ir::NodeId id : sum.added) mark(id, DiffMark::kAdded);
  for (ir::NodeId id : sum.rewired) mark(id, DiffMark::kChanged);
  for (ir::NodeId id : sum.attributeChanged) mark(id, DiffMark::kChanged);
  // Readers of an initializer whose data changed were rewritten too.
  for (const std::string& name : sum.initializersChanged)
    if (ir::Value* v = g.findValue(name))
      for (const auto& use : v->uses())
        if (use.node) mark(use.node->id(), DiffMark::kChanged);

  // Ghosts of the removed nodes, in the before graph's order (so a ghost's
  // inputs exist when it is made), reading the same values where they still exist.
  std::unordered_set<ir::NodeId> removed(sum.removed.begin(), sum.removed.end());
  std::unordered_map<const ir::Value*, ir::Value*> values;  // before -> diff model
  // Each ghost goes where its node was: before the next node of the graph
  // before the Step that still exists (groups and blocks follow graph order).
  std::unordered_map<ir::NodeId, ir::Node*> placeBefore;
  {
    ir::Node* next = nullptr;
    for (auto it = before.nodes().rbegin(); it != before.nodes().rend(); ++it) {
      if (removed.count((*it)->id()))
        placeBefore[(*it)->id()] = next;
      else if (ir::Node* kept = g.findNode((*it)->id()))
        next = kept;
    }
  }
  size_t ghosts = 0;
  for (const auto& n : before.nodes()) {
    if (!removed.count(n->id())) continue;
    std::vector<ir::Value*> ins;
    for (ir::Value* v : n->inputs()) {
      ir::Value* here = nullptr;
      if (v != nullptr) {
        if (auto it = values.find(v); it != values.end()) {
          here = it->second;
        } else if ((here = g.findValue(v->name())) == nullptr && v->isInitializer()) {
          here = g.addInitializer(v->name(), *v->initializer());  // shares the data
        } else if (here == nullptr && v->isGraphInput()) {
          here = g.addInput(v->name(), v->type());
        }
        if (here) values[v] = here;
      }
      ins.push_back(here);
    }
    std::vector<std::string> outs;
    for (ir::Value* o : n->outputs()) outs.push_back(o ? o->name() : std::string());
    ir::Node* ghost = g.addNode(n->opType(), n->domain(), ins, outs, placeBefore[n->id()]);
    ghost->setName(n->name());
    for (const ir::Attribute& a : n->attributes())
      if (auto copy = copyAttribute(a)) ghost->setAttr(std::move(*copy));
    for (size_t i = 0; i < n->outputs().size(); ++i)
      if (ir::Value* o = n->output(i); o && ghost->output(i)) {
        ghost->output(i)->setType(o->type());
        values[o] = ghost->output(i);
      }
    d.ghostOf[ghost->id()] = n->id();
    d.marks[ghost->id()] = DiffMark::kRemoved;
    ++ghosts;
  }
  d.removedInBodies = d.removed - ghosts;
  for (auto it = d.marks.begin(); it != d.marks.end();)
    it = it->second == DiffMark::kNone ? d.marks.erase(it) : std::next(it);
  // Where the view goes first: graph order, each ghost next to the node
  // producing what it read (ghosts were appended at the end of the graph).
  std::unordered_map<ir::NodeId, double> rank;
  double i = 0;
  for (const auto& n : g.nodes()) rank[n->id()] = i++;
  std::vector<std::pair<double, ir::NodeId>> order;
  for (const auto& n : g.nodes()) {
    if (!d.marks.count(n->id())) continue;
    double r = rank[n->id()];
    if (d.ghostOf.count(n->id()))
      for (ir::Value* v : n->inputs())
        if (v && v->producer() && !d.ghostOf.count(v->producer()->id())) {
          r = rank[v->producer()->id()] + 0.5;
          break;
        }
    order.emplace_back(r, n->id());
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [r, id] : order) d.changedNodes.push_back(id);
  return d;
}

}  // namespace passlab::ui
