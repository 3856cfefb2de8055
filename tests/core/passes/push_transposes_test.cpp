// push_transposes: a Transpose pushed through elementwise ops and keepdims
// reductions to the next Transpose (cancelling or composing, constants
// permuted), pulled out of binary ops and Concats, absorbed by reductions;
// reasons; numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "push_transposes";

TEST(PushTransposes, ThroughAChainToItsInverse) {
  // c is broadcast to [1, 2, 3] and permuted back by the inverse of [2, 0, 1].
  expectRewrite(
      kPass, R"(main (float[2,3,4] x) => (float[2,3,4] y) <float[2,3] c = {1, 2, 3, 4, 5, 6}> {
      t = Transpose <perm = [2, 0, 1]> (x)
      a = Add(t, c)
      r = Relu(a)
      y = Transpose <perm = [1, 2, 0]> (r) })",
      R"(main (float[2,3,4] x) => (float[2,3,4] y) <float[2,3,1] c2 = {1, 2, 3, 4, 5, 6}> {
      a = Add(x, c2)
      y = Relu(a) })");
}

TEST(PushTransposes, ThroughAChainToAComposedTranspose) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[3,4,2] y) <float s = {2}> {
      t = Transpose <perm = [1, 0, 2]> (x)
      r = Mul(t, s)
      y = Transpose <perm = [0, 2, 1]> (r) })",
                R"(main (float[2,3,4] x) => (float[3,4,2] y) <float s = {2}> {
      r = Mul(x, s)
      y = Transpose <perm = [1, 2, 0]> (r) })");
}

TEST(PushTransposes, ThroughAKeepdimsReduction) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[2,3,1] y) <int64[1] ax = {1}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      m = ReduceSum(t, ax)
      y = Transpose <perm = [0, 2, 1]> (m) })",
                R"(main (float[2,3,4] x) => (float[2,3,1] y) <int64[1] ax2 = {2}> {
      y = ReduceSum(x, ax2) })");
}

TEST(PushTransposes, SamePermOnBothOperandsMovesAfterTheOp) {
  expectRewrite(kPass, R"(main (float[2,3] a, float[2,3] b) => (float[3,2] y) {
      ta = Transpose <perm = [1, 0]> (a)
      tb = Transpose <perm = [1, 0]> (b)
      y = Mul(ta, tb) })",
                R"(main (float[2,3] a, float[2,3] b) => (float[3,2] y) {
      s = Mul(a, b)
      y = Transpose <perm = [1, 0]> (s) })");
}

TEST(PushTransposes, ReductionAbsorbsATransposeKeepingAxisOrder) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[2] y) {
      t = Transpose <perm = [0, 2, 1]> (x)
      y = ReduceMean <axes = [1, 2], keepdims = 0> (t) })",
                R"(main (float[2,3,4] x) => (float[2] y) {
      y = ReduceMean <axes = [1, 2], keepdims = 0> (x) })");
}

TEST(PushTransposes, KeepsAReductionWhoseKeptAxesWouldBeReordered) {
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (float[3,2] y) {
      t = Transpose <perm = [1, 0, 2]> (x)
      y = ReduceMean <axes = [2], keepdims = 0> (t) })",
                  "the Transpose reorders the axes the reduction keeps");
}

TEST(PushTransposes, KeepsAChainThroughAMatMul) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[2,2] w = {1, 2, 3, 4}> {
      t = Transpose <perm = [1, 0]> (x)
      m = MatMul(t, w)
      y = Transpose <perm = [1, 0]> (m) })",
                  "which a Transpose does not pass");
}

TEST(PushTransposes, KeepsAChainWithANonConstantSideOperand) {
  expectUnchanged(kPass, R"(main (float[2,3] x, float[3,2] z) => (float[2,3] y) {
      t = Transpose <perm = [1, 0]> (x)
      a = Add(t, z)
      y = Transpose <perm = [1, 0]> (a) })",
                  "Add has a non-constant side operand");
}

