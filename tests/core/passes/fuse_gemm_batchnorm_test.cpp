// fuse_gemm_batchnorm: BatchNormalization folded into Gemm (with and without
// transB, with C) and into a 2-D MatMul; the reasons it stays; numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_gemm_batchnorm";

// s = scale / sqrt(var + 1) = {1, 0.5}, shift = B - mean * s = {-0.5, -1.5}
const char* kStats =
    R"(float[2] s = {2, 0.5}, float[2] bb = {0.5, 0}, float[2] m = {1, 3}, float[2] v = {3, 0})";

std::string model(const std::string& mm, const std::string& inits,
                  const std::string& bnAttrs = "epsilon = 1.0") {
  return R"(main (float[3,2] a) => (float[3,2] y) <)" + inits + ", " + kStats + R"(> {
      t = )" +
         mm + R"(
      y = BatchNormalization <)" +
         bnAttrs + R"(> (t, s, bb, m, v) })";
}

TEST(FuseGemmBatchnorm, GemmScalesColumnsAndFoldsC) {
  // B' = B with column n scaled by s[n]; C' = beta * C * s + shift
  expectRewrite(
      kPass, model("Gemm(a, b, c)", "float[2,2] b = {1, 2, 3, 4}, float[2] c = {1, -1}"),
      R"(main (float[3,2] a) => (float[3,2] y) <float[2,2] b2 = {1, 1, 3, 2}, float[2] c2 = {0.5, -2}> {
      y = Gemm <beta = 1.0> (a, b2, c2) })");
}

TEST(FuseGemmBatchnorm, GemmWithTransBScalesRows) {
  expectRewrite(
      kPass,
      model("Gemm <transB = 1, beta = 2.0> (a, b, c)",
            "float[2,2] b = {1, 2, 3, 4}, float[2] c = {1, -1}"),
      R"(main (float[3,2] a) => (float[3,2] y) <float[2,2] b2 = {1, 2, 1.5, 2}, float[2] c2 = {1.5, -2.5}> {
      y = Gemm <beta = 1.0, transB = 1> (a, b2, c2) })");
}

TEST(FuseGemmBatchnorm, TwoDimensionalMatMulBecomesGemm) {
  expectRewrite(
      kPass, model("MatMul(a, b)", "float[2,2] b = {1, 2, 3, 4}"),
      R"(main (float[3,2] a) => (float[3,2] y) <float[2,2] b2 = {1, 1, 3, 2}, float[2] c2 = {-0.5, -1.5}> {
      y = Gemm(a, b2, c2) })");
}

TEST(FuseGemmBatchnorm, KeepsABatchedMatMul) {
  expectUnchanged(
      kPass,
      R"(main (float[4,3,2] a) => (float[4,3,2] y) <float[2,2] b = {1, 2, 3, 4}, float[3] s = {1, 1, 1}, float[3] bb = {0, 0, 0}, float[3] m = {0, 0, 0}, float[3] v = {1, 1, 1}> {
      t = MatMul(a, b)
      y = BatchNormalization(t, s, bb, m, v) })",
      "is not a 2-D tensor of known shape");
}

TEST(FuseGemmBatchnorm, KeepsAGemmWithANonConstantC) {
  expectUnchanged(
      kPass,
      R"(main (float[3,2] a, float[2] c) => (float[3,2] y) <float[2,2] b = {1, 2, 3, 4}, )" +
          std::string(kStats) + R"(> {
      t = Gemm(a, b, c)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })",
      "Gemm C is not a float constant");
}

TEST(FuseGemmBatchnorm, KeepsAGemmWithANonConstantB) {
  expectUnchanged(
      kPass,
      R"(main (float[3,2] a, float[2,2] b) => (float[3,2] y) <)" + std::string(kStats) + R"(> {
      t = Gemm(a, b)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v) })",
      "Gemm B is not constant");
}

TEST(FuseGemmBatchnorm, KeepsAGemmOutputWithASecondConsumer) {
  expectUnchanged(
      kPass,
      R"(main (float[3,2] a) => (float[3,2] y, float[3,2] z) <float[2,2] b = {1, 2, 3, 4}, )" +
          std::string(kStats) + R"(> {
      t = Gemm(a, b)
      y = BatchNormalization <epsilon = 1.0> (t, s, bb, m, v)
      z = Relu(t) })",
      "Gemm output 't' has 2 consumers");
}

TEST(FuseGemmBatchnorm, KeepsABatchNormInTrainingMode) {
  expectUnchanged(kPass, model("MatMul(a, b)", "float[2,2] b = {1, 2, 3, 4}", "training_mode = 1"),
                  "BatchNormalization is in training mode");
}

TEST(FuseGemmBatchnorm, SkippedBeforeOpset7) {
  expectSkippedForOpset(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[3,2] a) => (float[3,2] y) {
      b = Constant <value = float[2,2] {1, 2, 3, 4}> ()
      c = Constant <value = float[2] {1, -1}> ()
      t = Gemm <broadcast = 1> (a, b, c)
      y = Relu(t) })");
}

TEST(FuseGemmBatchnorm, Converges) {
  expectConverges(kPass,
                  model("Gemm(a, b, c)", "float[2,2] b = {1, 2, 3, 4}, float[2] c = {1, -1}"));
}

TEST(FuseGemmBatchnorm, OutputsStayTheSame) {
  // alpha, beta, transA and a full [M, N] C.
  expectSameOutputs(kPass, R"(main (float[2,3] a) => (float[3,2] y)
      <float[2,2] b = {1.5, -2, 0.25, 3}, float[3,2] c = {1, -1, 0.5, 2, -0.25, 0},
       float[2] s = {1.3, -0.7}, float[2] bb = {0.2, -0.1}, float[2] m = {0.3, -0.6}, float[2] v = {0.8, 1.7}> {
      t = Gemm <alpha = 0.5, beta = 2.0, transA = 1> (a, b, c)
      y = BatchNormalization <epsilon = 0.001> (t, s, bb, m, v) })");
  expectSameOutputs(kPass, R"(main (float[3,4] a) => (float[3,2] y)
      <float[4,2] b = {1.5, -2, 0.25, 3, 1, -1, 0.5, 0.5},
       float[2] s = {1.3, -0.7}, float[2] bb = {0.2, -0.1}, float[2] m = {0.3, -0.6}, float[2] v = {0.8, 1.7}> {
      t = MatMul(a, b)
      y = BatchNormalization(t, s, bb, m, v) })");
}

}  // namespace
}  // namespace passlab::testing
