#include "core/passes/calibration_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/passes/calibration_bins.h"

namespace passlab::passes {

std::optional<CalibrationMethod> parseCalibrationMethod(std::string_view name) {
  if (name == "minmax") return CalibrationMethod::kMinMax;
  if (name == "percentile") return CalibrationMethod::kPercentile;
  if (name == "entropy") return CalibrationMethod::kEntropy;
  return std::nullopt;
}

void TensorStats::add(const ir::Tensor& t) {
  const auto x = t.data<float>();
  const size_t n = x.size();
  const calibration_bins::FiniteRange r = calibration_bins::finiteRange(x.data(), n);
  nonFinite_ += n - r.finite;
  if (r.finite == 0) return;
  const double lo = r.lo, hi = r.hi;
  min_ = count_ == 0 ? lo : std::min(min_, lo);
  max_ = count_ == 0 ? hi : std::max(max_, hi);
  widenTo(std::max(-lo, hi));
  calibration_bins::addToBins(x.data(), n, width_, kBins, pos_.data(), neg_.data());
  count_ += r.finite;
}

void TensorStats::widenTo(double absMax) {
  if (pos_.empty()) pos_.assign(kBins, 0), neg_.assign(kBins, 0);
  if (width_ == 0) {
    // The first nonzero magnitude sets the resolution (a hair above it, so
    // it falls in the last bin rather than beyond).
    if (absMax > 0) width_ = absMax * (1 + 1e-6) / static_cast<double>(kBins);
    return;
  }
  while (absMax >= width_ * static_cast<double>(kBins)) {
    for (auto* h : {&pos_, &neg_}) {
      for (size_t k = 0; k < kBins / 2; ++k) (*h)[k] = (*h)[2 * k] + (*h)[2 * k + 1];
      std::fill(h->begin() + kBins / 2, h->end(), 0);
    }
    width_ *= 2;
  }
}

std::vector<uint64_t> TensorStats::absHistogram() const {
  std::vector<uint64_t> h(kBins, 0);
  for (size_t k = 0; k < pos_.size(); ++k) h[k] = pos_[k] + neg_[k];
  return h;
}

double TensorStats::percentileAbs(double percentile) const {
  const std::vector<uint64_t> h = absHistogram();
  const double want = percentile / 100 * static_cast<double>(count_);
  double seen = 0;
  for (size_t k = 0; k < kBins; ++k) {
    seen += static_cast<double>(h[k]);
    if (seen >= want) return static_cast<double>(k + 1) * width_;
  }
  return static_cast<double>(kBins) * width_;
}

namespace {

// Zeros of a distribution get eps, taken evenly from its nonzero entries, so
// that the KL divergence stays finite (ONNX Runtime's smooth_distribution).
std::vector<double> smoothed(const std::vector<double>& p) {
  constexpr double kEps = 1e-4;
  const auto zeros = static_cast<double>(std::count(p.begin(), p.end(), 0.0));
  const double nonzeros = static_cast<double>(p.size()) - zeros;
  std::vector<double> out(p);
  if (nonzeros == 0) return out;
  const double take = kEps * zeros / nonzeros;
  for (double& v : out) v = v == 0 ? kEps : v - take;
  return out;
}

double klDivergence(const std::vector<double>& p, const std::vector<double>& q) {
  double sp = 0, sq = 0;
  for (size_t i = 0; i < p.size(); ++i) sp += p[i], sq += q[i];
  double kl = 0;
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] > 0 && q[i] > 0) kl += p[i] / sp * std::log((p[i] / sp) / (q[i] / sq));
  return kl;
}

// The first `bins` bins of `h` merged into `levels` levels and spread back
// over the nonzero bins of each level: what quantizing to `levels` keeps.
std::vector<double> quantizedBack(const std::vector<uint64_t>& h, size_t bins, size_t levels) {
  const size_t per = bins / levels;
  std::vector<double> q(bins, 0);
  for (size_t j = 0; j < levels; ++j) {
    const size_t start = j * per, end = j + 1 == levels ? bins : start + per;
    double total = 0;
    size_t nonzero = 0;
    for (size_t k = start; k < end; ++k) total += static_cast<double>(h[k]), nonzero += h[k] != 0;
    if (nonzero == 0) continue;
    for (size_t k = start; k < end; ++k)
      if (h[k] != 0) q[k] = total / static_cast<double>(nonzero);
  }
  return q;
}

}  // namespace

