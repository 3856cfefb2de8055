// The statistics static quantization calibrates with: one TensorStats per
// activation, fed every calibration run's value of it, and the range to
// quantize to from them by MinMax, Percentile or Entropy (KL divergence, as
// TensorRT and ONNX Runtime compute it). Streaming: a fixed-size histogram per
// tensor, never the values, so memory does not grow with the input sets.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/ir/tensor.h"

namespace passlab::passes {

enum class CalibrationMethod { kMinMax, kPercentile, kEntropy };

// "minmax", "percentile", "entropy"; nullopt for anything else.
std::optional<CalibrationMethod> parseCalibrationMethod(std::string_view name);

// A range [lo, hi] with lo <= 0 <= hi (zero must be exact in the quantized type).
struct QuantRange {
  float lo = 0, hi = 0;
};

class TensorStats {
 public:
  // Bins on each side of zero. The histogram covers [-top, top) with top =
  // kBins * width; a value beyond it doubles the width (pairs of bins merged,
  // nothing lost but resolution) until it fits.
  static constexpr size_t kBins = 2048;

  // Adds every finite element of a float32 tensor (NaN and infinities are
  // counted apart and never widen the range).
  void add(const ir::Tensor& t);
  bool empty() const { return count_ == 0; }
  uint64_t count() const { return count_; }
  uint64_t nonFinite() const { return nonFinite_; }
  float min() const { return static_cast<float>(min_); }
  float max() const { return static_cast<float>(max_); }

  // The range to quantize to. MinMax: [min, max]. Percentile: the observed
  // range clipped at the `percentile` of |x| (99.999: 0.001% of the values
  // saturate). Entropy: clipped at the |x| threshold whose 128-level
  // quantization of the histogram loses the least information (KL
  // divergence; with fewer than 8 values a bin the histogram is coarsened
  // first, down to MinMax's answer). Always widened to contain 0.
  QuantRange range(CalibrationMethod method, double percentile = 99.999) const;

  // The share of the values a range clips (outside [lo, hi]), from the
  // histogram (to a bin's width).
  double clippedShare(const QuantRange& r) const;

  // The values counted in `bins` equal bins over [min(), max()] (each of
  // the streaming histogram's bins falls, by its middle, into one of them:
  // exact to a bin's width), for drawing; empty when no value was added.
  std::vector<uint64_t> histogram(size_t bins) const;

 private:
  void widenTo(double absMax);
  std::vector<uint64_t> absHistogram() const;
  double percentileAbs(double percentile) const;
  double entropyThreshold() const;

  double min_ = 0, max_ = 0;
  double width_ = 0;                 // of one bin; 0 until the first finite nonzero value
  std::vector<uint64_t> pos_, neg_;  // bins of [k w, (k+1) w) and of -[k w, (k+1) w)
  uint64_t count_ = 0, nonFinite_ = 0;
};

// The scale and zero point of an asymmetric 8-bit quantization of `r`
// (ONNX Runtime's rule: scale = (hi - lo) / (qmax - qmin), zero point =
// round(qmin - lo / scale) clamped to [qmin, qmax]; an empty range gets scale 1).
struct QuantParams {
  float scale = 1;
  int32_t zeroPoint = 0;
};
QuantParams asymmetricParams(const QuantRange& r, int32_t qmin, int32_t qmax);

}  // namespace passlab::passes
