// merge_linear_convolutions: a difference of windows of one value becomes one
// Conv (reflect Pads of different widths share the widest; x itself is a delta
// kernel; Conv pads in constant mode), a rank-1 kernel splits into a column
// and a row Conv, both only when the cost model says so; convergence; the
// reasons it leaves a graph alone. Numerics are checked by expectRewrite.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "merge_linear_convolutions";

// A 3x3 Laplacian minus a 5x5 kernel (all 1, centre 2), both after reflect Pads.
const char* kDog = R"(main (float[1,1,7,7] x) => (float[1,1,7,7] y)
    <int64[8] p1 = {0, 0, 1, 1, 0, 0, 1, 1}, int64[8] p2 = {0, 0, 2, 2, 0, 0, 2, 2},
     float[1,1,3,3] k3 = {0, 1, 0, 1, -4, 1, 0, 1, 0},
     float[1,1,5,5] k5 = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}> {
    a0 = Pad <mode = "reflect"> (x, p1)
    a = Conv (a0, k3)
    b0 = Pad <mode = "reflect"> (x, p2)
    b = Conv (b0, k5)
    y = Sub (a, b) })";

TEST(MergeLinearConvolutions, DifferenceOfReflectPaddedWindowsBecomesOneConv) {
  expectRewrite(kPass, kDog, R"(main (float[1,1,7,7] x) => (float[1,1,7,7] y)
    <int64[8] p2 = {0, 0, 2, 2, 0, 0, 2, 2},
     float[1,1,5,5] k = {-1, -1, -1, -1, -1, -1, -1, 0, -1, -1, -1, 0, -6, 0, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1, -1}> {
    p = Pad <mode = "reflect"> (x, p2)
    y = Conv (p, k) })");
}

TEST(MergeLinearConvolutions, MergeConverges) {
  expectConverges(kPass, kDog);
}

// An unsharp mask x + 2 (x - blur(x)) with a depthwise blur using its own
// zero pads: the identity is a delta kernel, the scale goes into the weights.
TEST(MergeLinearConvolutions, UnsharpMaskOfADepthwiseConvBecomesOneDepthwiseConv) {
  expectRewrite(kPass, R"(main (float[1,2,5,5] x) => (float[1,2,5,5] y)
    <float[2,1,3,3] w = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0, 1, 0, 1, 0, 1, 0, 1, 0},
     float[] s = {2}> {
    b = Conv <group = 2, pads = [1, 1, 1, 1]> (x, w)
    d = Sub (x, b)
    e = Mul (d, s)
    y = Add (x, e) })",
                R"(main (float[1,2,5,5] x) => (float[1,2,5,5] y)
    <float[2,1,3,3] k = {-1, -1, -1, -1, 2, -1, -1, -1, -1, 0, -2, 0, -2, 3, -2, 0, -2, 0}> {
    y = Conv <group = 2, pads = [1, 1, 1, 1]> (x, k) })");
}

// Adding or subtracting a scalar constant shifts the bias: 1 - ((x - b) + 0.5).
TEST(MergeLinearConvolutions, ScalarOffsetsGoIntoTheBias) {
  expectRewrite(kPass, R"(main (float[1,2,5,5] x) => (float[1,2,5,5] y)
    <float[2,1,3,3] w = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0, 1, 0, 1, 0, 1, 0, 1, 0},
     float[] half = {0.5}, float[1] one = {1}> {
    b = Conv <group = 2, pads = [1, 1, 1, 1]> (x, w)
    d = Sub (x, b)
    e = Add (d, half)
    y = Sub (one, e) })",
                R"(main (float[1,2,5,5] x) => (float[1,2,5,5] y)
    <float[2,1,3,3] k = {0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0.5, 0.5, 0.5, 0, 1, 0, 1, -1, 1, 0, 1, 0},
     float[2] bias = {0.5, 0.5}> {
    y = Conv <group = 2, pads = [1, 1, 1, 1]> (x, k, bias) })");
}

// Two separable pairs (Kv then Kh) of 3 and 5 taps with biases, a Neg and a
// Div: composed by full 2-D convolution; the bias goes through every step.
TEST(MergeLinearConvolutions, SeparablePairsComposeWithTheirBiases) {
  const char* in = R"(main (float[1,1,9,9] x) => (float[1,1,9,9] y)
    <int64[8] p1 = {0, 0, 1, 1, 0, 0, 1, 1}, int64[8] p2 = {0, 0, 2, 2, 0, 0, 2, 2},
     float[1,1,3,1] v3 = {1, 2, 1}, float[1,1,1,3] h3 = {1, 0, -1}, float[1] b3 = {0.5},
     float[1,1,5,1] v5 = {1, -1, 2, -1, 1}, float[1,1,1,5] h5 = {2, 1, 0, 1, 2},
     float[1] b5 = {1}, float[] four = {4}> {
    a0 = Pad <mode = "edge"> (x, p1)
    a1 = Conv (a0, v3, b3)
    a = Conv (a1, h3)
    b0 = Pad <mode = "edge"> (x, p2)
    b1 = Conv (b0, v5)
    b2 = Conv (b1, h5, b5)
    b = Neg (b2)
    c = Add (a, b)
    y = Div (c, four) })";
  PassOutcome o = runPass(kPass, in);
  EXPECT_EQ(o.model.graph().nodeCount(), 2u) << canonicalForm(o.model.graph());
  expectConverges(kPass, in);
  // The numeric check of the merged form against the seven nodes.
  NumericResult r = compareOutputs(parse(in), o.model);
  EXPECT_TRUE(r.ran) << r.detail;
  EXPECT_TRUE(r.equal) << r.detail;
}

