// eliminate_noop_ops: one structural case per rule, negative cases with their
// explanation, opset variants, subgraphs, convergence and numeric equivalence.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "eliminate_noop_ops";
const char* kRelu = R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })";

// ---- meaningless by parameters: one case per rule ----

TEST(EliminateNoopOps, TransposeWithIdentityPerm) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) {
      t = Transpose <perm = [0, 1]> (x)
      y = Relu(t) })",
                kRelu);
}

TEST(EliminateNoopOps, TransposeWithoutPermOfRankOne) {
  expectRewrite(kPass, R"(main (float[3] x) => (float[3] y) { t = Transpose(x)
      y = Relu(t) })",
                R"(main (float[3] x) => (float[3] y) { y = Relu(x) })");
}

TEST(EliminateNoopOps, KeepsTransposeThatMovesAxes) {
  expectUnchanged(kPass,
                  R"(main (float[2,3] x) => (float[3,2] y) { t = Transpose <perm = [1, 0]> (x)
      y = Relu(t) })",
                  "moves axes");
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[3,2] y) { t = Transpose(x)
      y = Relu(t) })",
                  "reversed");
}

TEST(EliminateNoopOps, ReshapeToTheSameShapeAndItsConstantGo) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <int64[2] s = {2, -1}> {
      t = Reshape(x, s)
      y = Relu(t) })",
                kRelu);
}

TEST(EliminateNoopOps, ReshapeToTheSameSymbolicShape) {
  expectRewrite(kPass, R"(main (float[N,3] x) => (float[N,3] y) <int64[2] s = {0, 3}> {
      t = Reshape(x, s)
      y = Relu(t) })",
                R"(main (float[N,3] x) => (float[N,3] y) { y = Relu(x) })");
}

TEST(EliminateNoopOps, KeepsReshapeToAnotherShape) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[3,2] y) <int64[2] s = {3, 2}> {
      t = Reshape(x, s)
      y = Relu(t) })",
                  "is not known to equal the input");
}

TEST(EliminateNoopOps, ExpandFlattenSqueezeUnsqueezeToTheSameShape) {
  expectRewrite(kPass,
                R"(main (float[2,3] x) => (float[2,3] y) <int64[2] s = {1, 3}, int64[0] none = {}> {
      a = Expand(x, s)
      b = Flatten <axis = 1> (a)
      c = Squeeze(b)
      d = Unsqueeze(c, none)
      y = Relu(d) })",
                kRelu);
}

TEST(EliminateNoopOps, PadOfZeros) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <int64[4] p = {0, 0, 0, 0}> {
      t = Pad(x, p)
      y = Relu(t) })",
                kRelu);
}

TEST(EliminateNoopOps, PadOfZerosAsAttributeBeforeOpset11) {
  expectRewrite(kPass, R"(<ir_version: 6, opset_import: ["" : 10]>
    main (float[2,3] x) => (float[2,3] y) { t = Pad <pads = [0, 0, 0, 0], mode = "reflect"> (x)
      y = Relu(t) })",
                R"(<ir_version: 6, opset_import: ["" : 10]>
    main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

TEST(EliminateNoopOps, KeepsRealPadding) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,5] y) <int64[4] p = {0, 1, 0, 1}> {
      t = Pad(x, p)
      y = Relu(t) })",
                  "are not all zero");
}

TEST(EliminateNoopOps, SliceOfTheWholeTensor) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y)
      <int64[1] s = {0}, int64[1] e = {9223372036854775807}, int64[1] a = {-1}> {
      t = Slice(x, s, e, a)
      y = Relu(t) })",
                kRelu);
}

TEST(EliminateNoopOps, SliceOfTheWholeTensorWithAttributesBeforeOpset10) {
  expectRewrite(kPass, R"(<ir_version: 4, opset_import: ["" : 9]>
    main (float[2,3] x) => (float[2,3] y) { t = Slice <starts = [0], ends = [3], axes = [1]> (x)
      y = Relu(t) })",
                R"(<ir_version: 4, opset_import: ["" : 9]>
    main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

TEST(EliminateNoopOps, KeepsSliceOfPart) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3] x) => (float[2,2] y) <int64[1] s = {1}, int64[1] e = {3}, int64[1] a = {1}> {
      t = Slice(x, s, e, a)
      y = Relu(t) })",
      "is sliced [1, 3)");
}

