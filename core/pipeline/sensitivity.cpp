#include "core/pipeline/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/pipeline/layer_steps.h"
#include "core/pipeline/parallel_trials.h"
#include "core/pipeline/shared_calibration.h"

namespace passlab::pipeline {

namespace {

// Copies of a model for the trials, each taken by one trial at a time. A
// trial whose step changed nothing (no edit: nothing added, removed, rewired
// or rewritten, the opsets and IR version as they were) gives its copy back
// for the next trial, which then starts from a model equal to a new clone.
class TrialCopies {
 public:
  TrialCopies(const ir::Model& model, bool reuse) : model_(model), reuse_(reuse) {}

  std::unique_ptr<ir::Model> take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!spare_.empty()) {
        auto copy = std::move(spare_.back());
        spare_.pop_back();
        return copy;
      }
    }
    return std::make_unique<ir::Model>(model_.clone());
  }

  void giveBack(std::unique_ptr<ir::Model> copy, const Step& step) {
    if (!reuse_ || !step.log.empty() || step.rolledBack || copy->opsets != model_.opsets ||
        copy->irVersion != model_.irVersion)
      return;
    std::lock_guard<std::mutex> lock(mutex_);
    spare_.push_back(std::move(copy));
  }

 private:
  const ir::Model& model_;
  const bool reuse_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<ir::Model>> spare_;
};

// One conversion of a copy of `model` (from `copies`) with the node filter
// `filter`.
struct Trial {
  bool changed = false;  // the pass converted something (its check ran)
  NumericCheck check;
};

Expected<Trial> convertCopy(TrialCopies& copies, ExecOutputChecker& checker,
                            const SensitivityOptions& options, rewrite::Evaluator* evaluator,
                            rewrite::NodeFilter filter, const AccuracyBudget& budget) {
  std::unique_ptr<ir::Model> copy = copies.take();
  Trial t;
  {
    CheckedSteps steps(*copy, checker, budget, evaluator, options.cancel);
    // Over budget it is rolled back with its figures; any other failure is an error.
    auto step = steps.run({options.passId, options.passOptions, std::move(filter)});
    if (!step) return step.error();
    const Step& s = **step;
    t.changed = s.check.ran;
    t.check = s.check;
    copies.giveBack(std::move(copy), s);
  }
  return t;
}

// The evaluator the trials share: the caller's prepared one
// (SensitivityOptions::trialCalibration), else one prepared here.
Expected<std::shared_ptr<SharedCalibration>> trialEvaluator(const ir::Model& model,
                                                            const SensitivityOptions& options) {
  if (options.trialCalibration) return options.trialCalibration;
  return prepareTrialCalibration(model, options);
}

bool hasFloatResult(const ir::Node& n) {
  if (n.opType() == "Constant") return false;  // converted with its readers
  for (const ir::Value* v : n.outputs())
    if (v && v->type().isTensor() && ir::isFloatingPoint(v->type().elemType())) return true;
  return false;
}

// A budget nothing fails: ranking wants the figures, not a verdict; top-k
// with the budget's k.
AccuracyBudget reportOnly(int topK) {
  AccuracyBudget b;
  b.topK = topK;
  b.minCosine = -1;
  b.minSnrDb = -std::numeric_limits<double>::infinity();
  return b;
}

}  // namespace

// The caller's evaluator behind a SharedCalibration that has calibrated once
// what the pass observes (when sharing is on and the caller's evaluator
// calibrates), and that serializes the calibrations left to the trials
// otherwise. Null when the caller gave none.
Expected<std::shared_ptr<SharedCalibration>> prepareTrialCalibration(
    const ir::Model& model, const SensitivityOptions& options) {
  if (!options.evaluator) return std::shared_ptr<SharedCalibration>();
  auto shared = std::make_shared<SharedCalibration>(*options.evaluator);
  if (options.shareCalibration && options.evaluator->calibrationSets() > 0)
    PASSLAB_RETURN_IF_ERROR(
        shared->prepare(model, options.passId, options.passOptions, options.cancel));
  return shared;
}

