// Checked steps of a pass on one layer at a time, as the per-layer searches
// take them (sensitivity.h, sparsity_search.h, low_rank_search.h): a
// PassManager without snapshots that checks every step against a budget, a
// bisection for the boundary where a layer stops holding the budget alone,
// and the chosen layers applied together one checked step each.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "core/ir/model.h"
#include "core/pipeline/accuracy.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "core/rewrite/evaluator.h"

namespace passlab::pipeline {

// One pass, checked after every changing step against a budget, on a model
// edited in place (a trial's copy or the result).
class CheckedSteps {
 public:
  CheckedSteps(ir::Model& model, ExecOutputChecker& checker, const AccuracyBudget& budget,
               rewrite::Evaluator* evaluator, const std::atomic<bool>* cancel);

  // Runs `spec`. A step over the budget comes back rolled back with its
  // check; one rolled back without a check (the pass failed) is an error.
  Expected<const Step*> run(PassSpec spec);

 private:
  PassManager pm_;
};

// The spec of one step of `passId` with `options` on `node` alone.
PassSpec layerStep(const char* passId, passes::Options options, ir::NodeId node);

// A layer alone at one setting: whether it holds the budget, and the SNR of
// the worst output when it does.
struct LayerTrial {
  bool holds = false;
  double snrDb = 0;
};

// Between a setting known to hold the budget and one known to fail, in either
// order, on a scale where the accuracy is monotone.
struct HoldBracket {
  int64_t holds = 0, fails = 0;
  double snrDb = 0;  // at `holds`
};

// Bisects `b` until its ends are neighbours: `tryAt(setting)` returns an
// Expected<T> with `holds` and `snrDb` (a LayerTrial or more); the midpoint is
// taken between the smaller and larger end. The first error.
template <class TryAt>
Status narrowBracket(HoldBracket& b, TryAt tryAt) {
  while (std::max(b.holds, b.fails) - std::min(b.holds, b.fails) > 1) {
    const int64_t lo = std::min(b.holds, b.fails), hi = std::max(b.holds, b.fails);
    const int64_t mid = lo + (hi - lo) / 2;
    auto t = tryAt(mid);
    if (!t) return t.error();
    if (t->holds) {
      b.holds = mid;
      b.snrDb = t->snrDb;
    } else {
      b.fails = mid;
    }
  }
  return Status::ok();
}

// Applies the layers `chosen` picks together on `steps`' model, the largest
// `gain` first (stable), one checked step each (`specOf(layer)`): the errors
// of several layers add up, so a step over the budget with the ones before is
// rolled back and that layer stays as it was. Sets every layer's `applied`
// and numbers the applied ones in that order (`step`: 1, 2, ...). The check
// of the last step that held.
template <class Layer, class Chosen, class Gain, class SpecOf>
Expected<NumericCheck> applyLayersInOrder(CheckedSteps& steps, std::vector<Layer>& layers,
                                          Chosen chosen, Gain gain, SpecOf specOf) {
  std::vector<Layer*> order;
  for (Layer& l : layers) {
    l.applied = false;
    l.step = 0;
    if (chosen(l)) order.push_back(&l);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](const Layer* a, const Layer* b) { return gain(*a) > gain(*b); });
  NumericCheck last;
  int applied = 0;
  for (Layer* l : order) {
    auto step = steps.run(specOf(*l));
    if (!step) return step.error();
    const Step& s = **step;
    if (s.rolledBack) continue;  // over budget with the others: stays as it was
    l->applied = s.changed;
    if (l->applied) l->step = ++applied;
    if (s.check.ran) last = s.check;
  }
  return last;
}

}  // namespace passlab::pipeline
