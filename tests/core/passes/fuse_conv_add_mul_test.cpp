// fuse_conv_add_mul: per-channel Add/Sub/Mul/Div folded into the Conv before
// it (exact values), operand order, legacy broadcast, reasons, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_conv_add_mul";

// Conv(x, w, b) then `op` with the constant c (declared by `cdecl`).
std::string model(const std::string& op, const std::string& cdecl, bool bias = true) {
  return R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y) <float[2,2,1,1] w = {1, 2, 3, 4}, float[2] b = {1, -1}, )" +
         cdecl + R"(> {
      t = Conv(x, w)" +
         (bias ? ", b" : "") + R"()
      y = )" +
         op + " }";
}

TEST(FuseConvAddMul, AddGoesIntoTheBias) {
  expectRewrite(kPass, model("Add(t, c)", "float[2,1,1] c = {0.5, 2}"),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2,2,1,1] w = {1, 2, 3, 4}, float[2] b2 = {1.5, 1}> {
      y = Conv(x, w, b2) })");
}

TEST(FuseConvAddMul, AddToAConvWithoutBias) {
  expectRewrite(kPass, model("Add(c, t)", "float[1,2,1,1] c = {0.5, 2}", false),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2,2,1,1] w = {1, 2, 3, 4}, float[2] b = {1, -1}, float[2] b2 = {0.5, 2}> {
      y = Conv(x, w, b2) })");
}

TEST(FuseConvAddMul, SubOfAScalar) {
  expectRewrite(kPass, model("Sub(t, c)", "float c = {1}"),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2,2,1,1] w = {1, 2, 3, 4}, float[2] b2 = {0, -2}> {
      y = Conv(x, w, b2) })");
}

TEST(FuseConvAddMul, MulScalesWeightsAndBias) {
  expectRewrite(kPass, model("Mul(c, t)", "float[1,2,1,1] c = {2, 0.5}"),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2,2,1,1] w2 = {2, 4, 1.5, 2}, float[2] b2 = {2, -0.5}> {
      y = Conv(x, w2, b2) })");
}

TEST(FuseConvAddMul, DivScalesByTheReciprocal) {
  expectRewrite(kPass, model("Div(t, c)", "float[2,1,1] c = {2, 4}"),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2,2,1,1] w2 = {0.5, 1, 0.75, 1}, float[2] b2 = {0.5, -0.25}> {
      y = Conv(x, w2, b2) })");
}

TEST(FuseConvAddMul, ChainOfAddAndMulFoldsCompletely) {
  expectRewrite(kPass, R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2,2,1,1] w = {1, 2, 3, 4}, float[2,1,1] c = {0.5, 2}, float[2,1,1] s = {2, 0.5}> {
      t = Conv(x, w)
      u = Add(t, c)
      y = Mul(u, s) })",
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2,2,1,1] w2 = {2, 4, 1.5, 2}, float[2] b2 = {1, 1}> {
      y = Conv(x, w2, b2) })");
}

TEST(FuseConvAddMul, KeepsSubFromAConstant) {
  expectUnchanged(kPass, model("Sub(c, t)", "float[2,1,1] c = {0.5, 2}"),
                  "Sub(c, Conv(x)) is not a per-channel bias of the Conv");
}

TEST(FuseConvAddMul, KeepsAConstantVaryingAlongASpatialAxis) {
  expectUnchanged(kPass, model("Add(t, c)", "float[3] c = {0.5, 2, 1}"), "is not per-channel");
}

TEST(FuseConvAddMul, KeepsAConstantThatWidensTheResult) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,3,3] x) => (float[1,1,2,3,3] y) <float[2,2,1,1] w = {1, 2, 3, 4}, float[1,1,2,1,1] c = {0.5, 2}> {
      t = Conv(x, w)
      y = Add(t, c) })",
      "has rank 5, above the result's 4");
}

TEST(FuseConvAddMul, KeepsANonConstantOperand) {
  expectUnchanged(kPass, R"(main (float[1,2,3,3] x, float[2,1,1] c) => (float[1,2,3,3] y)
      <float[2,2,1,1] w = {1, 2, 3, 4}> {
      t = Conv(x, w)
      y = Mul(t, c) })",
                  "'c' is not constant");
}

TEST(FuseConvAddMul, KeepsADivisionByZero) {
  expectUnchanged(kPass, model("Div(t, c)", "float[2,1,1] c = {2, 0}"), "divides by zero");
}