// A 5x5 kernel u v^T (u = v = [1, 2, 4, 2, 1]) splits; the bias goes on the row pass.
TEST(MergeLinearConvolutions, RankOneKernelSplitsIntoAColumnAndARowConv) {
  const char* in = R"(main (float[1,1,8,8] x) => (float[1,1,8,8] y)
    <float[1,1,5,5] k = {1, 2, 4, 2, 1, 2, 4, 8, 4, 2, 4, 8, 16, 8, 4, 2, 4, 8, 4, 2, 1, 2, 4, 2, 1},
     float[1] b = {0.5}> {
    y = Conv <pads = [2, 2, 2, 2]> (x, k, b) })";
  expectRewrite(kPass, in, R"(main (float[1,1,8,8] x) => (float[1,1,8,8] y)
    <float[1,1,5,1] u = {4, 8, 16, 8, 4}, float[1,1,1,5] v = {0.25, 0.5, 1, 0.5, 0.25},
     float[1] b = {0.5}> {
    t = Conv <pads = [2, 0, 2, 0]> (x, u)
    y = Conv <pads = [0, 2, 0, 2]> (t, v, b) })");
  expectConverges(kPass, in);
}

// Constant mode: a zero Pad node and a Conv's own pads are the same padding;
// the merged Conv pads by itself (no Pad node).
TEST(MergeLinearConvolutions, ZeroPadAndConvPadsMergeIntoTheConvsOwnPads) {
  expectRewrite(kPass, R"(main (float[1,1,7,7] x) => (float[1,1,7,7] y)
    <int64[8] p1 = {0, 0, 1, 1, 0, 0, 1, 1},
     float[1,1,3,3] k3 = {0, 1, 0, 1, -4, 1, 0, 1, 0},
     float[1,1,5,5] k5 = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}> {
    a0 = Pad (x, p1)
    a = Conv (a0, k3)
    b = Conv <pads = [2, 2, 2, 2]> (x, k5)
    y = Sub (a, b) })",
                R"(main (float[1,1,7,7] x) => (float[1,1,7,7] y)
    <float[1,1,5,5] k = {-1, -1, -1, -1, -1, -1, -1, 0, -1, -1, -1, 0, -6, 0, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1, -1}> {
    y = Conv <pads = [2, 2, 2, 2]> (x, k) })");
}

TEST(MergeLinearConvolutions, KeepsAPadWithAValueOtherThanZero) {
  expectUnchanged(kPass, R"(main (float[1,1,7,7] x) => (float[1,1,7,7] y)
    <int64[8] p1 = {0, 0, 1, 1, 0, 0, 1, 1}, float[] one = {1},
     float[1,1,3,3] k3 = {0, 1, 0, 1, -4, 1, 0, 1, 0},
     float[1,1,5,5] k5 = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}> {
    a0 = Pad (x, p1, one)
    a = Conv (a0, k3)
    b = Conv <pads = [2, 2, 2, 2]> (x, k5)
    y = Sub (a, b) })",
                  "a constant-mode Pad pads with a value other than 0");
}

TEST(MergeLinearConvolutions, KeepsASeparablePairTheCostModelPrefers) {
  expectUnchanged(kPass, R"(main (float[1,3,9,9] x) => (float[1,3,9,9] y)
    <int64[8] p = {0, 0, 2, 2, 0, 0, 2, 2},
     float[3,1,5,1] v = {1, 4, 6, 4, 1, 1, 4, 6, 4, 1, 1, 4, 6, 4, 1},
     float[3,1,1,5] h = {1, 4, 6, 4, 1, 1, 4, 6, 4, 1, 1, 4, 6, 4, 1}> {
    a = Pad <mode = "reflect"> (x, p)
    b = Conv <group = 3> (a, v)
    y = Conv <group = 3> (b, h) })",
                  "the cost model does not find one window cheaper");
}

TEST(MergeLinearConvolutions, KeepsASmallRankOneKernelWhoseSplitSavesTooLittle) {
  expectUnchanged(kPass, R"(main (float[1,1,6,6] x) => (float[1,1,4,4] y)
    <float[1,1,3,3] k = {1, 2, 1, 0, 0, 0, -1, -2, -1}> {
    y = Conv (x, k) })",
                  "the cost model does not find a column pass and a row pass cheaper");
}

