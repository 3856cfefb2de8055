// DeformConv, CausalConvWithState and LinearAttention beyond the ONNX node
// tests: hand-checked small cases, DeformConv with zero offsets against Conv
// (grouped, strided, dilated, padded, 1-D and 3-D), half types, and bad input
// (a clear error, not a crash).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

std::vector<double> ramp(size_t n, int mul, int mod = 7) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<double>((static_cast<int>(i) * mul) % mod - mod / 2) * 0.5;
  return v;
}

size_t count(const std::vector<int64_t>& d) {
  size_t n = 1;
  for (int64_t e : d) n *= static_cast<size_t>(e);
  return n;
}

void expectClose(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

// ---- DeformConv ----

// Zero offsets and no mask: every tap reads where Conv's does.
void expectZeroOffsetsAreConv(std::vector<int64_t> xDims, std::vector<int64_t> wDims,
                              std::vector<Attr> attrs, int64_t group) {
  const size_t rank = xDims.size() - 2;
  const ir::Tensor x = typed(DataType::kFloat, xDims, ramp(count(xDims), 3));
  const ir::Tensor w = typed(DataType::kFloat, wDims, ramp(count(wDims), 5));
  const ir::Tensor b = typed(DataType::kFloat, {wDims[0]}, ramp(static_cast<size_t>(wDims[0]), 2));
  attrs.push_back(attrI("group", group));
  const ir::Tensor conv = run1({"Conv", {x, w, b}, attrs, 22});
  ASSERT_GE(conv.rank(), 3u);
  std::vector<int64_t> offDims{
      xDims[0],
      static_cast<int64_t>(count(std::vector<int64_t>(wDims.begin() + 2, wDims.end())) * rank)};
  for (size_t a = 2; a < conv.rank(); ++a) offDims.push_back(conv.dims()[a]);
  const ir::Tensor off = typed(DataType::kFloat, offDims, std::vector<double>(count(offDims), 0.0));
  const ir::Tensor y = run1({"DeformConv", {x, w, off, b}, attrs, 22});
  EXPECT_EQ(y.dims(), conv.dims());
  expectClose(values(y), values(conv), 1e-5);
}

TEST(DeformConv, ZeroOffsetsEqualConvGroupedStridedDilatedPadded) {
  expectZeroOffsetsAreConv(
      {2, 4, 7, 6}, {6, 2, 3, 2},
      {attrInts("strides", {2, 1}), attrInts("dilations", {1, 2}), attrInts("pads", {1, 0, 2, 1})},
      2);
}

TEST(DeformConv, ZeroOffsetsEqualConvOverSeveralTiles) {
  // 13x12 = 156 grid positions: two whole tiles of 64 and a partial one.
  expectZeroOffsetsAreConv({2, 3, 13, 12}, {5, 3, 3, 3}, {attrInts("pads", {1, 1, 1, 1})}, 1);
}

TEST(DeformConv, ZeroOffsetsEqualConvIn1DAnd3D) {
  expectZeroOffsetsAreConv({1, 2, 9}, {3, 2, 3}, {attrInts("pads", {1, 1})}, 1);
  expectZeroOffsetsAreConv({1, 2, 4, 5, 3}, {2, 1, 2, 3, 2},
                           {attrInts("pads", {0, 1, 1, 1, 0, 0}), attrInts("strides", {1, 2, 1})},
                           2);
}

// X = [[1, 2], [3, 4]], a 1x1 kernel of weight 1, so each output is one
// bilinear sample of X at its grid position moved by its offset (dy, dx),
// times its mask, plus the bias 1.
TEST(DeformConv, SamplesBilinearlyWithZerosOutsideHandChecked) {
  const ir::Tensor x = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  const ir::Tensor w = f32({1, 1, 1, 1}, {1});
  // Offset channels (dy, dx), each [2, 2] over the grid.
  //   (0,0) + (0.5, 0.5)  -> the centre: 2.5
  //   (0,1) + (0, -1)     -> (0, 0): 1
  //   (1,0) + (0.5, -0.5) -> (1.5, -0.5): only (1, 0) inside, weight 0.25: 0.75
  //   (1,1) + (5, 5)      -> far outside: 0
  const ir::Tensor off = f32({1, 2, 2, 2}, {0.5f, 0, 0.5f, 5, 0.5f, -1, -0.5f, 5});
  const ir::Tensor b = f32({1}, {1});
  const ir::Tensor mask = f32({1, 1, 2, 2}, {1, 2, 1, 0.5f});
  const ir::Tensor y = run1({"DeformConv", {x, w, off, b, mask}, {}, 22});
  EXPECT_EQ(y.dims(), (std::vector<int64_t>{1, 1, 2, 2}));
  expectClose(values(y), {3.5, 3, 1.75, 1}, 1e-6);
  // The same in float16 and double.
  const ir::Tensor yh = run1({"DeformConv",
                              {f16({1, 1, 2, 2}, {1, 2, 3, 4}), f16({1, 1, 1, 1}, {1}),
                               f16({1, 2, 2, 2}, {0.5f, 0, 0.5f, 5, 0.5f, -1, -0.5f, 5}),
                               f16({1}, {1}), f16({1, 1, 2, 2}, {1, 2, 1, 0.5f})},
                              {},
                              22});
  EXPECT_EQ(yh.dtype(), DataType::kFloat16);
  expectClose(values(yh), {3.5, 3, 1.75, 1}, 1e-3);
  const ir::Tensor yd = run1({"DeformConv",
                              {f64({1, 1, 2, 2}, {1, 2, 3, 4}), f64({1, 1, 1, 1}, {1}),
                               f64({1, 2, 2, 2}, {0.5, 0, 0.5, 5, 0.5, -1, -0.5, 5}), f64({1}, {1}),
                               f64({1, 1, 2, 2}, {1, 2, 1, 0.5})},
                              {},
                              22});
  expectClose(values(yd), {3.5, 3, 1.75, 1}, 1e-12);
}

// Two offset groups: channel 0 moved by group 0's offsets, channel 1 by
// group 1's; a 1x1 kernel of weights (1, 10) adds the two samples.
TEST(DeformConv, EachOffsetGroupMovesItsChannels) {
  const ir::Tensor x = f32({1, 2, 1, 3}, {1, 2, 3, 10, 20, 30});
  const ir::Tensor w = f32({1, 2, 1, 1}, {1, 10});
  // Offsets [1, 2 groups * 1 tap * 2 axes, 1, 3]: group 0 dx = +1, group 1 dx = -1.
  const ir::Tensor off = f32({1, 4, 1, 3}, {0, 0, 0, 1, 1, 1, 0, 0, 0, -1, -1, -1});
  const ir::Tensor y = run1({"DeformConv", {x, w, off}, {attrI("offset_group", 2)}, 22});
  // Group 0 reads x0 at 1, 2, (3: outside) = 2, 3, 0; group 1 x1 at (-1), 0, 1 = 0, 10, 20.
  expectClose(values(y), {2 + 0, 3 + 100, 0 + 200}, 1e-6);
}

TEST(DeformConv, BadInputIsAClearError) {
  const ir::Tensor x = f32({1, 2, 3, 3}, std::vector<float>(18, 1));
  const ir::Tensor w = f32({1, 2, 2, 2}, std::vector<float>(8, 1));
  const ir::Tensor off = f32({1, 8, 2, 2}, std::vector<float>(32, 0));
  // Offset channels: 2 offset groups need 16.
  std::string e = errorOf({"DeformConv", {x, w, off}, {attrI("offset_group", 2)}, 22});
  EXPECT_NE(e.find("offset float[1,8,2,2]"), std::string::npos) << e;
  EXPECT_NE(e.find("[1,16,2,2]"), std::string::npos) << e;
  // Offset grid that is not the output's.
  e = errorOf({"DeformConv", {x, w, f32({1, 8, 3, 3}, std::vector<float>(72, 0))}, {}, 22});
  EXPECT_NE(e.find("offset"), std::string::npos) << e;
  // Mask of the wrong shape.
  e = errorOf({"DeformConv",
               {x, w, off, std::nullopt, f32({1, 8, 2, 2}, std::vector<float>(32, 1))},
               {},
               22});
  EXPECT_NE(e.find("mask"), std::string::npos) << e;
  // offset_group that does not divide C, group that does not fit W.
  e = errorOf({"DeformConv", {x, w, off}, {attrI("offset_group", 3)}, 22});
  EXPECT_NE(e.find("offset_group"), std::string::npos) << e;
  e = errorOf({"DeformConv", {x, w, off}, {attrI("group", 2)}, 22});
  EXPECT_NE(e.find("group"), std::string::npos) << e;
  // Bias of the wrong length, mixed types.
  e = errorOf({"DeformConv", {x, w, off, f32({2}, {0, 0})}, {}, 22});
  EXPECT_NE(e.find("B has 2"), std::string::npos) << e;
  e = errorOf({"DeformConv", {x, w, f64({1, 8, 2, 2}, std::vector<double>(32, 0))}, {}, 22});
  EXPECT_FALSE(e.empty());
}

// ---- CausalConvWithState ----

// weight (1, 2, 3), input (1, 2, 3, 4), past (10, 20): the padded sequence is
// 10 20 1 2 3 4, so the outputs are 53 28 14 20 (+ bias 1), the state 3 4.
TEST(CausalConvWithState, HandCheckedWithPastStateAndBias) {
  const ir::Tensor x = f32({1, 1, 4}, {1, 2, 3, 4});
  const ir::Tensor w = f32({1, 1, 3}, {1, 2, 3});
  const std::vector<ir::Tensor> r =
      runAll({"CausalConvWithState", {x, w, f32({1}, {1}), f32({1, 1, 2}, {10, 20})}, {}, 27, 2});
  ASSERT_EQ(r.size(), 2u);
  expectClose(values(r[0]), {54, 29, 15, 21}, 1e-6);
  expectClose(values(r[1]), {3, 4}, 0);
  // Without past_state the pad is zeros: 0 0 1 2 3 4.
  const std::vector<ir::Tensor> z = runAll({"CausalConvWithState", {x, w}, {}, 27, 2});
  expectClose(values(z[0]), {3, 8, 14, 20}, 1e-6);
  expectClose(values(z[1]), {3, 4}, 0);
}

// An input shorter than k - 1: the state keeps part of past_state.
TEST(CausalConvWithState, ShortInputKeepsPartOfThePastState) {
  const std::vector<ir::Tensor> r = runAll(
      {"CausalConvWithState",
       {f32({1, 1, 1}, {5}), f32({1, 1, 3}, {1, 2, 3}), std::nullopt, f32({1, 1, 2}, {10, 20})},
       {},
       27,
       2});
  ASSERT_EQ(r.size(), 2u);
  expectClose(values(r[0]), {10 + 40 + 15}, 1e-6);
  expectClose(values(r[1]), {20, 5}, 0);
}

TEST(CausalConvWithState, SiluAndChannelsAndFloat16) {
  // Two channels, k = 1: output = silu(w_c * x).
  const ir::Tensor x = f32({1, 2, 2}, {1, -2, 0.5f, 3});
  const ir::Tensor w = f32({2, 1, 1}, {2, -1});
  auto silu = [](double v) { return v / (1 + std::exp(-v)); };
  const std::vector<ir::Tensor> r =
      runAll({"CausalConvWithState", {x, w}, {attrS("activation", "silu")}, 27, 2});
  ASSERT_EQ(r.size(), 2u);
  expectClose(values(r[0]), {silu(2), silu(-4), silu(-0.5), silu(-3)}, 1e-6);
  EXPECT_EQ(r[1].dims(), (std::vector<int64_t>{1, 2, 0}));
  const ir::Tensor h = run1({"CausalConvWithState",
                             {f16({1, 2, 2}, {1, -2, 0.5f, 3}), f16({2, 1, 1}, {2, -1})},
                             {attrS("activation", "swish")},
                             27,
                             2});
  EXPECT_EQ(h.dtype(), DataType::kFloat16);
  expectClose(values(h), {silu(2), silu(-4), silu(-0.5), silu(-3)}, 2e-3);
}

TEST(CausalConvWithState, BadInputIsAClearError) {
  const ir::Tensor x = f32({1, 2, 4}, std::vector<float>(8, 1));
  std::string e =
      errorOf({"CausalConvWithState", {x, f32({2, 2, 3}, std::vector<float>(12, 1))}, {}, 27, 2});
  EXPECT_NE(e.find("weight"), std::string::npos) << e;
  e = errorOf({"CausalConvWithState",
               {x, f32({2, 1, 3}, std::vector<float>(6, 1)), std::nullopt,
                f32({1, 2, 3}, std::vector<float>(6, 0))},
               {},
               27,
               2});
  EXPECT_NE(e.find("past_state float[1,2,3]"), std::string::npos) << e;
  e = errorOf({"CausalConvWithState",
               {x, f32({2, 1, 3}, std::vector<float>(6, 1))},
               {attrS("activation", "relu")},
               27,
               2});
  EXPECT_NE(e.find("activation"), std::string::npos) << e;
  e = errorOf({"CausalConvWithState",
               {f32({2, 4}, std::vector<float>(8, 1)), f32({2, 1, 3}, std::vector<float>(6, 1))},
               {},
               27,
               2});
  EXPECT_NE(e.find("[B, C, L]"), std::string::npos) << e;
}

// ---- LinearAttention ----

// Two query heads share one key/value head (dk = dv = 1, scale 1): the state
// is 1 after token 0 (k v = 1), 3 after token 1 (+ 2 * 1); outputs q * S.
TEST(LinearAttention, LinearRuleWithSharedKeyValueHeadHandChecked) {
  const std::vector<ir::Tensor> r =
      runAll({"LinearAttention",
              {f32({1, 2, 2}, {1, 2, 3, 4}), f32({1, 2, 1}, {1, 2}), f32({1, 2, 1}, {1, 1})},
              {attrI("q_num_heads", 2), attrI("kv_num_heads", 1), attrF("scale", 1),
               attrS("update_rule", "linear")},
              27,
              2});
  ASSERT_EQ(r.size(), 2u);
  expectClose(values(r[0]), {1, 2, 9, 12}, 1e-6);
  EXPECT_EQ(r[1].dims(), (std::vector<int64_t>{1, 1, 1, 1}));
  expectClose(values(r[1]), {3}, 1e-6);
}

// gated_delta, one token: S = 2 * exp(log 0.5) = 1; v' = 0.5 * (3 - 1 * 1) = 1;
// S = 1 + 1 * 1 = 2; o = q S / sqrt(dk) with q = 1, dk = 1.
TEST(LinearAttention, GatedDeltaRuleHandChecked) {
  const std::vector<ir::Tensor> r =
      runAll({"LinearAttention",
              {f32({1, 1, 1}, {1}), f32({1, 1, 1}, {1}), f32({1, 1, 1}, {3}),
               f32({1, 1, 1, 1}, {2}), f32({1, 1, 1}, {std::log(0.5f)}), f32({1, 1, 1}, {0.5f})},
              {attrI("q_num_heads", 1), attrI("kv_num_heads", 1)},
              27,
              2});
  ASSERT_EQ(r.size(), 2u);
  expectClose(values(r[0]), {2}, 1e-6);
  expectClose(values(r[1]), {2}, 1e-6);
}

// float16 activations with a float32 state: present_state keeps the state's
// type, the output the query's (the linear rule of the test above).
TEST(LinearAttention, StateKeepsItsOwnType) {
  const std::vector<ir::Tensor> r = runAll({"LinearAttention",
                                            {f16({1, 2, 2}, {1, 2, 3, 4}), f16({1, 2, 1}, {1, 2}),
                                             f16({1, 2, 1}, {1, 1}), f32({1, 1, 1, 1}, {0.5f})},
                                            {attrI("q_num_heads", 2), attrI("kv_num_heads", 1),
                                             attrF("scale", 1), attrS("update_rule", "linear")},
                                            27,
                                            2});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].dtype(), DataType::kFloat16);
  EXPECT_EQ(r[1].dtype(), DataType::kFloat);
  // S = 0.5 + 1 = 1.5, then 3.5: outputs 1.5, 3, 10.5, 14.
  expectClose(values(r[0]), {1.5, 3, 10.5, 14}, 1e-2);
  expectClose(values(r[1]), {3.5}, 1e-6);
}

