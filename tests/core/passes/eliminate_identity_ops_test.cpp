// eliminate_identity_ops: structural, convergence and negative cases.
#include <gtest/gtest.h>

#include "core/analysis/shape_inference.h"
#include "core/ir/verifier.h"
#include "core/passes/registry.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

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
  // The branch Identity returns an outer value: ONNX Runtime refuses a branch
  // that returns it directly, so the Identity stays (now reading x).
  const ir::Graph& thenBranch = *iff->subgraphs()[0];
  ASSERT_EQ(thenBranch.nodeCount(), 1u);
  EXPECT_EQ(thenBranch.nodes().front()->opType(), "Identity");
  EXPECT_EQ(thenBranch.nodes().front()->input(0)->name(), "x");
  EXPECT_EQ(thenBranch.outputs()[0]->owner(), &thenBranch);
  EXPECT_EQ(iff->subgraphs()[1]->nodes().front()->input(0)->name(), "x");
}

// The default pipeline keeps a branch's Identity of an outer value (ONNX
// Runtime: "Subgraph output (X) is an outer scope value being returned
// directly"), and the result verifies.
TEST(EliminateIdentityOps, DefaultPipelineKeepsIdentityReturningOuterValue) {
  ir::Model m = parse(R"(main (float[2] x, bool c) => (float[2] y) {
      r = Relu(x)
      y = If <then_branch = t () => (float[2] o) { o = Identity(r) },
              else_branch = e () => (float[2] p) { p = Neg(r) }> (c)
    })");
  analysis::inferShapes(m);
  pipeline::PipelineOptions po;
  po.keepSnapshots = false;
  pipeline::PassManager pm(m, po);
  auto ids = passes::passesForLevel("basic");
  ASSERT_TRUE(ids);
  for (const std::string& id : *ids) {
    auto step = pm.run({id, {}, {}});
    ASSERT_TRUE(step) << id << ": " << step.error().message();
  }
  const ir::Node* iff = nullptr;
  for (const auto& n : m.graph().nodes())
    if (n->opType() == "If") iff = n.get();
  ASSERT_NE(iff, nullptr);
  const ir::Graph& thenBranch = *iff->subgraphs()[0];
  ASSERT_EQ(thenBranch.nodeCount(), 1u);
  EXPECT_EQ(thenBranch.nodes().front()->opType(), "Identity");
  EXPECT_EQ(thenBranch.outputs()[0]->owner(), &thenBranch);
  for (const auto& p : ir::verifyModel(m))
    EXPECT_NE(p.severity, ir::VerifierProblem::Severity::kError) << p.message;
}

// A model that already returns an outer value directly from a branch (a
// verifier error it came with) is still optimized: the error is known, not
// blamed on the pass.
TEST(EliminateIdentityOps, ModelAlreadyReturningOuterValueStillOptimizes) {
  PassOutcome out = runPass(kPass, R"(main (float[2] x, bool c) => (float[2] y) {
      a = Identity(x)
      r = Relu(a)
      y = If <then_branch = t () => (float[2] r) { },
              else_branch = e () => (float[2] p) { p = Neg(r) }> (c)
    })");
  EXPECT_FALSE(out.step.rolledBack) << out.step.error;
  EXPECT_EQ(out.model.graph().nodeCount(), 2u);  // the Identity went
}

}  // namespace
}  // namespace passlab::testing
