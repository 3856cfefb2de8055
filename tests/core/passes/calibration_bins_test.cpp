// TensorStats::add's scans without a division per element
// (core/passes/calibration_bins.h): every value lands in the bin the
// division gives, values on and next to every bin edge included, and the
// finite range is the one a first-of-equals scan finds, signed zeros included;
// the AVX-512 path (where the CPU has it) and the portable one alike.
#include "core/passes/calibration_bins.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/passes/calibration_stats.h"

namespace passlab::passes::calibration_bins {
namespace {

constexpr size_t kBins = TensorStats::kBins;

struct Bins {
  std::vector<uint64_t> pos = std::vector<uint64_t>(kBins, 0);
  std::vector<uint64_t> neg = std::vector<uint64_t>(kBins, 0);
};

// What TensorStats::add counted before: a division per element.
Bins byDivision(const std::vector<float>& x, double width) {
  Bins b;
  for (float v : x) {
    if (!std::isfinite(v)) continue;
    const double a = std::fabs(static_cast<double>(v));
    const auto k = width > 0 ? std::min(static_cast<size_t>(a / width), kBins - 1) : 0;
    ++(v < 0 ? b.neg : b.pos)[k];
  }
  return b;
}

Bins dispatched(const std::vector<float>& x, double width) {
  Bins b;
  addToBins(x.data(), x.size(), width, kBins, b.pos.data(), b.neg.data());
  return b;
}

Bins portable(const std::vector<float>& x, double width) {
  Bins b;
  addToBinsPortable(x.data(), x.size(), width, kBins, b.pos.data(), b.neg.data());
  return b;
}

// Every bin edge k * width (k = 0 .. bins) as the nearest float, the floats
// on either side of it, both signs, and a few zeros, NaN and infinities.
std::vector<float> edges(double width) {
  std::vector<float> x;
  for (size_t k = 0; k <= kBins; ++k) {
    const auto e = static_cast<float>(static_cast<double>(k) * width);
    for (float v : {e, std::nextafter(e, 0.0f), std::nextafter(e, 1e30f)}) {
      x.push_back(v);
      x.push_back(-v);
    }
  }
  x.insert(x.end(),
           {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
            std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()});
  return x;
}

// Widths as TensorStats makes them (the first magnitude * (1 + 1e-6) / bins,
// then doubled) and awkward ones: with 1.1 a bare multiplication by the
// reciprocal misplaces 255 of the edges below (with the others, none).
const double kWidths[] = {5.0 * (1 + 1e-6) / kBins, 0.1, 1.0 / 3,          1e-30 / 7,      1.1,
                          0.7 * (1 + 1e-6) / 256,   1.0, 6.0 * (1 + 1e-6), 123.456 / kBins};

TEST(CalibrationBins, ValuesOnAndBesideEveryBinEdgeLandInTheDivisionsBin) {
  size_t disagreeing = 0;  // values a bare multiplication would misplace
  for (double width : kWidths) {
    const std::vector<float> x = edges(width);
    const Bins want = byDivision(x, width);
    EXPECT_EQ(dispatched(x, width).pos, want.pos) << "width " << width;
    EXPECT_EQ(dispatched(x, width).neg, want.neg) << "width " << width;
    EXPECT_EQ(portable(x, width).pos, want.pos) << "width " << width;
    EXPECT_EQ(portable(x, width).neg, want.neg) << "width " << width;
    const double inv = 1 / width;
    for (float v : x) {
      if (!std::isfinite(v)) continue;
      const double a = std::fabs(static_cast<double>(v));
      if (a * inv < static_cast<double>(kBins) &&
          static_cast<size_t>(a * inv) != static_cast<size_t>(a / width))
        ++disagreeing;
    }
  }
  // The edges do test the fallback: without it some would move a bin.
  EXPECT_GT(disagreeing, 0u);
}

TEST(CalibrationBins, RandomValuesAndEveryTailLengthLandInTheDivisionsBin) {
  std::mt19937 rng(11);
  std::normal_distribution<float> d(0.0f, 1.5f);
  for (size_t n = 0; n <= 40; ++n) {
    std::vector<float> x(n);
    for (float& v : x) v = d(rng);
    if (n > 3) x[n / 2] = std::numeric_limits<float>::quiet_NaN(), x[1] = 0.0f, x[2] = -0.0f;
    const double width = 4.0 * (1 + 1e-6) / kBins;
    const Bins want = byDivision(x, width);
    EXPECT_EQ(dispatched(x, width).pos, want.pos) << n;
    EXPECT_EQ(dispatched(x, width).neg, want.neg) << n;
  }
  for (double width : kWidths) {
    // Up to ~4x past the last bin's top (TensorStats widens first, so its
    // values never are; the division's cast is defined this far).
    std::vector<float> x(100000);
    for (float& v : x) v = static_cast<float>(d(rng) * width * kBins);
    const Bins want = byDivision(x, width);
    EXPECT_EQ(dispatched(x, width).pos, want.pos) << width;
    EXPECT_EQ(dispatched(x, width).neg, want.neg) << width;
    EXPECT_EQ(portable(x, width).pos, want.pos) << width;
  }
}

TEST(CalibrationBins, AZeroWidthCountsEveryFiniteValueInTheFirstBin) {
  const std::vector<float> x = {0.0f, -0.0f, 0.0f, std::numeric_limits<float>::quiet_NaN()};
  const Bins b = dispatched(x, 0);
  EXPECT_EQ(b.pos[0], 3u);
  EXPECT_EQ(byDivision(x, 0).pos, b.pos);
}

// The range the scan TensorStats::add made before (in double, keeping the
// first of equal values).
FiniteRange byScan(const std::vector<float>& x) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  FiniteRange r;
  for (float v : x) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, static_cast<double>(v));
    hi = std::max(hi, static_cast<double>(v));
    ++r.finite;
  }
  r.lo = static_cast<float>(lo);
  r.hi = static_cast<float>(hi);
  return r;
}