TEST(LinearAttention, BadInputIsAClearError) {
  const ir::Tensor q = f32({1, 1, 2}, {1, 1});
  const ir::Tensor k = f32({1, 1, 2}, {1, 1});
  std::string e = errorOf(
      {"LinearAttention", {q, k, k}, {attrI("q_num_heads", 3), attrI("kv_num_heads", 2)}, 27, 2});
  EXPECT_NE(e.find("multiple"), std::string::npos) << e;
  // gated_delta (the default) without decay and beta.
  e = errorOf(
      {"LinearAttention", {q, k, k}, {attrI("q_num_heads", 1), attrI("kv_num_heads", 1)}, 27, 2});
  EXPECT_NE(e.find("decay"), std::string::npos) << e;
  // A key that does not match the query's head size.
  e = errorOf({"LinearAttention",
               {q, f32({1, 1, 3}, {1, 1, 1}), k},
               {attrI("q_num_heads", 1), attrI("kv_num_heads", 1), attrS("update_rule", "linear")},
               27,
               2});
  EXPECT_NE(e.find("key"), std::string::npos) << e;
  e = errorOf({"LinearAttention",
               {q, k, k},
               {attrI("q_num_heads", 1), attrI("kv_num_heads", 1), attrS("update_rule", "fast")},
               27,
               2});
  EXPECT_NE(e.find("update_rule"), std::string::npos) << e;
}

}  // namespace
}  // namespace passlab::exec
