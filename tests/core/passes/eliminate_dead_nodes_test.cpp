// eliminate_dead_nodes: structural, convergence and negative cases.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "eliminate_dead_nodes";

TEST(EliminateDeadNodes, RemovesUnusedChainsAndInitializers) {
  expectRewrite(kPass, R"(main (float[2] x) => (float[2] y) <float[2] unused = {1, 2}> {
      a = Relu(x)
      b = Neg(a)
      y = Abs(x)
    })",
                R"(main (float[2] x) => (float[2] y) { y = Abs(x) })");
}

TEST(EliminateDeadNodes, Converges) {
  expectConverges(kPass, R"(main (float[2] x) => (float[2] y) { a = Relu(x)
      b = Neg(a)
      y = Abs(x) })");
}

TEST(EliminateDeadNodes, KeepsOutputsAndValuesUsedInSubgraphs) {
  expectUnchanged(kPass, R"(main (float[2] x, bool c) => (float[2] y, float[2] z) {
      a = Relu(x)
      z = Neg(x)
      y = If <then_branch = t () => (float[2] o) { o = Identity(a) },
              else_branch = e () => (float[2] p) { p = Identity(x) }> (c)
    })");
}

TEST(EliminateDeadNodes, KeepsInitializersThatAreGraphInputs) {
  expectUnchanged(kPass,
                  R"(main (float[2] x, float[2] w = {1, 2}) => (float[2] y) { y = Relu(x) })");
}

TEST(EliminateDeadNodes, RemovesDeadNodesInsideSubgraphs) {
  PassOutcome out = runPass(kPass, R"(main (float[2] x, bool c) => (float[2] y) {
      y = If <then_branch = t () => (float[2] o) { dead = Neg(x)
                                                   o = Identity(x) },
              else_branch = e () => (float[2] p) { p = Identity(x) }> (c)
    })");
  EXPECT_EQ(out.model.graph().nodes().front()->subgraphs()[0]->nodeCount(), 1u);
}

}  // namespace
}  // namespace passlab::testing
