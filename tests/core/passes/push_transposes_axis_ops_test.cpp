// push_transposes through ops with axis parameters (core/passes/transpose_axis_ops.h):
// a synthetic pattern suite, one sandwich Transpose -> op -> inverse Transpose
// per op family (the rewrite, exactly), the parameters that stop it (with the
// reason), a mixed chain that must keep its outputs, and convergence.
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "push_transposes";

// x[2,3,4] -> t = Transpose(x, [0, 2, 1]) : [2,4,3] -> op -> Transpose back.
std::string sandwich(const std::string& out, const std::string& constants, const std::string& op) {
  return "main (float[2,3,4] x) => (" + out + " y) " + constants + " {\n" +
         "  t = Transpose <perm = [0, 2, 1]> (x)\n" + "  o = " + op + "\n" +
         "  y = Transpose <perm = [0, 2, 1]> (o) }";
}

TEST(PushTransposesAxisOps, SoftmaxFamilyTakesTheMappedAxis) {
  for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"}) {
    SCOPED_TRACE(op);
    expectRewrite(
        kPass, sandwich("float[2,3,4]", "", std::string(op) + " <axis = 1> (t)"),
        "main (float[2,3,4] x) => (float[2,3,4] y) { y = " + std::string(op) + " <axis = 2> (x) }");
  }
  // The default axis (-1, the last of t) is axis 1 of x.
  expectRewrite(kPass, sandwich("float[2,3,4]", "", "Softmax(t)"),
                "main (float[2,3,4] x) => (float[2,3,4] y) { y = Softmax <axis = 1> (x) }");
}

// Before opset 13 the op works on the input flattened to 2-D at its axis: a
// perm that keeps the axes before it before it only reorders the rows and,
// in each row, the elements (ONNX Runtime's rule). The axis stays.
TEST(PushTransposesAxisOps, SoftmaxFamilyBeforeOpset13KeepsItsAxis) {
  const std::string v12 = R"(<ir_version: 7, opset_import: ["" : 12]>
)";
  for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"}) {
    SCOPED_TRACE(op);
    const std::string in = v12 + sandwich("float[2,3,4]", "", std::string(op) + " <axis = 1> (t)");
    expectRewrite(kPass, in,
                  v12 + "main (float[2,3,4] x) => (float[2,3,4] y) { y = " + std::string(op) +
                      " <axis = 1> (x) }");
    expectConverges(kPass, in);
  }
}

TEST(PushTransposesAxisOps, ArgMaxAndLpNormalization) {
  expectRewrite(kPass, sandwich("int64[2,1,4]", "", "ArgMax <axis = 2> (t)"),
                "main (float[2,3,4] x) => (int64[2,1,4] y) { y = ArgMax <axis = 1> (x) }");
  expectRewrite(kPass, sandwich("float[2,3,4]", "", "LpNormalization <axis = 1> (t)"),
                "main (float[2,3,4] x) => (float[2,3,4] y) { y = LpNormalization <axis = 2> (x) }");
}

TEST(PushTransposesAxisOps, GatherWithOneDimensionalIndices) {
  expectRewrite(kPass,
                sandwich("float[2,3,2]", "<int64[2] i = {0, 3}>", "Gather <axis = 1> (t, i)"),
                R"(main (float[2,3,4] x) => (float[2,3,2] y) <int64[2] i = {0, 3}> {
                   y = Gather <axis = 2> (x, i) })");
}

TEST(PushTransposesAxisOps, GatherWithRuntimeIndicesToo) {
  expectRewrite(kPass, R"(main (float[2,3,4] x, int64[2] i) => (float[2,3,2] y) {
      t = Transpose <perm = [0, 2, 1]> (x)
      o = Gather <axis = 1> (t, i)
      y = Transpose <perm = [0, 2, 1]> (o) })",
                R"(main (float[2,3,4] x, int64[2] i) => (float[2,3,2] y) {
      y = Gather <axis = 2> (x, i) })");
}