double TensorStats::entropyThreshold() const {
  constexpr size_t kLevels = 128;
  // A sparse histogram makes every clipped candidate look as good as the
  // data it happens to miss: below 8 values a bin on average, bins are
  // merged pairwise (down to one per level, where the answer is MinMax).
  std::vector<uint64_t> h = absHistogram();
  size_t total = kBins;
  double width = width_;
  while (total > kLevels && count_ < 8 * total) {
    for (size_t k = 0; k < total / 2; ++k) h[k] = h[2 * k] + h[2 * k + 1];
    total /= 2;
    width *= 2;
  }
  h.resize(total);
  size_t best = total;
  double bestKl = std::numeric_limits<double>::infinity();
  uint64_t outliers = 0;
  for (size_t k = kLevels; k < total; ++k) outliers += h[k];
  for (size_t bins = kLevels; bins <= total; ++bins) {
    // P: the histogram clipped at `bins` (outliers counted in the last bin).
    std::vector<double> p(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(bins));
    p.back() += static_cast<double>(outliers);
    const double kl = klDivergence(smoothed(p), smoothed(quantizedBack(h, bins, kLevels)));
    if (kl < bestKl) bestKl = kl, best = bins;
    if (bins < total) outliers -= h[bins];
  }
  return static_cast<double>(best) * width;
}

QuantRange TensorStats::range(CalibrationMethod method, double percentile) const {
  QuantRange r{static_cast<float>(std::min(min_, 0.0)), static_cast<float>(std::max(max_, 0.0))};
  if (count_ == 0 || width_ == 0 || method == CalibrationMethod::kMinMax) return r;
  const double t =
      method == CalibrationMethod::kPercentile ? percentileAbs(percentile) : entropyThreshold();
  r.lo = std::max(r.lo, static_cast<float>(-t));
  r.hi = std::min(r.hi, static_cast<float>(t));
  return r;
}

double TensorStats::clippedShare(const QuantRange& r) const {
  if (count_ == 0 || width_ == 0) return 0;
  uint64_t clipped = 0;
  for (size_t k = 0; k < pos_.size(); ++k) {
    const double edge = static_cast<double>(k) * width_;  // the bin's lower magnitude
    if (edge > r.hi) clipped += pos_[k];
    if (-edge < r.lo) clipped += neg_[k];
  }
  return static_cast<double>(clipped) / static_cast<double>(count_);
}

std::vector<uint64_t> TensorStats::histogram(size_t bins) const {
  if (count_ == 0 || bins == 0) return {};
  std::vector<uint64_t> out(bins, 0);
  const double span = max_ - min_;
  auto add = [&](double x, uint64_t n) {
    if (n == 0) return;
    x = std::clamp(x, min_, max_);  // a bin's middle may lie past the observed end
    const auto k =
        span > 0 ? static_cast<size_t>((x - min_) / span * static_cast<double>(bins)) : 0;
    out[std::min(k, bins - 1)] += n;
  };
  for (size_t k = 0; k < pos_.size(); ++k) {
    const double middle = (static_cast<double>(k) + 0.5) * width_;
    add(middle, pos_[k]);
    add(-middle, neg_[k]);
  }
  return out;
}

QuantParams asymmetricParams(const QuantRange& r, int32_t qmin, int32_t qmax) {
  const float lo = std::min(r.lo, 0.0f), hi = std::max(r.hi, 0.0f);
  QuantParams p;
  if (hi == lo) return p;
  p.scale = (hi - lo) / static_cast<float>(qmax - qmin);
  const float zp = std::nearbyint(static_cast<float>(qmin) - lo / p.scale);
  p.zeroPoint =
      static_cast<int32_t>(std::clamp(zp, static_cast<float>(qmin), static_cast<float>(qmax)));
  return p;
}

}  // namespace passlab::passes
