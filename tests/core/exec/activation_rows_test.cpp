// mishRow, eluRow, softplusRow, logRow and geluTanhRow (core/exec/cpu/activation_rows.h) against
// the formulas in double over the whole float range (a stride through all bit patterns, a dense
// sweep of [-120, 120], the subnormal Mish results below -87), in ulp;
// +-0, +-inf and NaN as the std:: formulas; in place. Suite Activations, so
// the isa_avx2 / isa_sse2 runs take expRow's other paths.
#include "core/exec/cpu/activation_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace passlab::exec::cpu {
namespace {

// Position on the number line in ulp steps (-0 and +0 are the same point).
int64_t ulpIndex(float f) {
  int32_t i;
  std::memcpy(&i, &f, sizeof i);
  return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : i;
}

std::vector<float> rowInputs() {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  std::vector<float> x;
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 9973) {
    const auto u = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &u, sizeof f);
    if (!std::isnan(f)) x.push_back(f);
  }
  for (int i = 0; i <= 200000; ++i) x.push_back(-120.0f + 240.0f * static_cast<float>(i) / 200000);
  for (float f :
       {-86.9f,   -87.0f,  -87.1f,  -91.5f, -100.0f, -103.9f,
        -104.0f,  -110.0f, 19.9f,   20.0f,  20.1f,   44.0f,
        89.0f,    1e-30f,  -1e-30f, 1e-45f, -1e-45f, -0.6931f,
        -0.6932f, 0.0f,    -0.0f,   kInf,   -kInf,   std::numeric_limits<float>::quiet_NaN()})
    x.push_back(f);
  return x;
}

double mishRef(double v) {
  const double sp = v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
  return v * std::tanh(sp);
}

// The largest ulp distance from ref; NaN must meet NaN and infinities match.
template <class Ref>
int64_t worstUlp(const std::vector<float>& x, const std::vector<float>& y, Ref ref,
                 float* worstAt) {
  int64_t worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const auto want = static_cast<float>(ref(static_cast<double>(x[i])));
    if (std::isnan(want) || std::isnan(y[i])) {
      EXPECT_EQ(std::isnan(want), std::isnan(y[i])) << "x = " << x[i] << ": " << y[i];
      continue;
    }
    if (std::isinf(want) || std::isinf(y[i])) {
      EXPECT_EQ(want, y[i]) << "x = " << x[i];
      continue;
    }
    if (want == 0) EXPECT_EQ(std::signbit(want), std::signbit(y[i])) << "x = " << x[i];
    const int64_t d = std::llabs(ulpIndex(y[i]) - ulpIndex(want));
    if (d > worst) {
      worst = d;
      *worstAt = x[i];
    }
  }
  return worst;
}

TEST(Activations, MishRowWithinUlpOfDouble) {
  const std::vector<float> x = rowInputs();
  std::vector<float> y(x.size(), -7.0f);
  mishRow(x.data(), y.data(), static_cast<int64_t>(x.size()));
  float at = 0;
  EXPECT_LE(worstUlp(x, y, mishRef, &at), kMishMaxUlp) << "at x = " << at;
  // In place, and lengths around the block and vector widths.
  for (int64_t n : {1, 7, 15, 17, 255, 256, 257, 513}) {
    std::vector<float> a(x.begin() + 1000, x.begin() + 1000 + n), b(a.size());
    mishRow(a.data(), b.data(), n);
    mishRow(a.data(), a.data(), n);
    for (int64_t i = 0; i < n; ++i)
      EXPECT_EQ(ulpIndex(a[static_cast<size_t>(i)]), ulpIndex(b[static_cast<size_t>(i)]));
  }
}

TEST(Activations, SoftplusRowWithinUlpOfDouble) {
  const std::vector<float> x = rowInputs();
  std::vector<float> y(x.size(), -7.0f);
  softplusRow(x.data(), y.data(), static_cast<int64_t>(x.size()));
  auto ref = [](double v) {
    return v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
  };
  float at = 0;
  EXPECT_LE(worstUlp(x, y, ref, &at), kSoftplusMaxUlp) << "at x = " << at;
  for (int64_t n : {1, 7, 15, 17, 255, 256, 257, 513}) {
    std::vector<float> a(x.begin() + 1000, x.begin() + 1000 + n), b(a.size());
    softplusRow(a.data(), b.data(), n);
    softplusRow(a.data(), a.data(), n);
    for (int64_t i = 0; i < n; ++i)
      EXPECT_EQ(ulpIndex(a[static_cast<size_t>(i)]), ulpIndex(b[static_cast<size_t>(i)]));
  }
}

