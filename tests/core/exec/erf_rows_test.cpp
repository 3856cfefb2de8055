// Erf and GELU rows (core/exec/cpu/erf_rows.h): every float in [-6, 6] on
// each path this machine has against double erf (within 8 ulp, 4e-7
// absolute), the special values, tails of every length, in place; GELU with
// and without a bias against its double formula; GELU (erfc form) on every
// path within kGeluMaxRel over a dense sweep and its special values; and the
// Erf and Gelu nodes on them against the expected values.
#include "core/exec/cpu/erf_rows.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

int64_t ulpsApart(float a, float b) {
  int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if (ia < 0) ia = std::numeric_limits<int32_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<int32_t>::min() - ib;
  return std::llabs(int64_t{ia} - ib);
}

// Floats in [-6, 6]: every 61st bit pattern (all 2.2e9 would take too long),
// which still visits each binade thousands of times.
std::vector<float> sweep() {
  std::vector<float> xs;
  for (float x = -6.0f; x < 6.0f;) {
    xs.push_back(x);
    int32_t bits;
    std::memcpy(&bits, &x, 4);
    bits += x < 0 ? -61 : 61;
    if (x < 0 && bits < 0 && (bits & 0x7fffffff) < 61) bits = 0;  // through zero
    std::memcpy(&x, &bits, 4);
    if (x < 0 && x > -1e-30f) x = 1e-30f;
  }
  return xs;
}

TEST(ErfRows, EveryPathWithinEightUlpOfErf) {
  const std::vector<float> xs = sweep();
  ASSERT_GT(xs.size(), 1000000u);
  for (const char* isa : {"avx512", "avx2", "scalar"}) {
    std::vector<float> y(xs.size());
    if (!cpu::erfRowOn(isa, xs.data(), y.data(), static_cast<int64_t>(xs.size()))) {
      std::printf("[ SKIPPED ] %s: not on this CPU\n", isa);
      continue;
    }
    int64_t worst = 0;
    double worstAbs = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const double want = std::erf(static_cast<double>(xs[i]));
      worst = std::max(worst, ulpsApart(y[i], static_cast<float>(want)));
      worstAbs = std::max(worstAbs, std::fabs(y[i] - want));
    }
    EXPECT_LE(worst, 8) << isa;
    EXPECT_LE(worstAbs, 4e-7) << isa;
  }
}

// The rational form overshot -1 near x = -3.7 (by 2 ulps), which made GELU
// of a negative x positive (x = -5.41: +3.2e-7 where the value is -1.7e-7;
// review, session 29): every path stays within [-1, 1], and GELU keeps the
// sign of x over the negative tail.
TEST(ErfRows, StaysWithinPlusMinusOneAndGeluKeepsTheSignOfX) {
  const std::vector<float> xs = sweep();
  for (const char* isa : {"avx512", "avx2", "scalar"}) {
    std::vector<float> y(xs.size());
    if (!cpu::erfRowOn(isa, xs.data(), y.data(), static_cast<int64_t>(xs.size()))) continue;
    for (size_t i = 0; i < xs.size(); ++i)
      ASSERT_TRUE(y[i] >= -1.0f && y[i] <= 1.0f) << isa << " erf(" << xs[i] << ") = " << y[i];
  }
  std::vector<float> x;
  for (float v = -12.0f; v < 0.0f; v = std::nextafter(v, 0.0f) + 1e-6f) x.push_back(v);
  std::vector<float> y(x.size());
  cpu::geluErfRow(x.data(), nullptr, 1, 0, y.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_LE(y[i], 0.0f) << "gelu(" << x[i] << ") = " << y[i];
}

TEST(ErfRows, SpecialValuesAndTails) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {
      inf, -inf, 10.0f, -10.0f, 0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN()};
  std::vector<float> y(x.size());
  cpu::erfRow(x.data(), y.data(), static_cast<int64_t>(x.size()));
  EXPECT_EQ(y[0], 1.0f);
  EXPECT_EQ(y[1], -1.0f);
  EXPECT_EQ(y[2], 1.0f);
  EXPECT_EQ(y[3], -1.0f);
  EXPECT_EQ(y[4], 0.0f);
  EXPECT_EQ(y[5], 0.0f);
  EXPECT_TRUE(std::isnan(y[6]));
  // Every length up to 40 (the masked and padded tails), in place.
  for (int64_t n = 1; n <= 40; ++n) {
    std::vector<float> v = testutil::pattern(static_cast<size_t>(n), static_cast<uint32_t>(n));
    for (float& e : v) e *= 3.0f;
    const std::vector<float> in = v;
    cpu::erfRow(v.data(), v.data(), n);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_NEAR(v[i], std::erf(static_cast<double>(in[i])), 4e-7) << "n " << n << " i " << i;
  }
}