TEST(PushTransposesAxisOps, SliceAxesAreMappedOrMadeExplicit) {
  expectRewrite(kPass,
                sandwich("float[2,3,2]", "<int64[1] s = {1}, int64[1] e = {3}, int64[1] a = {1}>",
                         "Slice(t, s, e, a)"),
                R"(main (float[2,3,4] x) => (float[2,3,2] y)
                   <int64[1] s = {1}, int64[1] e = {3}, int64[1] a = {2}> {
                   y = Slice(x, s, e, a) })");
  // No axes input: starts covers axes 0 and 1 of t, which are 0 and 2 of x.
  expectRewrite(
      kPass,
      sandwich("float[1,3,2]", "<int64[2] s = {1, 1}, int64[2] e = {2, 3}>", "Slice(t, s, e)"),
      R"(main (float[2,3,4] x) => (float[1,3,2] y)
                   <int64[2] s = {1, 1}, int64[2] e = {2, 3}, int64[2] a = {0, 2}> {
                   y = Slice(x, s, e, a) })");
  // Steps stay with their axes.
  expectRewrite(
      kPass,
      sandwich("float[2,3,2]",
               "<int64[1] s = {0}, int64[1] e = {4}, int64[1] a = {-2}, int64[1] k = {2}>",
               "Slice(t, s, e, a, k)"),
      R"(main (float[2,3,4] x) => (float[2,3,2] y)
                   <int64[1] s = {0}, int64[1] e = {4}, int64[1] a = {2}, int64[1] k = {2}> {
                   y = Slice(x, s, e, a, k) })");
}

TEST(PushTransposesAxisOps, SliceAxesKeepTheIntegerTypeOfRuntimeStarts) {
  // int32 starts computed at run time: the explicit axes are int32 too.
  expectRewrite(kPass, R"(main (float[2,3,4] x, int32[1] s) => (float[n,3,4] y)
      <int32[1] e = {3}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      o = Slice(t, s, e)
      y = Transpose <perm = [0, 2, 1]> (o) })",
                R"(main (float[2,3,4] x, int32[1] s) => (float[n,3,4] y)
      <int32[1] e = {3}, int32[1] a = {0}> {
      y = Slice(x, s, e, a) })");
}

TEST(PushTransposesAxisOps, PadPadsArePermuted) {
  // Begins and ends of t's axis 1 (4) are x's axis 2.
  expectRewrite(kPass, sandwich("float[2,3,7]", "<int64[6] p = {0, 1, 0, 0, 2, 0}>", "Pad(t, p)"),
                R"(main (float[2,3,4] x) => (float[2,3,7] y) <int64[6] p = {0, 0, 1, 0, 0, 2}> {
                   y = Pad(x, p) })");
}

TEST(PushTransposesAxisOps, TileAndExpandPerAxisValuesArePermuted) {
  expectRewrite(kPass, sandwich("float[2,3,8]", "<int64[3] r = {1, 2, 1}>", "Tile(t, r)"),
                R"(main (float[2,3,4] x) => (float[2,3,8] y) <int64[3] r = {1, 1, 2}> {
                   y = Tile(x, r) })");
  // Expand's shape is aligned from the right: [5, 3] is [1, 5, 3] for t.
  expectRewrite(kPass, R"(main (float[2,3,1] x) => (float[2,3,5] y) <int64[2] s = {5, 3}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      o = Expand(t, s)
      y = Transpose <perm = [0, 2, 1]> (o) })",
                R"(main (float[2,3,1] x) => (float[2,3,5] y) <int64[3] s = {1, 3, 5}> {
      y = Expand(x, s) })");
}