TEST(Activations, EluRowWithinUlpOfDouble) {
  const std::vector<float> x = rowInputs();
  for (float alpha : {1.0f, 0.3f, 2.5f}) {
    std::vector<float> y(x.size(), -7.0f);
    eluRow(x.data(), alpha, y.data(), static_cast<int64_t>(x.size()));
    float at = 0;
    auto ref = [alpha](double v) { return v < 0 ? static_cast<double>(alpha) * std::expm1(v) : v; };
    EXPECT_LE(worstUlp(x, y, ref, &at), kEluMaxUlp) << "alpha " << alpha << " at x = " << at;
  }
  std::vector<float> a = {-1, -0.5f, 0.25f, -3};
  eluRow(a.data(), 1.0f, a.data(), 4);
  EXPECT_NEAR(a[0], std::expm1(-1.0), 1e-7);
  EXPECT_EQ(a[2], 0.25f);
}

// Elu's special values in every lane of a full vector and of a masked tail
// (n = 19), against alpha expm1(x) in double: -0 and NaN kept, -inf to
// -alpha, subnormals to alpha x, large negatives to -alpha.
TEST(Activations, EluRowSpecialValuesAtEveryLane) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float specials[] = {0.0f,
                            -0.0f,
                            -kInf,
                            kInf,
                            std::numeric_limits<float>::quiet_NaN(),
                            1e-45f,
                            -1e-45f,
                            3e-39f,
                            -3e-39f,
                            -std::numeric_limits<float>::min(),
                            -1e-7f,
                            -0.69f,
                            -19.9f,
                            -20.0f,
                            -20.5f,
                            -88.0f,
                            -104.0f,
                            -1e30f,
                            -std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::max()};
  const float alpha = 0.7f;
  auto ref = [alpha](float v) {
    const double d = v;
    return static_cast<float>(d < 0 ? static_cast<double>(alpha) * std::expm1(d) : d);
  };
  for (float s : specials)
    for (int64_t n : {16, 19}) {
      for (int64_t at = 0; at < n; ++at) {
        std::vector<float> a(static_cast<size_t>(n), -2.0f), b(a.size(), -7.0f);
        a[static_cast<size_t>(at)] = s;
        eluRow(a.data(), alpha, b.data(), n);
        const float want = ref(s), got = b[static_cast<size_t>(at)];
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got)) << "elu(" << s << ") at " << at << ": " << got;
        } else if (std::isinf(want)) {
          EXPECT_EQ(got, want) << "elu(" << s << ") at " << at;
        } else {
          if (want == 0) {
            EXPECT_EQ(std::signbit(got), std::signbit(want)) << "elu(" << s << ")";
          }
          EXPECT_LE(std::llabs(ulpIndex(got) - ulpIndex(want)), kEluMaxUlp)
              << "elu(" << s << ") at " << at << ": " << got << " vs " << want;
        }
        const float other = b[static_cast<size_t>(at == 0 ? 1 : 0)];
        EXPECT_LE(std::llabs(ulpIndex(other) - ulpIndex(ref(-2.0f))), kEluMaxUlp);
      }
    }
}

TEST(Activations, LogRowWithinUlpOfDouble) {
  const std::vector<float> x = rowInputs();  // negatives give NaN, +-0 -inf
  std::vector<float> y(x.size(), -7.0f);
  logRow(x.data(), y.data(), static_cast<int64_t>(x.size()));
  float at = 0;
  EXPECT_LE(worstUlp(
                x, y, [](double v) { return std::log(v); }, &at),
            kLogMaxUlp)
      << "at x = " << at;
  for (int64_t n : {1, 3, 5, 6, 7}) {  // tails
    std::vector<float> a(x.begin() + 2000, x.begin() + 2000 + n), b(a.size());
    logRow(a.data(), b.data(), n);
    for (int64_t i = 0; i < n; ++i) {
      const float want = std::log(a[static_cast<size_t>(i)]);
      if (!std::isnan(want))
        EXPECT_LE(std::llabs(ulpIndex(b[static_cast<size_t>(i)]) - ulpIndex(want)), kLogMaxUlp);
    }
  }
}

