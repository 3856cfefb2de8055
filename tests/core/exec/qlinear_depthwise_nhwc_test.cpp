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
// the configurations it leaves to oneDNN. Every case runs on the path of the
// ISA cap (PASSLAB_MAX_ISA: AVX-512 VNNI, AVX-VNNI or AVX2, the isa_* ctests);
// full-range weights of -128 and 127 against activations of 255 are the
// edge where a u8 x s8 pair summed in int16 (vpmaddubsw) would saturate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/qlinear_depthwise_nhwc.h"
#include "core/exec/executor.h"
#include "core/support/cpu_isa.h"
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
  if (!cpu::QLinearDepthwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX2 on this CPU";
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
  // Channel counts that are not a multiple of 8 (the 256-bit halves), 16 or
  // 32, at strides 1 and 2 with padding on one edge only.
  v.push_back({.name = "k3_c9_stride1_pad_left_top",
               .x = {1, 9, 7, 10},
               .kernel = {3, 3},
               .xZero = 250,
               .yZero = 4,
               .pads = {2, 2, 0, 0}});
  v.push_back({.name = "k5_c25_stride2_pad_right_bottom_s8",
               .x = {1, 25, 11, 13},
               .kernel = {5, 5},
               .xType = DT::kInt8,
               .yType = DT::kInt8,
               .perChannelScales = true,
               .bias = true,
               .xZero = 100,
               .yZero = -3,
               .strides = {2, 2},
               .pads = {0, 0, 3, 4}});
  v.push_back({.name = "k3_c47_stride2x1_u8_in_s8_out",
               .x = {1, 47, 9, 17},
               .kernel = {3, 3},
               .yType = DT::kInt8,
               .bias = true,
               .xZero = 1,
               .yZero = 0,
               .strides = {2, 1},
               .pads = {1, 1, 1, 1}});
  v.push_back({.name = "k7_c33_stride1_dilation1x2",
               .x = {1, 33, 10, 19},
               .kernel = {7, 7},
               .perChannelScales = true,
               .xZero = 66,
               .yZero = 200,
               .pads = {3, 6, 3, 6},
               .dilations = {1, 2}});
  v.push_back({.name = "conv1d_k3_c5_stride2",
               .x = {3, 5, 20},
               .kernel = {3},
               .xZero = 9,
               .yZero = 11,
               .strides = {2},
               .pads = {1, 1}});
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
  if (!cpu::QLinearDepthwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX2 on this CPU";
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

// Full-range weights at the saturation edge: every weight -128 or 127 and
// every activation 255 (zero point 0), where u8 x s8 products summed in
// pairs in int16 (vpmaddubsw: 255 * -128 * 2 = -65280) would saturate, so a
// kernel that did so on AVX2 gives other bytes. Channels: all -128, all 127,
// and mixed patterns; 3x3 and 5x5, strides 1 and 2, 21 channels (two halves
// of 8 and 5). Against the requantization spelled out here (double, half to
// even, as the reference).
TEST(QLinearDepthwiseNhwc, FullRangeWeightsAtActivation255AreExact) {
  for (const int kernel : {3, 5}) {
    for (const int stride : {1, 2}) {
      const int64_t C = 21, H = 9, W = 11, pad = kernel / 2;
      DwCase c{.name = "edge",
               .x = {1, C, H, W},
               .kernel = {kernel, kernel},
               .yZero = 128,
               .strides = {stride, stride},
               .pads = {pad, pad, pad, pad}};
      ChannelsLastModel model = buildDepthwise(c, 3);
      const cpu::ConvGeometry g = geometryOf(model);
      if (!cpu::QLinearDepthwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX2 on this CPU";
      const int64_t taps = kernel * kernel;
      std::vector<int8_t> w(static_cast<size_t>(C * taps));
      for (int64_t ch = 0; ch < C; ++ch)
        for (int64_t t = 0; t < taps; ++t) {
          const bool low = ch % 3 == 0 || (ch % 3 == 2 && (t + ch) % 4 != 0);
          w[static_cast<size_t>(ch * taps + t)] = low ? int8_t{-128} : int8_t{127};
        }
      // Activations 255 but for a few pixels of 0 and 254 (the sums vary).
      std::vector<uint8_t> x(static_cast<size_t>(H * W * C), 255);
      for (size_t i = 0; i < x.size(); i += 37) x[i] = i % 2 == 0 ? 0 : 254;
      const float m = 1.0f / 8192.0f;  // a power of 2: exact .5 ties round to even
      cpu::qlinear::Requantization r;
      r.yZeroPoint = 128;
      r.outputScales = {m};
      cpu::QLinearDepthwiseNhwc k;
      ASSERT_TRUE(k.prepare(g, w.data(), r, DataType::kUInt8));
      const int64_t OH = g.out[0], OW = g.out[1];
      std::vector<uint8_t> y(static_cast<size_t>(OH * OW * C), 0x5a);
      k.run(x.data(), nullptr, y.data(), 1);
      int64_t saturating = 0;  // outputs whose pair sums an int16 could not hold
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow)
          for (int64_t ch = 0; ch < C; ++ch) {
            int64_t sum = 0;
            for (int64_t a = 0; a < kernel; ++a)
              for (int64_t b = 0; b < kernel; ++b) {
                const int64_t ih = oh * stride - pad + a, iw = ow * stride - pad + b;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                sum += int64_t{x[static_cast<size_t>((ih * W + iw) * C + ch)]} *
                       w[static_cast<size_t>(ch * taps + a * kernel + b)];
              }
            if (std::abs(sum) > 2 * 32767) ++saturating;
            const double v =
                std::nearbyint(static_cast<double>(sum) * static_cast<double>(m)) + 128;
            const int want = static_cast<int>(std::clamp(v, 0.0, 255.0));
            ASSERT_EQ(int(y[static_cast<size_t>((oh * OW + ow) * C + ch)]), want)
                << "kernel " << kernel << " stride " << stride << " output (" << oh << ", " << ow
                << ") channel " << ch << ", sum " << sum;
          }
      EXPECT_GT(saturating, OH * OW) << "the case no longer reaches the saturation edge";
    }
  }
}

// The kernel runs the widest path the CPU and the cap (PASSLAB_MAX_ISA)
// allow: the isa_avx2vnni and isa_avx2 ctests reach the 256-bit paths.
TEST(QLinearDepthwiseNhwc, RunsThePathOfTheIsaCap) {
  DwCase c{.name = "path", .x = {1, 16, 5, 5}, .kernel = {3, 3}, .pads = {1, 1, 1, 1}};
  ChannelsLastModel m = buildDepthwise(c, 7);
  const cpu::ConvGeometry g = geometryOf(m);
  if (!cpu::QLinearDepthwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX2 on this CPU";
  cpu::QLinearDepthwiseNhwc k;
  ASSERT_TRUE(k.prepare(g, m.w.data<int8_t>().data(), requantizationOf(c, m), c.xType));
  const std::string path = k.pathName();
  switch (cpu_isa::maxIsa()) {
    case cpu_isa::IsaLevel::kAvx2:
    case cpu_isa::IsaLevel::kAvx512Core:  // Skylake-SP: neither VNNI
      EXPECT_EQ(path, "avx2");
      break;
    case cpu_isa::IsaLevel::kAvx2Vnni:
      EXPECT_EQ(path, cpu_isa::hasAvxVnni() ? "avxvnni" : "avx2");
      break;
    case cpu_isa::IsaLevel::kAvx512:
      EXPECT_EQ(path, cpu_isa::hasAvx512Vnni() ? "avx512vnni"
                      : cpu_isa::hasAvxVnni()  ? "avxvnni"
                                               : "avx2");
      break;
    default:
      ADD_FAILURE() << "covered under cap " << cpu_isa::isaName(cpu_isa::maxIsa());
  }
}

// Left to oneDNN: not depthwise, 3-D, and int32 sums that might overflow.
TEST(QLinearDepthwiseNhwc, DeclinesWhatItDoesNotCover) {
  DwCase c{.name = "big", .x = {1, 16, 257, 257}, .kernel = {257, 257}};
  ChannelsLastModel m = buildDepthwise(c, 5);
  cpu::ConvGeometry g = geometryOf(m);
  if (!cpu::QLinearDepthwiseNhwc::covers(g)) GTEST_SKIP() << "no AVX2 on this CPU";
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
