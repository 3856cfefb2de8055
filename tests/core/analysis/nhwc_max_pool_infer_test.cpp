// Shape inference of com.microsoft NhwcMaxPool (uint8 / int8, [N, spatial...,
// C]): the MaxPool window rules on the channels-first view, the element type
// kept; a rank-2 input is an error.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(NhwcMaxPoolInfer, WindowOnTheSpatialDimsChannelsLast) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (uint8[N,55,55,96] x, int8[1,13,13,512] y, uint8[2,31,3] z)
        => (uint8 a, int8 b, uint8 c, uint8 d) {
      a = com.microsoft.NhwcMaxPool <kernel_shape = [3, 3], strides = [2, 2]> (x)
      b = com.microsoft.NhwcMaxPool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (y)
      c = com.microsoft.NhwcMaxPool <kernel_shape = [5], strides = [2], pads = [2, 2]> (z)
      d = com.microsoft.NhwcMaxPool <kernel_shape = [2, 2], strides = [2, 2], auto_pad = "SAME_UPPER"> (x)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("a"), "uint8[N,27,27,96]");
  EXPECT_EQ(r.type("b"), "int8[1,6,6,512]");
  EXPECT_EQ(r.type("c"), "uint8[2,16,3]");
  EXPECT_EQ(r.type("d"), "uint8[N,28,28,96]");
}

TEST(NhwcMaxPoolInfer, ARankTwoInputFails) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (uint8[2,4] x) => (uint8 a) {
      a = com.microsoft.NhwcMaxPool <kernel_shape = [2]> (x)
    })");
  EXPECT_FALSE(r.report.failures.empty());
}

}  // namespace
}  // namespace passlab::analysis
