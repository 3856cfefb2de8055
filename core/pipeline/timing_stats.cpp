#include "core/pipeline/timing_stats.h"

#include <algorithm>
#include <cmath>

namespace passlab::pipeline {

namespace {

// Nearest-rank percentile of sorted values.
double percentile(const std::vector<double>& sorted, double p) {
  const size_t n = sorted.size();
  size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(n)));
  return sorted[std::clamp<size_t>(rank, 1, n) - 1];
}

double median(const std::vector<double>& sorted) {
  const size_t n = sorted.size();
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

}  // namespace

Timing summarizeTimes(std::vector<double> ms) {
  Timing t;
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  t.samples = static_cast<int>(ms.size());
  t.medianMs = median(ms);
  t.minMs = ms.front();
  t.p90Ms = percentile(ms, 0.9);
  t.spread = t.medianMs > 0 ? (t.p90Ms - t.minMs) / t.medianMs : 0;
  t.noisy = t.spread > kNoisySpread;
  return t;
}

}  // namespace passlab::pipeline
