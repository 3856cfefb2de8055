#include "core/pipeline/sparsity_search.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/analysis/sparsity.h"
#include "core/pipeline/parallel_trials.h"
#include "core/pipeline/pass_manager.h"

namespace passlab::pipeline {

namespace {

constexpr const char* kPass = "prune_magnitude";

std::string ratioText(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", r);
  return buf;
}

// One step of the pass on `pm`'s model for `layer` at `ratio`.
Expected<const Step*> pruneStep(PassManager& pm, const SparsityLayer& layer, double ratio,
                                const SparsityOptions& options) {
  rewrite::NodeFilter only;
  only.only.insert(layer.node);
  return pm.run({kPass, pruneOptions(options, ratio), std::move(only)});
}

struct Outcome {
  bool changed = false, holds = false;
  double snrDb = 0;
};

// `layer` alone at `ratio` on a copy of `model`.
Expected<Outcome> tryRatio(const ir::Model& model, ExecOutputChecker& checker,
                           const AccuracyBudget& budget, const SparsityOptions& options,
                           const SparsityLayer& layer, double ratio) {
  ir::Model copy = model.clone();
  PipelineOptions po;
  po.keepSnapshots = false;
  po.budget = budget;
  PassManager pm(copy, po);
  pm.setChecker(&checker);
  pm.setEvaluator(options.evaluator);
  pm.setCancelFlag(options.cancel);
  auto step = pruneStep(pm, layer, ratio, options);
  if (!step) return step.error();
  const Step& s = **step;
  if (s.rolledBack && !s.check.ran) return Error(ErrorCode::kInternal, s.error);
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
  // Invariant: step lo holds (0: nothing pruned), step hi fails (steps: all of it).
  int lo = 0, hi = steps;
  ++layer.trials;
  auto top = tryRatio(model, checker, budget, options, layer, double(steps - 1) / steps);
  if (!top) return top.error();
  eligible = top->changed;
  if (!eligible) return Status::ok();
  double snr = top->snrDb;
  if (top->holds) {
    lo = steps - 1;
  } else {
    hi = steps - 1;
    snr = 0;
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      ++layer.trials;
      auto t = tryRatio(model, checker, budget, options, layer, double(mid) / steps);
      if (!t) return t.error();
      if (t->holds) {
        lo = mid;
        snr = t->snrDb;
      } else {
        hi = mid;
      }
    }
  }
  layer.ratio = double(lo) / steps;
  layer.snrDb = lo > 0 ? snr : 0;
  return Status::ok();
}

std::map<ir::NodeId, analysis::LayerSparsity> layersById(const ir::Model& model) {
  std::map<ir::NodeId, analysis::LayerSparsity> out;
  for (analysis::LayerSparsity& l : analysis::sparsityReport(model)) out.emplace(l.node, l);
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> pruneOptions(const SparsityOptions& options,
                                                              double ratio) {
  return {{"sparsity", ratioText(ratio)},
          {"pattern", options.pattern},
          {"keep_bias", options.keepBias ? "true" : "false"}};
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
  std::vector<SparsityLayer*> order;
  for (SparsityLayer& l : layers) {
    l.applied = false;
    l.step = 0;
    if (l.ratio > 0) order.push_back(&l);
  }
  auto pruned = [](const SparsityLayer* l) { return l->ratio * double(l->weights); };
  std::stable_sort(order.begin(), order.end(),
                   [&](const auto* a, const auto* b) { return pruned(a) > pruned(b); });
  PipelineOptions po;
  po.keepSnapshots = false;
  po.budget = budget;
  PassManager pm(model, po);
  pm.setChecker(&checker);
  pm.setEvaluator(options.evaluator);
  pm.setCancelFlag(options.cancel);
  NumericCheck last;
  int applied = 0;
  for (SparsityLayer* l : order) {
    auto step = pruneStep(pm, *l, l->ratio, options);
    if (!step) return step.error();
    const Step& s = **step;
    if (s.rolledBack && !s.check.ran) return Error(ErrorCode::kInternal, s.error);
    if (s.rolledBack) continue;  // over budget with the others: stays dense
    l->applied = s.changed;
    if (l->applied) l->step = ++applied;
    if (s.check.ran) last = s.check;
  }
  const auto after = layersById(model);
  for (SparsityLayer& l : layers)
    if (auto it = after.find(l.node); it != after.end()) l.zerosAfter = it->second.zeros;
  return last;
}

}  // namespace passlab::pipeline
