// QLinearConv on oneDNN (core/exec/cpu/qlinear_conv_onednn.cpp) against the
// reference kernel (qlinear.cpp) on seeded random one-node models whose
// weights, scales and zero points are initializers (what lets the oneDNN
// kernel bake them in). The outputs are the reference's bit for bit: oneDNN
// gives the int32 sums and PassLab requantizes as the reference does
// (qlinear_conv_int32.h; oneDNN's own float32 requantization could differ by
// 1 at a near-tie), or the reference itself runs (a nonzero weight zero
// point, scales fed at run time). And com.microsoft QLinearConv
// with channels_last = 1 (X and Y [N, spatial..., C]) on the same values: the
// same outputs, transposed, from both kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "tests/core/exec/int8_conv_test_util.h"

namespace passlab::exec {
namespace {

using ir::DataType;
using namespace int8conv;  // NOLINT(google-build-using-namespace)

struct ConvCase {
  std::string name;
  Dims x, w;  // X [N, C, H, W], W [M, C/group, kH, kW]
  DataType xType = DataType::kUInt8;
  bool perChannelScales = false;
  bool bias = false;
  int64_t group = 1;
  Dims strides = {}, pads = {}, dilations = {};
  std::string autoPad = {};
  int8_t weightZeroPoint = 0;  // nonzero: oneDNN cannot take it, the reference runs
  bool runtimeScales = false;  // scales fed as graph inputs: not invariant, the reference runs
};

// gtest prints a failing case by its name.
void PrintTo(const ConvCase& c, std::ostream* os) {
  *os << c.name;
}

// A one-node QLinearConv model; `x` is its input, filled into `feeds`.
// channelsLast: com.microsoft QLinearConv with channels_last = 1, X fed as [N, spatial..., C].
Built buildModel(const ConvCase& c, uint32_t seed, bool channelsLast = false) {
  std::mt19937 rng(seed);
  const int64_t M = c.w[0];
  const int64_t K = numel(c.w) / M;  // products summed per output
  const bool u8 = c.xType == DataType::kUInt8;
  // Scales that spread the outputs over the 8-bit range, some saturating:
  // the sum of K products of about 74 * 73 has a spread of 5400 * sqrt(K).
  const float xScale = 0.02f;
  std::uniform_real_distribution<float> wScaleDist(0.002f, 0.01f);
  std::vector<float> wScales(c.perChannelScales ? static_cast<size_t>(M) : 1);
  for (float& s : wScales) s = wScaleDist(rng);
  const float yScale = xScale * 0.006f * 5400.0f * std::sqrt(static_cast<float>(K)) / 40.0f;

  Built b;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}};
  if (channelsLast) b.model.opsets.push_back({"com.microsoft", 1});
  ir::Graph& g = b.model.graph();
  auto constant = [&](const std::string& name, ir::Tensor t) -> ir::Value* {
    if (!c.runtimeScales) return g.addInitializer(name, std::move(t));
    // Fed at run time: the kernel cannot take them as constants.
    ir::Value* v = g.addInput(name, ir::Type::tensor(t.dtype(), t.shape()));
    b.feeds.emplace_back(name, std::move(t));
    return v;
  };
  ir::Tensor x = activations(c.xType, c.x, rng);
  if (channelsLast) x = swapChannels(x, true);
  ir::Value* xIn = g.addInput("x", ir::Type::tensor(c.xType, ir::Shape::fromValues(x.dims())));
  b.feeds.emplace_back("x", std::move(x));
  const int xZero = u8 ? std::uniform_int_distribution<int>(100, 150)(rng)
                       : std::uniform_int_distribution<int>(-20, 20)(rng);
  const int yZero = u8 ? 128 : -3;
  std::vector<ir::Value*> in = {
      xIn,
      constant("x_scale", floats({}, {xScale})),
      constant("x_zero_point", zeroPoint(c.xType, xZero)),
      g.addInitializer("w", randomInts<int8_t>(DataType::kInt8, c.w, -127, 127, rng)),
      constant("w_scale", c.perChannelScales ? floats({M}, wScales) : floats({}, wScales)),
      constant("w_zero_point", zeroPoint(DataType::kInt8, c.weightZeroPoint)),
      constant("y_scale", floats({}, {yScale})),
      constant("y_zero_point", zeroPoint(c.xType, yZero)),
  };
  if (c.bias) {
    const int spread = static_cast<int>(5400 * std::sqrt(static_cast<float>(K)));
    in.push_back(g.addInitializer(
        "b", randomInts<int32_t>(DataType::kInt32, {M}, -2 * spread, 2 * spread, rng)));
  }
  ir::Node* n =
      g.addNode("QLinearConv", channelsLast ? "com.microsoft" : "", in, 1, nullptr, "qconv");
  if (channelsLast) n->setAttr(ir::Attribute::makeInt("channels_last", 1));
  setConvAttributes(*n, c);
  g.addOutput(n->output(0));
  analysis::inferShapes(b.model);
  return b;
}

