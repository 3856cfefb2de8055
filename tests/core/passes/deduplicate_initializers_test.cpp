// deduplicate_initializers: equal data merged; different data, dims or
// dtype kept; graph inputs, graph outputs and annotated names kept; subgraph
// scoping; convergence and numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "deduplicate_initializers";

TEST(DeduplicateInitializers, MergesEqualData) {
  expectRewrite(
      kPass, R"(main (float[3] x) => (float[3] y) <float[3] a = {1, 2, 3}, float[3] b = {1, 2, 3}> {
      t = Add(x, a)
      y = Mul(t, b) })",
      R"(main (float[3] x) => (float[3] y) <float[3] a = {1, 2, 3}> {
      t = Add(x, a)
      y = Mul(t, a) })");
}

TEST(DeduplicateInitializers, KeepsTheOutputs) {
  expectSameOutputs(
      kPass, R"(main (float[3] x) => (float[3] y) <float[3] a = {1, 2, 3}, float[3] b = {1, 2, 3}> {
      t = Add(x, a)
      y = Mul(t, b) })");
}

TEST(DeduplicateInitializers, KeepsDifferentDataDimsOrTypes) {
  expectUnchanged(kPass, R"(main (float[3] x, int32[3] i) => (float[3] y, float[1,3] z, int32[3] j)
      <float[3] a = {1, 2, 3}, float[3] b = {1, 2, 4}, float[1,3] c = {1, 2, 3}, int32[3] d = {1065353216, 1073741824, 1077936128}> {
      t = Add(x, a)
      y = Mul(t, b)
      z = Add(x, c)
      j = Add(i, d) })");
}

TEST(DeduplicateInitializers, KeepsInitializersThatAreGraphInputs) {
  expectUnchanged(
      kPass, R"(main (float[3] x, float[3] a = {1, 2, 3}) => (float[3] y) <float[3] b = {1, 2, 3}> {
      t = Add(x, a)
      y = Mul(t, b) })");
}

TEST(DeduplicateInitializers, KeepsADuplicateThatIsAGraphOutput) {
  expectUnchanged(
      kPass,
      R"(main (float[3] x) => (float[3] y, float[3] b) <float[3] a = {1, 2, 3}, float[3] b = {1, 2, 3}> {
      t = Add(x, a)
      y = Mul(t, b) })",
      "'b' equals 'a' but is a graph output");
}

TEST(DeduplicateInitializers, KeepsNamesUsedByQuantizationAnnotations) {
  ir::Model m =
      parse(R"(main (float[3] x) => (float[3] y) <float[3] a = {1, 2, 3}, float[3] b = {1, 2, 3}> {
      t = Add(x, a)
      y = Mul(t, b) })");
  m.graph().quantizationAnnotations().push_back({"t", {{"SCALE_TENSOR", "b"}}});
  PassOutcome out = runPass(kPass, std::move(m));
  EXPECT_FALSE(out.step.changed);
}

TEST(DeduplicateInitializers, MergesThreeCopiesIntoTheFirst) {
  PassOutcome out = runPass(kPass, R"(main (float[2] x) => (float[2] y)
      <float[2] a = {5, 6}, float[2] b = {5, 6}, float[2] c = {5, 6}> {
      t = Add(x, b)
      u = Mul(t, c)
      y = Sub(u, a) })");
  const ir::Graph& g = out.model.graph();
  ASSERT_EQ(g.initializers().size(), 1u);
  EXPECT_EQ(g.initializers()[0]->name(), "a");
  EXPECT_EQ(g.initializers()[0]->uses().size(), 3u);
}

TEST(DeduplicateInitializers, SubgraphInitializerMergesIntoOuterOne) {
  PassOutcome out =
      runPass(kPass, R"(main (float[2] x, bool c) => (float[2] y) <float[2] a = {5, 6}> {
      t = Add(x, a)
      y = If <then_branch = g1 () => (float[2] o) <float[2] k = {5, 6}> { o = Mul(t, k) },
              else_branch = g2 () => (float[2] p) <float[2] m = {5, 7}> { p = Mul(t, m) }> (c) })");
  const ir::Node* iff = out.model.graph().nodes().back().get();
  EXPECT_TRUE(iff->subgraphs()[0]->initializers().empty());
  EXPECT_EQ(iff->subgraphs()[0]->nodes().front()->input(1)->name(), "a");
  EXPECT_EQ(iff->subgraphs()[1]->initializers().size(), 1u);
}

TEST(DeduplicateInitializers, SiblingSubgraphsDoNotShare) {
  PassOutcome out = runPass(kPass, R"(main (float[2] x, bool c) => (float[2] y) {
      y = If <then_branch = g1 () => (float[2] o) <float[2] k = {5, 6}> { o = Mul(x, k) },
              else_branch = g2 () => (float[2] p) <float[2] m = {5, 6}> { p = Mul(x, m) }> (c) })");
  EXPECT_FALSE(out.step.changed);
}

TEST(DeduplicateInitializers, Converges) {
  expectConverges(
      kPass, R"(main (float[3] x) => (float[3] y) <float[3] a = {1, 2, 3}, float[3] b = {1, 2, 3}> {
      t = Add(x, a)
      y = Mul(t, b) })");
}

}  // namespace
}  // namespace passlab::testing
