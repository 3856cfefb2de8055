#include "core/pipeline/low_rank_latency.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/passes/fusion_utils.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/node_extract.h"
#include "core/pipeline/pass_manager.h"

namespace passlab::pipeline {

namespace {

constexpr const char* kPass = "factorize_low_rank";

// `runs` runs of `ex` on `inputs`: milliseconds per run.
Expected<double> timeRuns(exec::Executor& ex, const exec::NamedInputs& inputs, int runs,
                          int threads) {
  exec::RunOptions o;
  o.threads = threads;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) {
    auto r = ex.run(inputs, o);
    if (!r) return r.error();
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
             .count() /
         runs;
}

}  // namespace

bool slowerThanDense(double denseMs, double thinMs, double margin) {
  return thinMs > denseMs * (1 + margin);
}

Expected<LayerTimes> timeLayerAlone(const ir::Model& shaped, const LowRankLayer& layer,
                                    const LowRankLatencyOptions& options) {
  // The layer with the Constant nodes that give it weights (paddle2onnx
  // writes every weight so): cut alone, such a weight would be a graph input
  // of the cut, no constant to factorize. In the cut they become
  // initializers, as the weights of other models are, so neither side runs them.
  std::vector<ir::NodeId> group{layer.node};
  if (const ir::Node* n = shaped.graph().findNode(layer.node))
    for (const ir::Value* in : n->inputs())
      if (const ir::Node* p = in ? in->producer() : nullptr;
          p && p->opType() == "Constant" && p->domain().empty())
        group.push_back(p->id());
  auto cut = extractNodes(shaped, group);
  if (!cut) return cut.error();
  if (group.size() > 1) {
    PipelineOptions po;
    po.keepSnapshots = false;
    PassManager pm(*cut, po);
    auto step =
        pm.run(PassSpec{"fold_constants", {{"constant_nodes_to_initializers", "true"}}, {}});
    if (!step) return step.error();
  }
  ir::Model thin = cut->clone();
  {
    PipelineOptions po;
    po.keepSnapshots = false;
    PassManager pm(thin, po);
    auto step = pm.run(PassSpec{
        kPass,
        {{"rank", std::to_string(layer.rank)}, {"min_saving", std::to_string(options.minSaving)}},
        {}});
    if (!step) return step.error();
    if (!(*step)->changed)
      return Error(ErrorCode::kInternal, Text::of("%1: not factorized at rank %2 when cut out",
                                                  layer.describe, std::to_string(layer.rank)));
  }
  auto inputs = makeInputs(*cut, {});
  if (!inputs) return inputs.error();
  auto dense = exec::Executor::create(*cut);
  if (!dense) return dense.error();
  auto factored = exec::Executor::create(thin);
  if (!factored) return factored.error();
  exec::Executor &a = **dense, &b = **factored;
  // Warm-up (the first run plans and packs), then the runs per sample.
  int64_t outputNumel = 0;
  {
    exec::RunOptions o;
    o.threads = options.threads;
    auto r = a.run(*inputs, o);
    if (!r) return r.error();
    if (!r->outputs.empty() && r->outputs[0].rank() > 0) outputNumel = r->outputs[0].numel();
  }
  double once = 0;
  for (int i = 0; i < 2; ++i) {
    auto ta = timeRuns(a, *inputs, 1, options.threads);
    if (!ta) return ta.error();
    auto tb = timeRuns(b, *inputs, 1, options.threads);
    if (!tb) return tb.error();
    once = std::max(*ta, *tb);
  }
  const int runs = static_cast<int>(
      std::clamp(std::ceil(options.sampleMs / std::max(once, 1e-4)), 1.0, 10000.0));
  std::vector<double> da, db;
  for (int round = 0; round < std::max(1, options.rounds); ++round) {
    if (options.cancel && options.cancel->load()) return Error(ErrorCode::kCancelled, "cancelled");
    // Alternately first, so neither always runs on the other's warm caches.
    for (int which = 0; which < 2; ++which) {
      const bool denseNow = (round + which) % 2 == 0;
      auto t = timeRuns(denseNow ? a : b, *inputs, runs, options.threads);
      if (!t) return t.error();
      (denseNow ? da : db).push_back(*t);
    }
  }
  return LayerTimes{summarizeTimes(std::move(da)), summarizeTimes(std::move(db)), outputNumel};
}

Status timeLowRankLayers(const ir::Model& model, std::vector<LowRankLayer>& layers,
                         const LowRankLatencyOptions& options, const LayerTimer& timer) {
  auto inputs = makeInputs(model, {});
  if (!inputs) return inputs.error();
  const ir::Model shaped = withRunShapes(model, *inputs);
  for (LowRankLayer& l : layers) {
    l.slower = false;
    l.denseMs = l.thinMs = 0;
    l.rows = 0;
    const ir::Node* n = shaped.graph().findNode(l.node);
    if (!n) continue;
    if (auto d = passes::fusion::dimsOf(n->output(0)); d && l.n > 0) {
      int64_t numel = 1;
      for (int64_t v : *d) numel *= v;
      l.rows = numel / l.n;
    }
    if (l.rank <= 0) continue;
    if (options.cancel && options.cancel->load()) return Error(ErrorCode::kCancelled, "cancelled");
    auto t = timer ? timer(shaped, l) : timeLayerAlone(shaped, l, options);
    if (!t) return t.error();
    l.denseMs = t->dense.medianMs;
    l.thinMs = t->thin.medianMs;
    l.slower = slowerThanDense(l.denseMs, l.thinMs, options.margin);
    if (l.rows == 0 && t->outputNumel > 0 && l.n > 0) l.rows = t->outputNumel / l.n;
  }
  return Status::ok();
}

}  // namespace passlab::pipeline