// The model run with the preferred kernels (twice) and the reference ones, on its feeds.
Runs runAll(const Built& b) {
  return runPreferredAndReference(b, b.feeds);
}

class QLinearConvOneDnn : public ::testing::TestWithParam<ConvCase> {};

TEST_P(QLinearConvOneDnn, MatchesTheReference) {
  const ConvCase& c = GetParam();
  Built b = buildModel(c, 17);
  Runs r = runAll(b);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel, "onednn.QLinearConv");
  EXPECT_EQ(r.reference.profile[0].kernel, "cpu.QLinearConv");
  // Bit for bit: the reference's rounding of the exact product on every path
  // (qlinear_conv_near_tie_test.cpp has near-ties).
  expectEqual(r.first.outputs[0], r.reference.outputs[0], "first run");
  expectEqual(r.second.outputs[0], r.first.outputs[0], "second run vs first");
  expectSpread(r.reference.outputs[0]);
}

TEST_P(QLinearConvOneDnn, ChannelsLastGivesTheSameValuesTransposed) {
  const ConvCase& c = GetParam();
  Runs first = runAll(buildModel(c, 17));
  Built last = buildModel(c, 17, true);
  Runs r = runAll(last);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  ASSERT_FALSE(first.first.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel, "onednn.ms.QLinearConv");
  EXPECT_EQ(r.reference.profile[0].kernel, "cpu.ms.QLinearConv");
  // Shape inference and the kernels agree on Y [N, spatial..., C].
  const auto& declared = last.model.graph().outputs()[0]->type().shape();
  ASSERT_TRUE(declared.has_value());
  EXPECT_EQ(declared->toString(), ir::Shape::fromValues(r.first.outputs[0].dims()).toString());
  expectEqual(swapChannels(r.first.outputs[0], false), first.first.outputs[0], "oneDNN");
  expectEqual(swapChannels(r.second.outputs[0], false), first.first.outputs[0], "second run");
  expectEqual(swapChannels(r.reference.outputs[0], false), first.reference.outputs[0], "reference");
}

TEST(QLinearConvChannelsLast, RefusesAnInputWithoutSpatialDims) {
  ConvCase c{.name = "rank2", .x = {1, 8, 5, 5}, .w = {8, 8, 1, 1}};
  Built b = buildModel(c, 3, true);
  b.model.graph().inputs()[0]->setType(
      ir::Type::tensor(DataType::kUInt8, ir::Shape::fromValues({1, 8})));
  b.feeds[0].second =
      ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, {1, 8}, std::vector<uint8_t>(8, 1));
  ExecutorOptions referenceOnly;
  referenceOnly.referenceKernels = true;
  for (const ExecutorOptions& o : {ExecutorOptions{}, referenceOnly}) {
    auto ex = Executor::create(b.model, o);
    if (!ex) continue;  // refused at create: fine
    auto run = (*ex)->run(b.feeds);
    EXPECT_FALSE(run);
  }
}