TEST(ErfRows, GeluWithAndWithoutABias) {
  const int64_t n = 1000, nb = 7;
  const std::vector<float> x = testutil::pattern(n, 11), b = testutil::pattern(nb, 12);
  for (bool withBias : {false, true})
    for (int64_t first : {int64_t{0}, int64_t{3}}) {
      std::vector<float> y(n);
      cpu::geluErfRow(x.data(), withBias ? b.data() : nullptr, nb, first, y.data(), n);
      for (int64_t i = 0; i < n; ++i) {
        const double u = double(x[i]) + (withBias ? b[(first + i) % nb] : 0.0);
        const double want = 0.5 * u * (1.0 + std::erf(u / std::sqrt(2.0)));
        ASSERT_NEAR(y[i], want, 1e-6 * (1.0 + std::fabs(want)))
            << "bias " << withBias << " first " << first << " i " << i;
      }
    }
}

// GELU in double, in the erfc form (no cancellation for v < 0).
double geluRef(float v) {
  const double u = v;
  return 0.5 * u * std::erfc(-u / std::sqrt(2.0));
}

// v every 1e-4 in [-10, 10], every 1e-3 out to -16 (the subnormal results),
// and subnormal and tiny v.
std::vector<float> geluSweep() {
  std::vector<float> xs;
  for (int i = -100000; i <= 100000; ++i) xs.push_back(static_cast<float>(i * 1e-4));
  for (int i = -16000; i < -10000; ++i) xs.push_back(static_cast<float>(i * 1e-3));
  for (float v : {1e-45f, -1e-45f, 1e-40f, -1e-40f, 1.1754942e-38f, -1.1754942e-38f, 1e-30f,
                  -1e-30f, 1e-8f, -1e-8f})
    xs.push_back(v);
  return xs;
}

struct GeluErrors {
  double rel = 0, absNormal = 0, absSubnormal = 0;
  float worstV = 0;
};

GeluErrors geluErrors(const std::vector<float>& xs, const std::vector<float>& y) {
  GeluErrors e;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double want = geluRef(xs[i]), d = std::fabs(y[i] - want);
    if (std::fabs(want) >= std::numeric_limits<float>::min()) {
      if (d / std::fabs(want) > e.rel) e.rel = d / std::fabs(want), e.worstV = xs[i];
      e.absNormal = std::max(e.absNormal, d);
    } else {
      e.absSubnormal = std::max(e.absSubnormal, d);
    }
  }
  return e;
}

// Every path within kGeluMaxRel of GELU in double wherever the result is a
// normal float (the negative tail included), within kGeluMaxAbsSubnormal
// where it is subnormal.
TEST(ErfRows, GeluEveryPathWithinItsRelativeBoundOverADenseSweep) {
  const std::vector<float> xs = geluSweep();
  for (const char* isa : {"avx512", "avx2", "scalar"}) {
    std::vector<float> y(xs.size());
    if (!cpu::geluErfRowOn(isa, xs.data(), y.data(), static_cast<int64_t>(xs.size()))) {
      std::printf("[ SKIPPED ] %s: not on this CPU\n", isa);
      continue;
    }
    const GeluErrors e = geluErrors(xs, y);
    std::printf("[ GELU     ] %s: max relative %.2e (v = %g), max absolute %.2e, subnormal %.2e\n",
                isa, e.rel, static_cast<double>(e.worstV), e.absNormal, e.absSubnormal);
    EXPECT_LE(e.rel, cpu::kGeluMaxRel) << isa << " at v = " << e.worstV;
    EXPECT_LE(e.absSubnormal, cpu::kGeluMaxAbsSubnormal) << isa;
  }
}