TEST(PushTransposesAxisOps, ResizeInChannelsLastIsResizeInChannelsFirst) {
  expectRewrite(kPass, R"(main (float[1,2,4,4] x) => (float[1,2,8,8] y)
      <float[4] sc = {1, 2, 2, 1}> {
      t = Transpose <perm = [0, 2, 3, 1]> (x)
      r = Resize <mode = "linear"> (t, , sc)
      y = Transpose <perm = [0, 3, 1, 2]> (r) })",
                R"(main (float[1,2,4,4] x) => (float[1,2,8,8] y) <float[4] sc = {1, 1, 2, 2}> {
      y = Resize <mode = "linear"> (x, , sc) })");
}

TEST(PushTransposesAxisOps, QuantizationPerAxisAndPerTensor) {
  expectRewrite(kPass, R"(main (uint8[2,3,4] x) => (float[2,3,4] y)
      <float[3] s = {0.5, 0.25, 2}, uint8[3] z = {1, 2, 3}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      d = DequantizeLinear <axis = 2> (t, s, z)
      y = Transpose <perm = [0, 2, 1]> (d) })",
                R"(main (uint8[2,3,4] x) => (float[2,3,4] y)
      <float[3] s = {0.5, 0.25, 2}, uint8[3] z = {1, 2, 3}> {
      y = DequantizeLinear <axis = 1> (x, s, z) })");
  expectRewrite(kPass,
                R"(main (float[2,3,4] x) => (uint8[2,3,4] y) <float s = {0.5}, uint8 z = {3}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      q = QuantizeLinear(t, s, z)
      y = Transpose <perm = [0, 2, 1]> (q) })",
                R"(main (float[2,3,4] x) => (uint8[2,3,4] y) <float s = {0.5}, uint8 z = {3}> {
      y = QuantizeLinear(x, s, z) })");
}

TEST(PushTransposesAxisOps, CumSumAxisInput) {
  expectRewrite(kPass, sandwich("float[2,3,4]", "<int64 a = {1}>", "CumSum(t, a)"),
                R"(main (float[2,3,4] x) => (float[2,3,4] y) <int64 a = {2}> {
                   y = CumSum(x, a) })");
}

TEST(PushTransposesAxisOps, UnsqueezeInsertsAxesInPlace) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[1,2,3] y) <int64[1] a = {0}> {
      t = Transpose <perm = [1, 0]> (x)
      u = Unsqueeze(t, a)
      y = Transpose <perm = [0, 2, 1]> (u) })",
                R"(main (float[2,3] x) => (float[1,2,3] y) <int64[1] a = {0}> {
      y = Unsqueeze(x, a) })");
}

TEST(PushTransposesAxisOps, SqueezeAndReductionsWithoutKeepdimsDropAxes) {
  expectRewrite(kPass, R"(main (float[2,1,3] x) => (float[2,3] y) <int64[1] a = {2}> {
      t = Transpose <perm = [2, 0, 1]> (x)
      s = Squeeze(t, a)
      y = Transpose <perm = [1, 0]> (s) })",
                R"(main (float[2,1,3] x) => (float[2,3] y) <int64[1] a = {1}> {
      y = Squeeze(x, a) })");
  // The kept axes are reordered (so the reduction alone cannot absorb it),
  // and the Transpose after it puts them back.
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[2,4] y) <int64[1] a = {1}> {
      t = Transpose <perm = [2, 1, 0]> (x)
      r = ReduceSum <keepdims = 0> (t, a)
      y = Transpose <perm = [1, 0]> (r) })",
                R"(main (float[2,3,4] x) => (float[2,4] y) <int64[1] a = {1}> {
      y = ReduceSum <keepdims = 0> (x, a) })");
}

// A rank-changing chain: Unsqueeze, an op with an axis, a reduction that drops it.
const char* kRankChanges = R"(main (float[2,3,4] x) => (float[2,1,4] y)
    <int64[1] u = {1}> {
    t = Transpose <perm = [0, 2, 1]> (x)
    a = Unsqueeze(t, u)
    s = Softmax <axis = 3> (a)
    m = ReduceMax <keepdims = 0, axes = [3]> (s)
    e = Exp(m)
    y = Transpose <perm = [0, 1, 2]> (e) })";

