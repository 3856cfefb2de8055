// com.microsoft FastGelu on float32 (contrib_gelu.cpp: geluTanhRow, X + bias
// a block of 256 elements at a time): every element against the double
// formula, over a tensor longer than a block with a tail, with and without
// the bias, on one and two threads; and relative to the double formula on
// the negative tail, where 1 + tanh(u) in float cancels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

std::vector<float> pattern(size_t n, uint32_t seed, float scale) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 1u;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = scale * (static_cast<float>((s >> 8) % 20001) / 10000.0f - 1.0f);
  }
  return v;
}

double fastGelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

TEST(FastGeluFloat, MatchesTheDoubleFormula) {
  const int64_t rows = 7, cols = 131;  // 917 elements: three blocks and a tail
  auto x = pattern(static_cast<size_t>(rows * cols), 1, 9.0f);
  x[0] = 0.0f;
  x[1] = 1e-6f;
  x[2] = -30.0f;
  x[3] = 30.0f;
  auto b = pattern(static_cast<size_t>(cols), 2, 0.5f);
  for (bool withBias : {false, true})
    for (int threads : {1, 2}) {
      const std::string text =
          "<ir_version: 8, opset_import: [\"\" : 14, \"com.microsoft\" : 1]>\nmain (float[7,131] "
          "x" +
          std::string(withBias ? ", float[131] b" : "") +
          ") => (float[7,131] y) {\n  y = com.microsoft.FastGelu(x" + (withBias ? ", b" : "") +
          ")\n}";
      NamedInputs in = {{"x", testutil::floats({rows, cols}, x)}};
      if (withBias) in.emplace_back("b", testutil::floats({cols}, b));
      RunOptions run;
      run.threads = threads;
      RunResult r = testutil::runText(text, in, ExecutorOptions{}, run);
      ASSERT_EQ(r.outputs.size(), 1u);
      auto y = testutil::toFloats(r.outputs[0]);
      for (int64_t i = 0; i < rows * cols; ++i) {
        const double v = double(x[i]) + (withBias ? double(b[i % cols]) : 0.0);
        const double want = fastGelu(static_cast<float>(v));
        ASSERT_NEAR(y[i], want, 3e-6 + 4e-7 * std::fabs(want))
            << "element " << i << " x=" << v << (withBias ? " with bias" : "") << ", " << threads
            << " threads";
      }
    }
}

// Below x = -3, 0.5 x (1 + tanh(u)) in float keeps only the bits of 1 + tanh
// above 2^-24 (about 1e-3 relative at x = -4, all of it by x = -5.5):
// x sigmoid(2u) keeps the result's relative accuracy. X + bias over [-9, -3].
TEST(FastGeluFloat, NegativeTailIsRelativelyAccurate) {
  const int64_t n = 4096;
  std::vector<float> x(static_cast<size_t>(n)), b = {0.25f, -0.5f};
  for (int64_t i = 0; i < n; ++i) x[i] = -3.25f - 5.5f * static_cast<float>(i) / n;
  const std::string text =
      "<ir_version: 8, opset_import: [\"\" : 14, \"com.microsoft\" : 1]>\nmain (float[2048,2] x, "
      "float[2] b) => (float[2048,2] y) {\n  y = com.microsoft.FastGelu(x, b)\n}";
  RunResult r = testutil::runText(
      text, {{"x", testutil::floats({n / 2, 2}, x)}, {"b", testutil::floats({2}, b)}});
  ASSERT_EQ(r.outputs.size(), 1u);
  auto y = testutil::toFloats(r.outputs[0]);
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i] + b[i % 2];
    ASSERT_LE(v, -3.0f);
    const double u = 0.7978845608028654 * (v + 0.044715 * double(v) * v * v);
    const double want = v / (1.0 + std::exp(-2.0 * u));  // fastGelu(v) without the cancellation
    ASSERT_LT(want, 0.0);
    worst = std::max(worst, std::fabs(y[i] - want) / -want);
  }
  EXPECT_LE(worst, 1e-5);
}

}  // namespace
}  // namespace passlab::exec
