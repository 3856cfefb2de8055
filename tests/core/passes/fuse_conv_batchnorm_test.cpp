// fuse_conv_batchnorm: exact folds (values chosen so float arithmetic is
// exact), without a Conv bias, opset variants, reasons it stays, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_conv_batchnorm";

// s = scale / sqrt(var + eps) = {1, 0.5}
const char* kStats =
    R"(float[2] s = {2, 0.5}, float[2] bb = {0.5, 0}, float[2] m = {1, 3}, float[2] v = {3, 0})";

std::string model(const std::string& convInputs, const std::string& extraInits = "",
                  const std::string& bnAttrs = "epsilon = 1.0") {
  return R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y) <float[2,2,1,1] w = {1, 2, 3, 4}, )" +
         std::string(kStats) + extraInits + R"(> {
      t = Conv()" +
         convInputs + R"()
      y = BatchNormalization <)" +
         bnAttrs + R"(> (t, s, bb, m, v) })";
}

TEST(FuseConvBatchnorm, FoldsIntoWeightsAndBias) {
  // W' = W[m] * s[m]; b' = (b - mean) * s + B
  expectRewrite(kPass, model("x, w, b", R"(, float[2] b = {1, -1})"),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2,2,1,1] w2 = {1, 2, 1.5, 2}, float[2] b2 = {0.5, -2}> {
      y = Conv(x, w2, b2) })");
}

TEST(FuseConvBatchnorm, ConvWithoutBiasGetsOne) {
  expectRewrite(kPass, model("x, w"),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2,2,1,1] w2 = {1, 2, 1.5, 2}, float[2] b2 = {-0.5, -1.5}> {
      y = Conv(x, w2, b2) })");
}

TEST(FuseConvBatchnorm, ConvAttributesAreKept) {
  expectRewrite(
      kPass,
      R"(main (float[1,2,4,4] x) => (float[1,2,2,2] y) <float[2,1,1,1] w = {1, 2}, float[2] s = {2, 0.5}, float[2] bb = {0.5, 0}, float[2] m = {1, 3}, float[2] v = {3, 0}> {
      t = Conv <group = 2, strides = [2, 2]> (x, w)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })",
      R"(main (float[1,2,4,4] x) => (float[1,2,2,2] y) <float[2,1,1,1] w2 = {1, 1}, float[2] b2 = {-0.5, -1.5}> {
      y = Conv <group = 2, strides = [2, 2]> (x, w2, b2) })");
}

TEST(FuseConvBatchnorm, LegacyBatchNormInInferenceMode) {
  // Opset 6: is_test = 1 marks inference; constants as Constant nodes (IR 3),
  // and the folded ones too. (The executor has no BatchNormalization-6 kernel,
  // so only the structure is compared.)
  expectRewrite(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[1,2,3,3] x) => (float[1,2,3,3] y) {
      w = Constant <value = float[2,2,1,1] {1, 2, 3, 4}> ()
      s = Constant <value = float[2] {2, 0.5}> ()
      bb = Constant <value = float[2] {0.5, 0}> ()
      m = Constant <value = float[2] {1, 3}> ()
      v = Constant <value = float[2] {3, 0}> ()
      t = Conv(x, w)
      y = BatchNormalization <epsilon = 1.0, is_test = 1> (t, s, bb, m, v) })",
                R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[1,2,3,3] x) => (float[1,2,3,3] y) {
      w2 = Constant <value = float[2,2,1,1] {1, 2, 1.5, 2}> ()
      b2 = Constant <value = float[2] {-0.5, -1.5}> ()
      y = Conv(x, w2, b2) })");
}

TEST(FuseConvBatchnorm, KeepsALegacyBatchNormInTrainingMode) {
  expectUnchanged(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[1,2,3,3] x) => (float[1,2,3,3] y) {
      w = Constant <value = float[2,2,1,1] {1, 2, 3, 4}> ()
      s = Constant <value = float[2] {2, 0.5}> ()
      bb = Constant <value = float[2] {0.5, 0}> ()
      m = Constant <value = float[2] {1, 3}> ()
      v = Constant <value = float[2] {3, 0}> ()
      t = Conv(x, w)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })",
                  "is_test = 0");
}

TEST(FuseConvBatchnorm, KeepsAConvOutputWithASecondConsumer) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y, float[1,2,3,3] z) <float[2,2,1,1] w = {1, 2, 3, 4}, )" +
          std::string(kStats) + R"(> {
      t = Conv(x, w)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v)
      z = Relu(t) })",
      "Conv output 't' has 2 consumers");
}

TEST(FuseConvBatchnorm, KeepsABatchNormWhoseScaleIsNotConstant) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,3,3] x, float[2] s) => (float[1,2,3,3] y) <float[2,2,1,1] w = {1, 2, 3, 4}, float[2] bb = {0.5, 0}, float[2] m = {1, 3}, float[2] v = {3, 0}> {
      t = Conv(x, w)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })",
      "BatchNormalization scale is not constant");
}

TEST(FuseConvBatchnorm, KeepsAConvWhoseWeightIsAnInput) {
  expectUnchanged(kPass,
                  R"(main (float[1,2,3,3] x, float[2,2,1,1] w) => (float[1,2,3,3] y) <)" +
                      std::string(kStats) + R"(> {
      t = Conv(x, w)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })",
                  "Conv weight is not constant");
}

TEST(FuseConvBatchnorm, KeepsABatchNormInTrainingMode) {
  expectUnchanged(kPass, model("x, w", "", "epsilon = 1.0, training_mode = 1"),
                  "BatchNormalization is in training mode");
}

