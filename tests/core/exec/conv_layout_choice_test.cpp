// runsInPlainNchw and runsAsGemv (conv_layout_choice.h): which float32
// convolutions skip oneDNN's reorders and run on plain NCHW, and which run as
// GEMVs (conv_gemv.h, tested here on its own). The numbers of every path are
// checked against the reference kernel in optimized_vs_reference_test.cpp.
#include "core/exec/cpu/conv_layout_choice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/exec/cpu/conv_gemv.h"

namespace passlab::exec::cpu {
namespace {

// A 2-D convolution geometry of k x k, stride s, pads p, out x out outputs, `group` groups.
ConvGeometry geometry(int64_t k, int64_t s, int64_t p, int64_t out, int64_t group = 1) {
  ConvGeometry g;
  g.N = 1;
  g.C = 64;
  g.M = 64;
  g.group = group;
  g.kernel = {k, k};
  g.stride = {s, s};
  g.dilation = {1, 1};
  g.padBegin = {p, p};
  g.padEnd = {p, p};
  g.out = {out, out};
  g.in = {out * s, out * s};
  return g;
}

TEST(ConvLayoutChoice, LargeOneByOneRunsPlain) {
  EXPECT_TRUE(runsInPlainNchw(geometry(1, 1, 0, 56)));
  EXPECT_TRUE(runsInPlainNchw(geometry(1, 1, 0, 12)));  // 144 pixels, the threshold
}

// Grouped 1x1 convolutions too: one SGEMM per group on NCHW (shufflenet's 4 groups).
TEST(ConvLayoutChoice, GroupedOneByOneRunsPlain) {
  EXPECT_TRUE(runsInPlainNchw(geometry(1, 1, 0, 28, 4)));
  EXPECT_TRUE(runsInPlainNchw(geometry(1, 1, 0, 14, 2)));
  // 49 pixels: oneDNN's layout with AVX-512, plain without (below).
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 0, 7, 4), /*avx512=*/true));
  EXPECT_FALSE(runsInPlainNchw(geometry(3, 1, 1, 28, 4)));  // grouped 3x3
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 2, 0, 14, 4)));  // grouped, strided
}

TEST(ConvLayoutChoice, GroupedOneByOneFromSevenBySevenRunsPlainWithoutAvx512) {
  // shufflenet's stage 4 (544->544 in 4 groups at 7x7) on an AVX2 CPU.
  EXPECT_TRUE(runsInPlainNchw(geometry(1, 1, 0, 7, 4), /*avx512=*/false));
  EXPECT_TRUE(runsInPlainNchw(geometry(1, 1, 0, 28, 4), /*avx512=*/false));
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 0, 6, 4), /*avx512=*/false));  // 36 pixels
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 0, 7), /*avx512=*/false));     // one group
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 0, 11), /*avx512=*/false));    // one group, 121
  EXPECT_FALSE(runsInPlainNchw(geometry(3, 1, 1, 7, 4), /*avx512=*/false));  // grouped 3x3
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 2, 0, 7, 4), /*avx512=*/false));  // grouped, strided
  // The default is this process's CPU, as PASSLAB_MAX_ISA caps it.
  EXPECT_EQ(runsInPlainNchw(geometry(1, 1, 0, 7, 4)), !cpu_isa::hasAvx512f());
}

TEST(ConvLayoutChoice, EverythingElseKeepsOneDnnsLayout) {
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 0, 11)));  // 121 pixels: too small
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 0, 7)));   // resnet50's last stage
  EXPECT_FALSE(runsInPlainNchw(geometry(3, 1, 1, 56)));  // 3x3
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 1, 56)));  // padded 1x1
  ConvGeometry oneD = geometry(1, 1, 0, 56);
  oneD.kernel = {1};
  oneD.stride = {1};
  oneD.padBegin = {0};
  oneD.padEnd = {0};
  oneD.out = {4096};
  oneD.in = {4096};
  EXPECT_FALSE(runsInPlainNchw(oneD));  // 1-D: not measured
}

// Strided group-1 1x1 convolutions (resnet50's downsampling) from the same
// number of output pixels; grouped strided ones keep oneDNN's layout.
TEST(ConvLayoutChoice, StridedOneByOneRunsPlainWithOneGroup) {
  EXPECT_TRUE(runsInPlainNchw(geometry(1, 2, 0, 28)));
  EXPECT_TRUE(runsInPlainNchw(geometry(1, 2, 0, 14)));      // 196 pixels
  EXPECT_TRUE(runsInPlainNchw(geometry(1, 3, 0, 12)));      // 144 pixels, stride 3
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 2, 0, 7)));      // 49 pixels: resnet50's last one
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 2, 0, 14, 2)));  // grouped: not measured
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 2, 1, 28)));     // padded
}

