// What the Precision panel converts to, as a pipeline pass: float16,
// bfloat16, int8 with dynamic or static (calibrated) activations, low-rank
// weights, and magnitude pruning when core has that pass. The panel's
// choices (method and per-channel for int8 static) become the pass's options.
#pragma once

#include <QString>

#include <string>
#include <vector>

#include "core/passes/calibration_stats.h"
#include "core/pipeline/pass_manager.h"

namespace passlab::ui {

enum class PrecisionTarget { kFloat16, kBfloat16, kInt8Dynamic, kInt8Static, kLowRank, kPrune };

struct PrecisionChoice {
  PrecisionTarget target = PrecisionTarget::kFloat16;
  passes::CalibrationMethod method = passes::CalibrationMethod::kMinMax;  // int8 static
  bool perChannel = true;                                                 // int8 static
};

// The targets whose pass is registered, in the panel's order.
std::vector<PrecisionTarget> availableTargets();
// The pass id of a target ("convert_to_float16", ...).
std::string passIdOf(PrecisionTarget target);
// The target's name in the user's language.
QString targetText(PrecisionTarget target);
// "MinMax", "Percentile", "Entropy".
QString methodText(passes::CalibrationMethod method);
// The pass option's value ("minmax", ...).
std::string methodOption(passes::CalibrationMethod method);
// The pass and its options (every node: no filter).
pipeline::PassSpec specOf(const PrecisionChoice& choice);
// Whether the pass calibrates on input sets (int8 static).
bool calibrates(PrecisionTarget target);

}  // namespace passlab::ui