Expected<std::vector<LayerSensitivity>> rankLayers(const ir::Model& model,
                                                   ExecOutputChecker& checker,
                                                   const SensitivityOptions& options) {
  // The nodes of every graph: the lossy passes that enter If/Loop/Scan
  // bodies convert their nodes one by one too (a node holding bodies is no
  // candidate itself: its trial would convert nothing).
  std::vector<const ir::Node*> candidates;
  model.graph().forEachNodeRecursive([&](ir::Node* n) {
    if (hasFloatResult(*n) && !n->hasSubgraphs() && !options.excluded.count(n->id()))
      candidates.push_back(n);
  });
  auto evaluator = trialEvaluator(model, options);
  if (!evaluator) return evaluator.error();
  std::vector<std::optional<LayerSensitivity>> results(candidates.size());
  TrialCopies copies(model, options.reuseUnchangedCopies);
  auto trial = [&](size_t i) -> Status {
    // The node with the Constant nodes that give it weights. The user's
    // exclusions hold in the trial too: quantize_static's fold of an excluded
    // BatchNormalization would rank the layer with a fold the saved model
    // does not have.
    rewrite::NodeFilter only;
    only.excluded = options.excluded;
    only.only.insert(candidates[i]->id());
    for (const ir::Value* in : candidates[i]->inputs())
      if (in && in->producer() && in->producer()->opType() == "Constant")
        only.only.insert(in->producer()->id());
    auto t = convertCopy(copies, checker, options, evaluator->get(), std::move(only),
                         reportOnly(options.topK));
    if (!t) return t.error();
    if (!t->changed) return Status::ok();
    LayerSensitivity l;
    l.node = candidates[i]->id();
    l.describe = candidates[i]->describe();
    l.changed = true;
    if (const OutputAccuracy* w = worstOutput(t->check.accuracy)) {
      l.snrDb = w->snrDb;
      l.cosine = w->cosine;
    }
    for (const OutputAccuracy& a : t->check.accuracy)
      if (a.topK && (!l.topK || *a.topK < *l.topK)) l.topK = a.topK;
    results[i] = std::move(l);
    return Status::ok();
  };
  TrialPool pool{options.workers, options.cancel, options.progress};
  PASSLAB_RETURN_IF_ERROR(runTrials(candidates.size(), pool, trial));
  std::vector<LayerSensitivity> out;
  for (auto& r : results)
    if (r) out.push_back(std::move(*r));
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.snrDb < b.snrDb; });
  return out;
}

Expected<MixedPrecision> mixedPrecision(const ir::Model& model, ExecOutputChecker& checker,
                                        const std::vector<LayerSensitivity>& ranked,
                                        const AccuracyBudget& budget,
                                        const SensitivityOptions& options) {
  MixedPrecision result;
  auto evaluator = trialEvaluator(model, options);
  if (!evaluator) return evaluator.error();
  TrialCopies copies(model, options.reuseUnchangedCopies);
  // The conversion with the k most sensitive nodes kept in float32.
  auto keeping = [&](size_t k) -> Expected<Trial> {
    ++result.conversions;
    rewrite::NodeFilter filter;
    filter.excluded = options.excluded;
    for (size_t i = 0; i < k; ++i) filter.excluded.insert(ranked[i].node);
    return convertCopy(copies, checker, options, evaluator->get(), std::move(filter), budget);
  };
  auto holds = [](const Trial& t) { return !t.changed || t.check.passed; };
  auto all = keeping(0);
  if (!all) return all.error();
  size_t lo = 0, hi = ranked.size();
  Trial best = *all;
  if (!holds(*all)) {
    // Invariant: keeping lo nodes fails; keeping hi holds (hi = n: the
    // ranked nodes all stay, and what converts besides is checked below).
    auto none = keeping(hi);
    if (!none) return none.error();
    if (!holds(*none))
      return Error(ErrorCode::kLimit,
                   Text::of("the budget cannot be met: with every ranked node kept in float32 %1",
                            none->check.detail));
    best = *none;
    NumericCheck missed = all->check;  // keeping lo nodes
    while (hi - lo > 1) {
      if (options.cancel && options.cancel->load())
        return Error(ErrorCode::kCancelled, "cancelled");
      const size_t mid = lo + (hi - lo) / 2;
      auto t = keeping(mid);
      if (!t) return t.error();
      if (holds(*t)) {
        hi = mid;
        best = *t;
      } else {
        lo = mid;
        missed = t->check;
      }
    }
    result.missWithOneFewer = std::move(missed);
  } else {
    hi = 0;
  }
  for (size_t i = 0; i < hi; ++i) result.keptFloat32.push_back(ranked[i].node);
  result.check = best.check;
  return result;
}

}  // namespace passlab::pipeline