TEST(FuseConvAddMul, KeepsAConvOutputWithASecondConsumer) {
  expectUnchanged(kPass, R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y, float[1,2,3,3] z)
      <float[2,2,1,1] w = {1, 2, 3, 4}, float[2,1,1] c = {0.5, 2}> {
      t = Conv(x, w)
      y = Add(t, c)
      z = Relu(t) })",
                  "Conv output 't' has 2 consumers");
}

TEST(FuseConvAddMul, LegacyBroadcastAlongTheChannelAxis) {
  const std::string h = R"(<ir_version: 3, opset_import: ["" : 6]>)";
  expectSameOutputs(kPass, h + R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y) {
      w = Constant <value = float[2,2,1,1] {1, 2, 3, 4}> ()
      c = Constant <value = float[2] {0.5, 2}> ()
      t = Conv(x, w)
      y = Mul <broadcast = 1, axis = 1> (t, c) })");
  expectUnchanged(kPass, h + R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y) {
      w = Constant <value = float[2,2,1,1] {1, 2, 3, 4}> ()
      c = Constant <value = float[3] {0.5, 2, 1}> ()
      t = Conv(x, w)
      y = Mul <broadcast = 1> (t, c) })",
                  "legacy broadcast other than along axis 1 is not handled");
}

// The onnx_light_* models' weights: ConstantOfShape of a shape constant.
const char* kComputedWeights = R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <int64[4] ws = {2, 2, 1, 1}, float[2] b = {1, -1}, float[1,2,1,1] c = {2, 0.5}> {
      w = ConstantOfShape <value = float[1] {0.5}> (ws)
      t = Conv(x, w, b)
      y = Mul(t, c) })";

TEST(FuseConvAddMul, MulScalesComputedWeightsThroughANode) {
  expectRewrite(kPass, kComputedWeights,
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <int64[4] ws = {2, 2, 1, 1}, float[2,1,1,1] s = {2, 0.5}, float[2] b2 = {2, -0.5}> {
      w = ConstantOfShape <value = float[1] {0.5}> (ws)
      w2 = Mul(w, s)
      y = Conv(x, w2, b2) })");
}

TEST(FuseConvAddMul, KeepsWeightsThatAreAGraphInput) {
  expectUnchanged(kPass, R"(main (float[1,2,3,3] x, float[2,2,1,1] w) => (float[1,2,3,3] y)
      <float[1,2,1,1] c = {2, 0.5}> {
      t = Conv(x, w)
      y = Mul(t, c) })",
                  "Conv weight is not constant");
}

TEST(FuseConvAddMul, ComputedWeightsConverge) {
  expectConverges(kPass, kComputedWeights);
}

TEST(FuseConvAddMul, ComputedWeightsKeepTheOutputs) {
  expectSameOutputs(kPass, R"(main (float[2,2,4,4] x) => (float[2,3,3,3] y)
      <int64[4] ws = {3, 2, 2, 2},
       float[3,2,2,2] r = {1, -1, 0.5, 2, 0.25, -3, 1.5, 0, -2, 1, 1, 0.5, -0.5, 2, 3, -1, 0, 1, -1, 2, 0.5, 0.5, -2, 1},
       float[3] b = {0.1, -0.2, 0.3}, float[3,1,1] s = {1.3, -0.7, 0.4}, float[1,3,1,1] c = {0.2, -0.1, 0.05},
       float[3,1,1] d = {3, 0.3, -7}> {
      k = ConstantOfShape <value = float[1] {0.25}> (ws)
      w = Add(k, r)
      t = Conv(x, w, b)
      u = Mul(t, s)
      v = Sub(u, c)
      y = Div(v, d) })");
}

TEST(FuseConvAddMul, Converges) {
  expectConverges(kPass, model("Mul(t, c)", "float[2,1,1] c = {2, 0.5}"));
}

TEST(FuseConvAddMul, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[2,2,4,4] x) => (float[2,3,3,3] y)
      <float[3,2,2,2] w = {1, -1, 0.5, 2, 0.25, -3, 1.5, 0, -2, 1, 1, 0.5, -0.5, 2, 3, -1, 0, 1, -1, 2, 0.5, 0.5, -2, 1},
       float[3] b = {0.1, -0.2, 0.3}, float[3,1,1] s = {1.3, -0.7, 0.4}, float[1,3,1,1] c = {0.2, -0.1, 0.05},
       float[3,1,1] d = {3, 0.3, -7}> {
      t = Conv(x, w, b)
      u = Mul(t, s)
      v = Sub(u, c)
      y = Div(v, d) })");
}

}  // namespace
}  // namespace passlab::testing
