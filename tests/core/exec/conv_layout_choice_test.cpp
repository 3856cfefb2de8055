// runsInPlainNchw (conv_layout_choice.h): which float32 oneDNN convolutions
// skip the reorders and run on plain NCHW. The numbers of both paths are
// checked against the reference kernel in optimized_vs_reference_test.cpp.
#include "core/exec/cpu/conv_layout_choice.h"

#include <gtest/gtest.h>

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

TEST(ConvLayoutChoice, EverythingElseKeepsOneDnnsLayout) {
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 0, 11)));     // 121 pixels: too small
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 0, 7)));      // resnet50's last stage
  EXPECT_FALSE(runsInPlainNchw(geometry(3, 1, 1, 56)));     // 3x3
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 2, 0, 28)));     // strided 1x1 (downsampling)
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 1, 56)));     // padded 1x1
  EXPECT_FALSE(runsInPlainNchw(geometry(1, 1, 0, 56, 4)));  // grouped
  ConvGeometry oneD = geometry(1, 1, 0, 56);
  oneD.kernel = {1};
  oneD.stride = {1};
  oneD.padBegin = {0};
  oneD.padEnd = {0};
  oneD.out = {4096};
  oneD.in = {4096};
  EXPECT_FALSE(runsInPlainNchw(oneD));  // 1-D: not measured
}

}  // namespace
}  // namespace passlab::exec::cpu
