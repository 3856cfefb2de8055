// fuse_passlab_softmax: Softmax(scale * x +/- M) over the last axis and the
// decomposed Exp / ReduceSum / Div softmax -> one ai.passlab FusedSoftmax;
// numerics, convergence and the near misses.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"
#include "tests/core/passes/ort_fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_passlab_softmax";
const std::string kH13 = R"(<ir_version: 8, opset_import: ["" : 13]>)";
const std::string kH13p = R"(<ir_version: 8, opset_import: ["" : 13, "ai.passlab" : 1]>)";
const std::string kH11 = R"(<ir_version: 8, opset_import: ["" : 11]>)";
const std::string kH11p = R"(<ir_version: 8, opset_import: ["" : 11, "ai.passlab" : 1]>)";

// BERT-style scores without the attention around them: a Div, a padding mask.
const std::string kScaledMasked =
    kH13 + R"(main (float[2,3,4,5] s, float[2,1,1,5] m) => (float[2,3,4,5] y) <float c = {8}> {
      t = Div(s, c)
      u = Add(m, t)
      y = Softmax <axis = -1> (u) })";

TEST(FusePasslabSoftmax, ScaleAndAdditiveMask) {
  expectRewrite(kPass, kScaledMasked,
                kH13p + R"(main (float[2,3,4,5] s, float[2,1,1,5] m) => (float[2,3,4,5] y) {
      y = ai.passlab.FusedSoftmax <scale = 0.125> (s, m) })");
}

TEST(FusePasslabSoftmax, ScalesMultiplyAndASubtractedMaskAtOpset11) {
  expectRewrite(
      kPass,
      kH11 +
          R"(main (float[3,5] s, float[5] m) => (float[3,5] y) <float c = {2}, float k = {0.25}> {
      t = Mul(c, s)
      t2 = Mul(t, k)
      u = Sub(t2, m)
      y = Softmax <axis = 1> (u) })",
      kH11p + R"(main (float[3,5] s, float[5] m) => (float[3,5] y) {
      y = ai.passlab.FusedSoftmax <scale = 0.5, mask_subtract = 1> (s, m) })");
}

TEST(FusePasslabSoftmax, DecomposedWithTheMaximum) {
  expectRewrite(kPass, kH13 + R"(main (float[2,6] x) => (float[2,6] y) <int64[1] ax = {-1}> {
      mx = ReduceMax <axes = [-1]> (x)
      d = Sub(x, mx)
      e = Exp(d)
      sm = ReduceSum(e, ax)
      y = Div(e, sm) })",
                kH13p + R"(main (float[2,6] x) => (float[2,6] y) {
      y = ai.passlab.FusedSoftmax (x) })");
}

TEST(FusePasslabSoftmax, OutputsStayTheSame) {
  expectSameOutputs(kPass, kScaledMasked);
  expectSameOutputs(kPass, kH11 + R"(main (float[2,3,7] x) => (float[2,3,7] y) <float c = {3}> {
      t = Mul(x, c)
      e = Exp(t)
      sm = ReduceSum <axes = [2]> (e)
      y = Div(e, sm) })");
}

TEST(FusePasslabSoftmax, Converges) {
  expectConverges(kPass, kScaledMasked);
}

TEST(FusePasslabSoftmax, SkippedInStandardOnlyMode) {
  expectSkippedWhenStandardOnly(kPass, kScaledMasked);
}

TEST(FusePasslabSoftmax, KeepsASoftmaxAlone) {
  expectUnchanged(kPass, kH13 + R"(main (float[2,5] s) => (float[2,5] y) {
      y = Softmax <axis = -1> (s) })",
                  "nothing to fuse");
}

TEST(FusePasslabSoftmax, KeepsASoftmaxOverAnotherAxis) {
  expectUnchanged(kPass, kH13 + R"(main (float[2,5] s) => (float[2,5] y) <float c = {2}> {
      t = Mul(s, c)
      y = Softmax <axis = 0> (t) })",
                  "not over the last axis");
}

TEST(FusePasslabSoftmax, KeepsAMaskThatWidensTheScores) {
  expectUnchanged(kPass, kH13 + R"(main (float[1,5] s, float[3,1] m) => (float[3,5] y) {
      u = Add(s, m)
      y = Softmax <axis = -1> (u) })",
                  "does not have the shape of");
}

TEST(FusePasslabSoftmax, KeepsOtherDtypes) {
  expectUnchanged(kPass, kH13 + R"(main (double[2,5] s) => (double[2,5] y) <double c = {2}> {
      t = Mul(s, c)
      y = Softmax <axis = -1> (t) })",
                  "not on float32");
}

TEST(FusePasslabSoftmax, KeepsASumOverAnotherAxis) {
  expectUnchanged(kPass, kH11 + R"(main (float[2,6] x) => (float[2,6] y) {
      e = Exp(x)
      sm = ReduceSum <axes = [0]> (e)
      y = Div(e, sm) })",
                  "ReduceSum is not over the last axis");
}

TEST(FusePasslabSoftmax, KeepsScoresReadElsewhere) {
  // The scaled scores are also an output: the Softmax alone remains, nothing to fuse.
  expectUnchanged(kPass,
                  kH13 + R"(main (float[2,5] s) => (float[2,5] y, float[2,5] t) <float c = {2}> {
      t = Mul(s, c)
      y = Softmax <axis = -1> (t) })",
                  "nothing to fuse");
}

}  // namespace
}  // namespace passlab::testing