TEST(EliminateNoopOps, SingleInputConcatSingleOutputSplitAndSum) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) {
      a = Concat <axis = 0> (x)
      b = Split <axis = 1> (a)
      c = Sum(b)
      d = Max(c)
      y = Relu(d) })",
                kRelu);
}

TEST(EliminateNoopOps, NeutralElements) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y)
      <float[1] zero = {0}, float[3] ones = {1, 1, 1}, float one = {1}> {
      a = Add(x, zero)
      b = Add(zero, a)
      c = Sub(b, zero)
      d = Mul(ones, c)
      e = Div(d, one)
      f = Pow(e, one)
      y = Relu(f) })",
                kRelu);
}

TEST(EliminateNoopOps, NeutralElementsKeepTheOutputs) {
  expectSameOutputs(
      kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[1] zero = {0}, float one = {1}> {
      a = Add(x, zero)
      b = Mul(one, a)
      c = Div(b, one)
      y = Relu(c) })");
}

TEST(EliminateNoopOps, LogicalNeutralElements) {
  expectRewrite(kPass, R"(main (bool[2] x) => (bool[2] y) <bool[1] t = {1}, bool[1] f = {0}> {
      a = And(x, t)
      b = Or(f, a)
      c = Xor(b, f)
      y = Not(c) })",
                R"(main (bool[2] x) => (bool[2] y) { y = Not(x) })");
}

TEST(EliminateNoopOps, KeepsZeroMinusX) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[1] zero = {0}> {
      t = Sub(zero, x)
      y = Relu(t) })",
                  "no operand is a constant filled with 0");
}

TEST(EliminateNoopOps, KeepsAdditionThatBroadcastsX) {
  expectUnchanged(kPass,
                  R"(main (float[3] x) => (float[2,3] y) <float[2,3] zero = {0, 0, 0, 0, 0, 0}> {
      t = Add(x, zero)
      y = Relu(t) })",
                  "may change its shape");
}

TEST(EliminateNoopOps, KeepsArithmeticBeforeOpset7) {
  expectUnchanged(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
    main (float[2,3] x, float[3] zero) => (float[2,3] y) {
      t = Add <broadcast = 1> (x, zero)
      y = Relu(t) })");
  // With a constant zero the reason names the opset.
  expectUnchanged(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
    main (float[2,3] x) => (float[2,3] y) {
      z = Constant <value = float[3] {0, 0, 0}> ()
      t = Add <broadcast = 1> (x, z)
      y = Relu(t) })",
                  "before opset 7");
}

TEST(EliminateNoopOps, WhereWithConstantCondition) {
  expectRewrite(kPass, R"(main (float[2,3] x, float[2,3] z) => (float[2,3] y, float[2,3] w)
      <bool[1] yes = {1}, bool[2,3] no = {0, 0, 0, 0, 0, 0}> {
      a = Where(yes, x, z)
      y = Relu(a)
      b = Where(no, x, z)
      w = Neg(b) })",
                R"(main (float[2,3] x, float[2,3] z) => (float[2,3] y, float[2,3] w) {
      y = Relu(x)
      w = Neg(z) })");
}

TEST(EliminateNoopOps, KeepsWhereThatBroadcasts) {
  expectUnchanged(kPass, R"(main (float[3] x, float[2,3] z) => (float[2,3] y) <bool[1] yes = {1}> {
      a = Where(yes, x, z)
      y = Relu(a) })",
                  "is not known to have the result's type");
}

TEST(EliminateNoopOps, ClipWithoutBounds) {
  expectRewrite(kPass,
                R"(main (float[2,3] x) => (float[2,3] y) <float lo = {-inf}> { t = Clip(x, lo)
      y = Relu(t) })",
                kRelu);
  expectRewrite(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
    main (float[2,3] x) => (float[2,3] y) { t = Clip(x)
      y = Relu(t) })",
                R"(<ir_version: 3, opset_import: ["" : 6]>
    main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

TEST(EliminateNoopOps, KeepsClipWithBounds) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float lo = {0}> { t = Clip(x, lo)
      y = Relu(t) })",
                  "lower bound");
  expectUnchanged(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
    main (float[2,3] x) => (float[2,3] y) { t = Clip <max = 6.0> (x)
      y = Relu(t) })",
                  "max is 6");
}

TEST(EliminateNoopOps, TileWithOnes) {
  expectRewrite(kPass,
                R"(main (float[2,3] x) => (float[2,3] y) <int64[2] r = {1, 1}> { t = Tile(x, r)
      y = Relu(t) })",
                kRelu);
}