// The onnx_light_* models' weights: ConstantOfShape of a shape constant.
std::string computedWeights() {
  return R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y) <int64[4] ws = {2, 2, 1, 1}, )" +
         std::string(kStats) + R"(> {
      w = ConstantOfShape <value = float[1] {0.5}> (ws)
      t = Conv(x, w)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })";
}

TEST(FuseConvBatchnorm, ComputedWeightsScaledThroughANode) {
  // W' = Mul(W, s as [2,1,1,1]); b' = -mean * s + B
  expectRewrite(kPass, computedWeights(),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <int64[4] ws = {2, 2, 1, 1}, float[2,1,1,1] sc = {1, 0.5}, float[2] b2 = {-0.5, -1.5}> {
      w = ConstantOfShape <value = float[1] {0.5}> (ws)
      w2 = Mul(w, sc)
      y = Conv(x, w2, b2) })");
}

TEST(FuseConvBatchnorm, ComputedWeightsConverge) {
  expectConverges(kPass, computedWeights());
}

TEST(FuseConvBatchnorm, ComputedWeightsKeepTheOutputs) {
  expectSameOutputs(kPass,
                    R"(main (float[2,2,5,5] x) => (float[2,3,4,4] y)
      <int64[4] ws = {3, 2, 2, 2},
       float[3,2,2,2] r = {1, -1, 0.5, 2, 0.25, -3, 1.5, 0, -2, 1, 1, 0.5, -0.5, 2, 3, -1, 0, 1, -1, 2, 0.5, 0.5, -2, 1},
       float[3] b = {0.1, -0.2, 0.3}, float[3] s = {1.3, 0.7, -0.4}, float[3] bb = {0.2, -0.1, 0.05},
       float[3] m = {0.3, -0.6, 0.9}, float[3] v = {0.8, 1.7, 0.05}> {
      k = ConstantOfShape <value = float[1] {0.25}> (ws)
      w = Add(k, r)
      t = Conv(x, w, b)
      y = BatchNormalization <epsilon = 0.001> (t, s, bb, m, v) })");
}

// resnet50's last stage in the onnx_light_* files: the statistics are
// ConstantOfShape outputs too (8 KiB each, over fold_constants' budget); the
// pass computes them with the pipeline's kernels.
std::string computedStatistics() {
  return R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <int64[1] cs = {2}, float[2,2,1,1] w = {1, 0, 0, 1}> {
      s = ConstantOfShape <value = float[1] {2}> (cs)
      bb = ConstantOfShape <value = float[1] {1}> (cs)
      m = ConstantOfShape <value = float[1] {0.5}> (cs)
      v = ConstantOfShape <value = float[1] {3}> (cs)
      t = Conv(x, w)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })";
}

TEST(FuseConvBatchnorm, ComputedStatisticsAreComputedAndFolded) {
  // s = 2 / sqrt(3 + 1) = 1: W' = W; b' = (0 - 0.5) * 1 + 1 = 0.5 (the
  // statistics' nodes are left to eliminate_dead_nodes)
  expectRewrite(kPass, computedStatistics(),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <int64[1] cs = {2}, float[2,2,1,1] w2 = {1, 0, 0, 1}, float[2] b2 = {0.5, 0.5}> {
      s = ConstantOfShape <value = float[1] {2}> (cs)
      bb = ConstantOfShape <value = float[1] {1}> (cs)
      m = ConstantOfShape <value = float[1] {0.5}> (cs)
      v = ConstantOfShape <value = float[1] {3}> (cs)
      y = Conv(x, w2, b2) })");
}

TEST(FuseConvBatchnorm, ComputedStatisticsConvergeAndKeepTheOutputs) {
  expectConverges(kPass, computedStatistics());
  expectSameOutputs(kPass, computedStatistics());
}

TEST(FuseConvBatchnorm, KeepsStatisticsComputedFromAnInput) {
  expectUnchanged(kPass,
                  R"(main (float[1,2,3,3] x, int64[1] cs) => (float[1,2,3,3] y)
      <float[2,2,1,1] w = {1, 0, 0, 1}, float[2] bb = {1, 1}, float[2] m = {0, 0}, float[2] v = {1, 1}> {
      s = ConstantOfShape <value = float[1] {2}> (cs)
      t = Conv(x, w)
      y = BatchNormalization (t, s, bb, m, v) })",
                  "BatchNormalization scale is not constant");
}

TEST(FuseConvBatchnorm, Converges) {
  expectConverges(kPass, model("x, w, b", R"(, float[2] b = {1, -1})"));
}

TEST(FuseConvBatchnorm, OutputsStayTheSame) {
  expectSameOutputs(kPass,
                    R"(main (float[2,2,5,5] x) => (float[2,3,4,4] y)
      <float[3,2,2,2] w = {1, -1, 0.5, 2, 0.25, -3, 1.5, 0, -2, 1, 1, 0.5, -0.5, 2, 3, -1, 0, 1, -1, 2, 0.5, 0.5, -2, 1},
       float[3] b = {0.1, -0.2, 0.3}, float[3] s = {1.3, 0.7, -0.4}, float[3] bb = {0.2, -0.1, 0.05},
       float[3] m = {0.3, -0.6, 0.9}, float[3] v = {0.8, 1.7, 0.05}> {
      t = Conv(x, w, b)
      y = BatchNormalization <epsilon = 0.001> (t, s, bb, m, v) })");
}

}  // namespace
}  // namespace passlab::testing