// The bound is one the form 0.5 v (1 + erf(v / sqrt 2)) on erfRow misses
// (session 29: 3e-4 relative at v in [-3.5, -3]): the test above would fail
// on it.
TEST(ErfRows, GeluOnOnePlusErfMissesTheBound) {
  std::vector<float> xs, y;
  for (int i = -35000; i <= -30000; ++i) xs.push_back(static_cast<float>(i * 1e-4));
  y.resize(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) y[i] = xs[i] * static_cast<float>(std::sqrt(0.5));
  cpu::erfRow(y.data(), y.data(), static_cast<int64_t>(y.size()));
  for (size_t i = 0; i < xs.size(); ++i) y[i] = 0.5f * xs[i] * (1.0f + y[i]);
  EXPECT_GT(geluErrors(xs, y).rel, 10 * cpu::kGeluMaxRel);
}

TEST(ErfRows, GeluSpecialValuesOnEveryPath) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {
      inf,   -inf,   0.0f,   -0.0f,  std::numeric_limits<float>::quiet_NaN(),
      30.0f, -30.0f, 1e-45f, -1e-45f};
  for (const char* isa : {"avx512", "avx2", "scalar"}) {
    std::vector<float> y(x.size(), 7.0f);
    if (!cpu::geluErfRowOn(isa, x.data(), y.data(), static_cast<int64_t>(x.size()))) continue;
    EXPECT_EQ(y[0], inf) << isa;
    EXPECT_TRUE(std::isnan(y[1])) << isa << ": GELU(-inf) is the formula's NaN";
    EXPECT_EQ(y[2], 0.0f) << isa;
    EXPECT_FALSE(std::signbit(y[2])) << isa;
    EXPECT_EQ(y[3], 0.0f) << isa;
    EXPECT_TRUE(std::signbit(y[3])) << isa << ": GELU(-0) is -0";
    EXPECT_TRUE(std::isnan(y[4])) << isa;
    EXPECT_EQ(y[5], 30.0f) << isa;
    EXPECT_EQ(y[6], 0.0f) << isa;
    EXPECT_TRUE(std::signbit(y[6])) << isa;
    EXPECT_NEAR(y[7], geluRef(x[7]), 1.5e-45) << isa;
    EXPECT_NEAR(y[8], geluRef(x[8]), 1.5e-45) << isa;
  }
  // Every length up to 40 (the masked and padded tails), in place.
  for (int64_t n = 1; n <= 40; ++n) {
    std::vector<float> v = testutil::pattern(static_cast<size_t>(n), static_cast<uint32_t>(n));
    for (float& e : v) e *= 6.0f;
    const std::vector<float> in = v;
    cpu::geluErfRow(v.data(), nullptr, 1, 0, v.data(), n);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_NEAR(v[i], geluRef(in[i]), cpu::kGeluMaxRel * std::fabs(geluRef(in[i])) + 1e-30)
          << "n " << n << " i " << i;
  }
}

TEST(ErfRows, ErfAndGeluNodesTakeThem) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 20]>
main (float[3,37] x) => (float[3,37] e, float[3,37] g) {
  e = Erf(x)
  g = Gelu(x)
})";
  std::vector<float> x = testutil::pattern(3 * 37, 13);
  for (float& v : x) v *= 4.0f;
  RunResult r = testutil::runText(text, {{"x", testutil::floats({3, 37}, x)}});
  ASSERT_EQ(r.outputs.size(), 2u);
  const auto e = testutil::toFloats(r.outputs[0]), g = testutil::toFloats(r.outputs[1]);
  for (size_t i = 0; i < x.size(); ++i) {
    const double u = x[i];
    ASSERT_NEAR(e[i], std::erf(u), 4e-7) << i;
    ASSERT_NEAR(g[i], 0.5 * u * (1.0 + std::erf(u / std::sqrt(2.0))), 2e-6) << i;
  }
}

}  // namespace
}  // namespace passlab::exec
