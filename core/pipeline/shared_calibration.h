// Calibration shared between the runs of quantize_static on copies of one
// model (the per-layer sensitivity trials and the mixed-precision bisection).
//
// Each trial quantizes some layers of a copy of the original model, and the
// pass calibrates on the model as it enters the pass: the original. So the
// values a trial observes are the original's, whatever layer it quantizes.
// prepare() runs the pass once on a copy with every layer it takes, observes
// all their activations on the calibration sets in one pass over them, and
// keeps each activation's statistics; the trials then take theirs from here
// (passes::CalibrationStatsSource) instead of running the sets again.
//
// The statistics are those the recalibrating trial computes, fed the same
// tensors in the same order, as long as the executor computes a value the
// same whether or not other values are also exposed as outputs (the tests
// compare both paths; docs/precision.md says what was measured).
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "core/passes/calibration_stats_source.h"
#include "core/passes/non_finite_input_source.h"
#include "core/passes/pass.h"
#include "core/rewrite/evaluator.h"

namespace passlab::pipeline {

class SharedCalibration final : public rewrite::Evaluator,
                                public passes::CalibrationStatsSource,
                                public passes::NonFiniteInputSource {
 public:
  // `calibrating` runs the model on the calibration sets; it must outlive this.
  explicit SharedCalibration(rewrite::Evaluator& calibrating);

  // Runs `passId` with `options` on a copy of `model` to calibrate every
  // value it observes, once. A pass that observes nothing leaves nothing
  // shared (its trials do not calibrate).
  Status prepare(const ir::Model& model, const std::string& passId, const passes::Options& options,
                 const std::atomic<bool>* cancel);
  // How many values prepare() calibrated.
  size_t sharedValues() const { return stats_.size(); }

  // Constant folding as `calibrating` does it; safe from several threads
  // when its evaluate is.
  Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             int64_t opsetVersion) override;
  // Values not shared: `calibrating` runs the sets (one caller at a time).
  Status observeValues(const ir::Model& model, const std::vector<std::string>& values,
                       const Observer& observe, const std::atomic<bool>* cancel) override;
  size_t calibrationSets() const override { return calibrating_.calibrationSets(); }
  // `calibrating`'s answer, when it has one.
  Text firstNonFiniteInput(const ir::Model& model) override;
  // `calibrating`'s note on the runs since the last call, when it has one.
  Text takeNonFiniteNote() override;

  // The prepared statistics of `name` when `model` is a copy of the
  // prepared one (the same node count and the value made by the same op);
  // else nullptr. Read-only after prepare(): safe from several threads.
  const passes::TensorStats* statsOf(const ir::Model& model,
                                     const std::string& name) const override;

 private:
  struct Shared {
    passes::TensorStats stats;
    std::string producerOp;  // "" for a graph input
  };
  rewrite::Evaluator& calibrating_;
  std::mutex observing_;
  bool preparing_ = false;
  size_t nodeCount_ = 0;
  std::map<std::string, Shared> stats_;
};

}  // namespace passlab::pipeline
