// push_transposes through Split (rule transpose_through_split), with Shape
// readers on the chain, and through ONNX Runtime's quantized elementwise ops
// (com.microsoft QLinear*): the rewrites exactly, where they must not fire
// (with the reason), outputs kept and convergence.
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "push_transposes";

int countOp(const ir::Model& m, const std::string& op) {
  int n = 0;
  for (const auto& node : m.graph().nodes()) n += node->opType() == op ? 1 : 0;
  return n;
}

// ---- Split ----

TEST(PushTransposesSplit, SplitOfATransposeTransposedBackLosesAllTransposes) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[2,3,1] ya, float[2,3,3] yb)
      <int64[2] s = {1, 3}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      a, b = Split <axis = 1> (t, s)
      ya = Transpose <perm = [0, 2, 1]> (a)
      yb = Transpose <perm = [0, 2, 1]> (b) })",
                R"(main (float[2,3,4] x) => (float[2,3,1] ya, float[2,3,3] yb)
      <int64[2] s = {1, 3}> {
      ya, yb = Split <axis = 2> (x, s) })");
}

TEST(PushTransposesSplit, PermsThatDoNotCancelMerge) {
  // [0,2,1] then [1,0,2] is one Transpose by [2,0,1] per part; negative axis.
  expectRewrite(kPass, R"(<ir_version: 8, opset_import: ["" : 18]>
main (float[2,3,4] x) => (float[4,1,3] ya, float[4,1,3] yb) {
      t = Transpose <perm = [0, 2, 1]> (x)
      a, b = Split <axis = -3, num_outputs = 2> (t)
      ya = Transpose <perm = [1, 0, 2]> (a)
      yb = Transpose <perm = [1, 0, 2]> (b) })",
                R"(<ir_version: 8, opset_import: ["" : 18]>
main (float[2,3,4] x) => (float[4,1,3] ya, float[4,1,3] yb) {
      a, b = Split <axis = 0, num_outputs = 2> (x)
      ya = Transpose <perm = [2, 0, 1]> (a)
      yb = Transpose <perm = [2, 0, 1]> (b) })");
}

// Channel halves of a channels-last tensor: one part goes back to channels
// first, the other is read by a Relu (it keeps a Transpose by p).
const char* kSplitOneBack = R"(<ir_version: 8, opset_import: ["" : 18]>
main (float[1,4,3,3] x) => (float[1,2,3,3] ya, float[1,3,3,2] yb) {
    t = Transpose <perm = [0, 2, 3, 1]> (x)
    a, b = Split <axis = 3, num_outputs = 2> (t)
    ya = Transpose <perm = [0, 3, 1, 2]> (a)
    yb = Relu(b) })";

TEST(PushTransposesSplit, APartReadOtherwiseKeepsATransposeByThePerm) {
  expectRewrite(kPass, kSplitOneBack,
                R"(<ir_version: 8, opset_import: ["" : 18]>
main (float[1,4,3,3] x) => (float[1,2,3,3] ya, float[1,3,3,2] yb) {
      ya, b = Split <axis = 1, num_outputs = 2> (x)
      bt = Transpose <perm = [0, 2, 3, 1]> (b)
      yb = Relu(bt) })");
}

TEST(PushTransposesSplit, KeepsOutputsAndConverges) {
  expectSameOutputs(kPass, kSplitOneBack);
  expectConverges(kPass, kSplitOneBack);
  const char* withSizes = R"(main (float[2,3,5] x) => (float[2,3,2] ya, float[2,3,3] yb)
      <int64[2] s = {2, 3}> {
      t = Transpose <perm = [2, 0, 1]> (x)
      a, b = Split <axis = 0> (t, s)
      ya = Transpose <perm = [1, 2, 0]> (a)
      yb = Transpose <perm = [1, 2, 0]> (b) })";
  expectSameOutputs(kPass, withSizes);
  expectConverges(kPass, withSizes);
}

TEST(PushTransposesSplit, KeepsASplitWhosePartsAreNotTransposedBack) {
  // One Transpose in, two would come out (one per part).
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (float[2,1,3] ya, float[2,3,3] yb)
      <int64[2] s = {1, 3}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      a, b = Split <axis = 1> (t, s)
      ya = Relu(a)
      yb = Relu(b) })",
                  "it would leave 2 Transposes of 1");
}

TEST(PushTransposesSplit, KeepsATransposeReadBesidesTheSplit) {
  expectUnchanged(kPass,
                  R"(main (float[2,3,4] x) => (float[2,3,1] ya, float[2,3,3] yb, float[2,4,3] z)
      <int64[2] s = {1, 3}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      z = Relu(t)
      a, b = Split <axis = 1> (t, s)
      ya = Transpose <perm = [0, 2, 1]> (a)
      yb = Transpose <perm = [0, 2, 1]> (b) })",
                  "has 2 consumers");
}

// ---- Shape readers on a chain ----

// A Transpose pair around a Relu whose input's shape is read (dynamic batch):
// the Shape of the transposed value is the Shape of x gathered by the perm.
const char* kShapeRead = R"(<ir_version: 7, opset_import: ["" : 13]>
main (float[N,3,4] x) => (float[N,3,4] y, int64[3] s) {
    t = Transpose <perm = [0, 2, 1]> (x)
    s = Shape(t)
    r = Relu(t)
    y = Transpose <perm = [0, 2, 1]> (r) })";

