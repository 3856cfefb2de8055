// QLinearConv on a CPU without VNNI (issue #25): a layer of uint8 activations
// and int8 weights of zero point 0, every weight in [-64, 64] (what
// `reduce_range` quantizers write), runs on oneDNN's int8 convolution, whose
// vpmaddubsw pair sums cannot saturate there (2 x 255 x 64 = 32640 <= 32767:
// core/exec/cpu/int8_dot_exactness.h); any other layer keeps the float32-sums
// path (qlinear_conv_float_sums.h). Checked against the reference kernel,
// bit for bit, at the saturation edge: weights at +-64 with one sign per
// output channel (every pair of products the largest it can be) and
// activations mostly 255 with x_zero_point 255 (so the true sums are small and
// a saturated pair, 383 off, shows in the output), multipliers that are
// powers of 2 (oneDNN's float32 requantization then rounds as the
// reference's double one). Which path ran: qlinear::narrowWeightInt8Plans().
// A weight of 65 or -65, or int8 activations (oneDNN halves the weights
// there), must not take the int8 path. On a CPU with VNNI every layer takes
// oneDNN's int8 kernels anyway and the counter does not move; ctest runs
// these again under PASSLAB_MAX_ISA=avx2 and sse2 (tests/CMakeLists.txt).
// A channels-last pointwise layer takes PassLab's own kernel instead where
// the CPU has AVX2 (qlinear_pointwise_nhwc.h, exact for such weights too;
// session 39): the counter does not move there either.
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/qlinear_pointwise_nhwc.h"
#include "core/exec/executor.h"
#include "tests/core/exec/int8_conv_test_util.h"

