// fuse_pad_into_conv_pool: Pad folded into Conv, AveragePool and MaxPool pads
// (every Pad form: inputs, attributes, axes), with the reasons it stays.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_pad_into_conv_pool";

TEST(FusePadIntoConvPool, ConvAddsThePadToItsOwnPads) {
  expectRewrite(
      kPass,
      R"(main (float[1,1,4,4] x) => (float[1,1,6,5] y) <float[1,1,2,2] w = {1, 2, 3, 4}, int64[8] p = {0, 0, 1, 0, 0, 0, 1, 1}> {
      t = Pad(x, p)
      y = Conv <kernel_shape = [2, 2], pads = [1, 0, 0, 1]> (t, w) })",
      R"(main (float[1,1,4,4] x) => (float[1,1,6,5] y) <float[1,1,2,2] w = {1, 2, 3, 4}> {
      y = Conv <kernel_shape = [2, 2], pads = [2, 0, 1, 2]> (x, w) })");
}

TEST(FusePadIntoConvPool, AveragePoolCountsThePadding) {
  expectRewrite(
      kPass,
      R"(main (float[1,2,4,4] x) => (float[1,2,5,5] y) <int64[8] p = {0, 0, 1, 1, 0, 0, 1, 1}> {
      t = Pad(x, p)
      y = AveragePool <kernel_shape = [2, 2]> (t) })",
      R"(main (float[1,2,4,4] x) => (float[1,2,5,5] y) {
      y = AveragePool <count_include_pad = 1, kernel_shape = [2, 2], pads = [1, 1, 1, 1]> (x) })");
}

TEST(FusePadIntoConvPool, MaxPoolTakesAMinusInfinityPad) {
  expectRewrite(
      kPass,
      R"(main (float[1,2,4,4] x) => (float[1,2,5,5] y) <int64[8] p = {0, 0, 1, 1, 0, 0, 1, 1}, float v = {-inf}> {
      t = Pad(x, p, v)
      y = MaxPool <kernel_shape = [2, 2]> (t) })",
      R"(main (float[1,2,4,4] x) => (float[1,2,5,5] y) {
      y = MaxPool <kernel_shape = [2, 2], pads = [1, 1, 1, 1]> (x) })");
}

TEST(FusePadIntoConvPool, MaxPoolTakesAZeroPadAfterRelu) {
  expectRewrite(
      kPass,
      R"(main (float[1,2,4,4] x) => (float[1,2,5,5] y) <int64[8] p = {0, 0, 1, 1, 0, 0, 1, 1}> {
      r = Relu(x)
      t = Pad(r, p)
      y = MaxPool <kernel_shape = [2, 2]> (t) })",
      R"(main (float[1,2,4,4] x) => (float[1,2,5,5] y) {
      r = Relu(x)
      y = MaxPool <kernel_shape = [2, 2], pads = [1, 1, 1, 1]> (r) })");
}

// winml_squeezenet's Caffe ceil-mode pooling: Pad(x, end 1, -3.4028235e38) -> MaxPool <VALID>.
const char* kLowestPad =
    R"(main (float[1,2,6,6] x) => (float[1,2,3,3] y) <int64[8] p = {0, 0, 0, 0, 0, 0, 1, 1}, float v = {-3.4028234663852886e+38}> {
      t = Pad(x, p, v)
      y = MaxPool <auto_pad = "VALID", kernel_shape = [3, 3], strides = [2, 2]> (t) })";

TEST(FusePadIntoConvPool, MaxPoolTakesALowestFloatPadAndAutoPadValid) {
  expectRewrite(kPass, kLowestPad,
                R"(main (float[1,2,6,6] x) => (float[1,2,3,3] y) {
      y = MaxPool <auto_pad = "NOTSET", kernel_shape = [3, 3], pads = [0, 0, 1, 1], strides = [2, 2]> (x) })");
  expectSameOutputs(kPass, kLowestPad);
  expectConverges(kPass, kLowestPad);
}

TEST(FusePadIntoConvPool, KeepsALowestFloatPadWhoseWindowCouldBeAllPad) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,4,4] x) => (float[1,2,4,4] y) <int64[8] p = {0, 0, 0, 0, 0, 0, 3, 3}, float v = {-3.4028234663852886e+38}> {
      t = Pad(x, p, v)
      y = MaxPool <auto_pad = "VALID", kernel_shape = [2, 2], strides = [2, 2]> (t) })",
      "a pad reaches the kernel size");
}

