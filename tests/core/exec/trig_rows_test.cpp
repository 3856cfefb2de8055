// Sin and Cos rows (core/exec/cpu/trig_rows.h): on each path this machine has
// against double sin / cos, over [-10, 10] densely and out to |x| = 1e5
// (the vector range), the special values, lanes past the range mixed into a
// vector, tails of every length, in place; and the Sin and Cos nodes on them.
#include "core/exec/cpu/trig_rows.h"

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

// x every 1e-4 in [-10, 10], then every 4099th float from 10 to 1e5 on both
// sides, and tiny and subnormal x.
std::vector<float> sweep() {
  std::vector<float> xs;
  for (int i = -100000; i <= 100000; ++i) xs.push_back(static_cast<float>(i * 1e-4));
  for (float x = 10.0f; x <= 1e5f;) {
    xs.push_back(x);
    xs.push_back(-x);
    int32_t bits;
    std::memcpy(&bits, &x, 4);
    bits += 4099;
    std::memcpy(&x, &bits, 4);
  }
  for (float v : {1e-45f, -1e-45f, 1e-38f, -1e-38f, 1e-20f, -1e-20f, 3e-4f, 1e5f, -1e5f})
    xs.push_back(v);
  return xs;
}

using RowOn = bool (*)(std::string_view, const float*, float*, int64_t);

struct Case {
  const char* name;
  RowOn row;
  double (*ref)(double);
};

const Case kCases[] = {{"sin", cpu::sinRowOn, [](double v) { return std::sin(v); }},
                       {"cos", cpu::cosRowOn, [](double v) { return std::cos(v); }}};

TEST(TrigRows, EveryPathWithinItsBoundOfDouble) {
  const std::vector<float> xs = sweep();
  for (const Case& c : kCases)
    for (const char* isa : {"avx512", "avx2", "scalar"}) {
      std::vector<float> y(xs.size());
      if (!c.row(isa, xs.data(), y.data(), static_cast<int64_t>(xs.size()))) {
        std::printf("[ SKIPPED ] %s %s: not on this CPU\n", c.name, isa);
        continue;
      }
      double worst = 0;
      float at = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        const double d = std::fabs(y[i] - c.ref(xs[i]));
        if (d > worst) worst = d, at = xs[i];
      }
      std::printf("[ TRIG     ] %s %s: max absolute %.2e at x = %g\n", c.name, isa, worst,
                  static_cast<double>(at));
      EXPECT_LE(worst, cpu::kTrigMaxAbs) << c.name << " " << isa << " at x = " << at;
    }
}

// +-0 (sin keeps the sign), +-inf and NaN, and lanes past the vector range
// among ordinary ones (libm there), in place: each result as libm's within
// the bound.
TEST(TrigRows, SpecialValuesAndFarLanesInPlace) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {0.0f,   -0.0f, inf,   -inf, std::numeric_limits<float>::quiet_NaN(),
                                1.0f,   2e5f,  -3e7f, 2.0f, 1e30f,
                                -1e38f, 3.0f,  4.0f,  5.0f, 6.0f,
                                7.0f,   8.0f,  1e6f};
  for (const Case& c : kCases)
    for (const char* isa : {"avx512", "avx2", "scalar"}) {
      std::vector<float> y = x;
      if (!c.row(isa, y.data(), y.data(), static_cast<int64_t>(y.size()))) continue;
      for (size_t i = 0; i < x.size(); ++i) {
        const double want = c.ref(x[i]);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(y[i])) << c.name << " " << isa << " x = " << x[i];
          continue;
        }
        EXPECT_LE(std::fabs(y[i] - want), cpu::kTrigMaxAbs)
            << c.name << " " << isa << " x = " << x[i];
      }
      EXPECT_EQ(std::signbit(y[1]), std::string(c.name) == "sin") << isa << ": sin(-0) = -0";
    }
}

TEST(TrigRows, TailsOfEveryLengthInPlace) {
  for (int64_t n = 1; n <= 40; ++n) {
    std::vector<float> v = testutil::pattern(static_cast<size_t>(n), static_cast<uint32_t>(n));
    for (float& e : v) e *= 50.0f;
    const std::vector<float> in = v;
    std::vector<float> c(v.size());
    cpu::cosRow(v.data(), c.data(), n);
    cpu::sinRow(v.data(), v.data(), n);
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_NEAR(v[i], std::sin(double(in[i])), cpu::kTrigMaxAbs) << "n " << n << " i " << i;
      ASSERT_NEAR(c[i], std::cos(double(in[i])), cpu::kTrigMaxAbs) << "n " << n << " i " << i;
    }
  }
}

TEST(TrigRows, SinAndCosNodesTakeThem) {
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 20]>
main (float[3,37] x) => (float[3,37] s, float[3,37] c) {
  s = Sin(x)
  c = Cos(x)
})";
  std::vector<float> x = testutil::pattern(3 * 37, 17);
  for (float& v : x) v *= 100.0f;
  RunResult r = testutil::runText(text, {{"x", testutil::floats({3, 37}, x)}});
  ASSERT_EQ(r.outputs.size(), 2u);
  const auto s = testutil::toFloats(r.outputs[0]), c = testutil::toFloats(r.outputs[1]);
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_NEAR(s[i], std::sin(double(x[i])), cpu::kTrigMaxAbs) << i;
    ASSERT_NEAR(c[i], std::cos(double(x[i])), cpu::kTrigMaxAbs) << i;
  }
}

}  // namespace
}  // namespace passlab::exec
