// The float32 vector loops of Relu and LeakyRelu (selects) and Sigmoid (4 lanes with
// the fused kernels' exp) against their scalar formulas, on a length that
// leaves a scalar tail, over values where the branches and the exp's range
// limits matter (-0, ±inf, below -87, NaN); GlobalAveragePool's 8-lane sums
// against the mean in double.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "core/exec/cpu/relu_row.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

std::vector<float> inputs() {
  std::vector<float> x = {-0.0f,
                          0.0f,
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          -87.5f,
                          -100.0f,
                          100.0f,
                          1e-8f,
                          -1e-8f};
  for (int i = 0; i < 1000; ++i)
    x.push_back(-30.0f + 60.0f * static_cast<float>(i * 37 % 1000) / 1000);
  x.push_back(std::numeric_limits<float>::quiet_NaN());  // 1010 values: 2 in the tail
  return x;
}

std::vector<float> run(const Call& c) {
  ir::Tensor y = run1(c);
  auto d = y.data<float>();
  return {d.begin(), d.end()};
}

TEST(VectorElementwise, LeakyReluIsExactlyItsFormula) {
  const std::vector<float> x = inputs();
  for (float alpha : {0.01f, 0.2f, 3.0f, -0.5f}) {
    std::vector<float> y =
        run({"LeakyRelu", {f32({static_cast<int64_t>(x.size())}, x)}, {attrF("alpha", alpha)}});
    ASSERT_EQ(y.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const float want = x[i] < 0 ? alpha * x[i] : x[i];
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(y[i])) << i;
      } else {
        EXPECT_EQ(y[i], want) << "x = " << x[i] << ", alpha = " << alpha;
        EXPECT_EQ(std::signbit(y[i]), std::signbit(want)) << "x = " << x[i];
      }
    }
  }
}

// std::max(x, 0.0f) bit for bit: NaN and -0 kept, -inf and negatives to +0.
void expectRelu(const std::vector<float>& x, const std::vector<float>& y) {
  ASSERT_EQ(y.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float want = std::max(x[i], 0.0f);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(y[i])) << i;
    } else {
      EXPECT_EQ(y[i], want) << "x = " << x[i];
      EXPECT_EQ(std::signbit(y[i]), std::signbit(want)) << "x = " << x[i];
    }
  }
}

TEST(VectorElementwise, ReluIsExactlyItsFormula) {
  const std::vector<float> x = inputs();
  expectRelu(x, run({"Relu", {f32({static_cast<int64_t>(x.size())}, x)}}));
}

// The row on its own, in place, at every length through the 64-float
// unrolled loop and the masked tail (and the positions of -0, NaN and -inf
// moved through the lanes).
TEST(VectorElementwise, ReluRowInPlaceAtEveryLength) {
  const std::vector<float> all = inputs();
  for (size_t shift : {size_t{0}, size_t{5}, size_t{1001}}) {
    for (int64_t n = 0; n <= 140; ++n) {
      std::vector<float> x(all.begin() + static_cast<std::ptrdiff_t>(shift % all.size()),
                           all.end());
      x.insert(x.end(), all.begin(), all.end());
      x.resize(static_cast<size_t>(n));
      std::vector<float> y = x;
      cpu::reluRow(y.data(), y.data(), n);
      expectRelu(x, y);
    }
  }
}

TEST(VectorElementwise, SigmoidIsWithinAFewUlpOfItsFormula) {
  const std::vector<float> x = inputs();
  std::vector<float> y = run({"Sigmoid", {f32({static_cast<int64_t>(x.size())}, x)}});
  ASSERT_EQ(y.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    const double want = 1 / (1 + std::exp(-v));
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(y[i]));
      continue;
    }
    EXPECT_NEAR(y[i], want, 4e-7 * want + 1e-37) << "x = " << x[i];
    EXPECT_GE(y[i], 0.0f);
    EXPECT_LE(y[i], 1.0f);
  }
}

TEST(VectorElementwise, GlobalAveragePoolSumsInLanesToTheMean) {
  // Planes of 1, 7, 8 and 35 values: no lanes, only the tail, only lanes, both.
  for (int64_t w : {1, 7, 8, 35}) {
    std::vector<float> x;
    for (int64_t i = 0; i < 3 * w; ++i) x.push_back(static_cast<float>((i * 37) % 101) - 50.25f);
    ir::Tensor y = run1({"GlobalAveragePool", {f32({1, 3, 1, w}, x)}});
    std::vector<double> want;
    for (int64_t c = 0; c < 3; ++c) {
      double sum = 0;
      for (int64_t i = 0; i < w; ++i) sum += x[static_cast<size_t>(c * w + i)];
      want.push_back(sum / static_cast<double>(w));
    }
    expectTensor(y, DataType::kFloat, {1, 3, 1, 1}, want, 1e-6, 1e-5);
  }
}

}  // namespace
}  // namespace passlab::exec