TEST(FusePadIntoConvPool, KeepsAMaxPoolWithANearlyLowestPad) {
  // -3.4e38 is above the lowest float32: a real element below it would lose.
  expectUnchanged(
      kPass,
      R"(main (float[1,2,6,6] x) => (float[1,2,3,3] y) <int64[8] p = {0, 0, 0, 0, 0, 0, 1, 1}, float v = {-3.4e38}> {
      t = Pad(x, p, v)
      y = MaxPool <auto_pad = "VALID", kernel_shape = [3, 3], strides = [2, 2]> (t) })",
      "the Pad value must be -inf");
}

TEST(FusePadIntoConvPool, PadWithAttributesBeforeOpset11) {
  const std::string h = R"(<ir_version: 5, opset_import: ["" : 10]>)";
  expectRewrite(
      kPass,
      h + R"(main (float[1,1,4,4] x) => (float[1,1,5,5] y) <float[1,1,2,2] w = {1, 2, 3, 4}> {
      t = Pad <pads = [0, 0, 1, 1, 0, 0, 1, 1]> (x)
      y = Conv (t, w) })",
      h + R"(main (float[1,1,4,4] x) => (float[1,1,5,5] y) <float[1,1,2,2] w = {1, 2, 3, 4}> {
      y = Conv <pads = [1, 1, 1, 1]> (x, w) })");
}

TEST(FusePadIntoConvPool, PadWithAxesFromOpset18) {
  const std::string h = R"(<ir_version: 8, opset_import: ["" : 18]>)";
  expectRewrite(
      kPass,
      h + R"(main (float[1,1,4,4] x) => (float[1,1,5,4] y) <float[1,1,2,2] w = {1, 2, 3, 4}, int64[4] p = {1, 0, 1, 1}, int64[2] a = {-2, -1}> {
      t = Pad(x, p, , a)
      y = Conv (t, w) })",
      h + R"(main (float[1,1,4,4] x) => (float[1,1,5,4] y) <float[1,1,2,2] w = {1, 2, 3, 4}> {
      y = Conv <pads = [1, 0, 1, 1]> (x, w) })");
}

TEST(FusePadIntoConvPool, KeepsAMaxPoolWithAZeroPadOfAnyInput) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,4,4] x) => (float[1,2,5,5] y) <int64[8] p = {0, 0, 1, 1, 0, 0, 1, 1}> {
      t = Pad(x, p)
      y = MaxPool <kernel_shape = [2, 2]> (t) })",
      "the Pad value must be -inf, the lowest float32 of a float32 input, or 0 after a Relu");
}

TEST(FusePadIntoConvPool, KeepsAMaxPoolWhoseWindowCouldBeAllPad) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,4,4] x) => (float[1,2,7,7] y) <int64[8] p = {0, 0, 2, 2, 0, 0, 2, 2}> {
      r = Relu(x)
      t = Pad(r, p)
      y = MaxPool <kernel_shape = [2, 2]> (t) })",
      "a pad reaches the kernel size");
}

TEST(FusePadIntoConvPool, KeepsAReflectPad) {
  expectUnchanged(
      kPass,
      R"(main (float[1,1,4,4] x) => (float[1,1,5,5] y) <float[1,1,2,2] w = {1, 2, 3, 4}, int64[8] p = {0, 0, 1, 1, 0, 0, 1, 1}> {
      t = Pad <mode = "reflect"> (x, p)
      y = Conv (t, w) })",
      "Pad mode is 'reflect', not constant");
}

TEST(FusePadIntoConvPool, KeepsAPadOfTheChannelAxis) {
  expectUnchanged(
      kPass,
      R"(main (float[1,1,4,4] x) => (float[1,1,4,4] y) <float[1,2,1,1] w = {1, 2}, int64[8] p = {0, 1, 0, 0, 0, 0, 0, 0}> {
      t = Pad(x, p)
      y = Conv (t, w) })",
      "Pad pads the batch or channel axis");
}

