// Repeated timings summarized honestly: median, min, p90 and a spread figure;
// a figure whose spread exceeds 10% is marked noisy.
#pragma once

#include <vector>

namespace passlab::pipeline {

// A spread above this share of the median marks the figure noisy.
inline constexpr double kNoisySpread = 0.10;

struct Timing {
  double medianMs = 0;
  double minMs = 0;
  double p90Ms = 0;
  // (p90 - min) / median: how far the usual runs lie apart (0 when the median is 0).
  double spread = 0;
  bool noisy = false;  // spread > kNoisySpread
  int samples = 0;
};

// Summary of `ms` (any order; empty gives zeros).
Timing summarizeTimes(std::vector<double> ms);

}  // namespace passlab::pipeline