TEST(MergeLinearConvolutions, KeepsATermReadOutsideTheTree) {
  expectUnchanged(kPass, R"(main (float[1,1,7,7] x) => (float[1,1,7,7] y, float[1,1,7,7] a)
    <int64[8] p1 = {0, 0, 1, 1, 0, 0, 1, 1}, int64[8] p2 = {0, 0, 2, 2, 0, 0, 2, 2},
     float[1,1,3,3] k3 = {0, 1, 0, 1, -4, 1, 0, 1, 0},
     float[1,1,5,5] k5 = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}> {
    a0 = Pad <mode = "reflect"> (x, p1)
    a = Conv (a0, k3)
    b0 = Pad <mode = "reflect"> (x, p2)
    b = Conv (b0, k5)
    y = Sub (a, b) })",
                  "'a' is a graph output");
}

TEST(MergeLinearConvolutions, KeepsAStridedConv) {
  expectUnchanged(kPass, R"(main (float[1,1,8,8] x) => (float[1,1,3,3] y)
    <float[1,1,3,3] k = {0, 1, 0, 1, -4, 1, 0, 1, 0}, float[1,1,3,3] j = {1, 0, 1, 0, 1, 0, 1, 0, 1}> {
    a = Conv <strides = [2, 2]> (x, k)
    b = Conv <strides = [2, 2]> (x, j)
    y = Sub (a, b) })",
                  "has strides other than 1");
}

TEST(MergeLinearConvolutions, KeepsTermsPaddedInDifferentModes) {
  expectUnchanged(kPass, R"(main (float[1,1,7,7] x) => (float[1,1,7,7] y)
    <int64[8] p1 = {0, 0, 1, 1, 0, 0, 1, 1}, int64[8] p2 = {0, 0, 2, 2, 0, 0, 2, 2},
     float[1,1,3,3] k3 = {0, 1, 0, 1, -4, 1, 0, 1, 0},
     float[1,1,5,5] k5 = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}> {
    a0 = Pad <mode = "reflect"> (x, p1)
    a = Conv (a0, k3)
    b0 = Pad <mode = "edge"> (x, p2)
    b = Conv (b0, k5)
    y = Sub (a, b) })",
                  "the terms pad x in different modes (reflect and edge)");
}

TEST(MergeLinearConvolutions, KeepsAConvWithWeightsThatAreNotConstant) {
  expectUnchanged(kPass, R"(main (float[1,1,8,8] x, float[1,1,3,3] k) => (float[1,1,6,6] y)
    <float[1,1,3,3] j = {1, 0, 1, 0, 1, 0, 1, 0, 1}> {
    a = Conv (x, k)
    b = Conv (x, j)
    y = Sub (a, b) })",
                  "weights are not a float constant");
}

TEST(MergeLinearConvolutions, KeepsAConvThatMixesChannels) {
  expectUnchanged(kPass, R"(main (float[1,2,8,8] x) => (float[1,2,6,6] y)
    <float[2,2,3,3] k = {0, 1, 0, 1, -4, 1, 0, 1, 0, 0, 1, 0, 1, -4, 1, 0, 1, 0,
                         0, 1, 0, 1, -4, 1, 0, 1, 0, 0, 1, 0, 1, -4, 1, 0, 1, 0},
     float[2,1,3,3] j = {1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1}> {
    a = Conv (x, k)
    b = Conv <group = 2> (x, j)
    y = Sub (a, b) })",
                  "not one input channel per output channel");
}

TEST(MergeLinearConvolutions, KeepsAConvWithAutoPad) {
  expectUnchanged(kPass, R"(main (float[1,1,8,8] x) => (float[1,1,8,8] y)
    <float[1,1,3,3] k = {0, 1, 0, 1, -4, 1, 0, 1, 0}, float[1,1,3,3] j = {1, 0, 1, 0, 1, 0, 1, 0, 1}> {
    a = Conv <auto_pad = "SAME_UPPER"> (x, k)
    b = Conv <pads = [1, 1, 1, 1]> (x, j)
    y = Sub (a, b) })",
                  "auto_pad = SAME_UPPER");
}

TEST(MergeLinearConvolutions, KeepsATermScaledByANonScalar) {
  expectUnchanged(kPass, R"(main (float[1,2,8,8] x) => (float[1,2,6,6] y)
    <float[2,1,3,3] k = {0, 1, 0, 1, -4, 1, 0, 1, 0, 0, 1, 0, 1, -4, 1, 0, 1, 0},
     float[2,1,3,3] j = {1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1},
     float[2,1,1] c = {2, 3}> {
    a = Conv <group = 2> (x, k)
    b = Conv <group = 2> (x, j)
    m = Mul (b, c)
    y = Add (a, m) })",
                  "does not scale by a constant holding one value");
}

}  // namespace
}  // namespace passlab::testing
