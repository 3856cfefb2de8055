#include "core/pipeline/low_rank_search.h"

#include <algorithm>
#include <cmath>

#include "core/passes/matrix_weight.h"
#include "core/pipeline/parallel_trials.h"
#include "core/pipeline/pass_manager.h"

namespace passlab::pipeline {

namespace {

constexpr const char* kPass = "factorize_low_rank";

// The layers the pass could take, with their weight's shape and r_max.
std::vector<LowRankLayer> candidates(const ir::Model& model, double minSaving) {
  std::vector<LowRankLayer> out;
  for (const auto& owned : model.graph().nodes()) {
    const ir::Node& n = *owned;
    if (!n.domain().empty() || (n.opType() != "MatMul" && n.opType() != "Gemm")) continue;
    if (!passes::whyNotConstantMatrixWeight(n).empty()) continue;
    const std::vector<int64_t>& d = n.input(1)->initializer()->dims();
    const bool transposed = n.opType() == "Gemm" && n.attrInt("transB", 0) != 0;
    LowRankLayer l;
    l.node = n.id();
    l.describe = n.describe();
    l.k = transposed ? d[1] : d[0];
    l.n = transposed ? d[0] : d[1];
    const double most = (1 - minSaving) * double(l.k) * double(l.n) / double(l.k + l.n);
    l.maxRank = std::min<int64_t>(static_cast<int64_t>(std::floor(most)), std::min(l.k, l.n));
    if (l.maxRank >= 1) out.push_back(std::move(l));
  }
  return out;
}

passes::Options passOptions(int64_t rank, double minSaving) {
  return {{"rank", std::to_string(rank)}, {"min_saving", std::to_string(minSaving)}};
}

// One step of the pass on `model` (in place) for `layer` at `rank`.
Expected<const Step*> factorizeStep(PassManager& pm, const LowRankLayer& layer, int64_t rank,
                                    double minSaving) {
  rewrite::NodeFilter only;
  only.only.insert(layer.node);
  return pm.run({kPass, passOptions(rank, minSaving), std::move(only)});
}

struct Outcome {
  bool holds = false;
  double snrDb = 0;
};

// `layer` alone at `rank` on a copy of `model`.
Expected<Outcome> tryRank(const ir::Model& model, ExecOutputChecker& checker,
                          const AccuracyBudget& budget, const LowRankOptions& options,
                          const LowRankLayer& layer, int64_t rank) {
  ir::Model copy = model.clone();
  PipelineOptions po;
  po.keepSnapshots = false;
  po.budget = budget;
  PassManager pm(copy, po);
  pm.setChecker(&checker);
  pm.setEvaluator(options.evaluator);
  pm.setCancelFlag(options.cancel);
  auto step = factorizeStep(pm, layer, rank, options.minSaving);
  if (!step) return step.error();
  const Step& s = **step;
  if (s.rolledBack && !s.check.ran) return Error(ErrorCode::kInternal, s.error);
  Outcome o;  // a pass that changed nothing (it kept the layer): does not hold
  if (!s.check.ran) return o;
  o.holds = s.check.passed;
  if (const OutputAccuracy* w = worstOutput(s.check.accuracy)) o.snrDb = w->snrDb;
  return o;
}

// The smallest rank of `layer` holding the budget alone (0: none up to r_max).
Status searchLayer(const ir::Model& model, ExecOutputChecker& checker, const AccuracyBudget& budget,
                   const LowRankOptions& options, LowRankLayer& layer) {
  // Invariant: rank lo fails (0: no factorization to try), rank hi holds.
  int64_t lo = 0, hi = layer.maxRank;
  ++layer.trials;
  auto top = tryRank(model, checker, budget, options, layer, hi);
  if (!top) return top.error();
  if (!top->holds) return Status::ok();
  double snr = top->snrDb;
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    ++layer.trials;
    auto t = tryRank(model, checker, budget, options, layer, mid);
    if (!t) return t.error();
    if (t->holds) {
      hi = mid;
      snr = t->snrDb;
    } else {
      lo = mid;
    }
  }
  layer.rank = hi;
  layer.snrDb = snr;
  return Status::ok();
}

}  // namespace

Expected<std::vector<LowRankLayer>> searchRanks(const ir::Model& model, ExecOutputChecker& checker,
                                                const AccuracyBudget& budget,
                                                const LowRankOptions& options) {
  std::vector<LowRankLayer> layers = candidates(model, options.minSaving);
  TrialPool pool{options.workers, options.cancel, options.progress};
  PASSLAB_RETURN_IF_ERROR(runTrials(layers.size(), pool, [&](size_t i) {
    return searchLayer(model, checker, budget, options, layers[i]);
  }));
  return layers;
}

Expected<NumericCheck> applyRanks(ir::Model& model, ExecOutputChecker& checker,
                                  std::vector<LowRankLayer>& layers, const AccuracyBudget& budget,
                                  const LowRankOptions& options) {
  std::vector<LowRankLayer*> order;
  for (LowRankLayer& l : layers) {
    l.applied = false;
    l.step = 0;
    if (l.rank > 0) order.push_back(&l);
  }
  auto saving = [](const LowRankLayer* l) { return l->k * l->n - l->rank * (l->k + l->n); };
  std::stable_sort(order.begin(), order.end(),
                   [&](const auto* a, const auto* b) { return saving(a) > saving(b); });
  PipelineOptions po;
  po.keepSnapshots = false;
  po.budget = budget;
  PassManager pm(model, po);
  pm.setChecker(&checker);
  pm.setEvaluator(options.evaluator);
  pm.setCancelFlag(options.cancel);
  NumericCheck last;
  int applied = 0;
  for (LowRankLayer* l : order) {
    auto step = factorizeStep(pm, *l, l->rank, options.minSaving);
    if (!step) return step.error();
    const Step& s = **step;
    if (s.rolledBack && !s.check.ran) return Error(ErrorCode::kInternal, s.error);
    if (s.rolledBack) continue;  // over budget with the others: stays dense
    l->applied = s.changed;
    if (l->applied) l->step = ++applied;
    if (s.check.ran) last = s.check;
  }
  return last;
}

}  // namespace passlab::pipeline
