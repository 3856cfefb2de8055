// raise_opset: the opset import raised and each op whose form changed
// rewritten to mean the same (parameters to inputs, Softmax's axis, Upsample
// to Resize, ImageScaler to Mul/Add, spatial/ratio dropped); the outputs stay
// equal; a second run changes nothing; and a node with no form at the target
// stops the pass with nothing edited.
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "raise_opset";

TEST(RaiseOpset, ParametersThatBecameInputsMove) {
  expectRewrite(kPass, R"(<ir_version: 7, opset_import: ["" : 9]>
main (float[2,1,4] x) => (float[2,3] y, float[2,1,4] z) {
    s = Squeeze <axes = [1]> (x)
    t = Slice <starts = [0, 1], ends = [2, 4], axes = [0, 1]> (s)
    y = Clip <min = -0.5, max = 0.5> (t)
    z = Pad <pads = [0, 0, 0, 0, 0, 0], value = 1.0> (x) })",
                R"(<ir_version: 7, opset_import: ["" : 13]>
main (float[2,1,4] x) => (float[2,3] y, float[2,1,4] z)
    <int64[1] axes = {1}, int64[2] starts = {0, 1}, int64[2] ends = {2, 4}, int64[2] axes2 = {0, 1},
     float min = {-0.5}, float max = {0.5}, int64[6] pads = {0, 0, 0, 0, 0, 0}, float value = {1.0}> {
    s = Squeeze(x, axes)
    t = Slice(s, starts, ends, axes2)
    y = Clip(t, min, max)
    z = Pad(x, pads, value) })");
}

TEST(RaiseOpset, SoftmaxOnTheLastAxisKeepsItsNodeWithTheAxisWrittenOut) {
  expectRewrite(kPass, R"(<ir_version: 7, opset_import: ["" : 11]>
main (float[2,5] x) => (float[2,5] y) { y = Softmax(x) })",
                R"(<ir_version: 7, opset_import: ["" : 13]>
main (float[2,5] x) => (float[2,5] y) { y = Softmax <axis = 1> (x) })");
}

TEST(RaiseOpset, SoftmaxOverAFlattenedTailRunsOnAFlatten) {
  // Old meaning: softmax over the 12 values of each [3, 4] block.
  expectRewrite(kPass, R"(<ir_version: 7, opset_import: ["" : 11]>
main (float[2,3,4] x) => (float[2,3,4] y) { y = LogSoftmax <axis = 1> (x) })",
                R"(<ir_version: 7, opset_import: ["" : 13]>
main (float[2,3,4] x) => (float[2,3,4] y) {
    f = Flatten <axis = 1> (x)
    l = LogSoftmax <axis = 1> (f)
    s = Shape(x)
    y = Reshape(l, s) })");
}

TEST(RaiseOpset, UpsampleBecomesAnAsymmetricResize) {
  expectRewrite(kPass, R"(<ir_version: 7, opset_import: ["" : 7]>
main (float[1,2,2,3] x) => (float[1,2,4,6] y) {
    y = Upsample <scales = [1.0, 1.0, 2.0, 2.0]> (x) })",
                R"(<ir_version: 7, opset_import: ["" : 13]>
main (float[1,2,2,3] x) => (float[1,2,4,6] y) <float[4] scales = {1.0, 1.0, 2.0, 2.0}> {
    y = Resize <mode = "nearest", coordinate_transformation_mode = "asymmetric",
                nearest_mode = "floor"> (x, , scales) })");
}

// Below IR version 3, two scales are Upsample-1's height and width (the
// executor reads them so too): Resize gets one per axis (as a Constant: no
// initializer that is not a graph input below IR version 4).
TEST(RaiseOpset, TwoUpsampleScalesOfAnOldModelAreHeightAndWidth) {
  expectRewrite(kPass, R"(<ir_version: 1, opset_import: ["" : 7]>
main (float[1,2,2,3] x) => (float[1,2,4,6] y) {
    y = Upsample <scales = [2.0, 2.0]> (x) })",
                R"(<ir_version: 1, opset_import: ["" : 13]>
main (float[1,2,2,3] x) => (float[1,2,4,6] y) {
    scales = Constant <value = float[4] {1.0, 1.0, 2.0, 2.0}> ()
    y = Resize <mode = "nearest", coordinate_transformation_mode = "asymmetric",
                nearest_mode = "floor"> (x, , scales) })");
}

TEST(RaiseOpset, ImageScalerBecomesMulAndAdd) {
  expectRewrite(kPass, R"(<ir_version: 7, opset_import: ["" : 8]>
main (float[1,2,2,2] x) => (float[1,2,2,2] y) {
    y = ImageScaler <scale = 0.5, bias = [1.0, -1.0]> (x) })",
                R"(<ir_version: 7, opset_import: ["" : 13]>
main (float[1,2,2,2] x) => (float[1,2,2,2] y)
    <float scale = {0.5}, float[1,2,1,1] bias = {1.0, -1.0}> {
    m = Mul(x, scale)
    y = Add(m, bias) })");
}

