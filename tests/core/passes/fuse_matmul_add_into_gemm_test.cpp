// fuse_matmul_add_into_gemm: 2-D MatMul + Add -> Gemm (either operand order,
// broadcast C), the batched case and other reasons it stays, numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_matmul_add_into_gemm";

TEST(FuseMatmulAddIntoGemm, MatMulPlusBias) {
  expectRewrite(kPass,
                R"(main (float[3,4] a, float[4,2] b) => (float[3,2] y) <float[2] c = {1, -1}> {
      t = MatMul(a, b)
      y = Add(t, c) })",
                R"(main (float[3,4] a, float[4,2] b) => (float[3,2] y) <float[2] c = {1, -1}> {
      y = Gemm(a, b, c) })");
}

TEST(FuseMatmulAddIntoGemm, BiasFirstAndAColumnBias) {
  expectRewrite(kPass,
                R"(main (float[3,4] a, float[4,2] b) => (float[3,2] y) <float[3,1] c = {1, 2, 3}> {
      t = MatMul(a, b)
      y = Add(c, t) })",
                R"(main (float[3,4] a, float[4,2] b) => (float[3,2] y) <float[3,1] c = {1, 2, 3}> {
      y = Gemm(a, b, c) })");
}

TEST(FuseMatmulAddIntoGemm, ANonConstantBiasIsFine) {
  expectRewrite(kPass, R"(main (float[3,4] a, float[4,2] b, float[3,2] c) => (float[3,2] y) {
      t = MatMul(a, b)
      y = Add(t, c) })",
                R"(main (float[3,4] a, float[4,2] b, float[3,2] c) => (float[3,2] y) {
      y = Gemm(a, b, c) })");
}

TEST(FuseMatmulAddIntoGemm, KeepsABatchedMatMul) {
  expectUnchanged(
      kPass, R"(main (float[2,3,4] a, float[4,2] b) => (float[2,3,2] y) <float[2] c = {1, -1}> {
      t = MatMul(a, b)
      y = Add(t, c) })",
      "batched MatMul (A rank 3, B rank 2)");
}

TEST(FuseMatmulAddIntoGemm, KeepsABiasThatWidensTheResult) {
  expectUnchanged(kPass, R"(main (float[3,4] a, float[4,2] b, float[5,3,2] c) => (float[5,3,2] y) {
      t = MatMul(a, b)
      y = Add(t, c) })",
                  "does not broadcast to the MatMul result");
}

TEST(FuseMatmulAddIntoGemm, KeepsAMatMulOutputWithASecondConsumer) {
  expectUnchanged(
      kPass,
      R"(main (float[3,4] a, float[4,2] b) => (float[3,2] y, float[3,2] z) <float[2] c = {1, -1}> {
      t = MatMul(a, b)
      y = Add(t, c)
      z = Relu(t) })",
      "MatMul output 't' has 2 consumers");
}

TEST(FuseMatmulAddIntoGemm, KeepsATypeGemmDoesNotTake) {
  expectUnchanged(kPass,
                  R"(main (int32[3,4] a, int32[4,2] b) => (int32[3,2] y) <int32[2] c = {1, -1}> {
      t = MatMul(a, b)
      y = Add(t, c) })",
                  "Gemm does not take int32");
}

TEST(FuseMatmulAddIntoGemm, SkippedBeforeOpset7) {
  expectSkippedForOpset(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[3,4] a, float[4,2] b, float[3,2] c) => (float[3,2] y) {
      t = MatMul(a, b)
      y = Add(t, c) })");
}

TEST(FuseMatmulAddIntoGemm, Converges) {
  expectConverges(kPass,
                  R"(main (float[3,4] a, float[4,2] b) => (float[3,2] y) <float[2] c = {1, -1}> {
      t = MatMul(a, b)
      y = Add(t, c) })");
}

TEST(FuseMatmulAddIntoGemm, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[5,4] a) => (float[5,3] y)
      <float[4,3] b = {1, -2, 0.5, 3, 0.25, -1, 2, 1.5, -0.5, 0, 1, -3}, float[3] c = {0.1, -0.2, 0.3}> {
      t = MatMul(a, b)
      y = Add(c, t) })");
}

}  // namespace
}  // namespace passlab::testing
