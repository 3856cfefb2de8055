// replace_conv1x1_and_gemm: a 1x1 Conv on 1x1 pixels before a Flatten becomes
// Flatten + Gemm, and a channels-last MatMul between Transposes becomes a
// 1x1 Conv, each only where the cost model finds it cheaper; reasons; numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "replace_conv1x1_and_gemm";

TEST(ReplaceConv1x1AndGemm, Conv1x1OnOnePixelBecomesGemm) {
  // C = 2 < M = 4: flattening x moves fewer bytes than flattening the result.
  expectRewrite(kPass, R"(main (float[2,2,1,1] x) => (float[2,4] y)
      <float[4,2,1,1] w = {1, 2, 3, 4, 5, 6, 7, 8}, float[4] b = {1, 2, 3, 4}> {
      t = Conv(x, w, b)
      y = Flatten(t) })",
                R"(main (float[2,2,1,1] x) => (float[2,4] y)
      <float[4,2] w2 = {1, 2, 3, 4, 5, 6, 7, 8}, float[4] b = {1, 2, 3, 4}> {
      u = Flatten <axis = 1> (x)
      y = Gemm <transB = 1> (u, w2, b) })");
}

TEST(ReplaceConv1x1AndGemm, ChannelsLastMatMulBecomesConv1x1) {
  expectRewrite(kPass, R"(main (float[1,2,3,3] x) => (float[1,4,3,3] y)
      <float[2,4] v = {1, 2, 3, 4, 5, 6, 7, 8}, float[4] b = {1, 2, 3, 4}> {
      t = Transpose <perm = [0, 2, 3, 1]> (x)
      u = MatMul(t, v)
      a = Add(u, b)
      y = Transpose <perm = [0, 3, 1, 2]> (a) })",
                R"(main (float[1,2,3,3] x) => (float[1,4,3,3] y)
      <float[4,2,1,1] w = {1, 5, 2, 6, 3, 7, 4, 8}, float[4] b = {1, 2, 3, 4}> {
      y = Conv <kernel_shape = [1, 1]> (x, w, b) })");
}

TEST(ReplaceConv1x1AndGemm, ChannelsLastMatMulWithoutBias) {
  expectRewrite(kPass, R"(main (float[1,2,3,3] x) => (float[1,4,3,3] y)
      <float[2,4] v = {1, 2, 3, 4, 5, 6, 7, 8}> {
      t = Transpose <perm = [0, 2, 3, 1]> (x)
      u = MatMul(t, v)
      y = Transpose <perm = [0, 3, 1, 2]> (u) })",
                R"(main (float[1,2,3,3] x) => (float[1,4,3,3] y)
      <float[4,2,1,1] w = {1, 5, 2, 6, 3, 7, 4, 8}> {
      y = Conv <kernel_shape = [1, 1]> (x, w) })");
}

TEST(ReplaceConv1x1AndGemm, KeepsAConvWhereGemmMovesMoreBytes) {
  expectUnchanged(kPass, R"(main (float[2,4,1,1] x) => (float[2,2] y)
      <float[2,4,1,1] w = {1, 2, 3, 4, 5, 6, 7, 8}> {
      t = Conv(x, w)
      y = Flatten(t) })",
                  "the cost model does not find it cheaper");
}

TEST(ReplaceConv1x1AndGemm, KeepsAConvOnALargerImage) {
  expectUnchanged(kPass, R"(main (float[2,2,2,2] x) => (float[2,16] y)
      <float[4,2,1,1] w = {1, 2, 3, 4, 5, 6, 7, 8}> {
      t = Conv(x, w)
      y = Flatten(t) })",
                  "x is not 1x1 in its spatial dims");
}

TEST(ReplaceConv1x1AndGemm, KeepsAConvWithoutBiasBeforeOpset11) {
  expectUnchanged(kPass, R"(<ir_version: 4, opset_import: ["" : 9]>
      main (float[2,2,1,1] x) => (float[2,4] y)
      <float[4,2,1,1] w = {1, 2, 3, 4, 5, 6, 7, 8}> {
      t = Conv(x, w)
      y = Flatten(t) })",
                  "the Conv has no bias and Gemm needs a C input before opset 11");
}

TEST(ReplaceConv1x1AndGemm, KeepsANonConstantMatMulWeight) {
  expectUnchanged(kPass, R"(main (float[1,2,3,3] x, float[2,4] v) => (float[1,4,3,3] y) {
      t = Transpose <perm = [0, 2, 3, 1]> (x)
      u = MatMul(t, v)
      y = Transpose <perm = [0, 3, 1, 2]> (u) })",
                  "the MatMul weight is not a 2-D float constant");
}

TEST(ReplaceConv1x1AndGemm, KeepsATransposeBackToAnotherLayout) {
  expectUnchanged(
      kPass,
      R"(main (float[1,2,3,3] x) => (float[1,3,4,3] y) <float[2,4] v = {1, 2, 3, 4, 5, 6, 7, 8}> {
      t = Transpose <perm = [0, 2, 3, 1]> (x)
      u = MatMul(t, v)
      y = Transpose <perm = [0, 1, 3, 2]> (u) })",
      "the Transpose is not NHWC -> NCHW");
}

TEST(ReplaceConv1x1AndGemm, SkippedBeforeOpset7) {
  expectSkippedForOpset(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[2,2,1,1] x) => (float[2,2,1,1] y) { y = Relu(x) })");
}

TEST(ReplaceConv1x1AndGemm, Converges) {
  expectConverges(kPass, R"(main (float[2,2,1,1] x) => (float[2,4] y)
      <float[4,2,1,1] w = {1, 2, 3, 4, 5, 6, 7, 8}, float[4] b = {1, 2, 3, 4}> {
      t = Conv(x, w, b)
      y = Flatten(t) })");
}

TEST(ReplaceConv1x1AndGemm, OutputsStayTheSame) {
  expectSameOutputs(kPass,
                    R"(main (float[3,2,1,1] x, float[2,3,4,5] z) => (float[3,4] y, float[2,4,4,5] q)
      <float[4,2,1,1] w = {1, -2, 0.5, 3, 0.25, -1, 2, 1.5}, float[4] b = {0.1, -0.2, 0.3, -0.4},
       float[3,4] v = {1, -2, 0.5, 3, 0.25, -1, 2, 1.5, -0.5, 0, 1, -3}, float[1,1,1,4] c = {1, 2, 3, 4}> {
      t = Conv(x, w, b)
      y = Flatten(t)
      tz = Transpose <perm = [0, 2, 3, 1]> (z)
      u = MatMul(tz, v)
      a = Add(c, u)
      q = Transpose <perm = [0, 3, 1, 2]> (a) })");
}

}  // namespace
}  // namespace passlab::testing