TEST(EliminateNoopOps, ResizeAndUpsampleWithScaleOne) {
  const char* out = R"(main (float[1,1,2,2] x) => (float[1,1,2,2] y) { y = Relu(x) })";
  expectRewrite(kPass,
                R"(main (float[1,1,2,2] x) => (float[1,1,2,2] y) <float[4] s = {1, 1, 1, 1}> {
      t = Resize <mode = "linear"> (x, , s)
      y = Relu(t) })",
                out);
  expectRewrite(
      kPass,
      R"(main (float[1,1,2,2] x) => (float[1,1,2,2] y) <float[0] s = {}, int64[4] z = {1, 1, 2, 2}> {
      t = Resize(x, , s, z)
      y = Relu(t) })",
      out);
  expectRewrite(kPass, R"(<ir_version: 4, opset_import: ["" : 9]>
    main (float[1,1,2,2] x) => (float[1,1,2,2] y) <float[4] s = {1, 1, 1, 1}> {
      t = Upsample(x, s)
      y = Relu(t) })",
                R"(<ir_version: 4, opset_import: ["" : 9]>
    main (float[1,1,2,2] x) => (float[1,1,2,2] y) { y = Relu(x) })");
  expectRewrite(kPass, R"(<ir_version: 3, opset_import: ["" : 7]>
    main (float[1,1,2,2] x) => (float[1,1,2,2] y) { t = Upsample <scales = [1.0, 1.0, 1.0, 1.0]> (x)
      y = Relu(t) })",
                R"(<ir_version: 3, opset_import: ["" : 7]>
    main (float[1,1,2,2] x) => (float[1,1,2,2] y) { y = Relu(x) })");
}

TEST(EliminateNoopOps, KeepsResizeThatScalesOrCrops) {
  expectUnchanged(kPass,
                  R"(main (float[1,1,2,2] x) => (float[1,1,4,4] y) <float[4] s = {1, 1, 2, 2}> {
      t = Resize(x, , s)
      y = Relu(t) })",
                  "a scale is 2");
  expectUnchanged(kPass, R"(main (float[1,1,2,2] x) => (float[1,1,2,2] y)
      <float[4] s = {1, 1, 1, 1}, float[8] roi = {0, 0, 0, 0, 1, 1, 0.5, 0.5}> {
      t = Resize <coordinate_transformation_mode = "tf_crop_and_resize"> (x, roi, s)
      y = Relu(t) })",
                  "region of interest");
}

TEST(EliminateNoopOps, ReduceWithEmptyAxesAndNoop) {
  expectRewrite(
      kPass, R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[2,3] x) => (float[2,3] y) { t = ReduceMean <noop_with_empty_axes = 1> (x)
      y = Relu(t) })",
      R"(<ir_version: 8, opset_import: ["" : 18]> main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
  // ReduceSum took axes as an input (and gained the attribute) at 13, before the others.
  expectRewrite(
      kPass, R"(<ir_version: 7, opset_import: ["" : 13]>
    main (float[2,3] x) => (float[2,3] y) { t = ReduceSum <noop_with_empty_axes = 1> (x)
      y = Relu(t) })",
      R"(<ir_version: 7, opset_import: ["" : 13]> main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

TEST(EliminateNoopOps, KeepsReduceWhoseNoopStillTransforms) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[2,3] x) => (float[2,3] y) { t = ReduceSumSquare <noop_with_empty_axes = 1> (x)
      y = Relu(t) })",
                  "per-element transform");
}

TEST(EliminateNoopOps, ReduceOverDimsOfSizeOne) {
  // Opset 17: ReduceMean's axes are an attribute, ReduceSum's an input.
  expectRewrite(kPass, R"(main (float[2,1,3] x) => (float[2,1,3] y) <int64[1] a = {-2}> {
      s = ReduceSum(x, a)
      m = ReduceMean <axes = [1]> (s)
      y = Relu(m) })",
                R"(main (float[2,1,3] x) => (float[2,1,3] y) { y = Relu(x) })");
  expectRewrite(
      kPass, R"(<ir_version: 8, opset_import: ["" : 18]>
    main (float[2,1,3] x) => (float[2,1,3] y) <int64[1] a = {1}> {
      m = ReduceMax(x, a)
      y = Relu(m) })",
      R"(<ir_version: 8, opset_import: ["" : 18]> main (float[2,1,3] x) => (float[2,1,3] y) { y = Relu(x) })");
}