TEST(PushTransposes, KeepsAChainWithASecondConsumer) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y, float[3,2] z) {
      t = Transpose <perm = [1, 0]> (x)
      r = Relu(t)
      y = Transpose <perm = [1, 0]> (r)
      z = Neg(r) })",
                  "on the way to another Transpose: 'r' has 2 consumers");
}

TEST(PushTransposes, KeepsASideOperandOfHigherRank) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,2,3] y) <float[2,1,1] c = {1, 2}> {
      t = Transpose <perm = [1, 0]> (x)
      a = Add(t, c)
      y = Transpose <perm = [0, 2, 1]> (a) })",
                  "a side operand has a higher rank than x");
}

TEST(PushTransposes, KeepsBinaryOpsOfDifferentPerms) {
  expectUnchanged(kPass, R"(main (float[2,3,4] a, float[4,3,2] b) => (float[3,2,4] y) {
      ta = Transpose <perm = [1, 0, 2]> (a)
      tb = Transpose <perm = [1, 2, 0]> (b)
      y = Add(ta, tb) })",
                  "the Transposes have different perms");
}

TEST(PushTransposes, KeepsALegacyBroadcastInTheChain) {
  expectUnchanged(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[2,3,4] x) => (float[2,3,4] y) {
      c = Constant <value = float[2] {1, 2}> ()
      t = Transpose <perm = [2, 0, 1]> (x)
      a = Add <broadcast = 1, axis = 1> (t, c)
      y = Transpose <perm = [1, 2, 0]> (a) })",
                  "which a Transpose does not pass");
}

// GPT-2's key cache: the past keys transposed for the attention MatMul,
// joined with the new key (a Reshape whose transpose moves only a dim of 1),
// and transposed back for `present`.
const char* kKeyCache =
    R"(main (float[2,3,4] past, float[8] k, float[2,5,4] w) => (float[2,4,4] y, float[2,5,4] s)
      <int64[3] shape = {2, 4, 1}> {
      pt = Transpose <perm = [0, 2, 1]> (past)
      kn = Reshape(k, shape)
      c = Concat <axis = -1> (pt, kn)
      y = Transpose <perm = [0, 2, 1]> (c)
      s = MatMul(w, c) })";

// The Concat moves before the Transposes: the one back cancels, the MatMul
// reads one Transpose of the result.
TEST(PushTransposes, ThroughAConcatTransposedBack) {
  expectRewrite(
      kPass, kKeyCache,
      R"(main (float[2,3,4] past, float[8] k, float[2,5,4] w) => (float[2,4,4] y, float[2,5,4] s)
      <int64[3] shape2 = {2, 1, 4}> {
      kn = Reshape(k, shape2)
      y = Concat <axis = 1> (past, kn)
      c = Transpose <perm = [0, 2, 1]> (y)
      s = MatMul(w, c) })");
}

TEST(PushTransposes, ThroughAConcatOfTransposesAndAConstant) {
  expectRewrite(kPass, R"(main (float[2,3] a, float[2,3] b) => (float[2,7] y)
      <float[1,2] c = {1, 2}> {
      ta = Transpose <perm = [1, 0]> (a)
      tb = Transpose <perm = [1, 0]> (b)
      t = Concat <axis = 0> (ta, c, tb)
      y = Transpose <perm = [1, 0]> (t) })",
                R"(main (float[2,3] a, float[2,3] b) => (float[2,7] y)
      <float[2,1] c2 = {1, 2}> {
      y = Concat <axis = 1> (a, c2, b) })");
}

TEST(PushTransposes, KeepsAConcatNobodyTransposesBack) {
  expectUnchanged(kPass, R"(main (float[2,3] a, float[2,3] b) => (float[6,2] y) {
      ta = Transpose <perm = [1, 0]> (a)
      tb = Transpose <perm = [1, 0]> (b)
      y = Concat <axis = 0> (ta, tb) })",
                  "no reader transposes the result back");
}

