// Calibration statistics computed once and handed to many runs of
// quantize_static on copies of one model (the sensitivity trials: each
// quantizes one layer of the original, so each would observe the original's
// values again). An Evaluator that also implements this interface answers
// for the values it holds; quantize_static then calibrates from them instead
// of running the model (core/pipeline/shared_calibration.h).
#pragma once

#include <string>

#include "core/ir/model.h"
#include "core/passes/calibration_stats.h"

namespace passlab::passes {

class CalibrationStatsSource {
 public:
  virtual ~CalibrationStatsSource() = default;
  // The statistics of value `name` of `model` over the calibration sets, or
  // nullptr when this source has none for it (the caller observes then).
  virtual const TensorStats* statsOf(const ir::Model& model, const std::string& name) const = 0;
};

}  // namespace passlab::passes
