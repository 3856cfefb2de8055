// Binary elementwise ops whose one operand is a vector repeated along middle
// dims (core/exec/cpu/vector_rows.h): the split of the shapes, and the
// results of Mul/Sub/Div/Add/Less on such shapes against a loop over the
// broadcast indices written here, the vector on either side, widths 16, 8
// and other, run in place and split across threads.
#include <gtest/gtest.h>

#include <random>

#include "core/exec/cpu/vector_rows.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using cpu::vectorRows;
using namespace optest;

TEST(VectorRows, SplitsTheBlockedScaleAndABias) {
  auto s = vectorRows({1, 4, 6, 5, 16}, {1, 4, 6, 5, 16}, {1, 4, 1, 1, 16});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->outer, 4);
  EXPECT_EQ(s->middle, 30);
  EXPECT_EQ(s->width, 16);
  EXPECT_EQ(s->full, 0);
  s = vectorRows({1, 4, 6, 5, 16}, {1, 4, 1, 1, 16}, {1, 4, 6, 5, 16});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->full, 1);
  s = vectorRows({2, 3, 8}, {2, 3, 8}, {8});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->outer, 1);
  EXPECT_EQ(s->middle, 6);
  EXPECT_EQ(s->width, 8);
}

TEST(VectorRows, LeavesOtherShapesToTheWalker) {
  // Per channel in NCHW: the vector's last dims are 1 (width 1).
  EXPECT_FALSE(vectorRows({1, 8, 5, 5}, {1, 8, 5, 5}, {1, 8, 1, 1}));
  // Same shapes: nothing repeats.
  EXPECT_FALSE(vectorRows({2, 3, 4}, {2, 3, 4}, {2, 3, 4}));
  // Both operands broadcast.
  EXPECT_FALSE(vectorRows({2, 4, 3}, {2, 1, 3}, {1, 4, 3}));
  // The vector broadcast on an outer dim too.
  EXPECT_FALSE(vectorRows({2, 3, 5, 16}, {2, 3, 5, 16}, {1, 3, 1, 16}));
  // A scalar.
  EXPECT_FALSE(vectorRows({4, 16}, {4, 16}, {1}));
}

std::vector<float> randomValues(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(0.5f, 2.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

// y[o, m, k] = op(x[o, m, k], v[o, k]) (or op(v, x) when vectorFirst).
template <class Op>
std::vector<float> expected(const std::vector<float>& x, const std::vector<float>& v, int64_t outer,
                            int64_t middle, int64_t width, bool vectorFirst, Op op) {
  std::vector<float> y(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t m = 0; m < middle; ++m)
      for (int64_t k = 0; k < width; ++k) {
        float a = x[static_cast<size_t>((o * middle + m) * width + k)];
        float b = v[static_cast<size_t>(o * width + k)];
        y[static_cast<size_t>((o * middle + m) * width + k)] = vectorFirst ? op(b, a) : op(a, b);
      }
  return y;
}

void expectFloats(const ir::Tensor& t, const std::vector<float>& want) {
  ASSERT_EQ(t.dtype(), DataType::kFloat);
  std::vector<double> got = t.toDoubleVector();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(static_cast<float>(got[i]), want[i]) << "element " << i;
}

TEST(VectorRows, FloatOpsMatchTheBroadcastOnEitherSide) {
  // [N, C/b, H, W, b] with [N, C/b, 1, 1, b] for b = 16, 8 and 5 (any width).
  for (int64_t width : {16, 8, 5}) {
    SCOPED_TRACE("width " + std::to_string(width));
    const int64_t outer = 3, h = 4, w = 7;
    std::vector<float> x = randomValues(static_cast<size_t>(outer * h * w * width), 1);
    std::vector<float> v = randomValues(static_cast<size_t>(outer * width), 2);
    ir::Tensor tx = f32({1, outer, h, w, width}, x);
    ir::Tensor tv = f32({1, outer, 1, 1, width}, v);
    auto mul = [](float a, float b) { return a * b; };
    auto sub = [](float a, float b) { return a - b; };
    auto div = [](float a, float b) { return a / b; };
    expectFloats(run1({"Mul", {tx, tv}}), expected(x, v, outer, h * w, width, false, mul));
    expectFloats(run1({"Sub", {tx, tv}}), expected(x, v, outer, h * w, width, false, sub));
    expectFloats(run1({"Sub", {tv, tx}}), expected(x, v, outer, h * w, width, true, sub));
    expectFloats(run1({"Div", {tv, tx}}), expected(x, v, outer, h * w, width, true, div));
  }
}

TEST(VectorRows, IntegerAddAndAComparison) {
  ir::Tensor x = i32({2, 3, 16}, std::vector<int32_t>(96, 5));
  std::vector<int32_t> bias(16);
  for (int k = 0; k < 16; ++k) bias[static_cast<size_t>(k)] = k;
  std::vector<double> sum, less;
  for (int r = 0; r < 6; ++r)
    for (int k = 0; k < 16; ++k) {
      sum.push_back(5 + k);
      less.push_back(k < 5 ? 1 : 0);
    }
  expectTensor(run1({"Add", {x, i32({16}, bias)}}), DataType::kInt32, {2, 3, 16}, sum);
  expectTensor(run1({"Less", {i32({16}, bias), x}}), DataType::kBool, {2, 3, 16}, less);
}

TEST(VectorRows, InPlaceAndSplitAcrossThreads) {
  // 3 vectors x 1000 rows of 16: 48000 elements, more than one thread's
  // share, so the second thread starts inside a vector's rows.
  const int64_t outer = 3, middle = 1000;
  for (int64_t width : {16, 5}) {
    SCOPED_TRACE("width " + std::to_string(width));
    std::vector<float> x = randomValues(static_cast<size_t>(outer * middle * width), 3);
    std::vector<float> v = randomValues(static_cast<size_t>(outer * width), 4);
    auto mul = [](float a, float b) { return a * b; };
    std::vector<float> want = expected(x, v, outer, middle, width, false, mul);
    cpu::VectorRows s{outer, middle, width, 0};
    cpu::vectorRowsLoop(
        s, x.data(), v.data(), x.data(), mul, 2, [](float a) { return a; },
        [](float r) { return r; });
    EXPECT_EQ(x, want);
  }
}

}  // namespace
}  // namespace passlab::exec
