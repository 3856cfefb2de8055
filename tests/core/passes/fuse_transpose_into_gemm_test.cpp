// fuse_transpose_into_gemm: 2-D Transposes folded into Gemm's transA/transB
// and a 2-D MatMul becoming a Gemm; the reasons they stay; numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_transpose_into_gemm";

TEST(FuseTransposeIntoGemm, TransposedAFlipsTransA) {
  expectRewrite(kPass,
                R"(main (float[4,3] a, float[4,2] b) => (float[3,2] y) <float[2] c = {1, -1}> {
      t = Transpose <perm = [1, 0]> (a)
      y = Gemm(t, b, c) })",
                R"(main (float[4,3] a, float[4,2] b) => (float[3,2] y) <float[2] c = {1, -1}> {
      y = Gemm <transA = 1> (a, b, c) })");
}

TEST(FuseTransposeIntoGemm, BothOperandsAndAnExistingFlag) {
  expectRewrite(kPass, R"(main (float[4,3] a, float[4,2] b) => (float[3,2] y) {
      ta = Transpose(a)
      tb = Transpose <perm = [1, 0]> (b)
      y = Gemm <transB = 1, alpha = 2.0> (ta, tb) })",
                R"(main (float[4,3] a, float[4,2] b) => (float[3,2] y) {
      y = Gemm <alpha = 2.0, transA = 1, transB = 0> (a, b) })");
}

TEST(FuseTransposeIntoGemm, TwoDimensionalMatMulBecomesGemm) {
  expectRewrite(kPass, R"(main (float[4,3] a, float[2,4] b) => (float[3,2] y) {
      ta = Transpose(a)
      tb = Transpose(b)
      y = MatMul(ta, tb) })",
                R"(main (float[4,3] a, float[2,4] b) => (float[3,2] y) {
      y = Gemm <transA = 1, transB = 1> (a, b) })");
}

TEST(FuseTransposeIntoGemm, KeepsAMatMulBeforeOpset11) {
  // Gemm 7-10 needs C: a MatMul cannot become a Gemm without one.
  expectUnchanged(kPass, R"(<ir_version: 4, opset_import: ["" : 9]>
      main (float[4,3] a, float[4,2] b) => (float[3,2] y) {
      ta = Transpose(a)
      y = MatMul(ta, b) })",
                  "Gemm needs a C input before opset 11");
}

TEST(FuseTransposeIntoGemm, KeepsAMatMulOfATransposeOfRank3) {
  expectUnchanged(kPass, R"(main (float[2,4,3] a, float[2,4,2] b) => (float[2,3,2] y) {
      ta = Transpose <perm = [0, 2, 1]> (a)
      y = MatMul(ta, b) })",
                  "the Transpose is not a 2-D transpose");
}

TEST(FuseTransposeIntoGemm, KeepsATransposeWithASecondConsumer) {
  expectUnchanged(kPass, R"(main (float[4,3] a, float[4,2] b) => (float[3,2] y, float[3,4] z) {
      ta = Transpose(a)
      y = Gemm(ta, b)
      z = Relu(ta) })",
                  "Transpose output 'ta' has 2 consumers");
}

TEST(FuseTransposeIntoGemm, KeepsATransposeFeedingBothOperands) {
  expectUnchanged(kPass, R"(main (float[3,3] a) => (float[3,3] y) {
      ta = Transpose(a)
      y = Gemm(ta, ta) })",
                  "the Transpose feeds both operands");
}

TEST(FuseTransposeIntoGemm, KeepsAMatMulOfIntegers) {
  expectUnchanged(kPass, R"(main (int32[4,3] a, int32[4,2] b) => (int32[3,2] y) {
      ta = Transpose(a)
      y = MatMul(ta, b) })",
                  "Gemm does not take int32");
}

TEST(FuseTransposeIntoGemm, Converges) {
  expectConverges(kPass, R"(main (float[4,3] a, float[2,4] b) => (float[3,2] y) {
      ta = Transpose(a)
      tb = Transpose(b)
      y = MatMul(ta, tb) })");
}

TEST(FuseTransposeIntoGemm, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[4,3] a, float[2,4] b) => (float[3,2] y, float[3,2] z)
      <float[2] c = {1, -1}> {
      ta = Transpose(a)
      tb = Transpose(b)
      y = MatMul(ta, tb)
      ta2 = Transpose(a)
      z = Gemm <alpha = 0.5, beta = 2.0, transB = 1> (ta2, b, c) })");
}

}  // namespace
}  // namespace passlab::testing
