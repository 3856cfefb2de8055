// QLinearConv's requantization at near-ties (#25, session 38): sums whose
// exact product acc * multiplier lies within 1e-6 of a .5 tie while the
// float32 product is the tie itself, so that rounding the float32 product
// (half to even) goes one step the other way. The reference (qlinear.cpp)
// rounds the exact product; every optimized kernel must give its bytes:
// NCHW and channels-last, dense and depthwise, uint8 and int8, with and
// without an output zero point. oneDNN's primitive requantized NCHW layers
// in float32 and failed here; they now take oneDNN's int32 sums and
// PassLab's requantization (qlinear_conv_int32.h). The layers the primitive
// still requantizes (roundsFloat32) are held to its float32 rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/support/cpu_isa.h"
#include "tests/core/exec/int8_conv_test_util.h"

namespace passlab::exec {
namespace {

using ir::DataType;
using namespace int8conv;  // NOLINT(google-build-using-namespace)

// A sum (at least 65: multipliers below 1) and a multiplier whose exact
// product is within 1e-6 of k + 0.5 (k
// in [0, 64)) while the float32 product is k + 0.5 exactly, and the two
// round (half to even) to different integers.
struct NearTie {
  int32_t acc;
  float multiplier;
};

std::vector<NearTie> nearTies(size_t count) {
  std::vector<NearTie> ties;
  for (int32_t acc = 65; acc < 4000 && ties.size() < count; ++acc)
    for (int k = 0; k < 64 && ties.size() < count; ++k) {
      const double tie = k + 0.5;
      const float m = static_cast<float>(tie / acc);
      const double exact = static_cast<double>(acc) * static_cast<double>(m);
      volatile float product = static_cast<float>(acc) * m;  // one float32 multiply
      const float rounded = product;
      if (static_cast<double>(rounded) != tie || exact == tie || std::abs(exact - tie) >= 1e-6)
        continue;
      if (std::nearbyint(exact) == std::nearbyint(static_cast<double>(rounded))) continue;
      ties.push_back({acc, m});
    }
  return ties;
}

struct TieCase {
  std::string name;
  DataType xType = DataType::kUInt8;
  int yZero = 0;
  bool depthwise = false;
  bool channelsLast = false;  // com.microsoft QLinearConv, channels_last = 1
  // The weights include a large one (read only over padding, so it adds 0):
  // without exact int8 dot products, oneDNN's int8 convolution then declines
  // (narrow_int8_weights.h) and the exact float32 sums run; narrow ones run
  // oneDNN's int8 convolution and its requantization there.
  bool wideWeights = true;
};

void PrintTo(const TieCase& c, std::ostream* os) {
  *os << c.name;
}

constexpr int64_t kChannels = 32, kPositions = 64;

// X [1, 32, 1, 64]: every channel holds its position's index p. W [32, C/group,
// 3, 3] (pads 1): the centre tap s_c = +-1 (channel 0 of a dense layer), 100
// on the top-left tap where wide (it reads the padding row: zero point 0, so
// nothing). Channel c's bias makes the sum at position c + 7 exactly
// s_c * acc_c, its multiplier (w_scale[c]; x_scale = y_scale = 1) m_c: a
// near-tie there, ordinary values at the other positions.
struct TieModel {
  Built built;
  std::vector<int64_t> sums;  // [M, P] the exact sums, bias included
  std::vector<float> multipliers;
};

TieModel buildModel(const TieCase& c, const std::vector<NearTie>& ties) {
  TieModel t;
  const int64_t inPerGroup = c.depthwise ? 1 : kChannels;
  std::vector<uint8_t> x(static_cast<size_t>(kChannels * kPositions));
  for (int64_t ch = 0; ch < kChannels; ++ch)
    for (int64_t p = 0; p < kPositions; ++p)
      x[static_cast<size_t>(ch * kPositions + p)] = uint8_t(p);
  std::vector<int8_t> w(static_cast<size_t>(kChannels * inPerGroup * 9), 0);
  std::vector<int32_t> bias(kChannels);
  t.sums.resize(static_cast<size_t>(kChannels * kPositions));
  for (int64_t m = 0; m < kChannels; ++m) {
    const NearTie& tie = ties[static_cast<size_t>(m)];
    const int sign = m % 2 == 0 ? 1 : -1;
    int8_t* taps = w.data() + m * inPerGroup * 9;  // input channel 0 of this output channel
    taps[4] = static_cast<int8_t>(sign);
    if (c.wideWeights) taps[0] = 100;
    const int64_t at = (m + 7) % kPositions;
    bias[static_cast<size_t>(m)] = static_cast<int32_t>(sign * (tie.acc - at));
    for (int64_t p = 0; p < kPositions; ++p)
      t.sums[static_cast<size_t>(m * kPositions + p)] = sign * p + bias[static_cast<size_t>(m)];
    t.multipliers.push_back(tie.multiplier);
  }
  ir::Tensor xt = ir::Tensor::fromVector<uint8_t>(c.xType, {1, kChannels, 1, kPositions}, x);
  if (c.channelsLast) xt = swapChannels(xt, true);

  Built& b = t.built;
  b.model.irVersion = 8;
  b.model.opsets = {{"", 13}};
  if (c.channelsLast) b.model.opsets.push_back({"com.microsoft", 1});
  ir::Graph& g = b.model.graph();
  ir::Value* xIn = g.addInput("x", ir::Type::tensor(c.xType, ir::Shape::fromValues(xt.dims())));
  b.feeds.emplace_back("x", std::move(xt));
  std::vector<ir::Value*> in = {
      xIn,
      g.addInitializer("x_scale", floats({}, {1.0f})),
      g.addInitializer("x_zero_point", zeroPoint(c.xType, 0)),
      g.addInitializer(
          "w", ir::Tensor::fromVector<int8_t>(DataType::kInt8, {kChannels, inPerGroup, 3, 3}, w)),
      g.addInitializer("w_scale", floats({kChannels}, t.multipliers)),
      g.addInitializer("w_zero_point", zeroPoint(DataType::kInt8, 0)),
      g.addInitializer("y_scale", floats({}, {1.0f})),
      g.addInitializer("y_zero_point", zeroPoint(c.xType, c.yZero)),
      g.addInitializer("b", ir::Tensor::fromVector<int32_t>(DataType::kInt32, {kChannels}, bias)),
  };
  ir::Node* n =
      g.addNode("QLinearConv", c.channelsLast ? "com.microsoft" : "", in, 1, nullptr, "qconv");
  if (c.channelsLast) n->setAttr(ir::Attribute::makeInt("channels_last", 1));
  if (c.depthwise) n->setAttr(ir::Attribute::makeInt("group", kChannels));
  n->setAttr(ir::Attribute::makeInts("pads", {1, 1, 1, 1}));
  g.addOutput(n->output(0));
  analysis::inferShapes(b.model);
  return t;
}

// Y [1, M, 1, P] from the sums: the product in double (exact: 24 + 24 bits)
// or in float32, rounded half to even, + y_zero_point, saturated.
ir::Tensor requantized(const TieModel& t, const TieCase& c, bool float32Product) {
  const bool s8 = c.xType == DataType::kInt8;
  std::vector<uint8_t> y(t.sums.size());
  for (size_t i = 0; i < y.size(); ++i) {
    const float m = t.multipliers[i / kPositions];
    double product = static_cast<double>(t.sums[i]) * m;
    if (float32Product) {
      volatile float f = static_cast<float>(t.sums[i]) * m;
      product = f;
    }
    const double v =
        std::clamp(std::nearbyint(product) + c.yZero, s8 ? -128.0 : 0.0, s8 ? 127.0 : 255.0);
    y[i] = s8 ? static_cast<uint8_t>(static_cast<int8_t>(v)) : static_cast<uint8_t>(v);
  }
  return ir::Tensor::fromVector<uint8_t>(c.xType, {1, kChannels, 1, kPositions}, y);
}

int64_t differing(const ir::Tensor& a, const ir::Tensor& b) {
  int64_t n = 0;
  for (int64_t i = 0; i < a.numel(); ++i) n += valueAt(a, i) != valueAt(b, i);
  return n;
}

// The layers oneDNN's primitive requantizes (qlinear_conv_onednn.cpp): with exact int8 dot
// products (VNNI), a channels-last dense layer (the depthwise one runs PassLab's kernel, NCHW
// ones the int32 sums); without, narrow weights channels-last (the others take the exact float32
// sums, NCHW narrow ones the int32 sums). The int32 sums' requantization runs on AVX-512 VNNI or
// AVX2 + FMA (qlinear_conv_int32.h): on an SSE4.1 CPU the primitive requantizes those too.
// A channels-last depthwise layer runs PassLab's kernel wherever it covers the CPU (AVX-512 VNNI,
// AVX-VNNI or AVX2 + FMA, any weights), which requantizes as the reference.
bool roundsFloat32(const TieCase& c) {
  const bool int32Sums = cpu_isa::hasAvx512Vnni() || cpu_isa::hasAvx2Fma();
  if (c.channelsLast && c.depthwise &&
      (cpu_isa::hasAvx512Vnni() || cpu_isa::hasAvxVnni() || cpu_isa::hasAvx2Fma()))
    return false;
  if (cpu::qlinear::exactInt8DotProducts())
    return c.channelsLast ? !c.depthwise || !cpu_isa::hasAvx512Vnni() : !int32Sums;
  return !c.wideWeights && (c.channelsLast || !int32Sums);
}

class QLinearConvNearTie : public ::testing::TestWithParam<TieCase> {};

TEST_P(QLinearConvNearTie, RoundsTheExactProductAsTheReference) {
  const TieCase& c = GetParam();
  const std::vector<NearTie> ties = nearTies(kChannels);
  ASSERT_EQ(ties.size(), static_cast<size_t>(kChannels));
  const TieModel t = buildModel(c, ties);
  const ir::Tensor exact = requantized(t, c, false);
  // The model is a test of the rounding: each channel's near-tie rounds the other way in
  // float32, but for uint8 without a zero point the negative ones (odd channels), which
  // saturate to 0.
  const bool negativesSaturate = c.xType == DataType::kUInt8 && c.yZero < 64;
  EXPECT_GE(differing(exact, requantized(t, c, true)),
            negativesSaturate ? kChannels / 2 : kChannels);

  Runs r = runPreferredAndReference(t.built, t.built.feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  EXPECT_EQ(r.first.profile[0].kernel,
            c.channelsLast ? "onednn.ms.QLinearConv" : "onednn.QLinearConv");
  auto nchw = [&](const ir::Tensor& y) { return c.channelsLast ? swapChannels(y, false) : y; };
  expectEqual(nchw(r.reference.outputs[0]), exact, "reference");
  // Where oneDNN's primitive still requantizes, its float32 product's rounding, to the bit
  // (so that a change of either side shows here and in docs/precision.md).
  const ir::Tensor want = roundsFloat32(c) ? requantized(t, c, true) : exact;
  expectEqual(nchw(r.first.outputs[0]), want, "optimized");
  expectEqual(nchw(r.second.outputs[0]), want, "optimized, second run");
}

std::vector<TieCase> cases() {
  using DT = DataType;
  return {
      {.name = "dense_u8"},
      {.name = "dense_u8_zero_point", .yZero = 100},
      {.name = "dense_s8_zero_point", .xType = DT::kInt8, .yZero = -3},
      {.name = "depthwise_u8", .depthwise = true},
      {.name = "depthwise_s8_zero_point", .xType = DT::kInt8, .yZero = 5, .depthwise = true},
      {.name = "dense_u8_channels_last", .yZero = 100, .channelsLast = true},
      {.name = "depthwise_u8_channels_last", .depthwise = true, .channelsLast = true},
      {.name = "dense_u8_narrow", .yZero = 100, .wideWeights = false},
  };
}

INSTANTIATE_TEST_SUITE_P(Cases, QLinearConvNearTie, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace passlab::exec
