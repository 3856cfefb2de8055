// LRN (cpu.LRN) against its formula in double: y = x / (bias + alpha / size
// * sum of x^2 over the channel window)^beta, the window [c - (size-1)/2,
// c + size/2] clipped at the ends. beta 0.75 (the square-root path) and
// other betas (std::pow), odd and even sizes, planes of 1 and 55x55.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

std::vector<double> lrnReference(const std::vector<float>& x, int64_t N, int64_t C, int64_t inner,
                                 int64_t size, double alpha, double beta, double bias) {
  std::vector<double> y(x.size());
  const int64_t before = (size - 1) / 2, after = size - 1 - before;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t i = 0; i < inner; ++i) {
        double sum = 0;
        for (int64_t cc = std::max<int64_t>(0, c - before); cc <= std::min(C - 1, c + after);
             ++cc) {
          const double v = x[static_cast<size_t>((n * C + cc) * inner + i)];
          sum += v * v;
        }
        const size_t at = static_cast<size_t>((n * C + c) * inner + i);
        y[at] = x[at] / std::pow(bias + alpha / static_cast<double>(size) * sum, beta);
      }
  return y;
}

struct LrnCase {
  int64_t N, C, H, W, size;
  float alpha, beta, bias;
};

TEST(Lrn, MatchesTheFormulaInDouble) {
  const LrnCase cases[] = {
      {1, 96, 55, 55, 5, 1e-4f, 0.75f, 1.0f},  // AlexNet's first
      {1, 16, 9, 7, 5, 5e-4f, 0.75f, 2.0f},    // ZFNet's parameters
      {2, 7, 3, 3, 4, 0.3f, 0.75f, 1.0f},      // even size, large alpha
      {1, 5, 1, 1, 3, 0.5f, 0.6f, 1.5f},       // std::pow
      {2, 12, 6, 5, 5, 2.0f, 1.0f, 0.5f},      // beta 1
  };
  for (const LrnCase& lc : cases) {
    SCOPED_TRACE("C=" + std::to_string(lc.C) + " size=" + std::to_string(lc.size) +
                 " beta=" + std::to_string(lc.beta));
    const int64_t inner = lc.H * lc.W;
    std::vector<float> x(static_cast<size_t>(lc.N * lc.C * inner));
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i) + 0.1) * 4.0);
    const ir::Tensor y = run1({"LRN",
                               {f32({lc.N, lc.C, lc.H, lc.W}, x)},
                               {attrI("size", lc.size), attrF("alpha", lc.alpha),
                                attrF("beta", lc.beta), attrF("bias", lc.bias)},
                               13});
    const std::vector<double> want =
        lrnReference(x, lc.N, lc.C, inner, lc.size, lc.alpha, lc.beta, lc.bias);
    const std::vector<double> got = values(y);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_NEAR(got[i], want[i], 1e-6 * (1e-3 + std::fabs(want[i]))) << "at " << i;
  }
}

}  // namespace
}  // namespace passlab::exec