// A first layer: fewer than 16 input channels, one group, a kernel wider than
// 1x1, output channels in whole blocks of 16.
TEST(ConvLayoutChoice, FewInputChannelsReadPlainNchw) {
  auto withChannels = [](ConvGeometry g, int64_t c) {
    g.C = c;
    return g;
  };
  EXPECT_TRUE(readsPlainNchw(withChannels(geometry(3, 2, 1, 112), 3)));
  EXPECT_TRUE(readsPlainNchw(withChannels(geometry(7, 2, 3, 112), 3)));
  EXPECT_TRUE(readsPlainNchw(withChannels(geometry(5, 1, 2, 224), 1)));
  EXPECT_TRUE(readsPlainNchw(withChannels(geometry(3, 1, 1, 30), 15)));
  EXPECT_FALSE(readsPlainNchw(withChannels(geometry(3, 1, 1, 30), 16)));  // oneDNN's layout
  EXPECT_FALSE(readsPlainNchw(withChannels(geometry(3, 1, 1, 56), 64)));
  EXPECT_FALSE(readsPlainNchw(withChannels(geometry(1, 1, 0, 56), 3)));     // 1x1
  EXPECT_FALSE(readsPlainNchw(withChannels(geometry(3, 1, 1, 30, 2), 8)));  // grouped
  ConvGeometry picodet = withChannels(geometry(3, 2, 1, 160), 3);
  picodet.M = 24;  // not whole blocks of 16: the result would be padded
  EXPECT_FALSE(readsPlainNchw(picodet));
  picodet.M = 12;
  EXPECT_FALSE(readsPlainNchw(picodet));
  picodet.M = 32;
  EXPECT_TRUE(readsPlainNchw(picodet));
  ConvGeometry oneD = withChannels(geometry(3, 1, 1, 56), 3);
  oneD.kernel = {3};
  oneD.stride = {1};
  oneD.padBegin = {1};
  oneD.padEnd = {1};
  oneD.out = {56};
  oneD.in = {56};
  EXPECT_FALSE(readsPlainNchw(oneD));  // 1-D: not measured
}

// A 1x1 kernel on a 1x1 input: squeeze-excite's convolutions, any group count.
TEST(ConvLayoutChoice, OneByOneOnOneByOneIsAGemv) {
  EXPECT_TRUE(runsAsGemv(geometry(1, 1, 0, 1)));
  EXPECT_TRUE(runsAsGemv(geometry(1, 1, 0, 1, 4)));
  ConvGeometry strided = geometry(1, 2, 0, 1);
  strided.in = {1, 1};  // stride 2 on a 1x1 input: one tap all the same
  EXPECT_TRUE(runsAsGemv(strided));
  ConvGeometry batch = geometry(1, 1, 0, 1);
  batch.N = kGemvMaxBatch;
  EXPECT_TRUE(runsAsGemv(batch));
}

TEST(ConvLayoutChoice, NotAGemv) {
  EXPECT_FALSE(runsAsGemv(geometry(1, 1, 0, 2)));  // 2x2 outputs
  EXPECT_FALSE(runsAsGemv(geometry(3, 1, 1, 1)));  // 3x3 padded to a 1x1 output
  ConvGeometry wide = geometry(1, 1, 0, 1);
  wide.in = {1, 3};  // 1x3 input, 1x1 output (stride 3): not the one tap
  wide.stride = {1, 3};
  EXPECT_FALSE(runsAsGemv(wide));
  ConvGeometry batch = geometry(1, 1, 0, 1);
  batch.N = kGemvMaxBatch + 1;  // a GEMM: oneDNN
  EXPECT_FALSE(runsAsGemv(batch));
  ConvGeometry odd = geometry(1, 1, 0, 1, 3);
  odd.C = 64;  // 64 channels in 3 groups: not a valid convolution
  EXPECT_FALSE(runsAsGemv(odd));
}

// convGemv against a direct loop: groups, a bias, K and N tails (37 and 13
// channels per group), two images with padded image strides whose padding is
// left as it was.
TEST(ConvGemv, MatchesTheDirectSum) {
  for (int64_t group : {1, 2, 3}) {
    ConvGemvShape s;
    s.N = 2;
    s.group = group;
    s.C = 37 * group;
    s.M = 13 * group;
    s.xImageStride = s.C + 5;
    s.yImageStride = s.M + 3;
    const int64_t Cg = s.C / group, Mg = s.M / group;
    std::vector<float> x(static_cast<size_t>(s.N * s.xImageStride)),
        w(static_cast<size_t>(s.M * Cg)), b(static_cast<size_t>(s.M));
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * static_cast<float>(i));
    for (size_t i = 0; i < w.size(); ++i) w[i] = std::cos(0.11f * static_cast<float>(i));
    for (size_t i = 0; i < b.size(); ++i) b[i] = 0.5f - 0.1f * static_cast<float>(i);
    for (const float* bias :
         {static_cast<const float*>(b.data()), static_cast<const float*>(nullptr)}) {
      std::vector<float> y(static_cast<size_t>(s.N * s.yImageStride), -7.0f);
      convGemv(s, x.data(), w.data(), bias, y.data(), 2);
      for (int64_t n = 0; n < s.N; ++n) {
        for (int64_t m = 0; m < s.M; ++m) {
          const int64_t g = m / Mg;
          double want = bias ? bias[m] : 0.0;
          for (int64_t c = 0; c < Cg; ++c)
            want += double(w[static_cast<size_t>(m * Cg + c)]) *
                    x[static_cast<size_t>(n * s.xImageStride + g * Cg + c)];
          EXPECT_NEAR(y[static_cast<size_t>(n * s.yImageStride + m)], want, 1e-4)
              << "group " << group << " image " << n << " channel " << m;
        }
        for (int64_t m = s.M; m < s.yImageStride; ++m)
          EXPECT_EQ(y[static_cast<size_t>(n * s.yImageStride + m)], -7.0f) << "padding " << m;
      }
    }
  }
}

}  // namespace
}  // namespace passlab::exec::cpu