TEST(PushTransposesAxisOps, RankChangingChainKeepsItsOutputsAndConverges) {
  expectSameOutputs(kPass, kRankChanges);
  expectConverges(kPass, kRankChanges);
  // The perms compose to the identity: both Transposes go.
  PassOutcome out = runPass(kPass, kRankChanges);
  EXPECT_TRUE(out.step.changed);
  for (const auto& n : out.model.graph().nodes())
    EXPECT_NE(n->opType(), "Transpose") << io::printModelText(out.model);
  EXPECT_EQ(out.model.graph().nodes().size(), size_t{4}) << io::printModelText(out.model);
}

// ---- where it must not fire ----

TEST(PushTransposesAxisOps, KeepsASqueezeWithoutAxes) {
  expectUnchanged(kPass, R"(main (float[2,1,3] x) => (float[2,3] y) {
      t = Transpose <perm = [2, 0, 1]> (x)
      s = Squeeze(t)
      y = Transpose <perm = [1, 0]> (s) })",
                  "Squeeze has no axes");
}

TEST(PushTransposesAxisOps, KeepsSoftmaxBeforeOpset13WhenThePermCrossesTheFlatteningPoint) {
  expectUnchanged(kPass, std::string(R"(<ir_version: 7, opset_import: ["" : 12]>
)") + sandwich("float[2,3,4]", "", "Softmax <axis = 2> (t)"),
                  "before opset 13 it works on the input flattened to 2-D at axis 2, and the "
                  "perm [0, 2, 1] moves an axis across it");
  // The default axis, 1 before opset 13, for LogSoftmax too: [1, 0, 2] moves axis 1 before it.
  expectUnchanged(kPass, R"(<ir_version: 7, opset_import: ["" : 11]>
main (float[2,3,4] x) => (float[2,3,4] y) {
      t = Transpose <perm = [1, 0, 2]> (x)
      o = LogSoftmax(t)
      y = Transpose <perm = [1, 0, 2]> (o) })",
                  "flattened to 2-D at axis 1, and the perm [1, 0, 2] moves an axis across it");
}

TEST(PushTransposesAxisOps, KeepsOpsThatChangeTheRank) {
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (int64[4,2] y) {
      t = Transpose <perm = [0, 2, 1]> (x)
      o = ArgMax <axis = 2, keepdims = 0> (t)
      y = Transpose <perm = [1, 0]> (o) })",
                  "keepdims = 0 drops the axis");
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (float[3,2] y) <int64 i = {1}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      o = Gather <axis = 1> (t, i)
      y = Transpose <perm = [1, 0]> (o) })",
                  "its indices are not of rank 1");
  expectUnchanged(kPass,
                  R"(main (float[2,3,1] x) => (float[2,3,5,4] y) <int64[4] s = {4, 2, 5, 3}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      o = Expand(t, s)
      y = Transpose <perm = [1, 3, 2, 0]> (o) })",
                  "it has 4 values for 3 axes");
}

TEST(PushTransposesAxisOps, KeepsParametersThatAreNotConstant) {
  expectUnchanged(kPass, R"(main (float[2,3,4] x, int64[1] a) => (float[2,3,2] y)
      <int64[1] s = {1}, int64[1] e = {3}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      o = Slice(t, s, e, a)
      y = Transpose <perm = [0, 2, 1]> (o) })",
                  "the axes are not constant");
  expectUnchanged(kPass, R"(main (float[2,3,4] x, int64[6] p) => (float[2,3,7] y) {
      t = Transpose <perm = [0, 2, 1]> (x)
      o = Pad(t, p)
      y = Transpose <perm = [0, 2, 1]> (o) })",
                  "the pads are not constant");
  expectUnchanged(kPass, R"(main (float[2,3,4] x, int64[3] r) => (float[2,3,8] y) {
      t = Transpose <perm = [0, 2, 1]> (x)
      o = Tile(t, r)
      y = Transpose <perm = [0, 2, 1]> (o) })",
                  "its input 1 is not constant");
}

