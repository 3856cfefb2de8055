// PassLab's channels-last int8 depthwise QLinearConv
// (core/exec/cpu/qlinear_depthwise_nhwc.cpp) against the reference kernel
// (qlinear.cpp), bit for bit, on seeded random one-node com.microsoft
// QLinearConv models (channels_last = 1): kernels 3 and 5, strides 1 and 2,
// asymmetric pads, dilation, 1-D, uint8/int8 in and out, per-tensor and
// per-channel scales, channel counts that are not a multiple of 16, zero
// points 0 and nonzero, with and without bias; multipliers that make exact
// .5 ties (round half to even); the class called directly and through the
// executor (where it replaces oneDNN's primitive); the ring of quad rows
// (several channel chunks, bands of rows on two threads, tall inputs); and
// the configurations it leaves to oneDNN.
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/qlinear_depthwise_nhwc.h"
#include "core/exec/executor.h"
#include "tests/core/exec/int8_conv_test_util.h"

namespace passlab::exec {
namespace {

using ir::DataType;
using namespace int8conv;  // NOLINT(google-build-using-namespace)

struct DwCase {
  std::string name;
  Dims x;       // [N, C, spatial...] (fed channels-last)
  Dims kernel;  // spatial
  DataType xType = DataType::kUInt8;
  DataType yType = DataType::kUInt8;
  bool perChannelScales = false;
  bool bias = false;
  int xZero = 0, yZero = 0;
  Dims strides = {}, pads = {}, dilations = {};
  std::string autoPad = {};
  int64_t group = 0;    // set from C
  bool ties = false;    // scales whose multiplier is a power of 2: many exact .5 ties
  int weightMax = 127;  // weights in [-weightMax, weightMax]
};

void PrintTo(const DwCase& c, std::ostream* os) {
  *os << c.name;
}

// X [N, C, spatial...] through weights [C, 1, kernel...], group C.
ChannelsLastModel buildDepthwise(DwCase c, uint32_t seed) {
  c.group = c.x[1];
  Dims wDims{c.x[1], 1};
  wDims.insert(wDims.end(), c.kernel.begin(), c.kernel.end());
  return channelsLastQLinearConv(c, wDims, seed, "dw");
}

class QLinearDepthwiseNhwcTest : public ::testing::TestWithParam<DwCase> {};

TEST_P(QLinearDepthwiseNhwcTest, ExecutorMatchesTheReferenceBitForBit) {
  const DwCase& c = GetParam();
  ChannelsLastModel m = buildDepthwise(c, 23);
  Runs r = runPreferredAndReference(m.built, m.built.feeds);
  ASSERT_FALSE(r.first.outputs.empty());
  ASSERT_FALSE(r.reference.outputs.empty());
  EXPECT_EQ(r.reference.profile[0].kernel, "cpu.ms.QLinearConv");
  // PassLab's kernel runs with or without zero points where it covers the
  // CPU; elsewhere zero points 0 take oneDNN's brdgmm_dw, whose float32
  // requantization may round a near tie the other way.
  const bool ours = cpu::QLinearDepthwiseNhwc::covers(geometryOf(m));
  const int tolerance = ours || c.xZero != 0 || c.yZero != 0 ? 0 : 1;
  expectEqual(r.first.outputs[0], r.reference.outputs[0], "first run", tolerance);
  expectEqual(r.second.outputs[0], r.reference.outputs[0], "second run", tolerance);
  expectSpread(r.reference.outputs[0]);
}

TEST_P(QLinearDepthwiseNhwcTest, KernelMatchesTheReferenceBitForBit) {
  const DwCase& c = GetParam();
  ChannelsLastModel m = buildDepthwise(c, 29);
  const cpu::ConvGeometry g = geometryOf(m);
  if (!cpu::QLinearDepthwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  cpu::QLinearDepthwiseNhwc k;
  ASSERT_TRUE(k.prepare(g, m.w.data<int8_t>().data(), requantizationOf(c, m), c.xType));
  expectKernelMatchesReference(k, c, m);
}

std::vector<DwCase> cases() {
  using DT = DataType;
  std::vector<DwCase> v;
  v.push_back(
      {.name = "k3_u8_zero_points_0", .x = {1, 16, 9, 11}, .kernel = {3, 3}, .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k5_u8_nonzero_zero_points_per_channel_bias",
               .x = {1, 40, 12, 20},
               .kernel = {5, 5},
               .perChannelScales = true,
               .bias = true,
               .xZero = 131,
               .yZero = 117,
               .pads = {2, 2, 2, 2}});
  v.push_back({.name = "k5_stride2_asymmetric_pads_s8",
               .x = {1, 24, 13, 17},
               .kernel = {5, 5},
               .xType = DT::kInt8,
               .yType = DT::kInt8,
               .bias = true,
               .xZero = -9,
               .yZero = 5,
               .strides = {2, 2},
               .pads = {1, 2, 2, 0}});
  v.push_back({.name = "k3_stride2_c7_s8_in_u8_out",
               .x = {2, 7, 10, 9},
               .kernel = {3, 3},
               .xType = DT::kInt8,
               .perChannelScales = true,
               .xZero = 3,
               .yZero = 128,
               .strides = {2, 2},
               .pads = {0, 1, 1, 0}});
  v.push_back({.name = "k3_dilated_c33_u8_in_s8_out",
               .x = {1, 33, 12, 14},
               .kernel = {3, 3},
               .yType = DT::kInt8,
               .bias = true,
               .xZero = 7,
               .yZero = -20,
               .pads = {2, 2, 2, 2},
               .dilations = {2, 2}});
  v.push_back({.name = "k3x5_stride_2x1_same_upper_c20",
               .x = {1, 20, 9, 23},
               .kernel = {3, 5},
               .perChannelScales = true,
               .xZero = 200,
               .yZero = 60,
               .strides = {2, 1},
               .autoPad = "SAME_UPPER"});
  v.push_back({.name = "conv1d_k5_c18_bias",
               .x = {2, 18, 31},
               .kernel = {5},
               .xType = DT::kInt8,
               .bias = true,
               .xZero = -100,
               .yZero = 0,
               .pads = {3, 1}});
  v.push_back({.name = "ties_half_to_even_per_channel",
               .x = {1, 16, 8, 8},
               .kernel = {3, 3},
               .perChannelScales = true,
               .xZero = 128,
               .yZero = 128,
               .pads = {1, 1, 1, 1},
               .ties = true,
               .weightMax = 3});
  // Four and more blocks of 16 channels (the image filled 4 blocks at once),
  // a row narrower than the kernel, 3x3 at stride 2 with many channels.
  v.push_back({.name = "k5_c72_u8_per_channel_bias",
               .x = {1, 72, 7, 30},
               .kernel = {5, 5},
               .perChannelScales = true,
               .bias = true,
               .xZero = 90,
               .yZero = 33,
               .pads = {2, 2, 2, 2}});
  v.push_back({.name = "k3_stride2_c100_s8",
               .x = {1, 100, 9, 12},
               .kernel = {3, 3},
               .xType = DT::kInt8,
               .yType = DT::kInt8,
               .bias = true,
               .xZero = -5,
               .yZero = 7,
               .strides = {2, 2},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k5_narrow_row_c64_zero_points_0",
               .x = {1, 64, 4, 2},
               .kernel = {5, 5},
               .bias = true,
               .pads = {2, 2, 2, 2}});
  // The ring of quad rows (session 38): rows wider than one chunk of blocks
  // fits (several chunks, the ring wrapping over 48 rows; two threads take
  // chunks with rings of their own), one block split into two bands of
  // output rows on two threads, stride 2 with dilation 2 over a tall input,
  // and int8 in full blocks.
  v.push_back({.name = "ring_chunks_k5_c40_tall_wide",
               .x = {1, 40, 48, 96},
               .kernel = {5, 5},
               .perChannelScales = true,
               .bias = true,
               .xZero = 14,
               .yZero = 170,
               .pads = {2, 2, 2, 2}});
  v.push_back({.name = "ring_bands_k3_c16_two_threads",
               .x = {1, 16, 40, 64},
               .kernel = {3, 3},
               .xZero = 3,
               .yZero = 120,
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "ring_k3_stride2_dilation2_tall_c20",
               .x = {1, 20, 31, 13},
               .kernel = {3, 3},
               .xZero = 77,
               .yZero = 9,
               .strides = {2, 2},
               .pads = {2, 1, 2, 3},
               .dilations = {2, 2}});
  v.push_back({.name = "ring_k5_stride2_s8_c32",
               .x = {1, 32, 23, 40},
               .kernel = {5, 5},
               .xType = DT::kInt8,
               .bias = true,
               .xZero = -30,
               .yZero = 12,
               .strides = {2, 1},
               .pads = {2, 2, 2, 2}});
  // 15x15 = 225 taps of full-range weights and inputs: sums near 2^22.
  v.push_back({.name = "k15_large_sums_s8",
               .x = {1, 16, 17, 17},
               .kernel = {15, 15},
               .xType = DT::kInt8,
               .xZero = 127,
               .yZero = 3,
               .pads = {7, 7, 7, 7}});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, QLinearDepthwiseNhwcTest, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

// A float32 product that is exactly a half-integer while the exact product
// is not: 25067 * 0.00233374559f is 58.50000078... (the reference's double
// holds it exactly and rounds to 59), its float32 rounding is 58.5 (a tie,
// to even: 58). The kernel must give the reference's 59 (and -59).
TEST(QLinearDepthwiseNhwc, AHalfIntegerFloatProductRoundsAsTheExactProduct) {
  const float m = 0.0023337455932050943f;
  const int32_t sum = 25067;  // 100 * 250 + 1 * 67
  ASSERT_EQ(static_cast<float>(sum) * m, 58.5f) << "the case no longer makes a float tie";
  const double exact = static_cast<double>(sum) * static_cast<double>(m);
  ASSERT_GT(exact, 58.5);

  const int64_t C = 16;
  DwCase c{.name = "half", .x = {1, C, 1, 2}, .kernel = {1, 2}, .yZero = 100};
  ChannelsLastModel model = buildDepthwise(c, 1);
  // Channel k: weights (100, 1) or (-100, -1), input (250, 67): sums +-25067.
  std::vector<int8_t> w(static_cast<size_t>(2 * C));
  std::vector<uint8_t> x(static_cast<size_t>(2 * C));
  for (int64_t k = 0; k < C; ++k) {
    const int8_t sign = k % 2 == 0 ? 1 : -1;
    w[static_cast<size_t>(2 * k)] = static_cast<int8_t>(100 * sign);
    w[static_cast<size_t>(2 * k + 1)] = sign;
    x[static_cast<size_t>(k)] = 250;     // column 0, channel k
    x[static_cast<size_t>(C + k)] = 67;  // column 1
  }
  const cpu::ConvGeometry g = geometryOf(model);
  if (!cpu::QLinearDepthwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  cpu::qlinear::Requantization r;
  r.yZeroPoint = 100;
  r.outputScales = {m};
  cpu::QLinearDepthwiseNhwc k;
  ASSERT_TRUE(k.prepare(g, w.data(), r, DataType::kUInt8));
  std::vector<uint8_t> y(static_cast<size_t>(C), 0);
  k.run(x.data(), nullptr, y.data(), 1);
  const int up = static_cast<int>(std::nearbyint(exact));
  ASSERT_EQ(up, 59);
  for (int64_t ch = 0; ch < C; ++ch)
    EXPECT_EQ(int(y[static_cast<size_t>(ch)]), 100 + (ch % 2 == 0 ? up : -up)) << "channel " << ch;
}

// Left to oneDNN: not depthwise, 3-D, and int32 sums that might overflow.
TEST(QLinearDepthwiseNhwc, DeclinesWhatItDoesNotCover) {
  DwCase c{.name = "big", .x = {1, 16, 257, 257}, .kernel = {257, 257}};
  ChannelsLastModel m = buildDepthwise(c, 5);
  cpu::ConvGeometry g = geometryOf(m);
  if (!cpu::QLinearDepthwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  // 66049 taps of 255 * 127: above 2^31.
  cpu::QLinearDepthwiseNhwc k;
  EXPECT_FALSE(k.prepare(g, m.w.data<int8_t>().data(), requantizationOf(c, m), c.xType));
  cpu::ConvGeometry small = g;
  small.kernel = {255, 255};
  small.in = {255, 255};
  EXPECT_TRUE(k.prepare(small, m.w.data<int8_t>().data(), requantizationOf(c, m), c.xType));

  cpu::ConvGeometry full = g;
  full.group = 1;
  full.M = 16;
  EXPECT_FALSE(cpu::QLinearDepthwiseNhwc::covers(full));
  cpu::ConvGeometry threeD = g;
  threeD.in.push_back(4);
  EXPECT_FALSE(cpu::QLinearDepthwiseNhwc::covers(threeD));
}

}  // namespace
}  // namespace passlab::exec