TEST(EliminateNoopOps, KeepsRealReductions) {
  expectUnchanged(kPass,
                  R"(main (float[2,1,3] x) => (float[2,1] y) { y = ReduceMean <axes = [2]> (x) })",
                  "has size 3");
  expectUnchanged(
      kPass,
      R"(main (float[2,1,3] x) => (float[2,3] y) { y = ReduceMean <axes = [1], keepdims = 0> (x) })",
      "keepdims is 0");
}

TEST(EliminateNoopOps, DepthToSpaceWithBlockOne) {
  expectRewrite(kPass, R"(main (float[1,4,2,2] x) => (float[1,4,2,2] y) {
      t = DepthToSpace <blocksize = 1, mode = "CRD"> (x)
      u = SpaceToDepth <blocksize = 1> (t)
      y = Relu(u) })",
                R"(main (float[1,4,2,2] x) => (float[1,4,2,2] y) { y = Relu(x) })");
}

TEST(EliminateNoopOps, PoolingOverOneElement) {
  expectRewrite(kPass, R"(main (float[1,3,1,1] x) => (float[1,3,1,1] y) {
      a = MaxPool <kernel_shape = [1, 1]> (x)
      b = AveragePool <kernel_shape = [1, 1], strides = [1, 1]> (a)
      c = GlobalAveragePool(b)
      y = Relu(c) })",
                R"(main (float[1,3,1,1] x) => (float[1,3,1,1] y) { y = Relu(x) })");
  expectUnchanged(kPass, R"(main (float[1,3,4,4] x) => (float[1,3,2,2] y) {
      y = MaxPool <kernel_shape = [1, 1], strides = [2, 2]> (x) })",
                  "a stride is not 1");
  expectUnchanged(kPass, R"(main (float[1,3,4,4] x) => (float[1,3,4,4] y, int64[1,3,4,4] i) {
      y, i = MaxPool <kernel_shape = [1, 1]> (x) })",
                  "'i' is used");
}

// ---- positions: outputs and subgraphs ----

// ---- recurrent ops: an initial state of zeros is the default ----

const std::string kLstmInits =
    R"(<float[1,8,3] W = {-0.262, 0.044, -0.130, 0.104, 0.126, -0.434, -0.487, 0.337, -0.241, -0.266, 0.496, -0.030, 0.336, -0.024, 0.139, -0.349, 0.135, 0.368, 0.023, 0.241, 0.171, -0.436, 0.258, 0.091}, float[1,8,2] R = {-0.199, -0.469, 0.366, -0.027, 0.219, 0.379, 0.214, 0.421, -0.105, 0.301, -0.055, 0.436, 0.379, -0.403, -0.364, -0.283}, float[1,16] B = {0.465, -0.064, 0.127, -0.199, 0.007, -0.114, -0.149, 0.085, 0.084, 0.404, 0.182, 0.429, 0.356, 0.491, 0.171, -0.337}, float[1,6,3] W2 = {0.123, 0.242, 0.295, 0.442, 0.240, 0.422, -0.471, -0.034, 0.443, 0.149, 0.401, -0.387, -0.031, -0.253, 0.044, 0.074, -0.487, -0.283}, float[1,6,2] R2 = {-0.221, 0.416, 0.266, -0.340, 0.297, -0.361, 0.117, -0.373, -0.498, 0.371, -0.291, -0.285}, float[1,2,3] W1 = {0.482, 0.372, -0.211, 0.461, 0.039, 0.178}, float[1,2,2] R1 = {-0.295, 0.441, 0.191, 0.467}, int64[3] s = {1, 1, 2}>)";

TEST(EliminateNoopOps, RnnZeroInitialStateIsDropped) {
  expectRewrite(kPass, "main (float[2,1,3] x) => (float[2,1,1,2] y) " + kLstmInits + R"( {
      h0 = ConstantOfShape <value = float[1] {0}> (s)
      c0 = ConstantOfShape(s)
      y, yh = LSTM <hidden_size = 2> (x, W, R, B, "", h0, c0) })",
                "main (float[2,1,3] x) => (float[2,1,1,2] y) " + kLstmInits + R"( {
      y, yh = LSTM <hidden_size = 2> (x, W, R, B, "", "", "") })");
}