TEST(FusePadIntoConvPool, KeepsAPadWithASecondConsumer) {
  expectUnchanged(
      kPass,
      R"(main (float[1,1,4,4] x) => (float[1,1,5,5] y, float[1,1,6,6] z) <float[1,1,2,2] w = {1, 2, 3, 4}, int64[8] p = {0, 0, 1, 1, 0, 0, 1, 1}> {
      t = Pad(x, p)
      y = Conv (t, w)
      z = Relu(t) })",
      "Pad output 't' has 2 consumers");
}

TEST(FusePadIntoConvPool, KeepsANonZeroPadBeforeAConv) {
  expectUnchanged(
      kPass,
      R"(main (float[1,1,4,4] x) => (float[1,1,5,5] y) <float[1,1,2,2] w = {1, 2, 3, 4}, int64[8] p = {0, 0, 1, 1, 0, 0, 1, 1}, float v = {1}> {
      t = Pad(x, p, v)
      y = Conv (t, w) })",
      "not 0");
}

TEST(FusePadIntoConvPool, KeepsAConvWithAutoPad) {
  expectUnchanged(
      kPass,
      R"(main (float[1,1,4,4] x) => (float[1,1,6,6] y) <float[1,1,2,2] w = {1, 2, 3, 4}, int64[8] p = {0, 0, 1, 1, 0, 0, 1, 1}> {
      t = Pad(x, p)
      y = Conv <auto_pad = "SAME_UPPER"> (t, w) })",
      "has auto_pad SAME_UPPER");
}

TEST(FusePadIntoConvPool, KeepsAnAveragePoolThatExcludesItsOwnPads) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,4,4] x) => (float[1,2,7,7] y) <int64[8] p = {0, 0, 1, 1, 0, 0, 1, 1}> {
      t = Pad(x, p)
      y = AveragePool <kernel_shape = [2, 2], pads = [1, 1, 1, 1]> (t) })",
      "count_include_pad = 0");
}

TEST(FusePadIntoConvPool, KeepsAPoolWithCeilMode) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,4,4] x) => (float[1,2,3,3] y) <int64[8] p = {0, 0, 1, 1, 0, 0, 0, 0}> {
      t = Pad(x, p)
      y = AveragePool <kernel_shape = [2, 2], strides = [2, 2], ceil_mode = 1> (t) })",
      "ceil_mode = 1");
}

TEST(FusePadIntoConvPool, KeepsAnAveragePoolBeforeOpset7) {
  expectUnchanged(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[1,2,4,4] x) => (float[1,2,5,5] y) {
      t = Pad <pads = [0, 0, 1, 1, 0, 0, 1, 1]> (x)
      y = AveragePool <kernel_shape = [2, 2]> (t) })",
                  "AveragePool before opset 7 never counts pads");
}

TEST(FusePadIntoConvPool, Converges) {
  expectConverges(
      kPass,
      R"(main (float[1,1,4,4] x) => (float[1,1,5,5] y) <float[1,1,2,2] w = {1, 2, 3, 4}, int64[8] p = {0, 0, 1, 1, 0, 0, 1, 1}> {
      t = Pad(x, p)
      y = Conv (t, w) })");
}

TEST(FusePadIntoConvPool, OutputsStayTheSame) {
  // Conv with its own pads, strides and a bias; AveragePool and MaxPool after it.
  expectSameOutputs(
      kPass,
      R"(main (float[2,2,5,5] x) => (float[2,3,3,3] y, float[2,3,4,4] z, float[2,3,4,4] u)
      <float[3,2,2,2] w = {1, -1, 0.5, 2, 0.25, -3, 1.5, 0, -2, 1, 1, 0.5, -0.5, 2, 3, -1, 0, 1, -1, 2, 0.5, 0.5, -2, 1},
       float[3] b = {0.1, -0.2, 0.3}, int64[8] p = {0, 0, 1, 1, 0, 0, 0, 0}, int64[8] q = {0, 0, 1, 1, 0, 0, 1, 1}> {
      t = Pad(x, p)
      c = Conv <kernel_shape = [2, 2], pads = [1, 0, 0, 1], strides = [2, 2]> (t, w, b)
      r = Relu(c)
      y = Identity(r)
      s = Pad(r, q)
      z = AveragePool <kernel_shape = [2, 2]> (s)
      s2 = Pad(r, q)
      u = MaxPool <kernel_shape = [2, 2]> (s2) })");
}

}  // namespace
}  // namespace passlab::testing
