#include "core/pipeline/node_benchmark.h"

#include "core/pipeline/node_extract.h"

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
  out.optimized = std::move(newTimes.value());
  out.original = std::move(oldTimes.value());
  const double after = out.optimized.latency.medianMs;
  out.speedup = after > 0 ? out.original.latency.medianMs / after : 0;
  return out;
}

}  // namespace passlab::pipeline
