// Convolution and pooling windows: pads, strides, dilations, auto_pad,
// ceil_mode, transposed convolution, global pooling.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(ConvPoolInfer, ConvWithPadsStridesDilations) {
  auto r = inferText(R"(
    main (float[N,3,224,224] x, float[64,3,7,7] w, float[8,3,3,3] w3) => (float a, float b, float c) {
      a = Conv <pads = [3, 3, 3, 3], strides = [2, 2]> (x, w)
      b = Conv <dilations = [2, 2]> (x, w3)
      c = Conv <auto_pad = "SAME_UPPER", strides = [2, 2]> (x, w3)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("a"), "float[N,64,112,112]");
  EXPECT_EQ(r.type("b"), "float[N,8,220,220]");
  EXPECT_EQ(r.type("c"), "float[N,8,112,112]");
}

TEST(ConvPoolInfer, SymbolicSpatialDimsStaySymbolicWhereExact) {
  auto r = inferText(R"(
    main (float[1,3,H,W] x, float[8,3,3,3] w, float[8,8,3,3] w2) => (float a, float b, float c, float s) {
      a = Conv <pads = [1, 1, 1, 1]> (x, w)
      b = Conv (x, w)
      c = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (a, w2)
      s = Add(c, c)
    })");
  EXPECT_EQ(r.type("a"), "float[1,8,H,W]");
  EXPECT_EQ(r.type("b"), "float[1,8,H - 2,W - 2]");
  // Stride 2: not a polynomial, but a named dim that matches itself.
  EXPECT_EQ(r.type("c"), "float[1,8,floor((H - 1)/2) + 1,floor((W - 1)/2) + 1]");
  EXPECT_EQ(r.type("s"), r.type("c"));
}

TEST(ConvPoolInfer, PoolingCeilModeAndIndices) {
  auto r = inferText(R"(
    main (float[1,16,112,112] x, float[1,1,5,5] y) => (float a, int64 i, float b, float c, float g) {
      a, i = MaxPool <kernel_shape = [3, 3], strides = [2, 2]> (x)
      b = MaxPool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (x)
      c = AveragePool <kernel_shape = [2, 2], strides = [2, 2], ceil_mode = 1> (y)
      g = GlobalAveragePool(x)
    })");
  EXPECT_EQ(r.type("a"), "float[1,16,55,55]");
  EXPECT_EQ(r.type("i"), "int64[1,16,55,55]");
  EXPECT_EQ(r.type("b"), "float[1,16,56,56]");
  EXPECT_EQ(r.type("c"), "float[1,1,3,3]");
  EXPECT_EQ(r.type("g"), "float[1,16,1,1]");
}

TEST(ConvPoolInfer, ConvTranspose) {
  auto r = inferText(R"(
    main (float[1,8,10,10] x, float[8,4,3,3] w) => (float a, float b, float c) {
      a = ConvTranspose <strides = [2, 2]> (x, w)
      b = ConvTranspose <strides = [2, 2], pads = [1, 1, 1, 1], output_padding = [1, 1], group = 2> (x, w)
      c = ConvTranspose <output_shape = [21, 21], strides = [2, 2]> (x, w)
    })");
  EXPECT_EQ(r.type("a"), "float[1,4,21,21]");
  EXPECT_EQ(r.type("b"), "float[1,8,20,20]");
  EXPECT_EQ(r.type("c"), "float[1,4,21,21]");
}

TEST(ConvPoolInfer, MalformedWindowsAreReported) {
  auto r = inferText(R"(
    main (float[1,3,4,4] x, float[8,3,7,7] w, float[8,3,3] w1) => (float a, float b, float c) {
      [big] a = Conv(x, w)
      [rank] b = Conv(x, w1)
      [pads] c = MaxPool <kernel_shape = [2, 2], pads = [1, 1]> (x)
    })");
  ASSERT_EQ(r.report.failures.size(), 3u);
  EXPECT_NE(r.report.failures[0].find("Conv 'big'"), std::string::npos);
  EXPECT_NE(r.report.failures[0].find("does not fit"), std::string::npos);
  EXPECT_NE(r.report.failures[1].find("weight rank 3"), std::string::npos);
  EXPECT_NE(r.report.failures[2].find("pads has 2 values"), std::string::npos);
}

}  // namespace
}  // namespace passlab::analysis
