// QLinearConv's integer sums through oneDNN's float32 convolution
// (core/exec/cpu/qlinear_conv_float_sums.cpp: the path of CPUs without exact
// int8 dot products, e.g. AVX2 without VNNI) against the reference kernel
// (qlinear.cpp), bit for bit, on seeded random one-node models: int8 weights
// of zero point 0 (static quantizers' symmetric weights), uint8 and int8
// weights with per-tensor and per-channel zero points, per-channel scales,
// padding, strides, dilation, groups and depthwise, 1x1, 1-D and 3-D, bias,
// uint8 and int8 activations and outputs, multipliers that are powers of 2
// (many exact .5 ties: rounding half to even), activation zero points at the
// ends of the range; the class called directly (1 and 2 threads, NCHW and
// channels-last, two runs, a second input shape sharing the first kernel's
// weights), through the executor, and what it declines (sums past 2^24).
// The class runs on any CPU (oneDNN's float32 convolution), so these run on
// every ISA cap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/qlinear_conv_float_sums.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/executor.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/int8_conv_test_util.h"

namespace passlab::exec {
namespace {

using ir::DataType;
using namespace int8conv;  // NOLINT(google-build-using-namespace)

struct Case {
  std::string name;
  Dims x, w;  // X [N, C, spatial...], W [M, C/group, k...]
  DataType xType = DataType::kUInt8;
  DataType wType = DataType::kInt8;
  DataType yType = DataType::kUInt8;
  bool weightZeroPoints = false;  // nonzero weight zero points (else 0 for int8, 128 for uint8)
  bool perChannelZeroPoints = false;
  bool perChannelScales = false;
  bool bias = false;
  bool ties = false;  // multipliers that are powers of 2
  int xZero = -1000;  // -1000: random
  int64_t group = 1;
  Dims strides = {}, pads = {}, dilations = {};
  std::string autoPad = {};
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

ir::Tensor zeroPoints(DataType t, const std::vector<int>& v, bool perChannel) {
  Dims d = perChannel ? Dims{static_cast<int64_t>(v.size())} : Dims{};
  if (t == DataType::kUInt8) return ir::Tensor::fromVector<uint8_t>(t, d, {v.begin(), v.end()});
  return ir::Tensor::fromVector<int8_t>(t, d, {v.begin(), v.end()});
}

struct Model {
  Built built;
  std::vector<ir::Tensor> inputs;  // QLinearConv's, bias last if any
};

// channelsLast: com.microsoft QLinearConv with channels_last = 1, X fed as
// [N, spatial..., C] (the same values).
Model buildModel(const Case& c, uint32_t seed, bool channelsLast = false) {
  std::mt19937 rng(seed);
  std::mt19937 wrng(seed * 7 + 1);  // W and the bias: the same for any X dims
  const int64_t M = c.w[0];
  const int64_t K = numel(c.w) / M;
  const bool u8w = c.wType == DataType::kUInt8;
  std::vector<int> zw(c.perChannelZeroPoints ? static_cast<size_t>(M) : 1);
  for (int& z : zw)
    z = !c.weightZeroPoints ? (u8w ? 128 : 0)
        : u8w               ? std::uniform_int_distribution<int>(100, 156)(rng)
                            : std::uniform_int_distribution<int>(-28, 28)(rng);
  const float xScale = c.ties ? 0.5f : 0.02f;
  std::uniform_real_distribution<float> wScaleDist(0.002f, 0.01f);
  std::vector<float> wScales(c.perChannelScales ? static_cast<size_t>(M) : 1);
  for (size_t i = 0; i < wScales.size(); ++i)
    wScales[i] = c.ties ? std::ldexp(1.0f, -static_cast<int>(i % 4)) : wScaleDist(rng);
  // The sum of K products of about 74 * 75 has a spread of 5500 * sqrt(K).
  // Ties: y_scale a power of 2 too, near what spreads the outputs.
  const float spreadScale = xScale * 0.006f * 5500.0f * std::sqrt(static_cast<float>(K)) / 40.0f;
  const float yScale =
      c.ties ? std::ldexp(1.0f, static_cast<int>(std::lround(std::log2(spreadScale / 0.006f))))
             : spreadScale;
  const bool u8x = c.xType == DataType::kUInt8;
  const int xZero = c.xZero != -1000 ? c.xZero
                    : u8x            ? std::uniform_int_distribution<int>(100, 150)(rng)
                                     : std::uniform_int_distribution<int>(-20, 20)(rng);
  const int yZero = c.yType == DataType::kUInt8 ? 131 : -3;

  Model m;
  Built& b = m.built;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}};
  if (channelsLast) b.model.opsets.push_back({"com.microsoft", 1});
  ir::Graph& g = b.model.graph();
  ir::Tensor x = activations(c.xType, c.x, rng);
  if (channelsLast) x = swapChannels(x, true);
  ir::Value* xIn = g.addInput("x", ir::Type::tensor(c.xType, ir::Shape::fromValues(x.dims())));
  b.feeds.emplace_back("x", x);
  m.inputs = {
      x,
      floats({}, {xScale}),
      zeroPoint(c.xType, xZero),
      u8w ? randomInts<uint8_t>(c.wType, c.w, 0, 255, wrng)
          : randomInts<int8_t>(c.wType, c.w, -127, 127, wrng),
      c.perChannelScales ? floats({M}, wScales) : floats({}, wScales),
      zeroPoints(c.wType, zw, c.perChannelZeroPoints),
      floats({}, {yScale}),
      zeroPoint(c.yType, yZero),
  };
  if (c.bias) {
    const int spread = static_cast<int>(5500 * std::sqrt(static_cast<float>(K)));
    m.inputs.push_back(randomInts<int32_t>(DataType::kInt32, {M}, -2 * spread, 2 * spread, wrng));
  }
  const char* names[] = {"x",       "x_scale",      "x_zero_point",
                         "w",       "w_scale",      "w_zero_point",
                         "y_scale", "y_zero_point", "b"};
  std::vector<ir::Value*> in = {xIn};
  for (size_t i = 1; i < m.inputs.size(); ++i)
    in.push_back(g.addInitializer(names[i], m.inputs[i]));
  ir::Node* n =
      g.addNode("QLinearConv", channelsLast ? "com.microsoft" : "", in, 1, nullptr, "qconv");
  if (channelsLast) n->setAttr(ir::Attribute::makeInt("channels_last", 1));
  setConvAttributes(*n, c);
  g.addOutput(n->output(0));
  analysis::inferShapes(b.model);
  return m;
}

// The executor's side of a call: the model's inputs, all invariant unless told otherwise.
class DirectContext final : public KernelContext {
 public:
  DirectContext(const std::vector<ir::Tensor>& in, int threads, bool invariant = true)
      : threads_(threads), invariant_(invariant) {
    for (const ir::Tensor& t : in) in_.emplace_back(t);
  }
  Tensor out;

