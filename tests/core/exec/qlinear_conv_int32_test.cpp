// QLinearConv with uint8 weights or weight zero points other than 0
// (core/exec/cpu/qlinear_conv_int32.cpp: oneDNN's int32 sums, the weights'
// zero points taken out, the reference's requantization) against the
// reference kernel (qlinear.cpp), bit for bit, on seeded random one-node
// models: uint8 and int8 weights, per-tensor and per-channel weight zero
// points (and zero points that cancel the uint8 shift), padding, strides,
// dilation, groups and depthwise, 1x1, 1-D and 3-D, bias, uint8 and int8
// activations and outputs; the class called directly (1 and 2 threads) and
// through the executor, NCHW and com.microsoft channels_last; what it
// declines; and the corpus model whose
// TFLite-style weights (uint8, zero points 108-142) showed the cliff.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ostream>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/qlinear_conv_int32.h"
#include "core/exec/executor.h"
#include "core/exec/input_fill.h"
#include "core/io/model_io.h"
#include "core/passes/registry.h"
#include "core/rewrite/rewriter.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/int8_conv_test_util.h"
#include "tests/support/test_support.h"

namespace passlab::exec {
namespace {

using ir::DataType;
using namespace int8conv;  // NOLINT(google-build-using-namespace)

struct Case {
  std::string name;
  Dims x, w;  // X [N, C, spatial...], W [M, C/group, k...]
  DataType xType = DataType::kUInt8;
  DataType wType = DataType::kUInt8;
  DataType yType = DataType::kUInt8;
  bool perChannelZeroPoints = false;
  bool perChannelScales = false;
  bool bias = false;
  int64_t group = 1;
  Dims strides = {}, pads = {}, dilations = {};
  std::string autoPad = {};
  // The weight zero point that makes W - zw what oneDNN takes as is: 128 for
  // uint8, 0 for int8 (no weight term to take out).
  bool unshiftedZeroPoint = false;
  // int8 weights in [-64, 64] (`reduce_range`): oneDNN's int8 sums exact without VNNI too,
  // for uint8 X (int8_dot_exactness.h), so the class runs there (on AVX2 + FMA).
  bool narrow = false;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

// 8-bit zero points of type t: one, or one per channel.
ir::Tensor zeroPoints(DataType t, const std::vector<int>& v, bool perChannel) {
  Dims d = perChannel ? Dims{static_cast<int64_t>(v.size())} : Dims{};
  if (t == DataType::kUInt8) {
    std::vector<uint8_t> b(v.begin(), v.end());
    return ir::Tensor::fromVector<uint8_t>(t, d, b);
  }
  std::vector<int8_t> b(v.begin(), v.end());
  return ir::Tensor::fromVector<int8_t>(t, d, b);
}

// The model's inputs in QLinearConv's order (bias last, if any), kept for
// calling the class directly.
struct Model {
  Built built;
  std::vector<ir::Tensor> inputs;
};

// channelsLast: com.microsoft QLinearConv with channels_last = 1, X fed as
// [N, spatial..., C] (the same values).
Model buildModel(const Case& c, uint32_t seed, bool channelsLast = false) {
  std::mt19937 rng(seed);
  const int64_t M = c.w[0];
  const int64_t K = numel(c.w) / M;  // products summed per output
  const bool u8w = c.wType == DataType::kUInt8;
  // Weight zero points as asymmetric quantizers pick them (uint8 around 128,
  // int8 around 0), or the ones that cancel the shift.
  std::vector<int> zw(c.perChannelZeroPoints ? static_cast<size_t>(M) : 1);
  for (int& z : zw)
    z = c.unshiftedZeroPoint ? (u8w ? 128 : 0)
        : u8w                ? std::uniform_int_distribution<int>(100, 156)(rng)
                             : std::uniform_int_distribution<int>(-28, 28)(rng);
  // Scales that spread the outputs over the 8-bit range, some saturating:
  // the sum of K products of about 74 * 80 has a spread of 5900 * sqrt(K).
  const float xScale = 0.02f;
  std::uniform_real_distribution<float> wScaleDist(0.002f, 0.01f);
  std::vector<float> wScales(c.perChannelScales ? static_cast<size_t>(M) : 1);
  for (float& s : wScales) s = wScaleDist(rng);
  const float yScale = xScale * 0.006f * 5900.0f * std::sqrt(static_cast<float>(K)) / 40.0f;
  const bool u8x = c.xType == DataType::kUInt8;
  const int xZero = u8x ? std::uniform_int_distribution<int>(100, 150)(rng)
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
      u8w        ? randomInts<uint8_t>(c.wType, c.w, 0, 255, rng)
      : c.narrow ? randomInts<int8_t>(c.wType, c.w, -64, 64, rng)
                 : randomInts<int8_t>(c.wType, c.w, -128, 127, rng),
      c.perChannelScales ? floats({M}, wScales) : floats({}, wScales),
      zeroPoints(c.wType, zw, c.perChannelZeroPoints),
      floats({}, {yScale}),
      zeroPoint(c.yType, yZero),
  };
  if (c.bias) {
    const int spread = static_cast<int>(5900 * std::sqrt(static_cast<float>(K)));
    m.inputs.push_back(randomInts<int32_t>(DataType::kInt32, {M}, -2 * spread, 2 * spread, rng));
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

// The executor's side of a call: the model's inputs, all invariant unless
// told otherwise.
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

// The geometry of X [N, C, spatial...] (xDims) and the model's W.
cpu::ConvGeometry geometryOf(const Model& m, const Dims& xDims) {
  const ir::Node& node = *m.built.model.graph().nodes().front();
  auto attrs = cpu::parseConvAttrs(node);
  EXPECT_TRUE(attrs);
  auto g = cpu::convGeometry(*attrs, xDims, m.inputs[3].dims());
  EXPECT_TRUE(g);
  return *g;
}

// oneDNN's int8 sums exact (VNNI; without it narrow int8 weights and uint8 X), the
// requantization on AVX-512 VNNI or AVX2 + FMA (PASSLAB_MAX_ISA=avx2vnni runs the AVX2 one on
// every case here, avx2 on the narrow ones).
bool covered(const Case& c = {}) {
  const bool narrowSums = c.narrow && c.xType == DataType::kUInt8 && c.wType == DataType::kInt8;
  return (cpu_isa::hasAvx512Vnni() || cpu_isa::hasAvx2Fma()) &&
         (cpu::qlinear::exactInt8DotProducts() || narrowSums);
}

// oneDNN 2.6's int8 kernels below AVX-512 (jit_uni) take no grouped convolution of fewer than
// 8 input channels per group (grouped_u8_per_channel: 2): only its reference, which the class
// declines; the executor then runs the reference kernel (ExecutorMatchesTheReferenceBitForBit).
bool oneDnnGroupsOnlyOnAvx512(const Case& c) {
  return !cpu_isa::hasAvx512Vnni() && c.group > 1 && c.group != c.w[0] && c.w[1] < 8;
}
constexpr const char* oneDnnGroupsOnlyOnAvx512Note =
    "oneDNN has no optimized kernel below AVX-512 for groups of fewer than 8 input channels";

class QLinearConvInt32Test : public ::testing::TestWithParam<Case> {};

TEST_P(QLinearConvInt32Test, ExecutorMatchesTheReferenceBitForBit) {
  const Case& c = GetParam();
  Model m = buildModel(c, 31);
  Runs r = runPreferredAndReference(m.built, m.built.feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel, "onednn.QLinearConv");
  EXPECT_EQ(r.reference.profile[0].kernel, "cpu.QLinearConv");
  expectEqual(r.first.outputs[0], r.reference.outputs[0], "first run");
  expectEqual(r.second.outputs[0], r.reference.outputs[0], "second run");
  // Random scales must spread the outputs, or equal saturated outputs prove nothing.
  expectSpread(r.reference.outputs[0]);
}

TEST_P(QLinearConvInt32Test, KernelMatchesTheReferenceBitForBit) {
  const Case& c = GetParam();
  Model m = buildModel(c, 37);
  if (!covered(c)) GTEST_SKIP() << "no VNNI (or neither AVX-512 nor AVX2) on this CPU";
  ExecutorOptions referenceOnly;
  referenceOnly.referenceKernels = true;
  auto reference = Executor::create(m.built.model, referenceOnly);
  ASSERT_TRUE(reference) << reference.error().message();
  auto want = (*reference)->run(m.built.feeds);
  ASSERT_TRUE(want) << want.error().message();

  const cpu::ConvGeometry g = geometryOf(m, c.x);
  for (int threads : {1, 2}) {
    DirectContext ctx(m.inputs, threads);
    auto k = cpu::QLinearConvInt32::create(ctx, g);
    if (!k && oneDnnGroupsOnlyOnAvx512(c)) GTEST_SKIP() << oneDnnGroupsOnlyOnAvx512Note;
    ASSERT_NE(k, nullptr) << "declined";
    EXPECT_EQ(k->yType(), c.yType);
    auto allocated = ctx.allocate(0, k->yType(), g.outDims);
    ASSERT_TRUE(allocated);
    Tensor* y = *allocated;
    const Tensor* bias = c.bias ? &ctx.input(8) : nullptr;
    for (int run = 0; run < 2; ++run) {
      ASSERT_TRUE(k->run(ctx, ctx.input(0), bias, *y).isOk());
      expectEqual(y->toIr(), want->outputs[0],
                  std::to_string(threads) + " threads, run " + std::to_string(run + 1));
    }
  }
}

// com.microsoft QLinearConv with channels_last = 1 on the same values: the
// reference NCHW output transposed, through the executor and from the class
// itself (channels-last X and Y).
TEST_P(QLinearConvInt32Test, ChannelsLastGivesTheSameValuesTransposed) {
  const Case& c = GetParam();
  Model first = buildModel(c, 41);
  Model last = buildModel(c, 41, true);
  Runs want = runPreferredAndReference(first.built, first.built.feeds);
  Runs r = runPreferredAndReference(last.built, last.built.feeds);
  ASSERT_FALSE(want.reference.outputs.empty());
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel, "onednn.ms.QLinearConv");
  const ir::Tensor& y = want.reference.outputs[0];
  expectEqual(swapChannels(r.first.outputs[0], false), y, "first run");
  expectEqual(swapChannels(r.second.outputs[0], false), y, "second run");
  expectEqual(swapChannels(r.reference.outputs[0], false), y, "channels-last reference");

  if (!covered(c)) GTEST_SKIP() << "no VNNI (or neither AVX-512 nor AVX2) on this CPU";
  const cpu::ConvGeometry g = geometryOf(last, c.x);
  for (int threads : {1, 2}) {
    DirectContext ctx(last.inputs, threads);
    auto k = cpu::QLinearConvInt32::create(ctx, g, true);
    if (!k && oneDnnGroupsOnlyOnAvx512(c)) GTEST_SKIP() << oneDnnGroupsOnlyOnAvx512Note;
    ASSERT_NE(k, nullptr) << "declined";
    auto allocated = ctx.allocate(0, k->yType(), channelsLastDims(g.outDims));
    ASSERT_TRUE(allocated);
    Tensor* out = *allocated;
    const Tensor* bias = c.bias ? &ctx.input(8) : nullptr;
    ASSERT_TRUE(k->run(ctx, ctx.input(0), bias, *out).isOk());
    expectEqual(swapChannels(out->toIr(), false), y,
                "the class, " + std::to_string(threads) + " threads");
  }
}

std::vector<Case> cases() {
  using DT = DataType;
  std::vector<Case> v;
  v.push_back({.name = "k3_u8_weights_pads",
               .x = {1, 32, 12, 12},
               .w = {40, 32, 3, 3},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k3_u8_per_channel_zero_points_scales_bias",
               .x = {2, 16, 9, 11},
               .w = {24, 16, 3, 3},
               .perChannelZeroPoints = true,
               .perChannelScales = true,
               .bias = true,
               .pads = {1, 0, 2, 1}});
  v.push_back(
      {.name = "pointwise_u8_weights_bias", .x = {1, 48, 7, 7}, .w = {20, 48, 1, 1}, .bias = true});
  v.push_back({.name = "pointwise_s8_weights_zero_point_s8_x",
               .x = {1, 16, 6, 5},
               .w = {17, 16, 1, 1},
               .xType = DT::kInt8,
               .wType = DT::kInt8,
               .yType = DT::kInt8});
  v.push_back({.name = "k3_s8_weights_per_channel_zero_points_u8_x_s8_y",
               .x = {1, 8, 12, 12},
               .w = {16, 8, 3, 3},
               .wType = DT::kInt8,
               .yType = DT::kInt8,
               .perChannelZeroPoints = true,
               .strides = {2, 2},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k3_u8_weights_s8_x_u8_y_stride2",
               .x = {1, 8, 13, 11},
               .w = {16, 8, 3, 3},
               .xType = DT::kInt8,
               .bias = true,
               .strides = {2, 2},
               .pads = {0, 1, 1, 0}});
  v.push_back({.name = "k3_dilated_u8_per_channel",
               .x = {1, 4, 12, 12},
               .w = {6, 4, 3, 3},
               .perChannelZeroPoints = true,
               .perChannelScales = true,
               .dilations = {2, 2}});
  v.push_back({.name = "depthwise_u8_per_channel_bias",
               .x = {1, 32, 10, 10},
               .w = {32, 1, 3, 3},
               .perChannelZeroPoints = true,
               .perChannelScales = true,
               .bias = true,
               .group = 32,
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "depthwise_s8_weights_same_upper_stride2",
               .x = {1, 16, 9, 9},
               .w = {16, 1, 3, 3},
               .xType = DT::kInt8,
               .wType = DT::kInt8,
               .yType = DT::kInt8,
               .group = 16,
               .strides = {2, 2},
               .autoPad = "SAME_UPPER"});
  v.push_back({.name = "grouped_u8_per_channel",
               .x = {1, 8, 6, 6},
               .w = {12, 2, 3, 3},
               .perChannelZeroPoints = true,
               .group = 4,
               .pads = {1, 1, 1, 1}});
  v.push_back(
      {.name = "conv1d_u8_bias", .x = {2, 6, 20}, .w = {5, 6, 3}, .bias = true, .pads = {1, 1}});
  v.push_back({.name = "conv3d_u8_per_channel",
               .x = {1, 4, 5, 6, 6},
               .w = {8, 4, 3, 3, 3},
               .perChannelZeroPoints = true,
               .pads = {1, 1, 1, 1, 1, 1}});
  v.push_back({.name = "u8_weights_zero_point_128",
               .x = {1, 16, 8, 8},
               .w = {16, 16, 3, 3},
               .pads = {1, 1, 1, 1},
               .unshiftedZeroPoint = true});
  // Narrow weights (run without VNNI too): channel and position counts not multiples of 8 or
  // 16 (the AVX2 tiles' edges), per-channel scales and zero points, int8 Y, batch 2.
  v.push_back({.name = "k3_narrow_per_channel_scales_bias",
               .x = {1, 13, 9, 11},
               .w = {21, 13, 3, 3},
               .wType = DT::kInt8,
               .perChannelScales = true,
               .bias = true,
               .pads = {1, 1, 1, 1},
               .narrow = true});
  v.push_back({.name = "pointwise_narrow_s8_y_batch2",
               .x = {2, 40, 5, 7},
               .w = {19, 40, 1, 1},
               .wType = DT::kInt8,
               .yType = DT::kInt8,
               .narrow = true});
  v.push_back({.name = "grouped_narrow_per_channel_zero_points_stride2",
               .x = {1, 16, 11, 9},
               .w = {24, 8, 3, 3},
               .wType = DT::kInt8,
               .perChannelZeroPoints = true,
               .group = 2,
               .strides = {2, 2},
               .pads = {1, 1, 1, 1},
               .narrow = true});
  v.push_back({.name = "k5_u8_many_channels_bias",
               .x = {1, 24, 9, 20},
               .w = {37, 24, 5, 5},
               .perChannelScales = true,
               .bias = true,
               .pads = {2, 2, 2, 2}});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, QLinearConvInt32Test, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

// Weights that may change between runs, a zero point of another type than
// the weights', per-channel output scales: the class declines (the kernel
// runs the reference then, which reports or computes them).
TEST(QLinearConvInt32, DeclinesWhatItDoesNotCover) {
  if (!covered()) GTEST_SKIP() << "no VNNI (or neither AVX-512 nor AVX2) on this CPU";
  Model m = buildModel({.name = "k3", .x = {1, 8, 6, 6}, .w = {8, 8, 3, 3}}, 5);
  const cpu::ConvGeometry g = geometryOf(m, m.inputs[0].dims());
  {
    DirectContext ctx(m.inputs, 1);
    EXPECT_NE(cpu::QLinearConvInt32::create(ctx, g), nullptr) << "the case itself";
  }
  {
    DirectContext ctx(m.inputs, 1, false);
    EXPECT_EQ(cpu::QLinearConvInt32::create(ctx, g), nullptr) << "weights not invariant";
  }
  {
    std::vector<ir::Tensor> in = m.inputs;
    in[5] = zeroPoint(DataType::kInt8, 3);
    DirectContext ctx(in, 1);
    EXPECT_EQ(cpu::QLinearConvInt32::create(ctx, g), nullptr) << "int8 zero point of uint8 weights";
  }
  {
    std::vector<ir::Tensor> in = m.inputs;
    in[6] = floats({8}, std::vector<float>(8, 0.5f));
    DirectContext ctx(in, 1);
    EXPECT_EQ(cpu::QLinearConvInt32::create(ctx, g), nullptr) << "y_scale per channel";
  }
}

// Without VNNI (AVX2): the class takes uint8 X times int8 weights in [-64, 64] only, and only
// where every sum oneDNN forms stays below 2^24 (its AVX2 kernels take them through float32).
TEST(QLinearConvInt32, WithoutVnniTakesOnlyNarrowWeightsOfSmallSums) {
  if (cpu::qlinear::exactInt8DotProducts() || !cpu_isa::hasAvx2Fma())
    GTEST_SKIP() << "for CPUs without VNNI, with AVX2 (PASSLAB_MAX_ISA=avx2)";
  const Case narrow{.name = "k3_narrow",
                    .x = {1, 8, 6, 6},
                    .w = {8, 8, 3, 3},
                    .wType = DataType::kInt8,
                    .narrow = true};
  Model m = buildModel(narrow, 5);
  const cpu::ConvGeometry g = geometryOf(m, m.inputs[0].dims());
  auto create = [&](const std::vector<ir::Tensor>& in) {
    DirectContext ctx(in, 1);
    return cpu::QLinearConvInt32::create(ctx, g) != nullptr;
  };
  auto withWeight = [&](int8_t v, int64_t at) {
    std::vector<ir::Tensor> in = m.inputs;
    const std::span<const int8_t> given = in[3].data<int8_t>();
    std::vector<int8_t> w(given.begin(), given.end());
    w[static_cast<size_t>(at)] = v;
    in[3] = ir::Tensor::fromVector<int8_t>(DataType::kInt8, narrow.w, w);
    return in;
  };
  EXPECT_TRUE(create(m.inputs)) << "the case itself";
  EXPECT_TRUE(create(withWeight(64, 7))) << "a weight of 64";
  EXPECT_TRUE(create(withWeight(-64, 7))) << "a weight of -64";
  EXPECT_FALSE(create(withWeight(65, 7))) << "a weight of 65";
  EXPECT_FALSE(create(withWeight(-65, 500))) << "a weight of -65";
  {
    Case s8x = narrow;
    s8x.xType = DataType::kInt8;
    Model ms = buildModel(s8x, 5);
    EXPECT_FALSE(create(ms.inputs)) << "int8 X (oneDNN halves the weights without VNNI)";
  }
  {
    // 128 channels x 9 taps at +-64: 73,728 x 255 >= 2^24; at 56 the sums stay below.
    const Case wide{.name = "large_sums",
                    .x = {1, 128, 4, 4},
                    .w = {2, 128, 3, 3},
                    .wType = DataType::kInt8,
                    .narrow = true};
    Model ml = buildModel(wide, 6);
    const cpu::ConvGeometry gl = geometryOf(ml, ml.inputs[0].dims());
    for (int8_t v : {int8_t{64}, int8_t{56}}) {
      std::vector<ir::Tensor> in = ml.inputs;
      in[3] = ir::Tensor::fromVector<int8_t>(
          DataType::kInt8, wide.w, std::vector<int8_t>(static_cast<size_t>(in[3].numel()), v));
      DirectContext ctx(in, 1);
      EXPECT_EQ(cpu::QLinearConvInt32::create(ctx, gl) != nullptr, v == 56)
          << "every weight " << int{v};
    }
  }
}

// A 3x3 layer of 512 channels whose sums for oneDNN are past float32's
// integers: uint8 weights of 0 (and rarely 1) with zero point 0 are W - 128 =
// -128 for oneDNN, and X in [200, 255] with x_zero_point 1 makes
// conv(X - zx, W - 128) about -1.3e8 (above 2^24, float32 rounds it by up to
// 8), while the reference's sums conv(X - 1, W) stay below ~5000 and spread
// its outputs over the byte. With x_zero_point as oneDNN's source zero point
// (which takes the sums through float32) outputs of both layouts came out one
// apart (fails before the fix: elements 37, 39, 67, ... of 784).
Model largeSumsModel(bool channelsLast) {
  std::mt19937 rng(23);
  const Dims xDims{1, 512, 7, 7}, wDims{16, 512, 3, 3};
  std::vector<uint8_t> w(static_cast<size_t>(numel(wDims)));
  std::uniform_int_distribution<int> one(0, 499);
  for (uint8_t& v : w) v = one(rng) == 0 ? 1 : 0;
  Model m;
  Built& b = m.built;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}};
  if (channelsLast) b.model.opsets.push_back({"com.microsoft", 1});
  ir::Graph& g = b.model.graph();
  ir::Tensor x = randomInts<uint8_t>(DataType::kUInt8, xDims, 200, 255, rng);
  if (channelsLast) x = swapChannels(x, true);
  ir::Value* xIn =
      g.addInput("x", ir::Type::tensor(DataType::kUInt8, ir::Shape::fromValues(x.dims())));
  b.feeds.emplace_back("x", x);
  m.inputs = {x,
              floats({}, {1.0f}),
              zeroPoint(DataType::kUInt8, 1),
              ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, wDims, w),
              floats({}, {0.04f}),
              zeroPoint(DataType::kUInt8, 0),
              floats({}, {1.0f}),
              zeroPoint(DataType::kUInt8, 0)};
  const char* names[] = {"x",       "x_scale",      "x_zero_point", "w",
                         "w_scale", "w_zero_point", "y_scale",      "y_zero_point"};
  std::vector<ir::Value*> in = {xIn};
  for (size_t i = 1; i < m.inputs.size(); ++i)
    in.push_back(g.addInitializer(names[i], m.inputs[i]));
  ir::Node* n =
      g.addNode("QLinearConv", channelsLast ? "com.microsoft" : "", in, 1, nullptr, "qconv");
  if (channelsLast) n->setAttr(ir::Attribute::makeInt("channels_last", 1));
  n->setAttr(ir::Attribute::makeInts("pads", {1, 1, 1, 1}));
  g.addOutput(n->output(0));
  analysis::inferShapes(b.model);
  return m;
}

TEST(QLinearConvInt32, SumsPastFloat32IntegersStayExact) {
  Model first = largeSumsModel(false);
  Runs want = runPreferredAndReference(first.built, first.built.feeds);
  ASSERT_FALSE(want.first.outputs.empty());
  ASSERT_FALSE(want.reference.outputs.empty());
  EXPECT_EQ(want.first.profile[0].kernel, "onednn.QLinearConv");
  const ir::Tensor& y = want.reference.outputs[0];
  expectSpread(y);
  expectEqual(want.first.outputs[0], y, "first run");
  expectEqual(want.second.outputs[0], y, "second run");

  Model last = largeSumsModel(true);
  Runs r = runPreferredAndReference(last.built, last.built.feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel, "onednn.ms.QLinearConv");
  expectEqual(swapChannels(r.first.outputs[0], false), y, "channels-last");
}

// ort_qdq_multi_consumer_dq_fixed (MobilenetEdgeTPU blocks: uint8 weights
// with zero points 108-142) after fuse_qdq_into_qlinear: its six
// QLinearConvs, each made an output, equal the reference kernel's.
TEST(QLinearConvInt32, CorpusModelEqualsTheReference) {
  PASSLAB_REQUIRE_CORPUS();
  auto loaded =
      io::loadModel(*testing::corpusDir() + "/models/ort_qdq_multi_consumer_dq_fixed.onnx");
  ASSERT_TRUE(loaded) << loaded.error().message();
  ir::Model& model = loaded->model;
  analysis::inferShapes(model);
  rewrite::EditLog log;
  rewrite::Rewriter rw(model, log);
  passes::PassContext pc{rw, {}};
  ASSERT_TRUE(passes::findPass("fuse_qdq_into_qlinear")->run(pc).isOk());
  int convs = 0;
  for (const auto& n : model.graph().nodes())
    if (n->opType() == "QLinearConv") {
      model.graph().addOutput(n->output(0));
      ++convs;
    }
  ASSERT_EQ(convs, 6);

  ExecutorOptions referenceOnly;
  referenceOnly.referenceKernels = true;
  auto preferred = Executor::create(model, {});
  auto reference = Executor::create(model, referenceOnly);
  ASSERT_TRUE(preferred) << preferred.error().message();
  ASSERT_TRUE(reference) << reference.error().message();
  NamedInputs feeds;
  FillOptions fo;
  fo.seed = 11;
  for (const InputInfo& in : (*preferred)->inputs()) {
    auto t = makeInput(in, fo);
    ASSERT_TRUE(t) << t.error().message();
    feeds.emplace_back(in.name, *t);
  }
  for (int threads : {1, 2}) {
    RunOptions ro;
    ro.threads = threads;
    auto got = (*preferred)->run(feeds, ro);
    auto want = (*reference)->run(feeds, ro);
    ASSERT_TRUE(got) << got.error().message();
    ASSERT_TRUE(want) << want.error().message();
    ASSERT_EQ(got->outputs.size(), want->outputs.size());
    for (size_t i = 0; i < want->outputs.size(); ++i) {
      const ir::Tensor& a = got->outputs[i];
      const ir::Tensor& b = want->outputs[i];
      ASSERT_EQ(a.dtype(), b.dtype());
      const auto x = a.bytes(), y = b.bytes();
      ASSERT_EQ(x.size(), y.size());
      EXPECT_TRUE(std::equal(x.begin(), x.end(), y.begin()))
          << want->outputNames[i] << ", " << threads << " threads";
    }
  }
}

}  // namespace
}  // namespace passlab::exec
