#include "core/pipeline/node_benchmark.h"

#include <algorithm>

#include "core/exec/executor.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/node_extract.h"
#include "core/pipeline/noise_floor.h"

namespace passlab::pipeline {

namespace {

const ir::Node* findByName(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes())
    if (n->name() == name) return n.get();
  return nullptr;
}

Expected<ProfileResult> profileStandalone(const ir::Model& model, const ProfileRequest& request) {
  ProfileRequest r = request;
  r.model = &model;
  r.given.clear();
  r.inputs.fixed.clear();
  r.inputs.dims.clear();
  return profileModel(r);
}

// Runs both cut-out models on the inputs made up for `original` (the fused
// node reads the same boundary values) and compares their outputs by position.
Expected<double> outputDifference(const ir::Model& original, const ir::Model& fused) {
  auto inputs = makeInputs(original, {});
  if (!inputs) return inputs.error();
  // The same values by name; where the cut-outs name their boundary values
  // differently, by position when both take the same number of inputs.
  exec::NamedInputs fusedInputs;
  const auto& wanted = fused.graph().inputs();
  for (size_t i = 0; i < wanted.size(); ++i) {
    const exec::Value* given = nullptr;
    for (const auto& [name, value] : *inputs)
      if (name == wanted[i]->name()) given = &value;
    if (!given && wanted.size() == inputs->size()) given = &(*inputs)[i].second;
    if (!given) return -1.0;
    fusedInputs.emplace_back(wanted[i]->name(), *given);
  }
  auto a = exec::Executor::create(original);
  if (!a) return a.error();
  auto b = exec::Executor::create(fused);
  if (!b) return b.error();
  auto ra = (*a)->run(*inputs);
  if (!ra) return ra.error();
  auto rb = (*b)->run(fusedInputs);
  if (!rb) return -1.0;  // the inputs do not correspond
  if (ra->outputs.size() != rb->outputs.size()) return -1.0;
  double worst = 0;
  for (size_t i = 0; i < ra->outputs.size(); ++i) {
    const double d = passlab::pipeline::maxAbsDifference(ra->outputs[i], rb->outputs[i]);
    if (d < 0) return -1.0;
    worst = std::max(worst, d);
  }
  return worst;
}

}  // namespace

Expected<NodeBenchmark> benchmarkNode(const ProfileRequest& request,
                                      const OptimizedModel& optimized,
                                      const std::string& nodeName) {
  if (!request.model) return invalidArgument("no original model");
  const ir::Node* node = findByName(optimized.model.graph(), nodeName);
  if (!node) return invalidArgument("the optimized model has no node named '" + nodeName + "'");
  auto run = prepareRun(*request.model, request);
  if (!run) return run.error();
  NodeBenchmark out;
  out.node = nodeName;
  out.op = node->domain().empty() ? node->opType() : node->domain() + "." + node->opType();
  const std::vector<ir::NodeId> origins = optimized.provenance.origins(node->id());
  const ir::Model shapedOriginal = withRunShapes(*request.model, run->inputs);
  const ir::Model shapedOptimized = withRunShapes(optimized.model, run->inputs);
  for (ir::NodeId id : origins) {
    const ir::Node* n = shapedOriginal.graph().findNode(id);
    out.originalLabels.push_back(n && !n->name().empty() ? n->name() : "#" + std::to_string(id));
  }
  auto cutNew = extractNodes(shapedOptimized, {node->id()});
  if (!cutNew) return cutNew.error().withContext("cutting out '" + nodeName + "'");
  auto cutOld = extractNodes(shapedOriginal, origins);
  if (!cutOld)
    return cutOld.error().withContext("cutting out the original nodes of '" + nodeName + "'");
  auto newTimes = profileStandalone(*cutNew, request);
  if (!newTimes) return newTimes.error().withContext("'" + nodeName + "' alone");
  auto oldTimes = profileStandalone(*cutOld, request);
  if (!oldTimes) return oldTimes.error().withContext("the original nodes of '" + nodeName + "'");
  auto difference = outputDifference(*cutOld, *cutNew);
  if (!difference)
    return difference.error().withContext("'" + nodeName + "' against its original nodes");
  out.maxAbsDifference = *difference;
  out.optimized = std::move(newTimes.value());
  out.original = std::move(oldTimes.value());
  const double after = out.optimized.latency.medianMs;
  out.speedup = after > 0 ? out.original.latency.medianMs / after : 0;
  return out;
}

}  // namespace passlab::pipeline
