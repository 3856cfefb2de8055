#include "ui/properties/tensor_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace passlab::ui {

namespace {

template <class Read>
TensorStats compute(int64_t n, int bins, std::stop_token stop, Read read) {
  TensorStats s;
  s.numeric = true;
  s.count = n;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  // Welford's running mean and variance: stable for long tensors.
  double mean = 0, m2 = 0;
  int64_t finite = 0;
  for (int64_t i = 0; i < n; ++i) {
    if ((i & 0xfffff) == 0 && stop.stop_requested()) {
      s.cancelled = true;
      return s;
    }
    double v = read(i);
    if (std::isnan(v)) {
      ++s.nans;
      continue;
    }
    if (std::isinf(v)) {
      ++s.infs;
      continue;
    }
    if (v == 0) ++s.zeros;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    ++finite;
    double d = v - mean;
    mean += d / static_cast<double>(finite);
    m2 += d * (v - mean);
  }
  if (finite == 0) return s;
  s.min = lo;
  s.max = hi;
  s.mean = mean;
  s.stddev = finite > 1 ? std::sqrt(m2 / static_cast<double>(finite)) : 0;
  s.histogram.assign(static_cast<size_t>(std::max(1, bins)), 0);
  double width = (hi - lo) / static_cast<double>(s.histogram.size());
  for (int64_t i = 0; i < n; ++i) {
    if ((i & 0xfffff) == 0 && stop.stop_requested()) {
      s.cancelled = true;
      return s;
    }
    double v = read(i);
    if (!std::isfinite(v)) continue;
    size_t b = width > 0 ? static_cast<size_t>((v - lo) / width) : 0;
    ++s.histogram[std::min(b, s.histogram.size() - 1)];
  }
  return s;
}

}  // namespace

TensorStats computeTensorStats(const ir::Tensor& t, int bins, std::stop_token stop) {
  const ir::DataType dt = t.dtype();
  const int64_t n = t.numel();
  if (dt == ir::DataType::kString || ir::isComplex(dt) || dt == ir::DataType::kUndefined) {
    TensorStats s;
    s.count = n;
    return s;
  }
  // The data may be shorter than declared in a damaged file: read what is there.
  uint64_t need = t.expectedBytes();
  if (t.bytes().size() < need) {
    TensorStats s;
    s.count = n;
    return s;
  }
  if (dt == ir::DataType::kFloat) {
    auto d = t.data<float>();
    return compute(n, bins, stop,
                   [&](int64_t i) { return static_cast<double>(d[static_cast<size_t>(i)]); });
  }
  if (dt == ir::DataType::kInt64) {
    auto d = t.data<int64_t>();
    return compute(n, bins, stop,
                   [&](int64_t i) { return static_cast<double>(d[static_cast<size_t>(i)]); });
  }
  return compute(n, bins, stop, [&](int64_t i) { return t.valueAsDouble(i); });
}

}  // namespace passlab::ui