namespace passlab::exec {
namespace {

using ir::DataType;
using namespace int8conv;  // NOLINT(google-build-using-namespace)

struct Case {
  std::string name;
  Dims x, w;  // X [N, C, spatial...], W [M, C/group, k...]
  int64_t group = 1;
  Dims strides = {}, pads = {}, dilations = {};
  std::string autoPad = {};
  bool channelsLast = false;  // com.microsoft QLinearConv, channels_last = 1
  bool pointwise = false;     // channels-last 1x1: PassLab's own kernel where it has AVX2
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

struct Layer {
  int weightMax = 64;       // the weights' magnitude at the edge (64 or 65)
  int oddWeight = 0;        // nonzero: one weight set to this value
  bool int8X = false;       // int8 activations instead of uint8
  int xZero = 255;          // x_zero_point (uint8)
  float multiplier = 0.0f;  // x_scale * w_scale / y_scale; 0: chosen from K (a power of 2)
};

// A one-node QLinearConv of c with the weights and activations of `layer`,
// seeded; y int8 of zero point 0.
Built buildModel(const Case& c, const Layer& layer, uint32_t seed) {
  std::mt19937 rng(seed);
  const int64_t M = c.w[0];
  const int64_t K = numel(c.w) / M;
  // Weights: one sign per output channel, 80% at the edge, else in [-64, 64].
  std::vector<int8_t> w(static_cast<size_t>(numel(c.w)));
  std::uniform_int_distribution<int> pct(0, 99), any(-64, 64);
  for (int64_t m = 0; m < M; ++m) {
    const int sign = (m % 3 == 1) ? -1 : 1;
    for (int64_t k = 0; k < K; ++k)
      w[static_cast<size_t>(m * K + k)] =
          static_cast<int8_t>(pct(rng) < 80 ? sign * layer.weightMax : any(rng));
  }
  if (layer.oddWeight != 0) w[w.size() / 2] = static_cast<int8_t>(layer.oddWeight);
  // Activations at x_zero_point 255: 95% at 255, else 0-40 below, so the
  // sums stay near K * 64 (a saturated pair, 383 off, shows); else 80% at 255
  // (127 for int8), the rest anywhere, and sums up to K * 255 * 64.
  const bool nearZero = !layer.int8X && layer.xZero == 255;
  std::vector<uint8_t> x(static_cast<size_t>(numel(c.x)));
  std::uniform_int_distribution<int> byte(0, 255), below(0, 40);
  for (uint8_t& v : x) {
    if (nearZero)
      v = static_cast<uint8_t>(pct(rng) < 95 ? 255 : 255 - below(rng));
    else
      v = static_cast<uint8_t>(pct(rng) < 80 ? (layer.int8X ? 127 : 255) : byte(rng));
  }
  const DataType xType = layer.int8X ? DataType::kInt8 : DataType::kUInt8;
  ir::Tensor xt = ir::Tensor::fromVector<uint8_t>(xType, c.x, x);
  if (c.channelsLast) xt = swapChannels(xt, true);
  const float spread =
      nearZero ? static_cast<float>(K) * 128.0f : static_cast<float>(K) * 255.0f * 64.0f;
  const float multiplier =
      layer.multiplier != 0.0f
          ? layer.multiplier
          : std::ldexp(1.0f, -static_cast<int>(std::ceil(std::log2(spread / 60.0f))));

  Built b;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}};
  if (c.channelsLast) b.model.opsets.push_back({"com.microsoft", 1});
  ir::Graph& g = b.model.graph();
  ir::Value* xIn = g.addInput("x", ir::Type::tensor(xType, ir::Shape::fromValues(xt.dims())));
  b.feeds.emplace_back("x", xt);
  const int xZero = layer.int8X ? 127 : layer.xZero;
  std::vector<ir::Value*> in = {
      xIn,
      g.addInitializer("x_scale", floats({}, {0.5f})),
      g.addInitializer("x_zero_point", zeroPoint(xType, xZero)),
      g.addInitializer("w", ir::Tensor::fromVector<int8_t>(DataType::kInt8, c.w, w)),
      g.addInitializer("w_scale", floats({}, {1.0f})),
      g.addInitializer("w_zero_point", zeroPoint(DataType::kInt8, 0)),
      g.addInitializer("y_scale", floats({}, {0.5f / multiplier})),
      g.addInitializer("y_zero_point", zeroPoint(DataType::kInt8, 0)),
  };
  ir::Node* n =
      g.addNode("QLinearConv", c.channelsLast ? "com.microsoft" : "", in, 1, nullptr, "qconv");
  if (c.channelsLast) n->setAttr(ir::Attribute::makeInt("channels_last", 1));
  setConvAttributes(*n, c);
  g.addOutput(n->output(0));
  analysis::inferShapes(b.model);
  return b;
}

// Whether this CPU declines oneDNN's int8 kernels for full-range weights,
// so the narrow-weights path is the one under test.
bool withoutVnni() {
  return !cpu::qlinear::exactInt8DotProducts();
}

struct Outcome {
  Runs runs;
  uint64_t narrowPlans = 0;  // plans that took the narrow-weights int8 path
};

Outcome runLayer(const Case& c, const Layer& layer, uint32_t seed) {
  Built b = buildModel(c, layer, seed);
  const uint64_t before = cpu::qlinear::narrowWeightInt8Plans();
  Outcome o;
  o.runs = runPreferredAndReference(b, b.feeds);
  o.narrowPlans = cpu::qlinear::narrowWeightInt8Plans() - before;
  return o;
}

class QLinearConvNarrowWeightsTest : public ::testing::TestWithParam<Case> {};

// Weights at +-64: the int8 path (without VNNI), byte for byte the reference.
TEST_P(QLinearConvNarrowWeightsTest, AtTheEdgeTakesTheInt8PathBitForBit) {
  const Case& c = GetParam();
  for (int xZero : {255, 0}) {
    SCOPED_TRACE("x_zero_point " + std::to_string(xZero));
    Layer layer;
    layer.xZero = xZero;
    Outcome o = runLayer(c, layer, 11);
    ASSERT_FALSE(o.runs.reference.outputs.empty());
    ASSERT_FALSE(o.runs.first.outputs.empty());
    expectEqual(o.runs.first.outputs[0], o.runs.reference.outputs[0], c.name + " first run");
    expectEqual(o.runs.second.outputs[0], o.runs.reference.outputs[0], c.name + " second run");
    if (xZero == 255) expectSpread(o.runs.reference.outputs[0]);
    const bool ownKernel =
        c.pointwise && cpu::QLinearPointwiseNhwc::supports(cpu::QLinearPointwiseNhwc::Path::kAvx2);
    if (withoutVnni() && !ownKernel)
      EXPECT_GE(o.narrowPlans, 1u) << "oneDNN's int8 convolution did not run";
    else
      EXPECT_EQ(o.narrowPlans, 0u);
  }
}

// One weight of 65 or -65: a pair of 255 x 65 saturates, so the float32
// sums run (still the reference's bytes).
TEST_P(QLinearConvNarrowWeightsTest, OneWeightPastSixtyFourKeepsTheFloatSums) {
  const Case& c = GetParam();
  for (int odd : {65, -65}) {
    SCOPED_TRACE("one weight " + std::to_string(odd));
    Layer layer;
    layer.oddWeight = odd;
    Outcome o = runLayer(c, layer, 12);
    ASSERT_FALSE(o.runs.first.outputs.empty());
    expectEqual(o.runs.first.outputs[0], o.runs.reference.outputs[0], c.name);
    EXPECT_EQ(o.narrowPlans, 0u);
  }
}

// Every edge weight at +-65: the float32 sums, the reference's bytes (oneDNN's
// int8 kernels would be off by the saturated pairs here).
TEST_P(QLinearConvNarrowWeightsTest, WeightsAtSixtyFiveKeepTheFloatSums) {
  const Case& c = GetParam();
  Layer layer;
  layer.weightMax = 65;
  Outcome o = runLayer(c, layer, 13);
  ASSERT_FALSE(o.runs.first.outputs.empty());
  expectEqual(o.runs.first.outputs[0], o.runs.reference.outputs[0], c.name);
  expectSpread(o.runs.reference.outputs[0]);
  EXPECT_EQ(o.narrowPlans, 0u);
}

// int8 activations: oneDNN shifts them by 128 and halves the weights
// without VNNI, never exact there, whatever the weights.
TEST_P(QLinearConvNarrowWeightsTest, Int8ActivationsKeepTheFloatSums) {
  const Case& c = GetParam();
  Layer layer;
  layer.int8X = true;
  Outcome o = runLayer(c, layer, 14);
  ASSERT_FALSE(o.runs.first.outputs.empty());
  expectEqual(o.runs.first.outputs[0], o.runs.reference.outputs[0], c.name);
  EXPECT_EQ(o.narrowPlans, 0u);
}

std::vector<Case> cases() {
  std::vector<Case> v;
  v.push_back(
      {.name = "conv3x3_pad1", .x = {1, 16, 10, 12}, .w = {32, 16, 3, 3}, .pads = {1, 1, 1, 1}});
  v.push_back({.name = "conv3x3_stride2",
               .x = {1, 8, 13, 11},
               .w = {16, 8, 3, 3},
               .strides = {2, 2},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "pointwise", .x = {1, 64, 7, 9}, .w = {40, 64, 1, 1}});
  v.push_back({.name = "odd_channels", .x = {1, 3, 9, 9}, .w = {5, 3, 3, 3}});
  v.push_back({.name = "grouped",
               .x = {1, 16, 8, 8},
               .w = {16, 4, 3, 3},
               .group = 4,
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "depthwise",
               .x = {1, 24, 9, 10},
               .w = {24, 1, 3, 3},
               .group = 24,
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "batch2", .x = {2, 32, 6, 6}, .w = {16, 32, 3, 3}});
  v.push_back({.name = "channels_last",
               .x = {1, 32, 8, 7},
               .w = {32, 32, 3, 3},
               .pads = {1, 1, 1, 1},
               .channelsLast = true});
  v.push_back({.name = "channels_last_pointwise",
               .x = {1, 48, 6, 6},
               .w = {24, 48, 1, 1},
               .channelsLast = true,
               .pointwise = true});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, QLinearConvNarrowWeightsTest, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

// QLinearMatMul (qlinear_matmul_onednn.cpp) the same way: uint8 A [rows, K]
// mostly 255 with a_zero_point 255, int8 B [K, N] of one sign per column,
// 80% at +-weightMax; oneDNN's int8 matmul without VNNI only at +-64.
Built matMulModel(int weightMax, uint32_t seed) {
  std::mt19937 rng(seed);
  const int64_t rows = 9, K = 96, N = 24;
  std::uniform_int_distribution<int> pct(0, 99), any(-64, 64), below(0, 40);
  std::vector<int8_t> b(static_cast<size_t>(K * N));
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n)
      b[static_cast<size_t>(k * N + n)] =
          static_cast<int8_t>(pct(rng) < 80 ? (n % 3 == 1 ? -1 : 1) * weightMax : any(rng));
  std::vector<uint8_t> a(static_cast<size_t>(rows * K));
  for (uint8_t& v : a) v = static_cast<uint8_t>(pct(rng) < 95 ? 255 : 255 - below(rng));
  const float multiplier =
      std::ldexp(1.0f, -static_cast<int>(std::ceil(std::log2(K * 128.0f / 60.0f))));
  Built m;
  m.model.irVersion = 8;
  m.model.opsets = {{"", 13}};
  ir::Graph& g = m.model.graph();
  ir::Tensor at = ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, {rows, K}, a);
  ir::Value* aIn =
      g.addInput("a", ir::Type::tensor(DataType::kUInt8, ir::Shape::fromValues(at.dims())));
  m.feeds.emplace_back("a", at);
  std::vector<ir::Value*> in = {
      aIn,
      g.addInitializer("a_scale", floats({}, {0.5f})),
      g.addInitializer("a_zero_point", zeroPoint(DataType::kUInt8, 255)),
      g.addInitializer("b", ir::Tensor::fromVector<int8_t>(DataType::kInt8, {K, N}, b)),
      g.addInitializer("b_scale", floats({}, {1.0f})),
      g.addInitializer("b_zero_point", zeroPoint(DataType::kInt8, 0)),
      g.addInitializer("y_scale", floats({}, {0.5f / multiplier})),
      g.addInitializer("y_zero_point", zeroPoint(DataType::kInt8, 0)),
  };
  ir::Node* node = g.addNode("QLinearMatMul", "", in, 1, nullptr, "qmatmul");
  g.addOutput(node->output(0));
  analysis::inferShapes(m.model);
  return m;
}

