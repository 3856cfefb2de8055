// eliminate_inverse_pairs: one structural case per rule, negative cases with
// their explanation, opset variants, shared intermediates, subgraphs,
// convergence and numeric equivalence.
#include <gtest/gtest.h>

#include "core/analysis/shape_inference.h"
#include "core/passes/registry.h"
#include "core/rewrite/rewriter.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "eliminate_inverse_pairs";

TEST(EliminateInversePairs, TransposesThatCancel) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[2,3,4] y) {
      t = Transpose <perm = [1, 2, 0]> (x)
      u = Transpose <perm = [2, 0, 1]> (t)
      y = Relu(u) })",
                R"(main (float[2,3,4] x) => (float[2,3,4] y) { y = Relu(x) })");
  // Without perm both reverse the axes.
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[2,3,4] y) { t = Transpose(x)
      u = Transpose(t)
      y = Relu(u) })",
                R"(main (float[2,3,4] x) => (float[2,3,4] y) { y = Relu(x) })");
}

TEST(EliminateInversePairs, KeepsTransposesThatComposeToAnotherPermutation) {
  expectUnchanged(kPass, R"(main (float[2,3,4] x) => (float[3,4,2] y) {
      t = Transpose <perm = [1, 0, 2]> (x)
      u = Transpose <perm = [0, 2, 1]> (t)
      y = Relu(u) })",
                  "not the identity");
}

TEST(EliminateInversePairs, IntermediateWithAnotherConsumerKeepsItsNode) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y, float[3,2] z) {
      t = Transpose <perm = [1, 0]> (x)
      u = Transpose <perm = [1, 0]> (t)
      y = Neg(u)
      z = Relu(t) })",
                R"(main (float[2,3] x) => (float[2,3] y, float[3,2] z) {
      t = Transpose <perm = [1, 0]> (x)
      y = Neg(x)
      z = Relu(t) })");
}

TEST(EliminateInversePairs, IntermediateThatIsAModelOutputStays) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y, float[3,2] t) {
      t = Transpose <perm = [1, 0]> (x)
      u = Transpose <perm = [1, 0]> (t)
      y = Neg(u) })",
                R"(main (float[2,3] x) => (float[2,3] y, float[3,2] t) {
      t = Transpose <perm = [1, 0]> (x)
      y = Neg(x) })");
}

TEST(EliminateInversePairs, KeepsPairBetweenModelInputAndOutput) {
  expectUnchanged(kPass,
                  R"(main (float[2,3] x) => (float[2,3] y) { t = Transpose <perm = [1, 0]> (x)
      y = Transpose <perm = [1, 0]> (t) })",
                  "model input");
}

TEST(EliminateInversePairs, OuterNodeInsideASubgraph) {
  PassOutcome out = runPass(kPass, R"(main (float[2,3] x, bool c) => (float[2,3] y) {
      t = Transpose <perm = [1, 0]> (x)
      y = If <then_branch = g1 () => (float[2,3] o) { o = Transpose <perm = [1, 0]> (t) },
              else_branch = g2 () => (float[2,3] p) { p = Neg(x) }> (c) })");
  const ir::Graph& g = out.model.graph();
  ASSERT_EQ(g.nodeCount(), 1u) << "the outer Transpose is dead once the branch reads x";
  // The branch returns x through an Identity (ONNX Runtime refuses an outer
  // value returned directly).
  const ir::Graph& branch = *g.nodes().front()->subgraphs()[0];
  ASSERT_EQ(branch.nodeCount(), 1u);
  EXPECT_EQ(branch.nodes().front()->opType(), "Identity");
  EXPECT_EQ(branch.nodes().front()->input(0)->name(), "x");
  EXPECT_EQ(branch.outputs()[0]->owner(), &branch);
}

TEST(EliminateInversePairs, UnsqueezeOfSqueeze) {
  expectRewrite(kPass,
                R"(main (float[2,1,3] x) => (float[2,1,3] y) <int64[1] a = {1}, int64[1] b = {-2}> {
      t = Squeeze(x, a)
      u = Unsqueeze(t, b)
      y = Relu(u) })",
                R"(main (float[2,1,3] x) => (float[2,1,3] y) { y = Relu(x) })");
}

