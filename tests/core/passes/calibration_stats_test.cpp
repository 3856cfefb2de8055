// The calibration statistics of static quantization: ranges by MinMax,
// Percentile and Entropy on distributions whose answer is known, the
// streaming histogram (widening keeps every value), and ONNX Runtime's rule
// for scale and zero point.
#include "core/passes/calibration_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace passlab::passes {
namespace {

ir::Tensor floats(const std::vector<float>& v) {
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, {static_cast<int64_t>(v.size())}, v);
}

// n values uniform in [lo, hi] (seeded), plus `extra`.
ir::Tensor uniform(size_t n, float lo, float hi, std::vector<float> extra = {}) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v;
  for (size_t i = 0; i < n; ++i) v.push_back(d(rng));
  v.insert(v.end(), extra.begin(), extra.end());
  return floats(v);
}

TEST(CalibrationStats, MethodsParse) {
  EXPECT_EQ(parseCalibrationMethod("minmax"), CalibrationMethod::kMinMax);
  EXPECT_EQ(parseCalibrationMethod("percentile"), CalibrationMethod::kPercentile);
  EXPECT_EQ(parseCalibrationMethod("entropy"), CalibrationMethod::kEntropy);
  EXPECT_FALSE(parseCalibrationMethod("kl").has_value());
  EXPECT_FALSE(parseCalibrationMethod("").has_value());
}

TEST(CalibrationStats, MinMaxIsTheObservedRangeOverEveryRun) {
  TensorStats s;
  s.add(floats({0.5f, 2.0f, 1.0f}));
  s.add(floats({-0.25f, 1.5f}));
  EXPECT_EQ(s.count(), 5u);
  QuantRange r = s.range(CalibrationMethod::kMinMax);
  EXPECT_FLOAT_EQ(r.lo, -0.25f);
  EXPECT_FLOAT_EQ(r.hi, 2.0f);
}

TEST(CalibrationStats, TheRangeAlwaysHoldsZero) {
  TensorStats s;
  s.add(floats({1.0f, 3.0f}));
  QuantRange r = s.range(CalibrationMethod::kMinMax);
  EXPECT_EQ(r.lo, 0.0f);
  EXPECT_FLOAT_EQ(r.hi, 3.0f);
}

TEST(CalibrationStats, NonFiniteValuesAreCountedApartAndNeverWidenTheRange) {
  TensorStats s;
  s.add(floats({1.0f, std::numeric_limits<float>::infinity(), -2.0f,
                std::numeric_limits<float>::quiet_NaN()}));
  EXPECT_EQ(s.count(), 2u);
  EXPECT_EQ(s.nonFinite(), 2u);
  QuantRange r = s.range(CalibrationMethod::kMinMax);
  EXPECT_FLOAT_EQ(r.lo, -2.0f);
  EXPECT_FLOAT_EQ(r.hi, 1.0f);
}

TEST(CalibrationStats, PercentileClipsARareOutlier) {
  // 100,000 values in [-1, 1] and one at 1000: 99.99% of |x| lies within ~1.
  TensorStats s;
  s.add(uniform(100000, -1, 1, {1000.0f}));
  QuantRange mm = s.range(CalibrationMethod::kMinMax);
  EXPECT_FLOAT_EQ(mm.hi, 1000.0f);
  QuantRange p = s.range(CalibrationMethod::kPercentile, 99.99);
  // Resolution: the histogram's bins after widening to 1000 are ~0.5 wide.
  EXPECT_GE(p.hi, 0.99f);
  EXPECT_LE(p.hi, 1.6f);
  EXPECT_LE(p.lo, -0.99f);
  EXPECT_LT(s.clippedShare(p), 2e-5);
  EXPECT_EQ(s.clippedShare(mm), 0.0);
}

TEST(CalibrationStats, WideningTheHistogramKeepsEveryValue) {
  // The first run sets a fine resolution; a later, 1000x wider run merges bins.
  TensorStats s;
  s.add(uniform(1000, -0.001f, 0.001f));
  s.add(uniform(1000, -1, 1));
  EXPECT_EQ(s.count(), 2000u);
  // Half of all values lie within 0.001: the 50th percentile of |x| is tiny.
  QuantRange p = s.range(CalibrationMethod::kPercentile, 50);
  EXPECT_LT(p.hi, 0.01f);
  QuantRange all = s.range(CalibrationMethod::kPercentile, 100);
  EXPECT_GE(all.hi, 0.99f);
}