// y = round(acc * x_scale * w_scale / y_scale) + y_zero_point: the zero point
// is added after the rounding. Here the products are x * 0.50000006 for x in
// 0..255 and -x * 0.50000006 (weights 1 and -1): an odd x is 2^-24 * x above
// a .5 tie, so it rounds away from the even neighbour; with the zero point
// 100 added to the float product first (oneDNN's dst zero point), those low
// bits are lost from 64 up and the tie goes to even, one step lower (ppocr's
// convolutions without a Relu, 0.01-0.02% of their outputs).
TEST(QLinearConvOneDnnZeroPoint, IsAddedAfterTheRounding) {
  const float xScale = std::nextafter(0.5f, 1.0f);
  const int yZero = 100;
  Built b;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}};
  ir::Graph& g = b.model.graph();
  // 16 channels (an optimized oneDNN kernel, not its reference); only the first is read.
  std::vector<uint8_t> xs(16 * 256, 0);
  for (int i = 0; i < 256; ++i) xs[static_cast<size_t>(i)] = static_cast<uint8_t>(i);
  ir::Value* xIn =
      g.addInput("x", ir::Type::tensor(DataType::kUInt8, ir::Shape::fromValues({1, 16, 1, 256})));
  b.feeds.emplace_back("x", ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, {1, 16, 1, 256}, xs));
  std::vector<int8_t> w(2 * 16, 0);
  w[0] = 1;
  w[16] = -1;
  std::vector<ir::Value*> in = {
      xIn,
      g.addInitializer("x_scale", floats({}, {xScale})),
      g.addInitializer("x_zero_point", zeroPoint(DataType::kUInt8, 0)),
      g.addInitializer("w", ir::Tensor::fromVector<int8_t>(DataType::kInt8, {2, 16, 1, 1}, w)),
      g.addInitializer("w_scale", floats({}, {1.0f})),
      g.addInitializer("w_zero_point", zeroPoint(DataType::kInt8, 0)),
      g.addInitializer("y_scale", floats({}, {1.0f})),
      g.addInitializer("y_zero_point", zeroPoint(DataType::kUInt8, yZero)),
  };
  ir::Node* n = g.addNode("QLinearConv", "", in, 1, nullptr, "qconv");
  g.addOutput(n->output(0));
  analysis::inferShapes(b.model);

  Runs r = runAll(b);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel, "onednn.QLinearConv");
  // The formula, independently: the product in float32, rounded half to even, then + 100.
  std::vector<uint8_t> want(512);
  for (int m = 0; m < 2; ++m)
    for (int i = 0; i < 256; ++i) {
      const float product = static_cast<float>(m == 0 ? i : -i) * xScale;
      const float y = std::nearbyint(product) + static_cast<float>(yZero);
      want[static_cast<size_t>(m * 256 + i)] = static_cast<uint8_t>(std::clamp(y, 0.0f, 255.0f));
    }
  const ir::Tensor expected =
      ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, {1, 2, 1, 256}, want);
  expectEqual(r.reference.outputs[0], expected, "reference");
  expectEqual(r.first.outputs[0], expected, "oneDNN");
  expectEqual(r.second.outputs[0], expected, "oneDNN, second run");
}

std::vector<ConvCase> cases() {
  using DT = DataType;
  std::vector<ConvCase> v;
  v.push_back({.name = "pointwise_u8", .x = {1, 16, 7, 7}, .w = {24, 16, 1, 1}});
  v.push_back({.name = "pointwise_s8_per_channel_bias",
               .x = {2, 16, 5, 6},
               .w = {8, 16, 1, 1},
               .xType = DT::kInt8,
               .perChannelScales = true,
               .bias = true});
  v.push_back({.name = "k3_pads_stride2_u8_bias",
               .x = {1, 8, 11, 13},
               .w = {16, 8, 3, 3},
               .bias = true,
               .strides = {2, 2},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k3_pads_stride2_s8_per_channel",
               .x = {1, 8, 12, 12},
               .w = {16, 8, 3, 3},
               .xType = DT::kInt8,
               .perChannelScales = true,
               .strides = {2, 2},
               .pads = {1, 0, 1, 2}});
  v.push_back({.name = "k3_dilated_u8_per_channel_bias",
               .x = {1, 4, 12, 12},
               .w = {6, 4, 3, 3},
               .perChannelScales = true,
               .bias = true,
               .dilations = {2, 2}});
  v.push_back({.name = "depthwise_u8_per_channel_bias",
               .x = {1, 32, 10, 10},
               .w = {32, 1, 3, 3},
               .perChannelScales = true,
               .bias = true,
               .group = 32,
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "depthwise_s8_same_upper_stride2",
               .x = {1, 16, 9, 9},
               .w = {16, 1, 3, 3},
               .xType = DT::kInt8,
               .group = 16,
               .strides = {2, 2},
               .autoPad = "SAME_UPPER"});
  v.push_back({.name = "grouped_u8", .x = {1, 8, 6, 6}, .w = {12, 2, 3, 3}, .group = 4});
  v.push_back({.name = "conv1d_s8_bias",
               .x = {2, 6, 20},
               .w = {5, 6, 3},
               .xType = DT::kInt8,
               .bias = true,
               .pads = {1, 1}});
  v.push_back({.name = "fallback_weight_zero_point",
               .x = {1, 8, 9, 9},
               .w = {8, 8, 3, 3},
               .bias = true,
               .pads = {1, 1, 1, 1},
               .weightZeroPoint = 3});
  v.push_back({.name = "fallback_runtime_scales",
               .x = {1, 8, 9, 9},
               .w = {8, 8, 3, 3},
               .perChannelScales = true,
               .pads = {1, 1, 1, 1},
               .runtimeScales = true});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, QLinearConvOneDnn, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace passlab::exec