TEST(EliminateInversePairs, UnsqueezeOfSqueezeWithAttributesBeforeOpset13) {
  const char* h = R"(<ir_version: 6, opset_import: ["" : 11]>)";
  expectRewrite(kPass, std::string(h) + R"(main (float[2,1,3] x) => (float[2,1,3] y) {
      t = Squeeze <axes = [1]> (x)
      u = Unsqueeze <axes = [1]> (t)
      y = Relu(u) })",
                std::string(h) + R"(main (float[2,1,3] x) => (float[2,1,3] y) { y = Relu(x) })");
}

TEST(EliminateInversePairs, KeepsSqueezeAndUnsqueezeOnDifferentAxes) {
  expectUnchanged(
      kPass, R"(main (float[2,1,3,1] x) => (float[2,3,1,1] y) <int64[1] a = {1}, int64[1] b = {3}> {
      t = Squeeze(x, a)
      u = Unsqueeze(t, b)
      y = Relu(u) })",
      "differ");
}

TEST(EliminateInversePairs, SqueezeOfUnsqueeze) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <int64[2] a = {0, 3}> {
      t = Unsqueeze(x, a)
      u = Squeeze(t, a)
      y = Relu(u) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

TEST(EliminateInversePairs, KeepsSqueezeWithoutAxesAfterUnsqueeze) {
  expectUnchanged(kPass, R"(main (float[2,1] x) => (float[2] y) <int64[1] a = {0}> {
      t = Unsqueeze(x, a)
      u = Squeeze(t)
      y = Relu(u) })",
                  "also removes x's own 1s");
}

TEST(EliminateInversePairs, ReshapeBackToTheOriginalShape) {
  expectRewrite(kPass, R"(main (float[2,3,4] x) => (float[2,3,4] y) <int64[3] s = {2, 3, 4}> {
      t = Flatten <axis = 1> (x)
      u = Reshape(t, s)
      y = Relu(u) })",
                R"(main (float[2,3,4] x) => (float[2,3,4] y) { y = Relu(x) })");
  // Symbolic dims compare by name.
  expectRewrite(
      kPass,
      R"(main (float[N,6] x) => (float[N,6] y) <int64[3] a = {0, 2, 3}, int64[2] b = {0, 6}> {
      t = Reshape(x, a)
      u = Reshape(t, b)
      y = Relu(u) })",
      R"(main (float[N,6] x) => (float[N,6] y) { y = Relu(x) })");
}

TEST(EliminateInversePairs, KeepsReshapeToAnotherShape) {
  expectUnchanged(
      kPass, R"(main (float[2,6] x) => (float[3,4] y) <int64[2] a = {6, 2}, int64[2] b = {3, 4}> {
      t = Reshape(x, a)
      u = Reshape(t, b)
      y = Relu(u) })",
      "is not known to equal the original");
}

TEST(EliminateInversePairs, NegAndNotTwice) {
  expectRewrite(kPass, R"(main (float[2] x, bool[2] b) => (float[2] y, bool[2] z) {
      t = Neg(x)
      u = Neg(t)
      y = Relu(u)
      c = Not(b)
      d = Not(c)
      z = Not(d) })",
                R"(main (float[2] x, bool[2] b) => (float[2] y, bool[2] z) {
      y = Relu(x)
      z = Not(b) })");
}

TEST(EliminateInversePairs, NegTwiceKeepsTheOutputs) {
  expectSameOutputs(kPass, R"(main (float[2,3] x) => (float[2,3] y) { t = Neg(x)
      u = Neg(t)
      y = Relu(u) })");
}

TEST(EliminateInversePairs, ReciprocalTwiceOnlyWhenAsked) {
  const char* m = R"(main (float[2] x) => (float[2] y) { t = Reciprocal(x)
      u = Reciprocal(t)
      y = Relu(u) })";
  expectUnchanged(kPass, m, "rounds twice");
  expectRewrite(kPass, m, R"(main (float[2] x) => (float[2] y) { y = Relu(x) })",
                {{"reciprocal_pairs", "true"}});
}