TEST(PushTransposesShape, AShapeOfTheChainReadsXGathered) {
  expectRewrite(kPass, kShapeRead, R"(<ir_version: 7, opset_import: ["" : 13]>
main (float[N,3,4] x) => (float[N,3,4] y, int64[3] s) <int64[3] d = {0, 2, 1}> {
    sx = Shape(x)
    s = Gather(sx, d)
    y = Relu(x) })");
  expectSameOutputs(kPass, kShapeRead);
  expectConverges(kPass, kShapeRead);
}

TEST(PushTransposesShape, ConsecutiveDimsAreAShapeWithStartAndEnd) {
  // t = Transpose(x, [1, 2, 0]): dims 0 and 1 of the chain are dims 1 and 2
  // of the new value, consecutive, so Shape(end = 2) becomes Shape(start = 1,
  // end = 3) of it (opset 15) and no Gather is needed.
  const char* in = R"(<ir_version: 8, opset_import: ["" : 15]>
main (float[N,3,4] x) => (float[N,3,4] y, int64[2] s) {
    t = Transpose <perm = [1, 2, 0]> (x)
    r = Relu(t)
    s = Shape <end = 2> (r)
    y = Transpose <perm = [2, 0, 1]> (r) })";
  expectRewrite(kPass, in, R"(<ir_version: 8, opset_import: ["" : 15]>
main (float[N,3,4] x) => (float[N,3,4] y, int64[2] s) {
    y = Relu(x)
    s = Shape <start = 1, end = 3> (y) })");
  expectSameOutputs(kPass, in);
}

TEST(PushTransposesShape, KeepsAChainWhoseShapesCostMoreGathersThanItSaves) {
  // Three Shapes that need a Gather each, for two Transposes.
  expectUnchanged(kPass, R"(<ir_version: 7, opset_import: ["" : 13]>
main (float[N,3,4] x) => (float[N,3,4] y, int64[3] s1, int64[3] s2, int64[3] s3) {
    t = Transpose <perm = [0, 2, 1]> (x)
    s1 = Shape(t)
    r = Relu(t)
    s2 = Shape(r)
    e = Exp(r)
    s3 = Shape(e)
    y = Transpose <perm = [0, 2, 1]> (e) })",
                  "would need 3 Gathers for 2 Transposes");
}

TEST(PushTransposesShape, KeepsAValueReadByShapeOnly) {
  expectUnchanged(kPass, R"(main (float[N,3,4] x) => (int64[3] s) {
      t = Transpose <perm = [0, 2, 1]> (x)
      s = Shape(t) })",
                  "is read by Shape only");
}

// ---- com.microsoft QLinear elementwise ops ----

const char* kQLinear = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[1,2,3,4] x) => (uint8[1,2,3,4] y)
    <float s1 = {0.05}, uint8 z1 = {128}, float s2 = {0.02}, uint8 z2 = {120},
     float s3 = {0.04}, uint8 z3 = {100}, uint8[4,1] b = {0, 60, 130, 255}> {
    t = Transpose <perm = [0, 2, 3, 1]> (x)
    a = com.microsoft.QLinearAdd(t, s1, z1, b, s2, z2, s3, z3)
    g = com.microsoft.QLinearSigmoid(a, s3, z3, s1, z1)
    l = com.microsoft.QLinearLeakyRelu <alpha = 0.1> (g, s1, z1, s2, z2)
    m = com.microsoft.QLinearMul(l, s2, z2, l, s2, z2, s3, z3)
    y = Transpose <perm = [0, 3, 1, 2]> (m) })";

TEST(PushTransposesQLinear, QuantizedElementwiseOpsPassLikeTheirFloatOps) {
  PassOutcome out = runPass(kPass, kQLinear);
  EXPECT_TRUE(out.step.changed);
  EXPECT_EQ(countOp(out.model, "Transpose"), 0) << io::printModelText(out.model);
  EXPECT_EQ(countOp(out.model, "QLinearAdd"), 1) << io::printModelText(out.model);
  for (const auto& n : out.model.graph().nodes())
    EXPECT_EQ(n->domain(), "com.microsoft") << io::printModelText(out.model);
  // The side operand b [4,1] (broadcast over [1,3,4,2]) becomes [1,1,1,4].
  expectSameOutputs(kPass, kQLinear);
  expectConverges(kPass, kQLinear);
}

TEST(PushTransposesQLinear, KeepsAChainReadAsAScale) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (float[1] x, uint8[1] q) => (uint8[1] y) <uint8 z = {0}, float s = {0.1}> {
    t = Transpose <perm = [0]> (x)
    a = com.microsoft.QLinearSigmoid(q, t, z, s, z)
    y = Transpose <perm = [0]> (a) })",
                  "as a scalar parameter");
}

TEST(PushTransposesQLinear, KeepsANonConstantSideOperand) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
main (uint8[2,3] x, uint8[3,2] b) => (uint8[2,3] y) <uint8 z = {0}, float s = {0.1}> {
    t = Transpose <perm = [1, 0]> (x)
    a = com.microsoft.QLinearAdd(t, s, z, b, s, z, s, z)
    y = Transpose <perm = [1, 0]> (a) })",
                  "has a non-constant side operand");
}

}  // namespace
}  // namespace passlab::testing
