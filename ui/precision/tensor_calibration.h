// The calibration statistics of a model's activations, for the Precision
// panel's histogram: every float32 tensor of the main graph that a node
// writes or the graph takes as input (not the weights), observed on the
// calibration sets through the evaluator quantize_static calibrates with
// (core/passes/calibration_stats.h), kChunk tensors per pass over the sets so
// memory stays bounded, and kept as a drawing needs them: a coarse
// histogram, and the range and the clipped share each method gives.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/passes/calibration_stats.h"
#include "core/rewrite/evaluator.h"

namespace passlab::ui {

struct TensorCalibration {
  static constexpr size_t kBins = 64;
  float min = 0, max = 0;
  uint64_t count = 0;
  std::vector<uint64_t> bins;  // kBins over [min, max]
  // By passes::CalibrationMethod (MinMax, Percentile, Entropy).
  std::array<passes::QuantRange, 3> ranges{};
  std::array<double, 3> clipped{};

  const passes::QuantRange& range(passes::CalibrationMethod m) const {
    return ranges[static_cast<size_t>(m)];
  }
  double clippedShare(passes::CalibrationMethod m) const { return clipped[static_cast<size_t>(m)]; }
};
using CalibrationTable = std::map<std::string, TensorCalibration>;

// The tensors calibrateTensors observes, in graph order.
std::vector<std::string> calibratedTensors(const ir::Model& model);

// `percentile` as quantize_static's option (99.999). `progress` gets (done,
// total) tensors after each chunk.
Expected<CalibrationTable> calibrateTensors(const ir::Model& model, rewrite::Evaluator& evaluator,
                                            double percentile, const std::atomic<bool>* cancel,
                                            const std::function<void(size_t, size_t)>& progress);

}  // namespace passlab::ui
