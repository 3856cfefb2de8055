// sigmoidRow, tanhRow and expRow (core/exec/cpu/sigmoid_rows.h): every instruction-set
// path against the formulas in double over the whole float range (a stride
// through all bit patterns, a dense sweep of [-120, 120], the subnormal
// Sigmoid results below -87, tiny and huge |x|), in ulp; +-0, +-inf and NaN
// exactly; lengths around the vector widths (tails); in place.
#include "core/exec/cpu/sigmoid_rows.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace passlab::exec::cpu {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int64_t kMaxUlp = 4;

using RowFn = bool (*)(std::string_view, const float*, float*, int64_t);

// Position on the number line in ulp steps (-0 and +0 are the same point).
int64_t ulpIndex(float f) {
  int32_t i;
  std::memcpy(&i, &f, sizeof i);
  return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : i;
}

std::vector<float> wideInputs() {
  std::vector<float> x;
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 9973) {
    const uint32_t u = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &u, sizeof f);
    if (!std::isnan(f)) x.push_back(f);
  }
  for (int i = 0; i <= 200000; ++i) x.push_back(-120.0f + 240.0f * static_cast<float>(i) / 200000);
  for (float f : {-87.0f, -88.7f, -95.0f, -100.0f, -103.0f, -103.9f, -104.0f, -105.0f, -200.0f,
                  1e-30f, -1e-30f, 1e-45f, -1e-45f, 1e-8f, 8.9f, 9.1f, 17.0f, 1e30f, -1e30f})
    x.push_back(f);
  return x;
}

double sigmoidRef(double v) {
  return 1 / (1 + std::exp(-v));
}
double tanhRef(double v) {
  return std::tanh(v);
}
double expRef(double v) {
  return std::exp(v);
}

// Runs one path; false when this machine lacks it.
bool runPath(RowFn fn, const char* isa, const std::vector<float>& x, std::vector<float>* y) {
  y->assign(x.size(), -7.0f);
  return fn(isa, x.data(), y->data(), static_cast<int64_t>(x.size()));
}

void expectWithinUlp(RowFn fn, double (*ref)(double), const char* name) {
  const std::vector<float> x = wideInputs();
  int pathsRun = 0;
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    std::vector<float> y;
    if (!runPath(fn, isa, x, &y)) continue;
    ++pathsRun;
    int64_t worst = 0;
    float worstX = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const int64_t d = std::llabs(ulpIndex(static_cast<float>(ref(x[i]))) - ulpIndex(y[i]));
      if (d > worst) worst = d, worstX = x[i];
    }
    EXPECT_LE(worst, kMaxUlp) << name << " " << isa << ": worst at x = " << worstX;
  }
  EXPECT_GE(pathsRun, 1);
}

TEST(SigmoidRows, SigmoidIsWithinAFewUlpOnEveryPath) {
  expectWithinUlp(sigmoidRowOn, sigmoidRef, "sigmoid");
}

TEST(SigmoidRows, TanhIsWithinAFewUlpOnEveryPath) {
  expectWithinUlp(tanhRowOn, tanhRef, "tanh");
}

TEST(SigmoidRows, ExpIsWithinAFewUlpOnEveryPath) {
  expectWithinUlp(expRowOn, expRef, "exp");
}

TEST(SigmoidRows, ExpSpecialValuesAreExact) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {0.0f, -0.0f, kInf, -kInf, nan, 1e30f, -1e30f, 89.0f, -103.0f};
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    std::vector<float> e;
    if (!runPath(expRowOn, isa, x, &e)) continue;
    EXPECT_EQ(e[0], 1.0f) << isa;
    EXPECT_EQ(e[1], 1.0f) << isa;
    EXPECT_EQ(e[2], kInf) << isa;
    EXPECT_EQ(e[3], 0.0f) << isa;
    EXPECT_TRUE(std::isnan(e[4])) << isa;
    EXPECT_EQ(e[5], kInf) << isa;
    EXPECT_EQ(e[6], 0.0f) << isa;
    EXPECT_EQ(e[7], kInf) << isa;  // exp(89) = 4.5e38 > FLT_MAX
    EXPECT_GT(e[8], 0.0f) << isa;  // exp(-103) = 1.9e-45: the smallest subnormal
  }
}

TEST(SigmoidRows, ExpShiftedSumIsExpOfTheDifferenceAndItsSumOnEveryPath) {
  std::vector<float> x;
  for (int i = 0; i < 1000; ++i) x.push_back(-30.0f + 0.0537f * static_cast<float>(i));
  const float shift = 3.25f;
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    for (int64_t n : {0, 1, 5, 8, 16, 17, 999, 1000}) {
      std::vector<float> y(x.size(), -7.0f);
      float sum = -1;
      if (!expShiftedSumRowOn(isa, x.data(), shift, y.data(), n, &sum)) break;
      double want = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double e = std::exp(static_cast<double>(x[i] - shift));
        want += e;
        EXPECT_LE(std::llabs(ulpIndex(static_cast<float>(e)) - ulpIndex(y[i])), kMaxUlp)
            << isa << " i=" << i;
      }
      for (size_t i = static_cast<size_t>(n); i < y.size(); ++i) ASSERT_EQ(y[i], -7.0f) << isa;
      EXPECT_NEAR(sum, want, 1e-5 * want + 1e-30) << isa << " n=" << n;
      // Without y: the same sum, bit for bit.
      float only = -1;
      ASSERT_TRUE(expShiftedSumRowOn(isa, x.data(), shift, nullptr, n, &only));
      EXPECT_EQ(only, sum) << isa << " n=" << n;
    }
  }
}