TEST(RaiseOpset, BatchNormSpatialAndDropoutRatioGo) {
  expectRewrite(kPass, R"(<ir_version: 7, opset_import: ["" : 7]>
main (float[1,2,2] x) => (float[1,2,2] y)
    <float[2] s = {1, 2}, float[2] b = {0, 1}, float[2] m = {0, 0}, float[2] v = {1, 1}> {
    n = BatchNormalization <spatial = 1, epsilon = 0.001> (x, s, b, m, v)
    y = Dropout <ratio = 0.3> (n) })",
                R"(<ir_version: 7, opset_import: ["" : 13]>
main (float[1,2,2] x) => (float[1,2,2] y)
    <float[2] s = {1, 2}, float[2] b = {0, 1}, float[2] m = {0, 0}, float[2] v = {1, 1}> {
    n = BatchNormalization <epsilon = 0.001> (x, s, b, m, v)
    y = Dropout(n) })");
}

TEST(RaiseOpset, OpsWhoseFormDidNotChangeStayAsTheyAre) {
  const char* model = R"(<ir_version: 7, opset_import: ["" : 9]>
main (float[1,2,4,4] x) => (float[1,8] y) <float[2,2,3,3] w = {1, 0, 0, 0, 1, 0, 0, 0, 1,
    1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1},
    int64[2] shape = {1, 8}> {
    c = Conv <pads = [1, 1, 1, 1]> (x, w)
    r = Relu(c)
    p = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (r)
    y = Reshape(p, shape) })";
  PassOutcome out = runPass(kPass, model);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_EQ(out.model.opsetVersion(""), 13);
  size_t nodes = 0;
  for (const auto& n : out.model.graph().nodes()) nodes += n->opType() != "";
  EXPECT_EQ(nodes, 4u);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  expectSameOutputs(kPass, model);
}

TEST(RaiseOpset, AnInputThatBecameOptionalKeepsItsNode) {
  // Gemm's C is required at 7 and optional from 11.
  PassOutcome out = runPass(kPass, R"(<ir_version: 7, opset_import: ["" : 7]>
main (float[2,3] a) => (float[2,2] y) <float[3,2] b = {1, 2, 3, 4, 5, 6}, float[2] c = {1, -1}> {
    y = Gemm(a, b, c) })");
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_EQ(out.model.opsetVersion(""), 13);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

TEST(RaiseOpset, Converges) {
  expectConverges(kPass, R"(<ir_version: 7, opset_import: ["" : 9]>
main (float[2,1,4] x) => (float[2,4] y) { y = Squeeze <axes = [1]> (x) })");
}

TEST(RaiseOpset, AModelAtTheTargetIsLeftAlone) {
  PassOutcome out = runPass(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2] x) => (float[2] y) { y = Relu(x) })");
  EXPECT_FALSE(out.step.changed);
  EXPECT_NE(out.step.note.str().find("already imports opset 13"), std::string::npos);
}

TEST(RaiseOpset, ANodeWithoutAFormAtTheTargetStopsThePassWithNothingEdited) {
  // Add-6's legacy broadcast attribute is gone from opset 7 on.
  PassOutcome out = runPassMayFail(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
main (float[2,3] a, float[3] b) => (float[2,3] y) { y = Add <broadcast = 1> (a, b) })");
  EXPECT_FALSE(out.step.changed);
  EXPECT_TRUE(out.step.rolledBack);
  EXPECT_NE(out.step.error.str().find("attribute 'broadcast'"), std::string::npos)
      << out.step.error.str();
  EXPECT_EQ(out.model.opsetVersion(""), 6);
}

TEST(RaiseOpset, ASoftmaxOfUnknownRankIsRefused) {
  // A Reshape to a shape read at run time: the rank is not known.
  PassOutcome out = runPassMayFail(kPass, R"(<ir_version: 7, opset_import: ["" : 11]>
main (float[2,3] x, int64[?] s) => (float[?,?] y) {
    r = Reshape(x, s)
    y = Softmax <axis = 1> (r) })");
  EXPECT_TRUE(out.step.rolledBack);
  EXPECT_NE(out.step.error.str().find("rank is unknown"), std::string::npos)
      << out.step.error.str();
}

TEST(RaiseOpset, ADropoutWithAnUnreadMaskIsRaised) {
  // The mask's type changes at 10 (float to bool); unread, it may.
  PassOutcome out = runPass(kPass, R"(<ir_version: 7, opset_import: ["" : 9]>
main (float[2] x) => (float[2] y) {
    d, m = Dropout <ratio = 0.2> (x)
    y = Relu(d) })");
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_TRUE(out.step.verifierErrors.empty());
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  EXPECT_EQ(out.model.opsetVersion(""), 13);
}

TEST(RaiseOpset, AReadDropoutMaskIsRefused) {
  PassOutcome out = runPassMayFail(kPass, R"(<ir_version: 7, opset_import: ["" : 9]>
main (float[2] x) => (float[2] y, float[2] m) { y, m = Dropout(x) })");
  EXPECT_TRUE(out.step.rolledBack);
  EXPECT_NE(out.step.error.str().find("mask is read"), std::string::npos) << out.step.error.str();
}

}  // namespace
}  // namespace passlab::testing
