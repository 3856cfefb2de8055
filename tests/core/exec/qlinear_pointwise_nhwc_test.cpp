// PassLab's channels-last int8 pointwise QLinearConv
// (core/exec/cpu/qlinear_pointwise_nhwc.cpp) against the reference kernel
// (qlinear.cpp), bit for bit, on seeded random one-node com.microsoft
// QLinearConv models (channels_last = 1, 1x1 kernels): uint8/int8 in and
// out, per-tensor and per-channel scales, input and output channel counts
// that are not multiples of 4 or 16, zero points 0 and nonzero, with and
// without bias, batches, 1-D and 2-D; multipliers that make exact .5 ties
// (round half to even); the class called directly (1 and 2 threads) and
// through the executor (where it replaces oneDNN's primitive for layers of
// at least 8 outputs with zero points, and for layers of at most 4 pixels,
// zero points or not); and what it declines. Every path of the CPU (AVX-512
// VNNI, AVX-VNNI, AVX2) on every case, the AVX2 path with the case's weights
// narrowed to [-64, 64] (`reduce_range`), which it alone requires (session 39).
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/qlinear_pointwise_nhwc.h"
#include "core/exec/executor.h"
#include "tests/core/exec/int8_conv_test_util.h"

namespace passlab::exec {
namespace {

using ir::DataType;
using namespace int8conv;  // NOLINT(google-build-using-namespace)

struct PwCase {
  std::string name;
  Dims x;  // [N, C, spatial...] (fed channels-last)
  int64_t m = 16;
  DataType xType = DataType::kUInt8;
  DataType yType = DataType::kUInt8;
  bool perChannelScales = false;
  bool bias = false;
  int xZero = 0, yZero = 0;
  bool ties = false;    // scales whose multiplier is a power of 2: many exact .5 ties
  int weightMax = 127;  // weights in [-weightMax, weightMax]
  // setConvAttributes reads these (the op's defaults).
  int64_t group = 1;
  Dims strides = {}, pads = {}, dilations = {};
  std::string autoPad = {};
};

void PrintTo(const PwCase& c, std::ostream* os) {
  *os << c.name;
}

// X [N, C, spatial...] through 1x1 weights [M, C, 1...].
ChannelsLastModel buildPointwise(const PwCase& c, uint32_t seed) {
  Dims wDims{c.m, c.x[1]};
  for (size_t i = 2; i < c.x.size(); ++i) wDims.push_back(1);
  return channelsLastQLinearConv(c, wDims, seed, "pw");
}

class QLinearPointwiseNhwcTest : public ::testing::TestWithParam<PwCase> {};

using Path = cpu::QLinearPointwiseNhwc::Path;

const char* pathName(Path p) {
  switch (p) {
    case Path::kAvx512Vnni:
      return "AVX-512 VNNI";
    case Path::kAvxVnni:
      return "AVX-VNNI";
    case Path::kAvx2:
      return "AVX2";
    case Path::kNone:
      break;
  }
  return "none";
}

// Whether the executor runs this kernel on the case (exact) rather than
// oneDNN (whose float32 requantization may round a near tie the other way):
// on AVX2 without VNNI every covered layer of weights in [-64, 64]; with VNNI
// layers with a nonzero zero point of at least 8 outputs, and layers of at
// most 4 pixels.
bool ownKernelRuns(const cpu::ConvGeometry& g, const PwCase& c) {
  if (!cpu::QLinearPointwiseNhwc::covers(g)) return false;
  if (cpu::QLinearPointwiseNhwc::bestPath() == Path::kAvx2)
    return cpu::QLinearPointwiseNhwc::preferredWithoutVnni(g);
  return cpu::QLinearPointwiseNhwc::preferred(g) &&
         (c.xZero != 0 || c.yZero != 0 || cpu::QLinearPointwiseNhwc::fewPixels(g));
}

TEST_P(QLinearPointwiseNhwcTest, ExecutorMatchesTheReference) {
  const PwCase& c = GetParam();
  ChannelsLastModel m = buildPointwise(c, 23);
  Runs r = runPreferredAndReference(m.built, m.built.feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  EXPECT_EQ(r.reference.profile[0].kernel, "cpu.ms.QLinearConv");
  const int tolerance = ownKernelRuns(geometryOf(m), c) ? 0 : 1;
  expectEqual(r.first.outputs[0], r.reference.outputs[0], "first run", tolerance);
  expectEqual(r.second.outputs[0], r.reference.outputs[0], "second run", tolerance);
  expectSpread(r.reference.outputs[0]);
}

// On every path of this CPU (under PASSLAB_MAX_ISA). The AVX2 path sums
// weights beyond [-64, 64] in int16 pairs, and runs the case again with its
// weights drawn from [-64, 64] (vpmaddubsw).
TEST_P(QLinearPointwiseNhwcTest, KernelMatchesTheReferenceBitForBit) {
  const PwCase& c = GetParam();
  ChannelsLastModel m = buildPointwise(c, 29);
  const cpu::ConvGeometry g = geometryOf(m);
  if (!cpu::QLinearPointwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX2 on this CPU";
  PwCase narrow = c;
  narrow.weightMax = std::min(c.weightMax, 64);
  ChannelsLastModel mn = buildPointwise(narrow, 29);
  int paths = 0;
  for (Path p : {Path::kAvx512Vnni, Path::kAvxVnni, Path::kAvx2}) {
    if (!cpu::QLinearPointwiseNhwc::supports(p)) continue;
    SCOPED_TRACE(pathName(p));
    ++paths;
    cpu::QLinearPointwiseNhwc k;
    ASSERT_TRUE(k.prepare(g, m.w.data<int8_t>().data(), requantizationOf(c, m), c.xType, p));
    EXPECT_EQ(k.path(), p);
    const auto w = m.w.data<int8_t>();
    const bool wide = std::any_of(w.begin(), w.end(), [](int8_t v) { return v < -64 || v > 64; });
    EXPECT_EQ(k.int16Steps(), p == Path::kAvx2 && wide);
    expectKernelMatchesReference(k, c, m);
    if (p == Path::kAvx2 && wide) {
      ASSERT_TRUE(
          k.prepare(g, mn.w.data<int8_t>().data(), requantizationOf(narrow, mn), narrow.xType, p));
      EXPECT_FALSE(k.int16Steps());
      expectKernelMatchesReference(k, narrow, mn);
    }
  }
  EXPECT_GE(paths, 1);
}

std::vector<PwCase> cases() {
  using DT = DataType;
  std::vector<PwCase> v;
  v.push_back({.name = "reduce_200_to_32_u8_per_channel_bias",
               .x = {1, 200, 2, 96},
               .m = 32,
               .perChannelScales = true,
               .bias = true,
               .xZero = 11,
               .yZero = 151});
  v.push_back({.name = "reduce_88_to_16_s8",
               .x = {1, 88, 3, 7},
               .m = 16,
               .xType = DT::kInt8,
               .yType = DT::kInt8,
               .bias = true,
               .xZero = -14,
               .yZero = 21});
  v.push_back({.name = "reduce_43_to_19_tails_s8_in_u8_out",
               .x = {2, 43, 5, 3},
               .m = 19,
               .xType = DT::kInt8,
               .perChannelScales = true,
               .xZero = 3,
               .yZero = 128});
  v.push_back({.name = "expand_8_to_72_u8_in_s8_out",
               .x = {1, 8, 6, 11},
               .m = 72,
               .yType = DT::kInt8,
               .bias = true,
               .xZero = 7,
               .yZero = -20});
  v.push_back({.name = "zero_points_0_reduce_64_to_16", .x = {1, 64, 4, 4}, .m = 16, .bias = true});
  v.push_back({.name = "conv1d_reduce_37_to_5",
               .x = {2, 37, 13},
               .m = 5,
               .xType = DT::kInt8,
               .bias = true,
               .xZero = -10,
               .yZero = 120});
  v.push_back({.name = "ties_half_to_even_per_channel",
               .x = {1, 48, 4, 5},
               .m = 20,
               .perChannelScales = true,
               .xZero = 128,
               .yZero = 128,
               .ties = true,
               .weightMax = 3});
  // Squeeze-excitation shapes (ppocr_cls): one pixel, expanding and
  // reducing, with and without zero points.
  v.push_back({.name = "se_expand_50_to_200_one_pixel_zero_points_0",
               .x = {1, 50, 1, 1},
               .m = 200,
               .perChannelScales = true,
               .bias = true});
  v.push_back({.name = "se_expand_22_to_88_one_pixel_s8_out",
               .x = {1, 22, 1, 1},
               .m = 88,
               .yType = DT::kInt8,
               .bias = true,
               .yZero = -9});
  v.push_back({.name = "se_reduce_104_to_26_four_pixels_s8_in",
               .x = {2, 104, 1, 2},
               .m = 26,
               .xType = DT::kInt8,
               .bias = true});
  v.push_back({.name = "c3_to_1_one_pixel",
               .x = {1, 3, 1, 1},
               .m = 1,
               .bias = true,
               .xZero = 200,
               .yZero = 60});
  // ppocr_cls's expansions and 8-output layers (session 38): columns of 3
  // and 4 vectors in blocks of 4 pixels with pixels left over, 2 vectors in
  // blocks of 8, and two pixels per vector at 8 outputs (blocks of 16
  // pixels, single pairs, an odd last pixel).
  v.push_back({.name = "expand_32_to_200_per_channel_bias",
               .x = {1, 32, 2, 97},
               .m = 200,
               .perChannelScales = true,
               .bias = true,
               .xZero = 129,
               .yZero = 145});
  v.push_back({.name = "expand_16_to_88_s8_in_s8_out_tails",
               .x = {1, 16, 3, 11},
               .m = 88,
               .xType = DT::kInt8,
               .yType = DT::kInt8,
               .bias = true,
               .xZero = 13,
               .yZero = -5});
  v.push_back({.name = "expand_15_to_40_tail_channels",
               .x = {2, 15, 3, 7},
               .m = 40,
               .perChannelScales = true,
               .bias = true,
               .xZero = 141,
               .yZero = 109});
  v.push_back({.name = "expand_8_to_24_nine_pixels",
               .x = {1, 8, 1, 9},
               .m = 24,
               .bias = true,
               .xZero = 11});
  v.push_back({.name = "pairs_8_to_8_odd_pixels",
               .x = {1, 8, 5, 7},
               .m = 8,
               .perChannelScales = true,
               .bias = true,
               .xZero = 11,
               .yZero = 3});
  v.push_back({.name = "pairs_24_to_8_s8_in_s8_out",
               .x = {2, 24, 4, 5},
               .m = 8,
               .xType = DT::kInt8,
               .yType = DT::kInt8,
               .bias = true,
               .xZero = -3,
               .yZero = 7});
  v.push_back({.name = "pairs_33_to_8_tail_two_pixels",
               .x = {1, 33, 1, 2},
               .m = 8,
               .bias = true,
               .xZero = 200});
  v.push_back({.name = "pairs_ties_half_to_even",
               .x = {1, 12, 3, 7},
               .m = 8,
               .perChannelScales = true,
               .xZero = 128,
               .yZero = 128,
               .ties = true,
               .weightMax = 3});
  v.push_back({.name = "expand_ties_half_to_even",
               .x = {1, 12, 3, 7},
               .m = 56,
               .xZero = 128,
               .yZero = 128,
               .ties = true,
               .weightMax = 3});
  // Exactly 16 outputs: four pixels' rows in one store (blocks of 8 pixels,
  // then single pixels).
  v.push_back({.name = "reduce_32_to_16_rows_of_16",
               .x = {1, 32, 3, 31},
               .m = 16,
               .perChannelScales = true,
               .bias = true,
               .xZero = 141,
               .yZero = 109});
  v.push_back({.name = "reduce_40_to_16_s8_out_ties",
               .x = {2, 40, 3, 5},
               .m = 16,
               .yType = DT::kInt8,
               .perChannelScales = true,
               .xZero = 128,
               .yZero = -3,
               .ties = true,
               .weightMax = 3});
  // Two vectors: two pixels per set of packs, int8 out, a partial second
  // vector (blocks of 8 pixels, then single pixels).
  v.push_back({.name = "expand_12_to_30_s8_two_vectors",
               .x = {1, 12, 4, 5},
               .m = 30,
               .xType = DT::kInt8,
               .yType = DT::kInt8,
               .perChannelScales = true,
               .bias = true,
               .xZero = -7,
               .yZero = 4});
  // Sums bounded by about 2000 * 63 * 250 > 2^24: the double requantization.
  v.push_back({.name = "expand_2000_to_72_double_path",
               .x = {1, 2000, 2, 5},
               .m = 72,
               .perChannelScales = true,
               .bias = true,
               .xZero = 250,
               .yZero = 90});
  v.push_back({.name = "pairs_2000_to_8_double_path",
               .x = {1, 2000, 3, 3},
               .m = 8,
               .bias = true,
               .xZero = 250,
               .yZero = 90});
  // Weights in [-64, 64] (`reduce_range`): the executor's kernel on AVX2
  // without VNNI too (ppocr_cls's shapes, uint8 and int8, tails).
  v.push_back({.name = "narrow_weights_expand_32_to_200",
               .x = {1, 32, 2, 97},
               .m = 200,
               .perChannelScales = true,
               .bias = true,
               .xZero = 129,
               .yZero = 145,
               .weightMax = 64});
  v.push_back({.name = "narrow_weights_reduce_200_to_32_s8",
               .x = {1, 200, 3, 65},
               .m = 32,
               .xType = DT::kInt8,
               .yType = DT::kInt8,
               .bias = true,
               .xZero = -9,
               .yZero = 5,
               .weightMax = 64});
  v.push_back({.name = "narrow_weights_8_to_8_odd_pixels",
               .x = {1, 8, 7, 47},
               .m = 8,
               .bias = true,
               .xZero = 11,
               .yZero = 3,
               .weightMax = 64});
  v.push_back({.name = "narrow_weights_tails_43_to_19_zero_points_0",
               .x = {2, 43, 5, 3},
               .m = 19,
               .perChannelScales = true,
               .bias = true,
               .weightMax = 64});
  v.push_back({.name = "narrow_weights_16_to_104_s8_in",
               .x = {1, 16, 3, 33},
               .m = 104,
               .xType = DT::kInt8,
               .perChannelScales = true,
               .xZero = 17,
               .yZero = 99,
               .weightMax = 64});
  v.push_back({.name = "narrow_weights_2000_to_36_double_path",
               .x = {1, 2000, 2, 5},
               .m = 36,
               .bias = true,
               .xZero = 250,
               .yZero = 90,
               .weightMax = 64});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, QLinearPointwiseNhwcTest, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

// 65536 input channels of weight -128 with the input zero point 255: the
// correction zx sum(w) is -255 * 128 * 65536 = -2139095040, so b - zx sum(w)
// leaves int32 for every bias above 8388607, while the sum (x - zx) w + b
// (about 1.07e9 + b) fits: bit for bit the reference at 1 and 2 threads, on
// every path (AVX2 in int16 pairs: weights of -128).
TEST(QLinearPointwiseNhwc, BiasLessCorrectionBeyondInt32) {
  PwCase c{.name = "edge", .x = {1, 65536, 1, 2}, .m = 16, .bias = true, .xZero = 255};
  ChannelsLastModel m = buildPointwise(c, 31);
  const cpu::ConvGeometry g = geometryOf(m);
  if (cpu::QLinearPointwiseNhwc::bestPath() == Path::kNone) GTEST_SKIP() << "no AVX2 on this CPU";
  ir::Graph& graph = m.built.model.graph();
  auto setInit = [&](const std::string& name, const ir::Tensor& t) {
    for (ir::Value* v : graph.initializers())
      if (v->name() == name) graph.setInitializer(v, t);
  };
  m.w = ir::Tensor::fromVector<int8_t>(DataType::kInt8, m.w.dims(),
                                       std::vector<int8_t>(static_cast<size_t>(m.w.numel()), -128));
  std::vector<int32_t> bias(16);
  for (size_t o = 0; o < bias.size(); ++o) bias[o] = 10000000 + static_cast<int32_t>(o) * 20000000;
  m.bias = ir::Tensor::fromVector<int32_t>(DataType::kInt32, {16}, bias);
  // (x - zx) w + b of about 1.08e9 to 1.38e9 spread over [194, 248].
  m.yScale = m.xScale * m.wScales[0] / 1.8e-7f;
  setInit("w", m.w);
  setInit("b", m.bias);
  setInit("y_scale", floats({}, {m.yScale}));
  for (Path p : {Path::kAvx512Vnni, Path::kAvxVnni, Path::kAvx2}) {
    if (!cpu::QLinearPointwiseNhwc::supports(p)) continue;
    SCOPED_TRACE(pathName(p));
    cpu::QLinearPointwiseNhwc k;
    ASSERT_TRUE(k.prepare(g, m.w.data<int8_t>().data(), requantizationOf(c, m), c.xType, p));
    EXPECT_EQ(k.int16Steps(), p == Path::kAvx2);
    expectKernelMatchesReference(k, c, m);
  }
}

// One pixel, zero points 0 (a squeeze-excitation convolution): through the
// executor this kernel, not oneDNN, runs it (fewPixels), so a float32 product
// that is exactly a half-integer while the exact product is not rounds as the
// reference's double: 25067 * 0.00233374559f is 58.5 in float32 (to even: 58,
// what oneDNN's float32 requantization gives), 58.50000078 exactly (59).
TEST(QLinearPointwiseNhwc, OnePixelWithoutZeroPointsRoundsAsTheReference) {
  const float mult = 0.0023337455932050943f;
  const int32_t sum = 25067;  // 100 * 250 + 1 * 67
  ASSERT_EQ(static_cast<float>(sum) * mult, 58.5f) << "the case no longer makes a float tie";
  const int64_t M = 16;
  PwCase c{.name = "half", .x = {1, 2, 1, 1}, .m = M, .yType = DataType::kInt8};
  ChannelsLastModel m = buildPointwise(c, 3);
  const cpu::ConvGeometry g = geometryOf(m);
  if (!cpu::QLinearPointwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  EXPECT_TRUE(cpu::QLinearPointwiseNhwc::fewPixels(g));
  EXPECT_TRUE(cpu::QLinearPointwiseNhwc::preferred(g));
  // Channel k: weights (100, 1) or (-100, -1), input (250, 67): sums +-25067;
  // x_scale 1, w_scale mult, y_scale 1: the multiplier is mult.
  std::vector<int8_t> w(static_cast<size_t>(2 * M));
  for (int64_t k = 0; k < M; ++k) {
    const int8_t sign = k % 2 == 0 ? 1 : -1;
    w[static_cast<size_t>(2 * k)] = static_cast<int8_t>(100 * sign);
    w[static_cast<size_t>(2 * k + 1)] = sign;
  }
  ir::Graph& graph = m.built.model.graph();
  auto setInit = [&](const std::string& name, const ir::Tensor& t) {
    for (ir::Value* v : graph.initializers())
      if (v->name() == name) graph.setInitializer(v, t);
  };
  setInit("w", ir::Tensor::fromVector<int8_t>(DataType::kInt8, {M, 2, 1, 1}, w));
  setInit("x_scale", floats({}, {1.0f}));
  setInit("w_scale", floats({}, {mult}));
  setInit("y_scale", floats({}, {1.0f}));
  NamedInputs feeds;
  feeds.emplace_back("x", ir::Tensor::fromVector<uint8_t>(DataType::kUInt8, {1, 1, 1, 2},
                                                          std::vector<uint8_t>{250, 67}));
  m.built.feeds = feeds;
  Runs r = runPreferredAndReference(m.built, feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  for (const RunResult* run : {&r.reference, &r.first, &r.second}) {
    const ir::Tensor& y = run->outputs[0];
    ASSERT_EQ(y.numel(), M);
    for (int64_t k = 0; k < M; ++k)
      EXPECT_EQ(valueAt(y, k), k % 2 == 0 ? 59 : -59) << "channel " << k;
  }
}

// The AVX2 path's bound: vpmaddubsw adds two u8 x s8 products in a
// saturating int16, so weights of +-64 at x = 255 (pairs of +-32640) take it
// and are exact; a single weight of 65 or -65 (255 * 65 * 2 = 33150
// saturates) and weights of +-127 take int16 pairs, exact too. Nearly every
// pair here is at the bound: x 255 (uint8) or 127 (int8, summed as x + 128 =
// 255) but for one channel per pixel, every weight +-64 (or +-127) with both
// of a pair's signs alike (random per pair).
TEST(QLinearPointwiseNhwc, Avx2PathTakesInt16PairsBeyond64) {
  if (!cpu::QLinearPointwiseNhwc::supports(Path::kAvx2)) GTEST_SKIP() << "no AVX2 on this CPU";
  for (DataType xType : {DataType::kUInt8, DataType::kInt8}) {
    SCOPED_TRACE(xType == DataType::kUInt8 ? "uint8 X" : "int8 X");
    const int64_t C = 20, M = 24;
    PwCase c{.name = "bound",
             .x = {1, C, 3, 5},
             .m = M,
             .xType = xType,
             .yType = DataType::kInt8,
             .perChannelScales = true,
             .bias = true,
             .xZero = xType == DataType::kUInt8 ? 3 : -5,
             .yZero = 7};
    ChannelsLastModel m = buildPointwise(c, 41);
    const cpu::ConvGeometry g = geometryOf(m);
    std::mt19937 rng(5);
    std::vector<int8_t> w(static_cast<size_t>(M * C));
    for (size_t i = 0; i < w.size(); i += 2) w[i] = w[i + 1] = (rng() & 1) ? 64 : -64;
    m.w = ir::Tensor::fromVector<int8_t>(DataType::kInt8, m.w.dims(), w);
    const uint8_t top = xType == DataType::kUInt8 ? 255 : 127;
    std::vector<uint8_t> x(static_cast<size_t>(m.x.numel()), top);
    for (int64_t p = 0; p < m.x.numel() / C; ++p)
      x[static_cast<size_t>(p * C + p % C)] = static_cast<uint8_t>(p * 37);
    m.x = ir::Tensor::fromVector<uint8_t>(xType, m.x.dims(), x);
    // |sum| up to 255 * 64 * 20 = 326400 (and the bias): about +-120 out at w_scale 0.01.
    m.yScale = m.xScale * 0.01f * 330000.0f / 120.0f;
    ir::Graph& graph = m.built.model.graph();
    for (ir::Value* v : graph.initializers()) {
      if (v->name() == "w") graph.setInitializer(v, m.w);
      if (v->name() == "y_scale") graph.setInitializer(v, floats({}, {m.yScale}));
    }
    m.built.feeds = {{"x", m.x}};
    cpu::QLinearPointwiseNhwc k;
    ASSERT_TRUE(k.prepare(g, w.data(), requantizationOf(c, m), xType, Path::kAvx2));
    EXPECT_FALSE(k.int16Steps());
    expectKernelMatchesReference(k, c, m);
    auto withWeights = [&](const std::vector<int8_t>& v) {
      m.w = ir::Tensor::fromVector<int8_t>(DataType::kInt8, m.w.dims(), v);
      for (ir::Value* value : graph.initializers())
        if (value->name() == "w") graph.setInitializer(value, m.w);
    };
    for (int8_t beyond : {int8_t{65}, int8_t{-65}}) {
      SCOPED_TRACE("one weight " + std::to_string(beyond));
      std::vector<int8_t> w65 = w;
      w65[static_cast<size_t>(M * C / 2 + 1)] = beyond;
      withWeights(w65);
      ASSERT_TRUE(k.prepare(g, w65.data(), requantizationOf(c, m), xType, Path::kAvx2));
      EXPECT_TRUE(k.int16Steps());
      expectKernelMatchesReference(k, c, m);
    }
    // Every weight +-127: pairs of 255 x 127 x 2 = 64770, far past int16.
    std::vector<int8_t> w127 = w;
    for (int8_t& v : w127) v = v > 0 ? 127 : -127;
    withWeights(w127);
    m.yScale *= 2;
    for (ir::Value* v : graph.initializers())
      if (v->name() == "y_scale") graph.setInitializer(v, floats({}, {m.yScale}));
    ASSERT_TRUE(k.prepare(g, w127.data(), requantizationOf(c, m), xType, Path::kAvx2));
    EXPECT_TRUE(k.int16Steps());
    expectKernelMatchesReference(k, c, m);
  }
}

// Left to oneDNN: not 1x1, strided, padded, grouped, and int32 sums that might overflow.
TEST(QLinearPointwiseNhwc, DeclinesWhatItDoesNotCover) {
  PwCase c{.name = "base", .x = {1, 32, 4, 4}, .m = 16, .xZero = 5};
  ChannelsLastModel m = buildPointwise(c, 5);
  const cpu::ConvGeometry g = geometryOf(m);
  if (!cpu::QLinearPointwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  EXPECT_TRUE(cpu::QLinearPointwiseNhwc::preferred(g));
  cpu::ConvGeometry k3 = g;
  k3.kernel = {3, 3};
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::covers(k3));
  cpu::ConvGeometry strided = g;
  strided.stride = {2, 2};
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::covers(strided));
  cpu::ConvGeometry padded = g;
  padded.padEnd = {0, 1};
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::covers(padded));
  cpu::ConvGeometry grouped = g;
  grouped.group = 2;
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::covers(grouped));
  // 8 outputs or more: preferred on every pixel count, expanding or not.
  cpu::ConvGeometry expand = g;
  expand.M = 200;
  EXPECT_TRUE(cpu::QLinearPointwiseNhwc::wide(expand));
  EXPECT_TRUE(cpu::QLinearPointwiseNhwc::preferred(expand));
  expand.M = 8;
  EXPECT_TRUE(cpu::QLinearPointwiseNhwc::wide(expand));
  // Large expansions (ResNet-50's) stay on oneDNN, faster there; below either
  // bound, and reductions, not. On the AVX-VNNI path (no AVX-512) only layers
  // of at most 256 inputs and outputs; without VNNI all but the large
  // expansions (preferredWithoutVnni).
  struct Layer {
    int64_t c, m, side;
    bool wide;
  };
  const bool avx512 = cpu::QLinearPointwiseNhwc::bestPath() == Path::kAvx512Vnni;
  for (const Layer& l :
       {Layer{256, 1024, 14, false}, Layer{512, 2048, 7, false}, Layer{128, 1024, 14, false},
        Layer{64, 1024, 14, true}, Layer{160, 960, 7, true}, Layer{1024, 256, 14, true},
        Layer{2048, 1024, 7, true}, Layer{256, 200, 14, true}, Layer{32, 256, 14, true},
        Layer{320, 200, 7, true}}) {
    cpu::ConvGeometry big = g;
    big.C = l.c, big.M = l.m, big.in = {l.side, l.side};
    const bool fits = l.c <= 256 && l.m <= 256;
    EXPECT_EQ(cpu::QLinearPointwiseNhwc::fitsAvxVnni(big), fits) << l.c << " -> " << l.m;
    EXPECT_EQ(cpu::QLinearPointwiseNhwc::wide(big), l.wide) << l.c << " -> " << l.m;
    EXPECT_EQ(cpu::QLinearPointwiseNhwc::preferred(big), l.wide && (avx512 || fits))
        << l.c << " -> " << l.m;
    EXPECT_EQ(cpu::QLinearPointwiseNhwc::preferredWithoutVnni(big),
              !cpu::QLinearPointwiseNhwc::largeExpansion(big))
        << l.c << " -> " << l.m;
    big.in = {1, 1};  // few pixels: preferred whatever the channels
    EXPECT_TRUE(cpu::QLinearPointwiseNhwc::preferred(big)) << l.c << " -> " << l.m;
  }
  // Fewer outputs: preferred over 4 pixels; over 5 (or 2 images of 3): not.
  cpu::ConvGeometry narrow = g;
  narrow.M = 7;
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::wide(narrow));
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::preferred(narrow));
  narrow.in = {2, 2};
  EXPECT_TRUE(cpu::QLinearPointwiseNhwc::fewPixels(narrow));
  EXPECT_TRUE(cpu::QLinearPointwiseNhwc::preferred(narrow));
  narrow.in = {1, 5};
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::fewPixels(narrow));
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::preferred(narrow));
  narrow.N = 2;
  narrow.in = {1, 3};
  EXPECT_FALSE(cpu::QLinearPointwiseNhwc::preferred(narrow));

  cpu::QLinearPointwiseNhwc k;
  cpu::ConvGeometry wide = g;
  wide.C = 65537;  // 65537 * 255 * 128 > 2^31
  std::vector<int8_t> w(static_cast<size_t>(wide.C * wide.M), 1);
  EXPECT_FALSE(k.prepare(wide, w.data(), requantizationOf(c, m), c.xType));
  wide.C = 65536;
  EXPECT_TRUE(k.prepare(wide, w.data(), requantizationOf(c, m), c.xType));
}

}  // namespace
}  // namespace passlab::exec