TEST(PushTransposesAxisOps, KeepsResizeWithAnAxesAttribute) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 18]>
main (float[1,2,4,4] x) => (float[1,2,8,8] y) <float[2] sc = {2, 2}> {
      t = Transpose <perm = [0, 2, 3, 1]> (x)
      r = Resize <axes = [1, 2]> (t, , sc)
      y = Transpose <perm = [0, 3, 1, 2]> (r) })",
                  "it has an axes attribute");
}

TEST(PushTransposesAxisOps, KeepsAChainReadAsIndices) {
  expectUnchanged(kPass, R"(main (int64[2,3] x, float[5] d) => (int64[2,3] y) {
      t = Transpose <perm = [1, 0]> (x)
      g = Gather(d, t)
      c = Cast <to = 7> (g)
      y = Transpose <perm = [1, 0]> (c) })",
                  "as a parameter");
}

// ---- numerics and convergence ----

// NHWC islands of a converted model: pad, resize, softmax over channels and a
// channel slice between a Transpose to NHWC and the one back.
const char* kChannelsLastIsland = R"(main (float[1,3,5,6] x) => (float[1,2,14,20] y)
    <int64[8] p = {0, 1, 2, 0, 0, 1, 2, 0}, float[4] sc = {1, 2, 2, 1},
     int64[1] s = {1}, int64[1] e = {3}, int64[1] a = {3}> {
    t = Transpose <perm = [0, 2, 3, 1]> (x)
    pd = Pad(t, p)
    r = Resize <mode = "linear"> (pd, , sc)
    sm = Softmax <axis = 3> (r)
    sl = Slice(sm, s, e, a)
    y = Transpose <perm = [0, 3, 1, 2]> (sl) })";

TEST(PushTransposesAxisOps, ChannelsLastIslandLosesBothTransposes) {
  PassOutcome out = runPass(kPass, kChannelsLastIsland);
  int transposes = 0, nodes = 0;
  for (const auto& n : out.model.graph().nodes()) {
    ++nodes;
    if (n->opType() == "Transpose") ++transposes;
  }
  EXPECT_EQ(transposes, 0) << io::printModelText(out.model);
  EXPECT_EQ(nodes, 4) << io::printModelText(out.model);  // Pad, Resize, Softmax, Slice
}

TEST(PushTransposesAxisOps, ChannelsLastIslandKeepsItsOutputs) {
  expectSameOutputs(kPass, kChannelsLastIsland);
}

TEST(PushTransposesAxisOps, ChannelsLastIslandConverges) {
  expectConverges(kPass, kChannelsLastIsland);
}

TEST(PushTransposesAxisOps, EachOpKeepsItsOutputs) {
  expectSameOutputs(kPass,
                    sandwich("float[2,3,2]", "<int64[2] i = {0, 3}>", "Gather <axis = 1> (t, i)"));
  expectSameOutputs(kPass, sandwich("float[2,3,8]", "<int64[3] r = {1, 2, 1}>", "Tile(t, r)"));
  expectSameOutputs(kPass, sandwich("float[2,3,4]", "<int64 a = {1}>", "CumSum(t, a)"));
  expectSameOutputs(kPass, sandwich("float[2,3,4]", "", "LpNormalization <axis = 1> (t)"));
  expectSameOutputs(kPass, sandwich("int64[2,1,4]", "", "ArgMax <axis = 2> (t)"));
  expectSameOutputs(kPass, R"(main (uint8[2,3,4] x) => (float[2,3,4] y)
      <float[3] s = {0.5, 0.25, 2}, uint8[3] z = {1, 2, 3}> {
      t = Transpose <perm = [0, 2, 1]> (x)
      d = DequantizeLinear <axis = 2> (t, s, z)
      y = Transpose <perm = [0, 2, 1]> (d) })");
}

}  // namespace
}  // namespace passlab::testing