TEST(CalibrationStats, TheHistogramForDrawingHoldsEveryValueInItsPlace) {
  TensorStats s;
  EXPECT_TRUE(s.histogram(10).empty());
  s.add(uniform(4000, -1, 3));
  const std::vector<uint64_t> h = s.histogram(8);
  ASSERT_EQ(h.size(), 8u);
  uint64_t total = 0;
  for (uint64_t n : h) total += n;
  EXPECT_EQ(total, s.count());
  // Uniform over [-1, 3]: 500 a bin, give or take the sampling and a
  // streaming bin's width at the edges.
  for (uint64_t n : h) EXPECT_NEAR(static_cast<double>(n), 500.0, 80.0);
  // A skewed set: the values at 10 land in the last bin, the bulk in the first.
  TensorStats skew;
  skew.add(uniform(1000, 0, 0.1f, {10, 10, 10}));
  const std::vector<uint64_t> k = skew.histogram(4);
  EXPECT_EQ(k.back(), 3u);
  EXPECT_EQ(k.front(), 1000u);
}

TEST(CalibrationStats, AllZerosMakeOneBar) {
  TensorStats s;
  s.add(floats({0, 0, 0}));
  const std::vector<uint64_t> h = s.histogram(5);
  ASSERT_EQ(h.size(), 5u);
  EXPECT_EQ(h[0], 3u);
}

TEST(CalibrationStats, EntropyClipsALongTailButKeepsTheBulk) {
  // Laplace-like: most mass near 0, a long thin tail to 50.
  std::mt19937 rng(3);
  std::exponential_distribution<float> e(1.0f);
  std::vector<float> v;
  for (int i = 0; i < 200000; ++i) v.push_back((i % 2 ? 1 : -1) * e(rng));
  v.push_back(50.0f);
  TensorStats s;
  s.add(floats(v));
  QuantRange r = s.range(CalibrationMethod::kEntropy);
  EXPECT_LT(r.hi, 40.0f) << "the tail is clipped";
  EXPECT_GT(r.hi, 3.0f) << "the bulk (|x| < 3 holds 95%) is kept";
  EXPECT_LT(s.clippedShare(r), 0.01);
}

TEST(CalibrationStats, EntropyKeepsAUniformRange) {
  // Nothing to gain from clipping a uniform distribution.
  TensorStats s;
  s.add(uniform(100000, -4, 4));
  QuantRange r = s.range(CalibrationMethod::kEntropy);
  EXPECT_GT(r.hi, 3.5f);
  EXPECT_LT(r.lo, -3.5f);
}

TEST(CalibrationStats, EntropyOnTooFewValuesFallsBackToTheObservedRange) {
  // 201 values: fewer than 8 per bin even at 128 bins, so nothing is clipped.
  TensorStats s;
  s.add(uniform(200, -1, 1, {5.0f}));
  QuantRange e = s.range(CalibrationMethod::kEntropy);
  QuantRange m = s.range(CalibrationMethod::kMinMax);
  EXPECT_FLOAT_EQ(e.hi, m.hi);
  EXPECT_FLOAT_EQ(e.lo, m.lo);
}

TEST(CalibrationStats, AllZerosGiveAnEmptyRange) {
  TensorStats s;
  s.add(floats({0, 0, 0}));
  for (auto m :
       {CalibrationMethod::kMinMax, CalibrationMethod::kPercentile, CalibrationMethod::kEntropy}) {
    QuantRange r = s.range(m);
    EXPECT_EQ(r.lo, 0.0f);
    EXPECT_EQ(r.hi, 0.0f);
  }
  QuantParams p = asymmetricParams({0, 0}, 0, 255);
  EXPECT_EQ(p.scale, 1.0f);
  EXPECT_EQ(p.zeroPoint, 0);
}

TEST(CalibrationStats, ScaleAndZeroPointFollowOnnxRuntime) {
  // [-1, 3] to uint8: scale 4/255, zero point round(0 + 1 / (4/255)) = round(63.75) = 64.
  QuantParams u = asymmetricParams({-1, 3}, 0, 255);
  EXPECT_FLOAT_EQ(u.scale, 4.0f / 255);
  EXPECT_EQ(u.zeroPoint, 64);
  // [0, 6] (after a Relu): zero point 0, so 0 is exact and the clamp is free.
  QuantParams r = asymmetricParams({0, 6}, 0, 255);
  EXPECT_FLOAT_EQ(r.scale, 6.0f / 255);
  EXPECT_EQ(r.zeroPoint, 0);
  // int8: [-1, 3] -> scale 4/255, zero point round(-128 + 1 / (4/255)) = round(-64.25) = -64.
  QuantParams s = asymmetricParams({-1, 3}, -128, 127);
  EXPECT_FLOAT_EQ(s.scale, 4.0f / 255);
  EXPECT_EQ(s.zeroPoint, -64);
}

}  // namespace
}  // namespace passlab::passes
