// fuse_shared_input_matmuls: MatMuls of one input by constant weights become
// one MatMul and a Split (sizes as input and as attribute, option min_count),
// the reasons they stay, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_shared_input_matmuls";

const char* kQkv = R"(main (float[2,3] x) => (float[2,2] q, float[2,1] k, float[2,2] v)
      <float[3,2] wq = {1, 2, 3, 4, 5, 6}, float[3,1] wk = {7, 8, 9}, float[3,2] wv = {10, 11, 12, 13, 14, 15}> {
      q = MatMul(x, wq)
      k = MatMul(x, wk)
      v = MatMul(x, wv) })";

TEST(FuseSharedInputMatmuls, ThreeProjectionsBecomeOneMatMulAndASplit) {
  expectRewrite(kPass, kQkv, R"(main (float[2,3] x) => (float[2,2] q, float[2,1] k, float[2,2] v)
      <float[3,5] w = {1, 2, 7, 10, 11, 3, 4, 8, 12, 13, 5, 6, 9, 14, 15}, int64[3] sp = {2, 1, 2}> {
      t = MatMul(x, w)
      q, k, v = Split <axis = -1> (t, sp) })");
}

TEST(FuseSharedInputMatmuls, SplitSizesAsAnAttributeBeforeOpset13) {
  const std::string h = R"(<ir_version: 6, opset_import: ["" : 11]>)";
  expectRewrite(kPass, h + kQkv,
                h + R"(main (float[2,3] x) => (float[2,2] q, float[2,1] k, float[2,2] v)
      <float[3,5] w = {1, 2, 7, 10, 11, 3, 4, 8, 12, 13, 5, 6, 9, 14, 15}> {
      t = MatMul(x, w)
      q, k, v = Split <axis = -1, split = [2, 1, 2]> (t) })");
}

TEST(FuseSharedInputMatmuls, TwoWithTheOption) {
  expectRewrite(kPass, R"(main (float[4,2,3] x) => (float[4,2,2] q, float[4,2,1] k)
      <float[3,2] wq = {1, 2, 3, 4, 5, 6}, float[3,1] wk = {7, 8, 9}> {
      q = MatMul(x, wq)
      k = MatMul(x, wk) })",
                R"(main (float[4,2,3] x) => (float[4,2,2] q, float[4,2,1] k)
      <float[3,3] w = {1, 2, 7, 3, 4, 8, 5, 6, 9}, int64[2] sp = {2, 1}> {
      t = MatMul(x, w)
      q, k = Split <axis = -1> (t, sp) })",
                {{"min_count", "2"}});
}

TEST(FuseSharedInputMatmuls, KeepsTwoByDefault) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,2] q, float[2,1] k)
      <float[3,2] wq = {1, 2, 3, 4, 5, 6}, float[3,1] wk = {7, 8, 9}> {
      q = MatMul(x, wq)
      k = MatMul(x, wk) })",
                  "2 MatMul(s) of this input with constant weights (at least 3 are fused)");
}

TEST(FuseSharedInputMatmuls, ANonConstantWeightDoesNotCount) {
  expectUnchanged(
      kPass, R"(main (float[2,3] x, float[3,2] wv) => (float[2,2] q, float[2,1] k, float[2,2] v)
      <float[3,2] wq = {1, 2, 3, 4, 5, 6}, float[3,1] wk = {7, 8, 9}> {
      q = MatMul(x, wq)
      k = MatMul(x, wk)
      v = MatMul(x, wv) })",
      "2 MatMul(s) of this input");
}

TEST(FuseSharedInputMatmuls, KeepsAVectorInput) {
  expectUnchanged(kPass, R"(main (float[3] x) => (float[2] q, float[1] k, float[2] v)
      <float[3,2] wq = {1, 2, 3, 4, 5, 6}, float[3,1] wk = {7, 8, 9}, float[3,2] wv = {10, 11, 12, 13, 14, 15}> {
      q = MatMul(x, wq)
      k = MatMul(x, wk)
      v = MatMul(x, wv) })",
                  "x is not known to have rank >= 2");
}

TEST(FuseSharedInputMatmuls, KeepsIntegerWeights) {
  expectUnchanged(kPass, R"(main (int32[2,3] x) => (int32[2,2] q, int32[2,1] k, int32[2,2] v)
      <int32[3,2] wq = {1, 2, 3, 4, 5, 6}, int32[3,1] wk = {7, 8, 9}, int32[3,2] wv = {10, 11, 12, 13, 14, 15}> {
      q = MatMul(x, wq)
      k = MatMul(x, wk)
      v = MatMul(x, wv) })",
                  "the weight is not a 2-D float constant");
}

TEST(FuseSharedInputMatmuls, Converges) {
  expectConverges(kPass, kQkv);
}

TEST(FuseSharedInputMatmuls, OutputsStayTheSame) {
  expectSameOutputs(kPass,
                    R"(main (float[2,4,3] x) => (float[2,4,2] q, float[2,4,1] k, float[2,4,2] v)
      <float[3,2] wq = {1, -2, 0.5, 3, 0.25, -1}, float[3,1] wk = {2, 1.5, -0.5}, float[3,2] wv = {0, 1, -3, 2, 0.75, 1}> {
      a = Relu(x)
      q = MatMul(a, wq)
      k0 = MatMul(a, wk)
      k = Neg(k0)
      v = MatMul(a, wv) })");
}

}  // namespace
}  // namespace passlab::testing
