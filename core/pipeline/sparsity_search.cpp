#include "core/pipeline/sparsity_search.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/analysis/sparsity.h"
#include "core/passes/residual_stream.h"
#include "core/pipeline/layer_steps.h"
#include "core/pipeline/parallel_trials.h"

namespace passlab::pipeline {

namespace {

constexpr const char* kPass = "prune_magnitude";

std::string ratioText(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", r);
  return buf;
}

struct Outcome : LayerTrial {
  bool changed = false;
};

// `layer` alone at `ratio` on a copy of `model`.
Expected<Outcome> tryRatio(const ir::Model& model, ExecOutputChecker& checker,
                           const AccuracyBudget& budget, const SparsityOptions& options,
                           const SparsityLayer& layer, double ratio) {
  ir::Model copy = model.clone();
  CheckedSteps steps(copy, checker, budget, options.evaluator, options.cancel);
  auto step = steps.run(pruneStep(layer, ratio, options));
  if (!step) return step.error();
  const Step& s = **step;
  Outcome o;
  o.changed = s.changed || (s.rolledBack && s.check.ran);  // a rolled-back step changed it
  if (!s.check.ran) {  // nothing set to zero at this ratio: nothing lost
    o.holds = !s.rolledBack;
    return o;
  }
  o.holds = s.check.passed;
  if (const OutputAccuracy* w = worstOutput(s.check.accuracy)) o.snrDb = w->snrDb;
  return o;
}

// The largest ratio of `layer` holding the budget alone (0: none). `eligible`
// false: the pass leaves the layer even at the largest ratio.
Status searchLayer(const ir::Model& model, ExecOutputChecker& checker, const AccuracyBudget& budget,
                   const SparsityOptions& options, SparsityLayer& layer, bool& eligible) {
  const int steps = options.steps;
  // Step 0 holds (nothing pruned), step `steps` fails (all of it).
  ++layer.trials;
  auto top = tryRatio(model, checker, budget, options, layer, double(steps - 1) / steps);
  if (!top) return top.error();
  eligible = top->changed;
  if (!eligible) return Status::ok();
  HoldBracket b{0, steps, 0};
  if (top->holds) {
    b = {steps - 1, steps, top->snrDb};
  } else {
    b.fails = steps - 1;
    PASSLAB_RETURN_IF_ERROR(narrowBracket(b, [&](int64_t mid) {
      ++layer.trials;
      return tryRatio(model, checker, budget, options, layer, double(mid) / steps);
    }));
  }
  layer.ratio = double(b.holds) / steps;
  layer.snrDb = b.holds > 0 ? b.snrDb : 0;
  return Status::ok();
}

std::map<ir::NodeId, analysis::LayerSparsity> layersById(const ir::Model& model) {
  std::map<ir::NodeId, analysis::LayerSparsity> out;
  for (analysis::LayerSparsity& l : analysis::sparsityReport(model)) out.emplace(l.node, l);
  return out;
}

// The layers of each residual stream merged into one candidate: the first
// keeps its place, the others go into its `stream`.
void groupStreams(const ir::Model& model, std::vector<SparsityLayer>& layers) {
  std::map<ir::NodeId, size_t> at;
  for (size_t i = 0; i < layers.size(); ++i) at.emplace(layers[i].node, i);
  std::vector<char> merged(layers.size(), 0);
  for (const passes::residual::Stream& s :
       passes::residual::residualStreams(model.graph(), model.opsetVersion("").value_or(1))) {
    std::vector<size_t> members;
    for (const ir::Node* n : s.layers)
      if (auto it = at.find(n->id()); it != at.end()) members.push_back(it->second);
    if (members.size() < 2) continue;
    SparsityLayer& first = layers[members[0]];
    for (size_t j = 1; j < members.size(); ++j) {
      const SparsityLayer& other = layers[members[j]];
      first.stream.push_back(other.node);
      first.weights += other.weights;
      first.zerosBefore += other.zerosBefore;
      first.zerosAfter += other.zerosAfter;
      merged[members[j]] = 1;
    }
    first.describe =
        Text::of("%1 + %2 stream layers", first.describe, std::to_string(members.size() - 1)).str();
  }
  std::vector<SparsityLayer> out;
  for (size_t i = 0; i < layers.size(); ++i)
    if (!merged[i]) out.push_back(std::move(layers[i]));
  layers = std::move(out);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> pruneOptions(const SparsityOptions& options,
                                                              double ratio) {
  return {{"sparsity", ratioText(ratio)},
          {"pattern", options.pattern},
          {"keep_bias", options.keepBias ? "true" : "false"}};
}

PassSpec pruneStep(const SparsityLayer& layer, double ratio, const SparsityOptions& options) {
  PassSpec spec = layerStep(kPass, pruneOptions(options, ratio), layer.node);
  for (ir::NodeId id : layer.stream) spec.filter.only.insert(id);
  return spec;
}

Expected<std::vector<SparsityLayer>> searchSparsity(const ir::Model& model,
                                                    ExecOutputChecker& checker,
                                                    const AccuracyBudget& budget,
                                                    const SparsityOptions& options) {
  if (options.steps < 2 || options.steps > 1000)
    return invalidArgument(
        Text::of("sparsity steps %1 is not between 2 and 1000", std::to_string(options.steps)));
  if (options.pattern != "unstructured" && options.pattern != "channel")
    return invalidArgument(
        Text::of("pattern '%1' has no ratio to choose: it must be unstructured or channel",
                 options.pattern));
  std::vector<SparsityLayer> layers;
  for (const analysis::LayerSparsity& l : analysis::sparsityReport(model)) {
    SparsityLayer s;
    s.node = l.node;
    s.describe = l.describe;
    s.weights = l.elements;
    s.zerosBefore = s.zerosAfter = l.zeros;
    layers.push_back(std::move(s));
  }
  if (options.pattern == "channel") groupStreams(model, layers);
  std::vector<char> eligible(layers.size(), 0);
  TrialPool pool{options.workers, options.cancel, options.progress};
  PASSLAB_RETURN_IF_ERROR(runTrials(layers.size(), pool, [&](size_t i) {
    bool e = false;
    Status s = searchLayer(model, checker, budget, options, layers[i], e);
    eligible[i] = e;
    return s;
  }));
  std::vector<SparsityLayer> out;
  for (size_t i = 0; i < layers.size(); ++i)
    if (eligible[i]) out.push_back(std::move(layers[i]));
  return out;
}

Expected<NumericCheck> applySparsity(ir::Model& model, ExecOutputChecker& checker,
                                     std::vector<SparsityLayer>& layers,
                                     const AccuracyBudget& budget, const SparsityOptions& options) {
  CheckedSteps steps(model, checker, budget, options.evaluator, options.cancel);
  auto last = applyLayersInOrder(
      steps, layers, [](const SparsityLayer& l) { return l.ratio > 0; },
      [](const SparsityLayer& l) { return l.ratio * double(l.weights); },
      [&](const SparsityLayer& l) { return pruneStep(l, l.ratio, options); });
  if (!last) return last.error();
  const auto after = layersById(model);
  for (SparsityLayer& l : layers) {
    l.zerosAfter = 0;
    if (auto it = after.find(l.node); it != after.end()) l.zerosAfter = it->second.zeros;
    for (ir::NodeId id : l.stream)
      if (auto it = after.find(id); it != after.end()) l.zerosAfter += it->second.zeros;
  }
  return last;
}

}  // namespace passlab::pipeline
