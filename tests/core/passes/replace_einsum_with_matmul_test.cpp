// replace_einsum_with_matmul: matrix-product Einsums become MatMul (batched,
// "...", 1-D operands, transposed operands: a Transpose node or a constant
// transposed in place); the equations that stay, with reasons; numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "replace_einsum_with_matmul";

TEST(ReplaceEinsumWithMatmul, BatchedProduct) {
  expectRewrite(
      kPass, R"(main (float[2,3,4] a, float[2,4,5] b) => (float[2,3,5] y) {
      y = Einsum <equation = "bij,bjk->bik"> (a, b) })",
      R"(main (float[2,3,4] a, float[2,4,5] b) => (float[2,3,5] y) { y = MatMul(a, b) })");
}

TEST(ReplaceEinsumWithMatmul, EllipsisAndSpaces) {
  expectRewrite(
      kPass, R"(main (float[2,3,4] a, float[2,4,5] b) => (float[2,3,5] y) {
      y = Einsum <equation = "...ij, ...jk -> ...ik"> (a, b) })",
      R"(main (float[2,3,4] a, float[2,4,5] b) => (float[2,3,5] y) { y = MatMul(a, b) })");
}

TEST(ReplaceEinsumWithMatmul, MatrixTimesVector) {
  expectRewrite(kPass, R"(main (float[3,4] a, float[4] b) => (float[3] y) {
      y = Einsum <equation = "ij,j->i"> (a, b) })",
                R"(main (float[3,4] a, float[4] b) => (float[3] y) { y = MatMul(a, b) })");
  expectRewrite(kPass, R"(main (float[4] a, float[4,5] b) => (float[5] y) {
      y = Einsum <equation = "j,jk->k"> (a, b) })",
                R"(main (float[4] a, float[4,5] b) => (float[5] y) { y = MatMul(a, b) })");
}

TEST(ReplaceEinsumWithMatmul, TransposedOperandGetsATranspose) {
  expectRewrite(kPass, R"(main (float[2,3,4] a, float[2,5,4] b) => (float[2,3,5] y) {
      y = Einsum <equation = "bij,bkj->bik"> (a, b) })",
                R"(main (float[2,3,4] a, float[2,5,4] b) => (float[2,3,5] y) {
      t = Transpose <perm = [0, 2, 1]> (b)
      y = MatMul(a, t) })");
}

TEST(ReplaceEinsumWithMatmul, TransposedConstantIsFolded) {
  expectRewrite(kPass,
                R"(main (float[2,3] b) => (float[3,3] y) <float[2,3] a = {1, 2, 3, 4, 5, 6}> {
      y = Einsum <equation = "ji,jk->ik"> (b, a) })",
                R"(main (float[2,3] b) => (float[3,3] y) <float[2,3] a = {1, 2, 3, 4, 5, 6}> {
      t = Transpose <perm = [1, 0]> (b)
      y = MatMul(t, a) })");
  expectRewrite(kPass,
                R"(main (float[3,2] x) => (float[3,3] y) <float[3,2] w = {1, 2, 3, 4, 5, 6}> {
      y = Einsum <equation = "ij,kj->ik"> (x, w) })",
                R"(main (float[3,2] x) => (float[3,3] y) <float[2,3] wt = {1, 3, 5, 2, 4, 6}> {
      y = MatMul(x, wt) })");
}

TEST(ReplaceEinsumWithMatmul, KeepsATransposedOutput) {
  expectUnchanged(kPass, R"(main (float[3,4] a, float[4,5] b) => (float[5,3] y) {
      y = Einsum <equation = "ij,jk->ki"> (a, b) })",
                  "the output is not [batch, i, k] (a transposed output)");
}

TEST(ReplaceEinsumWithMatmul, KeepsATrace) {
  expectUnchanged(kPass, R"(main (float[3,3] a, float[3,5] b) => (float[5] y) {
      y = Einsum <equation = "ii,ik->k"> (a, b) })",
                  "a letter repeats within a term");
}

TEST(ReplaceEinsumWithMatmul, KeepsAnImplicitOutput) {
  expectUnchanged(kPass, R"(main (float[3,4] a, float[4,5] b) => (float[3,5] y) {
      y = Einsum <equation = "ij,jk"> (a, b) })",
                  "the equation has no explicit output");
}

TEST(ReplaceEinsumWithMatmul, KeepsThreeOperands) {
  expectUnchanged(kPass, R"(main (float[3,4] a, float[4,5] b, float[5,2] c) => (float[3,2] y) {
      y = Einsum <equation = "ij,jk,kl->il"> (a, b, c) })",
                  "Einsum does not have two inputs");
}

TEST(ReplaceEinsumWithMatmul, KeepsABatchLetterOfOneOperand) {
  expectUnchanged(kPass, R"(main (float[2,3,4] a, float[4,5] b) => (float[2,3,5] y) {
      y = Einsum <equation = "bij,jk->bik"> (a, b) })",
                  "an operand has more than two non-batch indices");
}

TEST(ReplaceEinsumWithMatmul, SkippedBeforeOpset12) {
  expectSkippedForOpset(kPass, R"(<ir_version: 6, opset_import: ["" : 11]>
      main (float[3,4] a, float[4,5] b) => (float[3,5] y) { y = MatMul(a, b) })");
}

TEST(ReplaceEinsumWithMatmul, Converges) {
  expectConverges(kPass, R"(main (float[2,3,4] a, float[2,5,4] b) => (float[2,3,5] y) {
      y = Einsum <equation = "bij,bkj->bik"> (a, b) })");
}

TEST(ReplaceEinsumWithMatmul, OutputsStayTheSame) {
  expectSameOutputs(
      kPass,
      R"(main (float[2,4,3] a, float[2,5,4] b, float[3] v) => (float[2,3,5] y, float[2,4] z, float[2,4,2] q)
      <float[2,3] w = {1, -2, 0.5, 3, 0.25, -1}> {
      y = Einsum <equation = "bji,bkj->bik"> (a, b)
      z = Einsum <equation = "...j,j->..."> (a, v)
      q = Einsum <equation = "...ij,...kj->...ik"> (a, w) })");
}

}  // namespace
}  // namespace passlab::testing
