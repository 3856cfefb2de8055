// replace_avgpool_and_depthwise_conv: an AveragePool before a foldable op
// becomes a depthwise Conv, a uniform depthwise Conv becomes an AveragePool;
// neither undoes the other; reasons; numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "replace_avgpool_and_depthwise_conv";

const char* kStats =
    R"(float[2] s = {2, 0.5}, float[2] bb = {0.5, 0}, float[2] m = {1, 3}, float[2] v = {3, 0})";

TEST(ReplaceAvgpoolAndDepthwiseConv, AveragePoolBeforeBatchNormBecomesDepthwiseConv) {
  expectRewrite(kPass,
                R"(main (float[1,2,4,4] x) => (float[1,2,2,2] y) <)" + std::string(kStats) + R"(> {
      t = AveragePool <kernel_shape = [2, 2], strides = [2, 2]> (x)
      y = BatchNormalization(t, s, bb, m, v) })",
                R"(main (float[1,2,4,4] x) => (float[1,2,2,2] y)
      <float[2,1,2,2] w = {0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}, )" +
                    std::string(kStats) + R"(> {
      t = Conv <group = 2, kernel_shape = [2, 2], pads = [0, 0, 0, 0], strides = [2, 2]> (x, w)
      y = BatchNormalization(t, s, bb, m, v) })");
}

TEST(ReplaceAvgpoolAndDepthwiseConv, AveragePoolCountingPadsBeforeAPerChannelMul) {
  expectRewrite(kPass, R"(main (float[1,2,4,4] x) => (float[1,2,5,5] y) <float[2,1,1] c = {2, 3}> {
      t = AveragePool <kernel_shape = [2, 2], pads = [1, 1, 1, 1], count_include_pad = 1> (x)
      y = Mul(t, c) })",
                R"(main (float[1,2,4,4] x) => (float[1,2,5,5] y)
      <float[2,1,2,2] w = {0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}, float[2,1,1] c = {2, 3}> {
      t = Conv <group = 2, kernel_shape = [2, 2], pads = [1, 1, 1, 1], strides = [1, 1]> (x, w)
      y = Mul(t, c) })");
}

TEST(ReplaceAvgpoolAndDepthwiseConv, UniformDepthwiseConvBecomesAveragePool) {
  expectRewrite(kPass, R"(main (float[1,2,4,4] x) => (float[1,2,3,5] y)
      <float[2,1,2,2] w = {0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}, float[2] b = {0, 0}> {
      t = Conv <group = 2, pads = [0, 1, 0, 1]> (x, w, b)
      y = Relu(t) })",
                R"(main (float[1,2,4,4] x) => (float[1,2,3,5] y) {
      t = AveragePool <count_include_pad = 1, kernel_shape = [2, 2], pads = [0, 1, 0, 1], strides = [1, 1]> (x)
      y = Relu(t) })");
}

TEST(ReplaceAvgpoolAndDepthwiseConv, KeepsAnAveragePoolBeforeAnotherOp) {
  expectUnchanged(kPass, R"(main (float[1,2,4,4] x) => (float[1,2,3,3] y) {
      t = AveragePool <kernel_shape = [2, 2]> (x)
      y = Relu(t) })",
                  "which a Conv cannot absorb");
}

TEST(ReplaceAvgpoolAndDepthwiseConv, KeepsAnAveragePoolExcludingItsPads) {
  expectUnchanged(kPass,
                  R"(main (float[1,2,4,4] x) => (float[1,2,5,5] y) <float[2,1,1] c = {2, 3}> {
      t = AveragePool <kernel_shape = [2, 2], pads = [1, 1, 1, 1]> (x)
      y = Mul(t, c) })",
                  "AveragePool excludes its pads from the count");
}

TEST(ReplaceAvgpoolAndDepthwiseConv, KeepsAConvWithNonUniformWeights) {
  expectUnchanged(kPass, R"(main (float[1,2,4,4] x) => (float[1,2,3,3] y)
      <float[2,1,2,2] w = {0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.5}> {
      t = Conv <group = 2> (x, w)
      y = Relu(t) })",
                  "the weights are not all 1/4");
}

TEST(ReplaceAvgpoolAndDepthwiseConv, KeepsAConvThatCanAbsorbTheNextOp) {
  expectUnchanged(kPass,
                  R"(main (float[1,2,4,4] x) => (float[1,2,3,3] y)
      <float[2,1,2,2] w = {0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}, )" +
                      std::string(kStats) + R"(> {
      t = Conv <group = 2> (x, w)
      y = BatchNormalization(t, s, bb, m, v) })",
                  "the Conv can absorb the BatchNormalization after it");
}

TEST(ReplaceAvgpoolAndDepthwiseConv, KeepsAConvWithANonZeroBias) {
  expectUnchanged(kPass, R"(main (float[1,2,4,4] x) => (float[1,2,3,3] y)
      <float[2,1,2,2] w = {0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}, float[2] b = {0, 1}> {
      t = Conv <group = 2> (x, w, b)
      y = Relu(t) })",
                  "the Conv has a nonzero bias");
}

TEST(ReplaceAvgpoolAndDepthwiseConv, SkippedBeforeOpset7) {
  expectSkippedForOpset(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[1,2,4,4] x) => (float[1,2,3,3] y) {
      t = AveragePool <kernel_shape = [2, 2]> (x)
      y = Relu(t) })");
}

TEST(ReplaceAvgpoolAndDepthwiseConv, Converges) {
  expectConverges(
      kPass, R"(main (float[1,2,4,4] x) => (float[1,2,2,2] y) <)" + std::string(kStats) + R"(> {
      t = AveragePool <kernel_shape = [2, 2], strides = [2, 2]> (x)
      y = BatchNormalization(t, s, bb, m, v) })");
}

TEST(ReplaceAvgpoolAndDepthwiseConv, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[2,3,6,6] x) => (float[2,3,5,5] y, float[2,3,4,4] z)
      <float[3] s = {1.3, -0.7, 0.4}, float[3] bb = {0.2, -0.1, 0.05}, float[3] m = {0.3, -0.6, 0.9}, float[3] v = {0.8, 1.7, 0.05},
       float[3,1,3,3] w = {0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111,
                           0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111,
                           0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111, 0.11111111}> {
      t = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 0, 0], count_include_pad = 1> (x)
      y = BatchNormalization <epsilon = 0.001> (t, s, bb, m, v)
      c = Conv <group = 3> (x, w)
      z = Relu(c) })");
}

}  // namespace
}  // namespace passlab::testing
