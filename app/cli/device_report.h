// What `run --device` adds to its report: where the steps ran (and why some
// fell back to the CPU), the copies between host and device, and with
// --compare-cpu the outputs set against the CPU executor's.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/exec/executor.h"

namespace passlab::cli {

// "cuda:0 NVIDIA H100: 120 steps on the device, 3 on the host, 2 on the CPU (fallback); copies ..."
std::string deviceSummaryText(const exec::DeviceRunSummary& s);
// The fallback steps grouped by reason, one line each ("Loop x2: no CUDA kernel for Loop").
std::vector<std::string> fallbackLines(const exec::DeviceRunSummary& s);
nlohmann::json deviceSummaryJson(const exec::DeviceRunSummary& s);

// One output of a device run against the CPU executor's.
struct OutputComparison {
  std::string name;
  bool compared = false;  // numeric tensors of the same type and dims
  bool withinTolerance = false;
  double maxAbsError = 0, maxRelError = 0;
  int64_t outside = 0;  // elements with |a - b| > atol + rtol * |b|
  std::string note;     // why not compared, or the first mismatch
};

// Element i passes when |device - cpu| <= atol + rtol * |cpu| (NaN equal to NaN).
std::vector<OutputComparison> compareOutputs(const exec::RunResult& device,
                                             const exec::RunResult& cpu, double rtol, double atol);
nlohmann::json comparisonJson(const std::vector<OutputComparison>& c, double rtol, double atol);

}  // namespace passlab::cli
