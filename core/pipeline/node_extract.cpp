#include "core/pipeline/node_extract.h"

#include <map>
#include <set>

#include "core/analysis/shape_inference.h"
#include "core/exec/input_types.h"
#include "core/pipeline/pass_manager.h"

namespace passlab::pipeline {

namespace {

// Values the group reads that come from outside it and hold no weights.
std::vector<ir::Value*> outsideInputs(const std::set<const ir::Node*>& group, const ir::Graph& g) {
  std::vector<ir::Value*> out;
  std::set<ir::Value*> seen;
  for (const auto& n : g.nodes()) {
    if (!group.count(n.get())) continue;
    for (ir::Value* v : n->inputs()) {
      if (!v || v->isInitializer() || (v->producer() && group.count(v->producer()))) continue;
      if (seen.insert(v).second) out.push_back(v);
    }
  }
  return out;
}

// Values the group makes that are read outside it or are graph outputs.
std::vector<ir::Value*> groupOutputs(const std::set<const ir::Node*>& group, const ir::Graph& g) {
  std::set<const ir::Value*> graphOutputs(g.outputs().begin(), g.outputs().end());
  std::vector<ir::Value*> out;
  for (const auto& n : g.nodes()) {
    if (!group.count(n.get())) continue;
    for (ir::Value* v : n->outputs()) {
      if (!v) continue;
      bool outside = graphOutputs.count(v) > 0;
      for (const auto& use : v->uses()) outside = outside || !group.count(use.node);
      if (outside) out.push_back(v);
    }
  }
  return out;
}

}  // namespace

ir::Model exposeAllValues(const ir::Model& m, std::vector<std::string>* order) {
  ir::Model c = m.clone();
  ir::Graph& g = c.graph();
  std::vector<ir::Value*> add;
  for (const auto& n : g.nodes())
    for (ir::Value* v : n->outputs())
      if (v && !v->isGraphOutput() && (v->type().isTensor() || v->type().isUndefined()))
        add.push_back(v);
  for (ir::Value* v : add) g.addOutput(v);
  if (order)
    for (const auto& n : g.nodes())
      for (ir::Value* v : n->outputs())
        if (v) order->push_back(v->name());
  return c;
}

ir::Model withRunShapes(const ir::Model& model, const exec::NamedInputs& inputs) {
  ir::Model copy = model.clone();
  exec::bindInputTypes(copy, inputs);
  analysis::inferShapes(copy);
  return copy;
}

Expected<ir::Model> extractNodes(const ir::Model& shaped, const std::vector<ir::NodeId>& nodes) {
  ir::Model m = shaped.clone();
  ir::Graph& g = m.graph();
  std::set<const ir::Node*> group;
  for (ir::NodeId id : nodes) {
    const ir::Node* n = g.findNode(id);
    if (!n)
      return invalidArgument(Text::of("node #%1 is not in the main graph", std::to_string(id)));
    group.insert(n);
  }
  const std::vector<ir::Value*> ins = outsideInputs(group, g);
  const std::vector<ir::Value*> outs = groupOutputs(group, g);
  for (ir::Value* v : ins)
    if (!v->type().isTensor() || !v->type().hasShape())
      return unsupported(
          Text::of("the type of '%1' is not known; cannot cut the nodes out", v->name()));
  // The outside values become fresh graph inputs of the same type (named
  // after them once their producers are gone, below).
  std::map<const ir::Value*, std::string> boundary;
  for (ir::Value* v : ins) {
    ir::Value* in = g.addInput(g.freshName(v->name() + "_in"), v->type());
    g.replaceAllUsesWith(v, in);
    boundary.emplace(in, v->name());
  }
  while (!g.outputs().empty()) g.removeOutput(g.outputs().size() - 1);
  for (ir::Value* v : outs) g.addOutput(v);
  // Everything else is dead now: sweep it, then the inputs nobody reads.
  PipelineOptions po;
  po.standardOnly = false;
  po.keepSnapshots = false;
  PassManager pm(m, po);
  PASSLAB_RETURN_IF_ERROR(pm.runAll({{"eliminate_dead_nodes", {}, {}}}));
  std::vector<ir::Value*> unused;
  for (ir::Value* v : g.inputs())
    if (v->uses().empty() && !v->isInitializer()) unused.push_back(v);
  for (ir::Value* v : unused) g.removeInput(v);
  if (g.nodeCount() != group.size())
    return internalError(Text::of("cutting out %1 nodes left %2", std::to_string(group.size()),
                                  std::to_string(g.nodeCount())));
  // The boundary inputs take the names of the values they stand for, so a
  // cut-out can be fed the values its whole model computes (by name). Only
  // inputs still in the graph are looked up (a removed one is gone).
  for (ir::Value* in : std::vector<ir::Value*>(g.inputs()))
    if (auto it = boundary.find(in); it != boundary.end() && !g.findValue(it->second))
      g.renameValue(in, it->second);
  return m;
}

}  // namespace passlab::pipeline