// h and c from one ConstantOfShape (as in tract_nnsplit_bidi_lstm).
TEST(EliminateNoopOps, RnnSharedZeroStateGoesOnce) {
  expectRewrite(kPass, "main (float[2,1,3] x) => (float[2,1,1,2] y) " + kLstmInits + R"( {
      z0 = ConstantOfShape(s)
      y, yh = LSTM <hidden_size = 2> (x, W, R, B, "", z0, z0) })",
                "main (float[2,1,3] x) => (float[2,1,1,2] y) " + kLstmInits + R"( {
      y, yh = LSTM <hidden_size = 2> (x, W, R, B, "", "", "") })");
}

TEST(EliminateNoopOps, RnnZeroStateReadElsewhereStays) {
  expectRewrite(kPass,
                "main (float[2,1,3] x) => (float[2,1,1,2] y, float[1,1,2] z) " + kLstmInits + R"( {
      h0 = ConstantOfShape(s)
      z = Relu(h0)
      y, yh = GRU <hidden_size = 2> (x, W2, R2, "", "", h0) })",
                "main (float[2,1,3] x) => (float[2,1,1,2] y, float[1,1,2] z) " + kLstmInits + R"( {
      h0 = ConstantOfShape(s)
      z = Relu(h0)
      y, yh = GRU <hidden_size = 2> (x, W2, R2, "", "", "") })");
}

TEST(EliminateNoopOps, KeepsANonZeroOrRuntimeInitialState) {
  expectUnchanged(kPass, "main (float[2,1,3] x) => (float[2,1,1,2] y) " + kLstmInits + R"( {
      h0 = ConstantOfShape <value = float[1] {0.5}> (s)
      y, yh = LSTM <hidden_size = 2> (x, W, R, B, "", h0) })",
                  "no initial state is a constant 0");
  expectUnchanged(kPass,
                  "main (float[2,1,3] x, float[1,1,2] h0) => (float[2,1,1,2] y) " + kLstmInits +
                      R"( { y, yh = LSTM <hidden_size = 2> (x, W, R, B, "", h0) })",
                  "no initial state is a constant 0");
}

TEST(EliminateNoopOps, RnnZeroInitialStateConverges) {
  expectConverges(kPass, "main (float[2,1,3] x) => (float[2,1,1,2] y) " + kLstmInits + R"( {
      h0 = ConstantOfShape(s)
      y, yh = RNN <hidden_size = 2> (x, W1, R1, "", "", h0) })");
}

TEST(EliminateNoopOps, KeepsNoopBetweenModelInputAndOutput) {
  expectUnchanged(kPass,
                  R"(main (float[2,3] x) => (float[2,3] y) { y = Transpose <perm = [0, 1]> (x) })",
                  "model input");
}

TEST(EliminateNoopOps, ModelOutputKeepsItsName) {
  PassOutcome out = runPass(kPass, R"(main (float[2,3] x) => (float[2,3] y) { a = Relu(x)
      y = Transpose <perm = [0, 1]> (a) })");
  ASSERT_EQ(out.model.graph().nodeCount(), 1u);
  EXPECT_EQ(out.model.graph().outputs()[0]->name(), "y");
  EXPECT_EQ(out.model.graph().outputs()[0]->producer()->opType(), "Relu");
}

TEST(EliminateNoopOps, WorksInsideSubgraphsOnOuterValues) {
  PassOutcome out =
      runPass(kPass, R"(main (float[2,3] x, bool c) => (float[2,3] y) <float[1] one = {1}> {
      a = Relu(x)
      y = If <then_branch = t () => (float[2,3] o) { o = Mul(a, one) },
              else_branch = e () => (float[2,3] p) { p = Neg(a) }> (c) })");
  const ir::Node* iff = out.model.graph().nodes().back().get();
  ASSERT_EQ(iff->opType(), "If");
  // The branch returns a through an Identity (ONNX Runtime refuses an outer
  // value returned directly).
  const ir::Graph& branch = *iff->subgraphs()[0];
  ASSERT_EQ(branch.nodeCount(), 1u);
  EXPECT_EQ(branch.nodes().front()->opType(), "Identity");
  EXPECT_EQ(branch.nodes().front()->input(0)->name(), "a");
  // The constant went with the Mul.
  EXPECT_EQ(out.model.graph().findValue("one"), nullptr);
}

TEST(EliminateNoopOps, Converges) {
  expectConverges(
      kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[1] zero = {0}, int64[2] s = {2, 3}> {
      a = Transpose <perm = [0, 1]> (x)
      b = Add(a, zero)
      c = Reshape(b, s)
      y = Relu(c) })");
}

}  // namespace
}  // namespace passlab::testing
