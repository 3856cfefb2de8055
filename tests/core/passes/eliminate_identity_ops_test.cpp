// eliminate_identity_ops: structural, convergence and negative cases.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "eliminate_identity_ops";

TEST(EliminateIdentityOps, RemovesIdentityDropoutAndSameTypeCast) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) {
      a = Identity(x)
      b, "" = Dropout(a)
      c = Cast <to = 1> (b)
      y = Relu(c)
    })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

TEST(EliminateIdentityOps, ModelOutputKeepsItsName) {
  PassOutcome out = runPass(kPass, R"(main (float[2] x) => (float[2] y) { a = Relu(x)
      y = Identity(a) })");
  ASSERT_EQ(out.model.graph().nodeCount(), 1u);
  EXPECT_EQ(out.model.graph().outputs()[0]->name(), "y");
}

TEST(EliminateIdentityOps, Converges) {
  expectConverges(kPass, R"(main (float[2] x) => (float[2] y) { a = Identity(x)
      b = Identity(a)
      y = Relu(b) })");
}

TEST(EliminateIdentityOps, KeepsIdentityBetweenModelInputAndOutput) {
  expectUnchanged(kPass, "main (float[2] x) => (float[2] y) { y = Identity(x) }", "model input");
}

TEST(EliminateIdentityOps, KeepsCastThatChangesType) {
  expectUnchanged(kPass, R"(main (float[2] x) => (int64[2] y) { y = Cast <to = 7> (x) })",
                  "another type");
}

TEST(EliminateIdentityOps, KeepsDropoutWhoseMaskIsUsed) {
  expectUnchanged(kPass, R"(main (float[2] x) => (float[2] y, bool[2] m) { y, m = Dropout(x) })",
                  "is used");
}

TEST(EliminateIdentityOps, KeepsTrainingModeDropout) {
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
    main (float[2] x, bool t) => (float[2] y) { a, "" = Dropout(x, , t)
      y = Relu(a) })",
                  "training_mode");
}

TEST(EliminateIdentityOps, WorksInsideSubgraphsAndKeepsOuterUses) {
  PassOutcome out = runPass(kPass, R"(main (float[2] x, bool c) => (float[2] y) {
      a = Identity(x)
      y = If <then_branch = t () => (float[2] o) { o = Identity(a) },
              else_branch = e () => (float[2] p) { p = Neg(a) }> (c)
    })");
  const ir::Graph& g = out.model.graph();
  EXPECT_EQ(g.nodeCount(), 1u);  // only the If
  const ir::Node* iff = g.nodes().front().get();
  // The branch Identity reads an outer value, so its output is forwarded to x.
  EXPECT_EQ(iff->subgraphs()[0]->outputs()[0]->name(), "x");
  EXPECT_EQ(iff->subgraphs()[1]->nodes().front()->input(0)->name(), "x");
}

}  // namespace
}  // namespace passlab::testing