TEST(SigmoidRows, SpecialValuesAreExact) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {0.0f, -0.0f, kInf, -kInf, nan, -nan, 1e30f, -1e30f};
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    std::vector<float> s, t;
    if (!runPath(sigmoidRowOn, isa, x, &s)) continue;
    ASSERT_TRUE(runPath(tanhRowOn, isa, x, &t));
    EXPECT_EQ(s[0], 0.5f) << isa;
    EXPECT_EQ(s[1], 0.5f) << isa;
    EXPECT_EQ(s[2], 1.0f) << isa;
    EXPECT_EQ(s[3], 0.0f) << isa;
    EXPECT_TRUE(std::isnan(s[4]) && std::isnan(s[5])) << isa;
    EXPECT_EQ(s[6], 1.0f) << isa;
    EXPECT_EQ(s[7], 0.0f) << isa;
    EXPECT_EQ(t[0], 0.0f) << isa;
    EXPECT_FALSE(std::signbit(t[0])) << isa;
    EXPECT_EQ(t[1], 0.0f) << isa;
    EXPECT_TRUE(std::signbit(t[1])) << isa;
    EXPECT_EQ(t[2], 1.0f) << isa;
    EXPECT_EQ(t[3], -1.0f) << isa;
    EXPECT_TRUE(std::isnan(t[4]) && std::isnan(t[5])) << isa;
    EXPECT_EQ(t[6], 1.0f) << isa;
    EXPECT_EQ(t[7], -1.0f) << isa;
  }
}

TEST(SigmoidRows, SubnormalSigmoidResultsAreKept) {
  // Sigmoid(-95) = 5.5e-42, a subnormal float: not flushed to 0.
  const std::vector<float> x = {-95.0f, -100.0f};
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    std::vector<float> y;
    if (!runPath(sigmoidRowOn, isa, x, &y)) continue;
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_GT(y[i], 0.0f) << isa << " x = " << x[i];
      EXPECT_LE(std::llabs(ulpIndex(static_cast<float>(sigmoidRef(x[i]))) - ulpIndex(y[i])), 1)
          << isa << " x = " << x[i];
    }
  }
}

TEST(SigmoidRows, TailsAndInPlaceMatchTheFullRow) {
  std::vector<float> x(40);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.37f - 7.0f;
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    for (RowFn fn : {sigmoidRowOn, tanhRowOn, expRowOn}) {
      std::vector<float> full;
      if (!runPath(fn, isa, x, &full)) continue;
      for (int64_t n : {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33}) {
        std::vector<float> y(x.size(), -7.0f);
        ASSERT_TRUE(fn(isa, x.data(), y.data(), n));
        for (int64_t i = 0; i < n; ++i) EXPECT_EQ(y[i], full[i]) << isa << " n=" << n << " i=" << i;
        for (size_t i = static_cast<size_t>(n); i < y.size(); ++i)
          EXPECT_EQ(y[i], -7.0f) << isa << " wrote past n=" << n;
        std::vector<float> inPlace(x.begin(), x.begin() + n);
        ASSERT_TRUE(fn(isa, inPlace.data(), inPlace.data(), n));
        for (int64_t i = 0; i < n; ++i) EXPECT_EQ(inPlace[i], full[i]) << isa << " in place";
      }
    }
  }
}

TEST(SigmoidRows, DispatchUsesADetectedPathAndRejectsUnknownOnes) {
  const std::string isa = sigmoidRowsIsa();
  EXPECT_TRUE(isa == "avx512" || isa == "avx2" || isa == "sse2") << isa;
  const float x[3] = {-1.0f, 0.25f, 3.0f};
  float a[3], b[3];
  sigmoidRow(x, a, 3);
  ASSERT_TRUE(sigmoidRowOn(isa, x, b, 3));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a[i], b[i]);
  tanhRow(x, a, 3);
  ASSERT_TRUE(tanhRowOn(isa, x, b, 3));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a[i], b[i]);
  expRow(x, a, 3);
  ASSERT_TRUE(expRowOn(isa, x, b, 3));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a[i], b[i]);
  EXPECT_FALSE(sigmoidRowOn("sse9", x, a, 3));
  EXPECT_FALSE(tanhRowOn("neon", x, a, 3));
}

}  // namespace
}  // namespace passlab::exec::cpu