// The special inputs at every lane of a vector and in a row's tail: +-0 ->
// -inf, negatives (-inf, -denormal) -> NaN, +inf -> +inf, NaN -> NaN, the
// denormals and FLT_MIN within kLogMaxUlp of std::log.
TEST(Activations, LogRowSpecialValuesAtEveryLane) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float specials[] = {0.0f,
                            -0.0f,
                            -1.0f,
                            -kInf,
                            kInf,
                            std::numeric_limits<float>::quiet_NaN(),
                            1e-45f,
                            -1e-45f,
                            3e-39f,
                            std::numeric_limits<float>::min(),
                            std::numeric_limits<float>::max(),
                            1.0f};
  for (float s : specials)
    for (int64_t n : {16, 19}) {
      for (int64_t at = 0; at < n; ++at) {
        std::vector<float> a(static_cast<size_t>(n), 2.0f), b(a.size(), -7.0f);
        a[static_cast<size_t>(at)] = s;
        logRow(a.data(), b.data(), n);
        const float want = std::log(s), got = b[static_cast<size_t>(at)];
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got)) << "log(" << s << ") at " << at << ": " << got;
        } else if (std::isinf(want)) {
          EXPECT_EQ(got, want) << "log(" << s << ") at " << at;
        } else {
          EXPECT_LE(std::llabs(ulpIndex(got) - ulpIndex(want)), kLogMaxUlp)
              << "log(" << s << ") at " << at << ": " << got << " vs " << want;
        }
        const float other = b[static_cast<size_t>(at == 0 ? 1 : 0)];
        EXPECT_LE(std::llabs(ulpIndex(other) - ulpIndex(std::log(2.0f))), kLogMaxUlp);
      }
    }
}

// geluTanhRow against the formula in double: within kGeluTanhMaxAbs +
// kGeluTanhMaxRel |y| (the 1 + tanh cancels below x = -3, so an absolute part;
// x^3 overflows float above 7e12, where the result is x all the same); +-0 keeps its sign,
// +inf -> +inf, -inf and NaN -> NaN (0.5 (-inf) (1 + -1)); on every path
// this machine has (one pass on AVX-512 and AVX2); in place alike.
TEST(Activations, GeluTanhRowWithinToleranceOfDouble) {
  const std::vector<float> x = rowInputs();
  for (const char* isa : {"avx512", "avx2", "sse2"}) {
    std::vector<float> y(x.size(), -7.0f);
    if (!geluTanhRowOn(isa, x.data(), y.data(), static_cast<int64_t>(x.size()))) continue;
    auto ref = [](double v) {
      return 0.5 * v * (1 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    };
    double worstExcess = 0, worstAbs = 0, worstRel = 0;
    float at = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const float v = x[i];
      if (std::isnan(v) || std::isinf(v)) {
        const float want = static_cast<float>(ref(v));  // NaN for -inf, +inf for +inf
        if (std::isnan(want))
          EXPECT_TRUE(std::isnan(y[i])) << isa << " x = " << v << ": " << y[i];
        else
          EXPECT_EQ(y[i], want) << isa << " x = " << v;
        continue;
      }
      const double want = ref(v);
      ASSERT_FALSE(std::isnan(y[i])) << isa << " x = " << v;
      if (v == 0) EXPECT_EQ(std::signbit(y[i]), std::signbit(v)) << isa << " x = " << v;
      const double err = std::fabs(y[i] - want);
      const double excess = err / (kGeluTanhMaxAbs + kGeluTanhMaxRel * std::fabs(want));
      worstAbs = std::max(worstAbs, err);
      if (std::fabs(want) >= 1e-3) worstRel = std::max(worstRel, err / std::fabs(want));
      if (excess > worstExcess) {
        worstExcess = excess;
        at = v;
      }
    }
    std::printf("[ GELUTANH ] %s: max abs %.2e, max rel (|y| >= 1e-3) %.2e\n", isa, worstAbs,
                worstRel);
    EXPECT_LE(worstExcess, 1.0) << isa << " at x = " << at << " (largest abs error " << worstAbs
                                << ", relative where |y| >= 1e-3 " << worstRel << ")";
  }
  for (int64_t n : {1, 7, 15, 17, 255, 256, 257, 513}) {
    std::vector<float> a(x.begin() + 3000, x.begin() + 3000 + n), b(a.size());
    geluTanhRow(a.data(), b.data(), n);
    geluTanhRow(a.data(), a.data(), n);
    for (int64_t i = 0; i < n; ++i)
      EXPECT_EQ(ulpIndex(a[static_cast<size_t>(i)]), ulpIndex(b[static_cast<size_t>(i)]));
  }
}

}  // namespace
}  // namespace passlab::exec::cpu