void expectSameRange(const FiniteRange& got, const FiniteRange& want, const std::string& what) {
  EXPECT_EQ(got.finite, want.finite) << what;
  if (want.finite == 0) return;
  EXPECT_EQ(got.lo, want.lo) << what;
  EXPECT_EQ(got.hi, want.hi) << what;
  EXPECT_EQ(std::signbit(got.lo), std::signbit(want.lo)) << what << ": the sign of a zero minimum";
  EXPECT_EQ(std::signbit(got.hi), std::signbit(want.hi)) << what << ": the sign of a zero maximum";
}

TEST(CalibrationBins, TheFiniteRangeIsTheScansSignedZerosIncluded) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<std::vector<float>> cases = {
      {},
      {nan, inf, -inf},
      {0.0f, -0.0f, 1.0f, 2.0f},
      {-0.0f, 0.0f, 1.0f},
      {-1.0f, 0.0f, -0.0f},
      {-1.0f, -0.0f, 0.0f},
      {nan, -0.0f, inf},
  };
  // Zeros of both signs past a vector's width, the first one late.
  std::vector<float> late(37, 3.0f);
  late[20] = -0.0f, late[33] = 0.0f, late[35] = nan;
  cases.push_back(late);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  for (size_t n : {1, 15, 16, 17, 31, 1000}) {
    std::vector<float> x(n);
    for (float& v : x) v = d(rng);
    x[n / 2] = -inf;
    cases.push_back(x);
  }
  for (size_t c = 0; c < cases.size(); ++c) {
    const auto& x = cases[c];
    expectSameRange(finiteRange(x.data(), x.size()), byScan(x), "case " + std::to_string(c));
    expectSameRange(finiteRangePortable(x.data(), x.size()), byScan(x),
                    "portable, case " + std::to_string(c));
  }
}

}  // namespace
}  // namespace passlab::passes::calibration_bins
