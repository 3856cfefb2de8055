// eliminate_common_subexpressions: merging, commutative inputs, attributes,
// constants, what is never merged (random ops, subgraph owners, DQ, two model
// outputs) with the explanation, subgraph scoping, convergence and numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "eliminate_common_subexpressions";

TEST(EliminateCommonSubexpressions, MergesEqualNodesAndWhatTheyFeed) {
  expectRewrite(kPass, R"(main (float[2] x) => (float[2] y) {
      a = Relu(x)
      b = Relu(x)
      c = Neg(a)
      d = Neg(b)
      y = Add(c, d) })",
                R"(main (float[2] x) => (float[2] y) {
      a = Relu(x)
      c = Neg(a)
      y = Add(c, c) })");
}

TEST(EliminateCommonSubexpressions, KeepsTheOutputs) {
  expectSameOutputs(kPass, R"(main (float[2,3] x, float[2,3] z) => (float[2,3] y) {
      a = Add(x, z)
      b = Add(z, x)
      c = Relu(a)
      d = Relu(b)
      y = Mul(c, d) })");
}

TEST(EliminateCommonSubexpressions, CommutativeInputsInEitherOrder) {
  expectRewrite(kPass, R"(main (float[2] x, float[2] z) => (float[2] y) {
      a = Mul(x, z)
      b = Mul(z, x)
      y = Sub(a, b) })",
                R"(main (float[2] x, float[2] z) => (float[2] y) {
      a = Mul(x, z)
      y = Sub(a, a) })");
}

TEST(EliminateCommonSubexpressions, KeepsNonCommutativeInputsInOtherOrder) {
  expectUnchanged(kPass, R"(main (float[2] x, float[2] z) => (float[2] y) {
      a = Sub(x, z)
      b = Sub(z, x)
      y = Add(a, b) })");
  // Max/Min are not reordered: which operand a NaN comes from differs between runtimes.
  expectUnchanged(kPass, R"(main (float[2] x, float[2] z) => (float[2] y) {
      a = Max(x, z)
      b = Max(z, x)
      y = Add(a, b) })");
}

TEST(EliminateCommonSubexpressions, AttributesMustMatchInAnyOrder) {
  expectRewrite(kPass, R"(main (float[2,3] x, float[3,3] w) => (float[2,3] y) {
      a = Gemm <alpha = 2.0, transB = 1> (x, w)
      b = Gemm <transB = 1, alpha = 2.0> (x, w)
      y = Add(a, b) })",
                R"(main (float[2,3] x, float[3,3] w) => (float[2,3] y) {
      a = Gemm <alpha = 2.0, transB = 1> (x, w)
      y = Add(a, a) })");
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) {
      a = LeakyRelu <alpha = 0.1> (x)
      b = LeakyRelu <alpha = 0.2> (x)
      y = Add(a, b) })");
}

TEST(EliminateCommonSubexpressions, MergesEqualConstants) {
  expectRewrite(kPass, R"(main (float[2] x) => (float[2] y) {
      a = Constant <value = float[2] {1, 2}> ()
      b = Constant <value = float[2] {1, 2}> ()
      c = Constant <value = float[2] {1, 3}> ()
      d = Add(x, a)
      e = Mul(d, b)
      y = Sub(e, c) })",
                R"(main (float[2] x) => (float[2] y) {
      a = Constant <value = float[2] {1, 2}> ()
      c = Constant <value = float[2] {1, 3}> ()
      d = Add(x, a)
      e = Mul(d, a)
      y = Sub(e, c) })");
}

TEST(EliminateCommonSubexpressions, NeverMergesRandomOps) {
  expectUnchanged(kPass, R"(main (float[2] x) => (float[2] y) {
      a = RandomNormalLike(x)
      b = RandomNormalLike(x)
      y = Add(a, b) })",
                  "draws random numbers");
}