  size_t inputCount() const override { return in_.size(); }
  const Value* value(size_t i) const override { return i < in_.size() ? &in_[i] : nullptr; }
  bool invariantInput(size_t) const override { return invariant_; }
  size_t outputCount() const override { return 1; }
  bool wantsOutput(size_t) const override { return true; }
  Expected<Tensor*> allocate(size_t, DataType dtype, Dims dims) override {
    out = Tensor::zeros(dtype, std::move(dims));
    return &out;
  }
  void setOutput(size_t, Value) override {}
  Expected<Tensor> scratch(DataType dtype, Dims dims) override {
    return Tensor::zeros(dtype, std::move(dims));
  }
  int threads() const override { return threads_; }
  bool cancelled() const override { return false; }
  int64_t maxLoopIterations() const override { return 1; }

 private:
  std::vector<Value> in_;
  int threads_;
  bool invariant_;
};

cpu::ConvGeometry geometryOf(const Model& m, const Dims& xDims) {
  const ir::Node& node = *m.built.model.graph().nodes().front();
  auto attrs = cpu::parseConvAttrs(node);
  EXPECT_TRUE(attrs);
  auto g = cpu::convGeometry(*attrs, xDims, m.inputs[3].dims());
  EXPECT_TRUE(g);
  return *g;
}

// The reference kernel's output of m on `feeds`.
ir::Tensor referenceOutput(const Model& m, const NamedInputs& feeds) {
  ExecutorOptions referenceOnly;
  referenceOnly.referenceKernels = true;
  auto reference = Executor::create(m.built.model, referenceOnly);
  EXPECT_TRUE(reference) << reference.error().message();
  if (!reference) return {};
  auto want = (*reference)->run(feeds);
  EXPECT_TRUE(want) << want.error().message();
  if (!want) return {};
  return want->outputs[0];
}

// The class on the inputs of ctx into Y of its layout.
ir::Tensor runClass(cpu::QLinearConvFloatSums& k, DirectContext& ctx, const cpu::ConvGeometry& g,
                    bool channelsLast, bool bias) {
  auto allocated =
      ctx.allocate(0, k.yType(), channelsLast ? channelsLastDims(g.outDims) : g.outDims);
  EXPECT_TRUE(allocated);
  Tensor* y = *allocated;
  Status s = k.run(ctx, ctx.input(0), bias ? &ctx.input(8) : nullptr, *y);
  EXPECT_TRUE(s.isOk()) << s.error().message();
  return y->toIr();
}

class QLinearConvFloatSumsTest : public ::testing::TestWithParam<Case> {};

TEST_P(QLinearConvFloatSumsTest, ClassMatchesTheReferenceBitForBit) {
  const Case& c = GetParam();
  Model m = buildModel(c, 37);
  const ir::Tensor want = referenceOutput(m, m.built.feeds);
  ASSERT_GT(want.numel(), 0);
  expectSpread(want);
  const cpu::ConvGeometry g = geometryOf(m, c.x);
  for (int threads : {1, 2}) {
    DirectContext ctx(m.inputs, threads);
    auto k = cpu::QLinearConvFloatSums::create(ctx, g, false, nullptr);
    ASSERT_NE(k, nullptr) << "declined";
    EXPECT_EQ(k->yType(), c.yType);
    EXPECT_LE(k->sumBound(), int64_t{1} << 24);
    for (int run = 0; run < 2; ++run)
      expectEqual(runClass(*k, ctx, g, false, c.bias), want,
                  std::to_string(threads) + " threads, run " + std::to_string(run + 1));
  }
}

// com.microsoft QLinearConv with channels_last = 1: the class on channels-last
// X and Y gives the reference's NCHW output transposed; so does the executor.
TEST_P(QLinearConvFloatSumsTest, ChannelsLastGivesTheSameValuesTransposed) {
  const Case& c = GetParam();
  Model first = buildModel(c, 41);
  Model last = buildModel(c, 41, true);
  const ir::Tensor want = referenceOutput(first, first.built.feeds);
  ASSERT_GT(want.numel(), 0);
  const cpu::ConvGeometry g = geometryOf(last, c.x);
  for (int threads : {1, 2}) {
    DirectContext ctx(last.inputs, threads);
    auto k = cpu::QLinearConvFloatSums::create(ctx, g, true, nullptr);
    ASSERT_NE(k, nullptr) << "declined";
    expectEqual(swapChannels(runClass(*k, ctx, g, true, c.bias), false), want,
                "the class, " + std::to_string(threads) + " threads");
  }
  Runs r = runPreferredAndReference(last.built, last.built.feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel, "onednn.ms.QLinearConv");
  expectEqual(swapChannels(r.first.outputs[0], false), want, "executor, first run");
  expectEqual(swapChannels(r.second.outputs[0], false), want, "executor, second run");
}

// Through the executor (on a CPU without VNNI, or capped below it, the
// kernel takes this path; with VNNI the int8 primitives): the reference's bytes.
TEST_P(QLinearConvFloatSumsTest, ExecutorMatchesTheReferenceBitForBit) {
  const Case& c = GetParam();
  Model m = buildModel(c, 43);
  Runs r = runPreferredAndReference(m.built, m.built.feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel, "onednn.QLinearConv");
  expectEqual(r.first.outputs[0], r.reference.outputs[0], "first run");
  expectEqual(r.second.outputs[0], r.reference.outputs[0], "second run");
}

std::vector<Case> cases() {
  using DT = DataType;
  std::vector<Case> v;
  v.push_back({.name = "k3_symmetric_s8_weights_pads",
               .x = {1, 32, 12, 12},
               .w = {40, 32, 3, 3},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k3_per_channel_scales_bias_uneven_pads",
               .x = {2, 16, 9, 11},
               .w = {24, 16, 3, 3},
               .perChannelScales = true,
               .bias = true,
               .pads = {1, 0, 2, 1}});
  v.push_back({.name = "k3_ties_per_channel_bias",
               .x = {1, 16, 10, 10},
               .w = {20, 16, 3, 3},
               .perChannelScales = true,
               .bias = true,
               .ties = true,
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "pointwise_ties_s8_x_s8_y",
               .x = {1, 48, 7, 7},
               .w = {20, 48, 1, 1},
               .xType = DT::kInt8,
               .yType = DT::kInt8,
               .ties = true});
  v.push_back({.name = "pointwise_u8_weights_zero_points_bias",
               .x = {1, 48, 7, 7},
               .w = {20, 48, 1, 1},
               .wType = DT::kUInt8,
               .weightZeroPoints = true,
               .perChannelZeroPoints = true,
               .bias = true});
  v.push_back({.name = "k3_s8_weights_per_channel_zero_points_stride2_s8_y",
               .x = {1, 8, 12, 12},
               .w = {16, 8, 3, 3},
               .yType = DT::kInt8,
               .weightZeroPoints = true,
               .perChannelZeroPoints = true,
               .strides = {2, 2},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k3_s8_x_stride2_bias",
               .x = {1, 8, 13, 11},
               .w = {16, 8, 3, 3},
               .xType = DT::kInt8,
               .bias = true,
               .strides = {2, 2},
               .pads = {0, 1, 1, 0}});
  v.push_back({.name = "k3_dilated_per_channel",
               .x = {1, 4, 12, 12},
               .w = {6, 4, 3, 3},
               .perChannelScales = true,
               .dilations = {2, 2}});
  v.push_back({.name = "depthwise_per_channel_bias",
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
               .yType = DT::kInt8,
               .group = 16,
               .strides = {2, 2},
               .autoPad = "SAME_UPPER"});
  v.push_back({.name = "grouped_u8_weights_per_channel_zero_points",
               .x = {1, 8, 6, 6},
               .w = {12, 2, 3, 3},
               .wType = DT::kUInt8,
               .weightZeroPoints = true,
               .perChannelZeroPoints = true,
               .group = 4,
               .pads = {1, 1, 1, 1}});
  v.push_back(
      {.name = "conv1d_bias", .x = {2, 6, 20}, .w = {5, 6, 3}, .bias = true, .pads = {1, 1}});
  v.push_back({.name = "conv3d_per_channel",
               .x = {1, 4, 5, 6, 6},
               .w = {8, 4, 3, 3, 3},
               .perChannelScales = true,
               .pads = {1, 1, 1, 1, 1, 1}});
  v.push_back({.name = "k3_x_zero_point_0",
               .x = {1, 16, 8, 8},
               .w = {16, 16, 3, 3},
               .xZero = 0,
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k3_x_zero_point_255_tail_channels",
               .x = {1, 13, 8, 9},
               .w = {11, 13, 3, 3},
               .bias = true,
               .xZero = 255,
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k5_many_channels_bias",
               .x = {1, 24, 9, 20},
               .w = {37, 24, 5, 5},
               .perChannelScales = true,
               .bias = true,
               .pads = {2, 2, 2, 2}});
  // Channels-last with AVX2 (the integer sums): two images, uint8 weights with
  // per-channel zero points, stride 2 down and 1 across (the only case with
  // unequal strides), uneven padding, 20 outputs (a block of 16 and 4), 10
  // channels (5 pairs; at least 8, else oneDNN's float32 kernel runs), 10 -> 12
  // columns.
  v.push_back({.name = "k3_batch2_u8_weights_uneven",
               .x = {2, 10, 11, 10},
               .w = {20, 10, 3, 3},
               .wType = DT::kUInt8,
               .weightZeroPoints = true,
               .perChannelZeroPoints = true,
               .bias = true,
               .strides = {2, 1},
               .pads = {1, 0, 1, 2}});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, QLinearConvFloatSumsTest, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

// A second input shape: the kernel made with the first one's kernel as
// `previous` shares its float32 weights (W not read: zeros in its context)
// and gives the reference's bytes for the new shape.
TEST(QLinearConvFloatSums, AnotherShapeSharesTheWeights) {
  const Case c{
      .name = "k3", .x = {1, 8, 10, 10}, .w = {12, 8, 3, 3}, .bias = true, .pads = {1, 1, 1, 1}};
  Model m = buildModel(c, 3);
  const cpu::ConvGeometry g = geometryOf(m, c.x);
  DirectContext ctx(m.inputs, 1);
  auto k = cpu::QLinearConvFloatSums::create(ctx, g, false, nullptr);
  ASSERT_NE(k, nullptr);

  Case other = c;
  other.x = {2, 8, 7, 13};
  Model m2 = buildModel(other, 3);  // the same weights, bias and quantization
  ASSERT_EQ(m2.inputs[3].bytes().size(), m.inputs[3].bytes().size());
  ASSERT_TRUE(std::equal(m2.inputs[3].bytes().begin(), m2.inputs[3].bytes().end(),
                         m.inputs[3].bytes().begin()));
  const ir::Tensor want = referenceOutput(m2, m2.built.feeds);
  ASSERT_GT(want.numel(), 0);
  expectSpread(want);
  const cpu::ConvGeometry g2 = geometryOf(m2, other.x);
  std::vector<ir::Tensor> in = m2.inputs;
  in[3] = ir::Tensor::fromVector<int8_t>(DataType::kInt8, c.w,
                                         std::vector<int8_t>(static_cast<size_t>(numel(c.w)), 0));
  DirectContext ctx2(in, 2);
  auto k2 = cpu::QLinearConvFloatSums::create(ctx2, g2, false, k.get());
  ASSERT_NE(k2, nullptr);
  expectEqual(runClass(*k2, ctx2, g2, false, true), want, "second shape");
}

// Channels-last X and Y go into oneDNN's channels-last float32 kernel as they
// are: no float32 reorder of either on each run (with the layouts left to
// oneDNN it picked 8-channel blocks, and a 1x1 128 -> 32 at 56x56 took 0.55
// against 0.37 ms channels-first). The bytes are the reference's (above).
TEST(QLinearConvFloatSums, ChannelsLastRunsWithoutReorders) {
  for (const Case& c : {Case{.name = "k1", .x = {1, 32, 9, 9}, .w = {16, 32, 1, 1}, .bias = true},
                        Case{.name = "k3",
                        .x = {1, 8, 10, 10},
                        .w = {12, 8, 3, 3},
                        .bias = true,
                        .pads = {1, 1, 1, 1}}}) {
    Model last = buildModel(c, 5, true);
    const cpu::ConvGeometry g = geometryOf(last, c.x);
    DirectContext ctx(last.inputs, 1);
    auto k = cpu::QLinearConvFloatSums::create(ctx, g, true, nullptr);
    ASSERT_NE(k, nullptr) << c.name;
    EXPECT_FALSE(k->reordersActivations()) << c.name;
    Model first = buildModel(c, 5);
    expectEqual(swapChannels(runClass(*k, ctx, g, true, c.bias), false),
                referenceOutput(first, first.built.feeds), c.name);
  }
}

// With AVX2 a channels-last 2-D convolution of one group and dilation 1, not
// 1x1, takes its sums from 16-bit integer products (runsIntegerSums), the others
// oneDNN's float32 convolution; both give the reference's bytes (the
// parameterized tests above, channels-last, run every case through it).
TEST(QLinearConvFloatSums, ChannelsLastGroupOneRunsIntegerSumsOnAvx2) {
  const bool avx2 = cpu_isa::hasAvx2Fma();
  for (const Case& c :
       {Case{.name = "k3", .x = {1, 8, 10, 10}, .w = {12, 8, 3, 3}, .pads = {1, 1, 1, 1}},
        Case{.name = "k1x3", .x = {1, 8, 7, 9}, .w = {16, 8, 1, 3}, .bias = true},
        Case{.name = "k5_stride2",
        .x = {1, 9, 13, 12},
        .w = {17, 9, 5, 5},
        .strides = {2, 2},
        .pads = {2, 2, 2, 2}},
        Case{.name = "k3_stride1x2",
        .x = {1, 8, 9, 13},
        .w = {16, 8, 3, 3},
        .strides = {1, 2},
        .pads = {0, 1, 2, 1}}}) {
    Model last = buildModel(c, 7, true);
    const cpu::ConvGeometry g = geometryOf(last, c.x);
    DirectContext ctx(last.inputs, 1);
    auto k = cpu::QLinearConvFloatSums::create(ctx, g, true, nullptr);
    ASSERT_NE(k, nullptr) << c.name;
    EXPECT_EQ(k->runsIntegerSums(), avx2) << c.name;
    Model first = buildModel(c, 7);
    expectEqual(swapChannels(runClass(*k, ctx, g, true, c.bias), false),
                referenceOutput(first, first.built.feeds), c.name);
    // NCHW: oneDNN's float32 convolution.
    DirectContext nchw(first.inputs, 1);
    auto f = cpu::QLinearConvFloatSums::create(nchw, geometryOf(first, c.x), false, nullptr);
    ASSERT_NE(f, nullptr) << c.name;
    EXPECT_FALSE(f->runsIntegerSums()) << c.name;
  }
  // The parameterized case with unequal strides (2 down, 1 across) and uint8
  // weights runs there too (with 6 channels it had left for oneDNN's kernel).
  for (const Case& c : cases()) {
    if (c.name != "k3_batch2_u8_weights_uneven") continue;
    Model last = buildModel(c, 41, true);
    DirectContext ctx(last.inputs, 1);
    auto k = cpu::QLinearConvFloatSums::create(ctx, geometryOf(last, c.x), true, nullptr);
    ASSERT_NE(k, nullptr) << c.name;
    EXPECT_EQ(k->runsIntegerSums(), avx2) << c.name;
  }
  // Groups, dilation, 1x1 and fewer than 8 channels: the float32 convolution.
  for (const Case& c :
       {Case{.name = "k1", .x = {1, 32, 9, 9}, .w = {16, 32, 1, 1}, .bias = true},
        Case{.name = "c3", .x = {1, 3, 12, 12}, .w = {16, 3, 3, 3}, .strides = {2, 2}},
        Case{.name = "grouped", .x = {1, 8, 6, 6}, .w = {12, 2, 3, 3}, .group = 4},
        Case{.name = "dilated", .x = {1, 4, 12, 12}, .w = {6, 4, 3, 3}, .dilations = {2, 2}}}) {
    Model last = buildModel(c, 9, true);
    DirectContext ctx(last.inputs, 1);
    auto k = cpu::QLinearConvFloatSums::create(ctx, geometryOf(last, c.x), true, nullptr);
    ASSERT_NE(k, nullptr) << c.name;
    EXPECT_FALSE(k->runsIntegerSums()) << c.name;
  }
}

// Sums that float32 cannot hold exactly: int8 weights of +-127 over 512 x 3 x 3
// taps with a full-range uint8 activation (zero point 0): sum |W| * 255 =
// 1.5e8 > 2^24, declined. Weights that may change between runs and an
// infinite multiplier (y_scale 0) are declined too; small weights are not.
TEST(QLinearConvFloatSums, DeclinesSumsPastFloat32Integers) {
  const Case c{
      .name = "big", .x = {1, 512, 5, 5}, .w = {4, 512, 3, 3}, .xZero = 0, .pads = {1, 1, 1, 1}};
  Model m = buildModel(c, 5);
  const cpu::ConvGeometry g = geometryOf(m, c.x);
  std::mt19937 rng(2);
  std::vector<ir::Tensor> small = m.inputs;
  small[3] = randomInts<int8_t>(DataType::kInt8, c.w, -3, 3, rng);  // sum |W| * 255 < 2^24
  {
    DirectContext ctx(small, 1);
    EXPECT_NE(cpu::QLinearConvFloatSums::create(ctx, g, false, nullptr), nullptr) << "small";
  }
  std::vector<ir::Tensor> big = m.inputs;
  std::vector<int8_t> w(static_cast<size_t>(numel(c.w)));
  for (size_t i = 0; i < w.size(); ++i) w[i] = i % 2 ? 127 : -127;
  big[3] = ir::Tensor::fromVector<int8_t>(DataType::kInt8, c.w, w);
  {
    DirectContext ctx(big, 1);
    EXPECT_EQ(cpu::QLinearConvFloatSums::create(ctx, g, false, nullptr), nullptr) << "+-127";
  }
  {
    DirectContext ctx(small, 1, false);
    EXPECT_EQ(cpu::QLinearConvFloatSums::create(ctx, g, false, nullptr), nullptr)
        << "weights not invariant";
  }
  {
    std::vector<ir::Tensor> inf = small;
    inf[6] = floats({}, {0.0f});  // x_scale * w_scale / 0
    DirectContext ctx(inf, 1);
    EXPECT_EQ(cpu::QLinearConvFloatSums::create(ctx, g, false, nullptr), nullptr)
        << "infinite multiplier";
  }
}

// Past 2^24 the integer sums (channels-last, AVX2) still hold the sums
// exactly in int32 (bound up to 2^31 - 1): random int8 weights over 512 x 3 x
// 3 taps with a full-range uint8 activation (sum |W| * 255 about 7.5e7), which
// the float sums decline, run there with the reference's bytes (before:
// declined, the reference kernel ran, 80 ms for 256 -> 256 3x3 on 14 x 14).
// NCHW still declines them.
TEST(QLinearConvFloatSums, IntegerSumsTakeSumsPastFloat32Integers) {
  if (!cpu_isa::hasAvx2Fma()) GTEST_SKIP() << "no AVX2";
  const Case c{.name = "big",
               .x = {1, 512, 5, 6},
               .w = {20, 512, 3, 3},
               .bias = true,
               .xZero = 0,
               .pads = {1, 1, 1, 1}};
  Model last = buildModel(c, 11, true);
  Model first = buildModel(c, 11);
  const cpu::ConvGeometry g = geometryOf(last, c.x);
  for (int threads : {1, 2}) {
    DirectContext ctx(last.inputs, threads);
    auto k = cpu::QLinearConvFloatSums::create(ctx, g, true, nullptr);
    ASSERT_NE(k, nullptr);
    EXPECT_TRUE(k->runsIntegerSums());
    EXPECT_GT(k->sumBound(), int64_t{1} << 24);
    const ir::Tensor want = referenceOutput(first, first.built.feeds);
    ASSERT_GT(want.numel(), 0);
    expectSpread(want);
    expectEqual(swapChannels(runClass(*k, ctx, g, true, c.bias), false), want,
                std::to_string(threads) + " threads");
  }
  Runs r = runPreferredAndReference(last.built, last.built.feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel, "onednn.ms.QLinearConv");
  expectEqual(r.first.outputs[0], r.reference.outputs[0], "executor");
  DirectContext nchw(first.inputs, 1);
  EXPECT_EQ(cpu::QLinearConvFloatSums::create(nchw, geometryOf(first, c.x), false, nullptr),
            nullptr);
}

// Sums themselves past 2^24, which float32 would round: X = 255 - (a
// pattern of 0..3), zero point 0, weights 127 - (0..2) over 512 x 3 x 3 taps
// (sums about 1.5e8, float32 steps of 8-16 there), a bias of about -1.5e8
// bringing them back near 0, multiplier 2^-10 (scales of powers of 2): the
// integer path's bytes are the reference formula's, computed here in int64
// (sum + bias, times the multiplier, rounded half to even, + 128, saturated).
TEST(QLinearConvFloatSums, IntegerSumsPastFloat32AreExact) {
  if (!cpu_isa::hasAvx2Fma()) GTEST_SKIP() << "no AVX2";
  const int64_t C = 512, M = 16, H = 4, W = 5;
  const Case c{
      .name = "exact", .x = {1, C, H, W}, .w = {M, C, 3, 3}, .bias = true, .pads = {1, 1, 1, 1}};
  Model last = buildModel(c, 13, true);                    // for the geometry
  std::vector<uint8_t> x(static_cast<size_t>(H * W * C));  // [1, H, W, C]
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>(255 - (i * 7 + i / 5) % 4);
  std::vector<int8_t> w(static_cast<size_t>(M * C * 9));
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(127 - (i * 5 + i / 9) % 3);
  // The exact sums [H, W, M].
  std::vector<int64_t> sums(static_cast<size_t>(H * W * M), 0);
  for (int64_t oh = 0; oh < H; ++oh)
    for (int64_t ow = 0; ow < W; ++ow)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t kh = 0; kh < 3; ++kh)
          for (int64_t kw = 0; kw < 3; ++kw) {
            const int64_t ih = oh + kh - 1, iw = ow + kw - 1;
            if (ih < 0 || iw < 0 || ih >= H || iw >= W) continue;
            for (int64_t ch = 0; ch < C; ++ch)
              sums[static_cast<size_t>((oh * W + ow) * M + m)] +=
                  int64_t{x[static_cast<size_t>((ih * W + iw) * C + ch)]} *
                  w[static_cast<size_t>(((m * C + ch) * 3 + kh) * 3 + kw)];
          }
  // A bias bringing the full-window sums near 0: those outputs spread.
  std::vector<int32_t> bias(static_cast<size_t>(M));
  for (int64_t m = 0; m < M; ++m)
    bias[static_cast<size_t>(m)] =
        static_cast<int32_t>(-sums[static_cast<size_t>((1 * W + 1) * M + m)] + 3000 * (m % 5));
  std::vector<ir::Tensor> in = {
      ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, {1, H, W, C}, x),
      floats({}, {1.0f}),
      zeroPoint(DataType::kUInt8, 0),
      ir::Tensor::fromVector<int8_t>(DataType::kInt8, {M, C, 3, 3}, w),
      floats({}, {1.0f}),
      zeroPoint(DataType::kInt8, 0),
      floats({}, {256.0f}),
      zeroPoint(DataType::kUInt8, 128),
      ir::Tensor::fromVector<int32_t>(DataType::kInt32, {M}, bias),
  };
  const cpu::ConvGeometry g = geometryOf(last, c.x);
  DirectContext ctx(in, 1);
  auto k = cpu::QLinearConvFloatSums::create(ctx, g, true, nullptr);
  ASSERT_NE(k, nullptr);
  ASSERT_TRUE(k->runsIntegerSums());
  const ir::Tensor got = runClass(*k, ctx, g, true, true);
  int64_t rounded = 0, inside = 0;
  for (int64_t at = 0; at < H * W * M; ++at) {
    const int64_t sum = sums[static_cast<size_t>(at)];
    const int64_t total = sum + bias[static_cast<size_t>(at % M)];
    rounded += static_cast<int64_t>(static_cast<float>(sum)) != sum;
    const double v =
        std::clamp(std::nearbyint(static_cast<double>(total) / 256.0) + 128.0, 0.0, 255.0);
    inside += v > 0.0 && v < 255.0;
    ASSERT_EQ(int{got.data<uint8_t>()[at]}, static_cast<int>(v)) << "at " << at << " sum " << sum;
  }
  EXPECT_GT(rounded, 0) << "no sum that float32 rounds";
  EXPECT_GT(inside, 10) << "outputs saturated";
}

}  // namespace
}  // namespace passlab::exec