TEST(QLinearConvNarrowWeights, MatMulAtTheEdgeTakesTheInt8PathBitForBit) {
  for (int weightMax : {64, 65}) {
    SCOPED_TRACE("weights at +-" + std::to_string(weightMax));
    Built m = matMulModel(weightMax, 21);
    const uint64_t before = cpu::qlinear::narrowWeightInt8Plans();
    Runs r = runPreferredAndReference(m, m.feeds);
    const uint64_t plans = cpu::qlinear::narrowWeightInt8Plans() - before;
    ASSERT_FALSE(r.first.outputs.empty());
    ASSERT_FALSE(r.reference.outputs.empty());
    expectEqual(r.first.outputs[0], r.reference.outputs[0], "first run");
    expectEqual(r.second.outputs[0], r.reference.outputs[0], "second run");
    expectSpread(r.reference.outputs[0]);
    if (withoutVnni() && weightMax == 64)
      EXPECT_GE(plans, 1u) << "oneDNN's int8 matmul did not run";
    else
      EXPECT_EQ(plans, 0u);
  }
}

// The predicate itself: [-64, 64] with uint8 activations, every weight read.
TEST(QLinearConvNarrowWeights, PredicateTakesExactlyMinusSixtyFourToSixtyFour) {
  using cpu::qlinear::int8DotProductsExactFor;
  const bool vnni = !withoutVnni();
  std::vector<int8_t> w(1000, 64);
  w[0] = -64;
  EXPECT_TRUE(int8DotProductsExactFor(w, DataType::kUInt8));
  EXPECT_EQ(int8DotProductsExactFor(w, DataType::kInt8), vnni);
  for (int bad : {65, -65, 127, -128}) {
    w[999] = static_cast<int8_t>(bad);
    EXPECT_EQ(int8DotProductsExactFor(w, DataType::kUInt8), vnni) << bad;
  }
  EXPECT_TRUE(int8DotProductsExactFor({}, DataType::kUInt8));
}

}  // namespace
}  // namespace passlab::exec
