// fuse_batchnorm_add_mul: a per-channel Mul/Div/Add/Sub after an inference
// BatchNormalization folded into its scale and B (exact values), operand
// order, chains, reasons, numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_batchnorm_add_mul";

const char* kStats =
    "float[2] s = {1, 2}, float[2] b = {0.5, -1}, float[2] m = {0, 1}, float[2] v = {1, 4}";

// BatchNormalization(x) then `op` with the constant c (declared by `cdecl`).
std::string model(const std::string& op, const std::string& cdecl) {
  return std::string("main (float[1,2,3,3] x) => (float[1,2,3,3] y) <") + kStats + ", " + cdecl +
         R"(> {
      t = BatchNormalization(x, s, b, m, v)
      y = )" +
         op + " }";
}

TEST(FuseBatchnormAddMul, MulScalesScaleAndBias) {
  expectRewrite(kPass, model("Mul(c, t)", "float[2,1,1] c = {2, 0.5}"),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2] s2 = {2, 1}, float[2] b2 = {1, -0.5}, float[2] m = {0, 1}, float[2] v = {1, 4}> {
      y = BatchNormalization(x, s2, b2, m, v) })");
}

TEST(FuseBatchnormAddMul, AddShiftsTheBiasOnly) {
  expectRewrite(kPass, model("Add(t, c)", "float[1,2,1,1] c = {0.25, 3}"),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2] s = {1, 2}, float[2] b2 = {0.75, 2}, float[2] m = {0, 1}, float[2] v = {1, 4}> {
      y = BatchNormalization(x, s, b2, m, v) })");
}

TEST(FuseBatchnormAddMul, SubOfAScalarAndDivByPerChannel) {
  expectRewrite(kPass, model("Sub(t, c)", "float c = {1}"),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2] s = {1, 2}, float[2] b2 = {-0.5, -2}, float[2] m = {0, 1}, float[2] v = {1, 4}> {
      y = BatchNormalization(x, s, b2, m, v) })");
  expectRewrite(kPass, model("Div(t, c)", "float[2,1,1] c = {2, 4}"),
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2] s2 = {0.5, 0.5}, float[2] b2 = {0.25, -0.25}, float[2] m = {0, 1}, float[2] v = {1, 4}> {
      y = BatchNormalization(x, s2, b2, m, v) })");
}

// The densenet / inception_v2 block: BatchNormalization, Mul, Add, Relu.
TEST(FuseBatchnormAddMul, MulThenAddFoldCompletely) {
  expectRewrite(kPass,
                std::string("main (float[1,2,3,3] x) => (float[1,2,3,3] y) <") + kStats +
                    R"(, float[2,1,1] k = {2, 3}, float[2,1,1] a = {1, 1}> {
      t = BatchNormalization(x, s, b, m, v)
      u = Mul(t, k)
      w = Add(u, a)
      y = Relu(w) })",
                R"(main (float[1,2,3,3] x) => (float[1,2,3,3] y)
      <float[2] s2 = {2, 6}, float[2] b2 = {2, -2}, float[2] m = {0, 1}, float[2] v = {1, 4}> {
      t = BatchNormalization(x, s2, b2, m, v)
      y = Relu(t) })");
}

TEST(FuseBatchnormAddMul, KeepsSubFromAConstant) {
  expectUnchanged(kPass, model("Sub(c, t)", "float[2,1,1] c = {0.5, 2}"),
                  "Sub(c, BatchNormalization(x)) is not a per-channel shift");
}

TEST(FuseBatchnormAddMul, KeepsAConstantVaryingAlongASpatialAxis) {
  expectUnchanged(kPass, model("Mul(t, c)", "float[3] c = {0.5, 2, 1}"), "is not per-channel");
}

TEST(FuseBatchnormAddMul, KeepsANonConstantOperand) {
  expectUnchanged(kPass,
                  std::string("main (float[1,2,3,3] x, float[2,1,1] c) => (float[1,2,3,3] y) <") +
                      kStats + R"(> {
      t = BatchNormalization(x, s, b, m, v)
      y = Mul(t, c) })",
                  "'c' is not constant");
}

TEST(FuseBatchnormAddMul, KeepsANonConstantScale) {
  expectUnchanged(kPass, R"(main (float[1,2,3,3] x, float[2] s) => (float[1,2,3,3] y)
      <float[2] b = {0.5, -1}, float[2] m = {0, 1}, float[2] v = {1, 4}, float[2,1,1] c = {2, 3}> {
      t = BatchNormalization(x, s, b, m, v)
      y = Mul(t, c) })",
                  "BatchNormalization scale is not a float constant");
}

TEST(FuseBatchnormAddMul, KeepsADivisionByZero) {
  expectUnchanged(kPass, model("Div(t, c)", "float[2,1,1] c = {2, 0}"), "divides by zero");
}

TEST(FuseBatchnormAddMul, KeepsAnOutputWithASecondConsumer) {
  expectUnchanged(kPass,
                  std::string("main (float[1,2,3,3] x) => (float[1,2,3,3] y, float[1,2,3,3] z) <") +
                      kStats + R"(, float[2,1,1] c = {2, 3}> {
      t = BatchNormalization(x, s, b, m, v)
      y = Mul(t, c)
      z = Relu(t) })",
                  "BatchNormalization output 't' has 2 consumers");
}

TEST(FuseBatchnormAddMul, KeepsATrainingModeBatchNormalization) {
  expectUnchanged(kPass,
                  std::string("main (float[1,2,3,3] x) => (float[1,2,3,3] y) <") + kStats +
                      R"(, float[2,1,1] c = {2, 3}> {
      t = BatchNormalization <training_mode = 1> (x, s, b, m, v)
      y = Mul(t, c) })",
                  "BatchNormalization is in training mode");
}

TEST(FuseBatchnormAddMul, SkipsOpsetsBeforeNumpyBroadcasting) {
  expectSkippedForOpset(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
    main (float[1,2,3,3] x) => (float[1,2,3,3] y) {
      s = Constant <value = float[2] {1, 2}> ()
      t = BatchNormalization <is_test = 1> (x, s, s, s, s)
      y = Mul(t, s) })");
}

TEST(FuseBatchnormAddMul, Converges) {
  expectConverges(kPass, model("Mul(t, c)", "float[2,1,1] c = {2, 0.5}"));
}

TEST(FuseBatchnormAddMul, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[2,3,4,4] x) => (float[2,3,4,4] y)
      <float[3] s = {1.5, -0.5, 0.75}, float[3] b = {0.1, -0.2, 0.3}, float[3] m = {0.2, -0.1, 0.4},
       float[3] v = {0.5, 2, 1.25}, float[3,1,1] k = {1.3, -0.7, 0.4},
       float[1,3,1,1] c = {0.2, -0.1, 0.05}, float[3,1,1] d = {3, 0.3, -7}> {
      t = BatchNormalization <epsilon = 0.001> (x, s, b, m, v)
      u = Mul(k, t)
      w = Sub(u, c)
      z = Div(w, d)
      y = Add(z, c) })");
}

}  // namespace
}  // namespace passlab::testing