TEST(PushTransposes, KeepsAConcatWhoseTransposedInputHasAnotherReader) {
  expectUnchanged(kPass, R"(main (float[2,3] a, float[2,3] b) => (float[2,6] y, float[3,2] z) {
      ta = Transpose <perm = [1, 0]> (a)
      tb = Transpose <perm = [1, 0]> (b)
      t = Concat <axis = 0> (ta, tb)
      y = Transpose <perm = [1, 0]> (t)
      z = Neg(ta) })",
                  "input 0 'ta' has 2 consumers");
}

TEST(PushTransposes, KeepsAConcatWithAReshapeThatWouldMoveRealDims) {
  expectUnchanged(kPass,
                  R"(main (float[2,3] a, float[6] k) => (float[2,6] y) <int64[2] s = {3, 2}> {
      ta = Transpose <perm = [1, 0]> (a)
      kn = Reshape(k, s)
      t = Concat <axis = 0> (ta, kn)
      y = Transpose <perm = [1, 0]> (t) })",
                  "Reshape input 1 would have to move dims that are not 1");
}

TEST(PushTransposes, KeepsAConcatOfDifferentlyTransposedInputs) {
  expectUnchanged(kPass, R"(main (float[2,3,4] a, float[4,2,3] b) => (float[2,8,3] y) {
      ta = Transpose <perm = [0, 2, 1]> (a)
      tb = Transpose <perm = [1, 0, 2]> (b)
      t = Concat <axis = 1> (ta, tb)
      y = Transpose <perm = [0, 2, 1]> (t) })",
                  "the input Transposes have different perms");
}

TEST(PushTransposes, ConcatConverges) {
  expectConverges(kPass, kKeyCache);
}

TEST(PushTransposes, ConcatOutputsStayTheSame) {
  expectSameOutputs(
      kPass,
      R"(main (float[2,3,4] past, float[8] k, float[2,5,4] w, float[2,3] a, float[2,3] b) => (float[2,4,4] y, float[2,5,4] s, float[2,7] z)
      <int64[3] shape = {2, 4, 1}, float[1,2] c = {1, 2}> {
      pt = Transpose <perm = [0, 2, 1]> (past)
      kn = Reshape(k, shape)
      cc = Concat <axis = -1> (pt, kn)
      y = Transpose <perm = [0, 2, 1]> (cc)
      s = MatMul(w, cc)
      ta = Transpose <perm = [1, 0]> (a)
      tb = Transpose <perm = [1, 0]> (b)
      t = Concat <axis = 0> (ta, c, tb)
      z = Transpose <perm = [1, 0]> (t) })");
}

TEST(PushTransposes, Converges) {
  expectConverges(kPass,
                  R"(main (float[2,3,4] x) => (float[3,4,2] y) <float[2,3] c = {1, 2, 3, 4, 5, 6}> {
      t = Transpose <perm = [1, 0, 2]> (x)
      r = Relu(t)
      u = Transpose <perm = [0, 2, 1]> (r)
      v = Sigmoid(u)
      y = Transpose <perm = [0, 1, 2]> (v) })");
}

TEST(PushTransposes, OutputsStayTheSame) {
  expectSameOutputs(
      kPass,
      R"(main (float[2,3,4] x, float[3,2] a, float[3,2] b) => (float[2,3,4] y, float[2,3] z, float[2,3,1] w, float[2] v)
      <float[2,3] c = {1, -2, 3, 0.5, -1, 2}, float[4,1,1] d = {0.5, 1, -1, 2}, float lo = {-0.5}> {
      t = Transpose <perm = [2, 0, 1]> (x)
      p = Add(t, c)
      q = Mul(d, p)
      r = Clip(q, lo)
      y = Transpose <perm = [1, 2, 0]> (r)
      ta = Transpose <perm = [1, 0]> (a)
      tb = Transpose <perm = [1, 0]> (b)
      z = Sub(ta, tb)
      tx = Transpose <perm = [0, 2, 1]> (x)
      m = ReduceMax <axes = [1]> (tx)
      w = Transpose <perm = [0, 2, 1]> (m)
      tx2 = Transpose <perm = [0, 2, 1]> (x)
      v = ReduceL2 <axes = [1, 2], keepdims = 0> (tx2) })");
}

}  // namespace
}  // namespace passlab::testing