// A matcher reads a boolean option as the pass context does: a pass run
// outside the PassManager gets its options as given, and "yes" (or "1",
// "on") turns reciprocal_pairs on as boolOption says, not only "true".
TEST(EliminateInversePairs, ReciprocalPairsOptionReadAsTheContextReadsIt) {
  ir::Model model = parse(R"(main (float[2] x) => (float[2] y) { t = Reciprocal(x)
      u = Reciprocal(t)
      y = Relu(u) })");
  analysis::inferShapes(model);
  rewrite::EditLog log;
  rewrite::Rewriter rw(model, log);
  passes::PassContext ctx{rw, {{"reciprocal_pairs", "yes"}}};
  ASSERT_TRUE(ctx.boolOption("reciprocal_pairs"));
  ASSERT_TRUE(passes::findPass(kPass)->run(ctx).isOk());
  EXPECT_FALSE(log.empty()) << "reciprocal_pairs = yes removed nothing";
}

TEST(EliminateInversePairs, WideningCastAndBack) {
  expectRewrite(kPass, R"(main (float[2] x, int8[2] i) => (float[2] y, int8[2] j) {
      t = Cast <to = 11> (x)
      u = Cast <to = 1> (t)
      y = Relu(u)
      a = Cast <to = 1> (i)
      b = Cast <to = 3> (a)
      j = Neg(b) })",
                R"(main (float[2] x, int8[2] i) => (float[2] y, int8[2] j) {
      y = Relu(x)
      j = Neg(i) })");
}

TEST(EliminateInversePairs, KeepsNarrowingCastAndBack) {
  expectUnchanged(kPass, R"(main (float[2] x) => (float[2] y) { t = Cast <to = 6> (x)
      u = Cast <to = 1> (t)
      y = Relu(u) })",
                  "float -> int32 loses values");
}

TEST(EliminateInversePairs, SpaceToDepthAndBack) {
  expectRewrite(kPass, R"(main (float[1,1,4,4] x) => (float[1,1,4,4] y) {
      t = SpaceToDepth <blocksize = 2> (x)
      u = DepthToSpace <blocksize = 2> (t)
      y = Relu(u) })",
                R"(main (float[1,1,4,4] x) => (float[1,1,4,4] y) { y = Relu(x) })");
  expectRewrite(kPass, R"(main (float[1,4,2,2] x) => (float[1,4,2,2] y) {
      t = DepthToSpace <blocksize = 2, mode = "DCR"> (x)
      u = SpaceToDepth <blocksize = 2> (t)
      y = Relu(u) })",
                R"(main (float[1,4,2,2] x) => (float[1,4,2,2] y) { y = Relu(x) })");
}

TEST(EliminateInversePairs, KeepsDepthToSpaceInCrdModeOrOtherBlockSize) {
  expectUnchanged(kPass, R"(main (float[1,4,2,2] x) => (float[1,4,2,2] y) {
      t = DepthToSpace <blocksize = 2, mode = "CRD"> (x)
      u = SpaceToDepth <blocksize = 2> (t)
      y = Relu(u) })",
                  "CRD mode");
  expectUnchanged(kPass, R"(main (float[1,1,4,4] x) => (float[1,1,4,4] y) {
      t = SpaceToDepth <blocksize = 2> (x)
      u = DepthToSpace <blocksize = 1> (t)
      y = Relu(u) })",
                  "block sizes differ");
}

TEST(EliminateInversePairs, OptionalAndGetElement) {
  const char* h = R"(<ir_version: 8, opset_import: ["" : 18]>)";
  expectRewrite(kPass, std::string(h) + R"(main (float[2] x) => (float[2] y) { o = Optional(x)
      u = OptionalGetElement(o)
      y = Relu(u) })",
                std::string(h) + R"(main (float[2] x) => (float[2] y) { y = Relu(x) })");
}

TEST(EliminateInversePairs, Converges) {
  expectConverges(kPass, R"(main (float[2,3] x) => (float[2,3] y) {
      a = Neg(x)
      b = Transpose <perm = [1, 0]> (a)
      c = Transpose <perm = [1, 0]> (b)
      d = Neg(c)
      y = Relu(d) })");
}

TEST(EliminateInversePairs, NestedPairsGoInOneRun) {
  // Neg(Transpose(Transpose(Neg(x)))): the Transposes go, then the Negs meet.
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) {
      a = Neg(x)
      b = Transpose <perm = [1, 0]> (a)
      c = Transpose <perm = [1, 0]> (b)
      d = Neg(c)
      y = Relu(d) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

}  // namespace
}  // namespace passlab::testing