TEST(EliminateCommonSubexpressions, SkipsNodesWithSubgraphs) {
  expectUnchanged(kPass, R"(main (float[2] x, bool c) => (float[2] y) {
      a = If <then_branch = t1 () => (float[2] o) { o = Relu(x) },
              else_branch = e1 () => (float[2] p) { p = Neg(x) }> (c)
      b = If <then_branch = t2 () => (float[2] o) { o = Relu(x) },
              else_branch = e2 () => (float[2] p) { p = Neg(x) }> (c)
      y = Add(a, b) })");
}

// Equal DequantizeLinear nodes merge by default (ONNX Runtime gives each QDQ
// node unit its own copy again when it loads the model); asked to, they stay apart.
TEST(EliminateCommonSubexpressions, MergesDequantizeLinearUnlessAskedToKeepThemApart) {
  const char* m = R"(main (int8[4] q) => (float[4] y) <float s = {0.5}, int8 z = {1}> {
      a = DequantizeLinear(q, s, z)
      b = DequantizeLinear(q, s, z)
      y = Add(a, b) })";
  expectRewrite(kPass, m, R"(main (int8[4] q) => (float[4] y) <float s = {0.5}, int8 z = {1}> {
      a = DequantizeLinear(q, s, z)
      y = Add(a, a) })");
  expectUnchanged(kPass, m, "QDQ node unit", {{"merge_dequantize_linear", "false"}});
}

TEST(EliminateCommonSubexpressions, NeverMergesTwoModelOutputs) {
  expectUnchanged(kPass, R"(main (float[2] x) => (float[2] y, float[2] z) { y = Relu(x)
      z = Relu(x) })",
                  "are both model outputs");
}

TEST(EliminateCommonSubexpressions, SurvivorTakesTheModelOutputName) {
  PassOutcome out = runPass(kPass, R"(main (float[2] x) => (float[2] w, float[2] y) {
      a = Relu(x)
      w = Neg(a)
      y = Relu(x) })");
  const ir::Graph& g = out.model.graph();
  EXPECT_EQ(g.nodeCount(), 2u);
  EXPECT_EQ(g.outputs()[1]->name(), "y");
  EXPECT_EQ(g.outputs()[1]->producer()->opType(), "Relu");
  EXPECT_EQ(g.findValue("w")->producer()->input(0)->name(), "y");
}

TEST(EliminateCommonSubexpressions, NodesInABranchReuseEarlierOuterNodes) {
  PassOutcome out = runPass(kPass, R"(main (float[2] x, bool c) => (float[2] y) {
      a = Relu(x)
      y = If <then_branch = t () => (float[2] o) { r = Relu(x)
                                                  o = Neg(r) },
              else_branch = e () => (float[2] p) { s = Relu(x)
                                                  p = Neg(s) }> (c) })");
  const ir::Node* iff = out.model.graph().nodes().back().get();
  ASSERT_EQ(iff->opType(), "If");
  for (ir::Graph* branch : iff->subgraphs()) {
    ASSERT_EQ(branch->nodeCount(), 1u);
    EXPECT_EQ(branch->nodes().front()->input(0)->name(), "a");
  }
}

TEST(EliminateCommonSubexpressions, SiblingBranchesAreNotMerged) {
  PassOutcome out = runPass(kPass, R"(main (float[2] x, bool c) => (float[2] y) {
      y = If <then_branch = t () => (float[2] o) { o = Relu(x) },
              else_branch = e () => (float[2] p) { p = Relu(x) }> (c) })");
  EXPECT_FALSE(out.step.changed);
}

TEST(EliminateCommonSubexpressions, Converges) {
  expectConverges(kPass, R"(main (float[2] x, float[2] z) => (float[2] y) {
      a = Add(x, z)
      b = Add(z, x)
      c = Relu(a)
      d = Relu(b)
      e = Mul(c, d)
      f = Mul(d, c)
      y = Sub(e, f) })");
}

}  // namespace
}  // namespace passlab::testing
