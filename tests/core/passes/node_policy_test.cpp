// Passes with their own run() follow the pattern driver's policy
// (core/passes/node_policy.h): Cancel stops them, the filter keeps them away
// from excluded nodes, and the explain log says so.
#include <gtest/gtest.h>

#include <atomic>

#include "core/passes/registry.h"
#include "core/rewrite/rewriter.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kGraph = R"(main (float[2] x) => (float[2] y) {
      a = Relu(x)
      b = Neg(a)
      c = Relu(x)
      d = Relu(x)
      y = Add(c, d)
    })";

struct Policy {
  const std::atomic<bool>* cancel = nullptr;
  const rewrite::NodeFilter* filter = nullptr;
  rewrite::ExplainLog* explain = nullptr;
};

Status runWith(const std::string& id, ir::Model& m, const Policy& policy) {
  const passes::Pass* pass = passes::findPass(id);
  EXPECT_NE(pass, nullptr) << id;
  if (!pass) return internalError("no pass " + id);
  passes::Options opts;
  for (const passes::PassOption& o : pass->info().options)
    opts.emplace_back(o.name, o.defaultValue);
  rewrite::EditLog log;
  rewrite::Rewriter rw(m, log);
  passes::PassContext ctx{rw, opts};
  ctx.cancel = policy.cancel;
  ctx.filter = policy.filter;
  ctx.explain = policy.explain;
  return pass->run(ctx);
}

const ir::Node* nodeProducing(const ir::Model& m, const std::string& value) {
  for (const auto& n : m.graph().nodes())
    if (n->output(0) && n->output(0)->name() == value) return n.get();
  return nullptr;
}

TEST(NodePolicy, CancelStopsPassesWithTheirOwnRun) {
  for (const char* id :
       {"eliminate_dead_nodes", "eliminate_common_subexpressions", "fold_constants"}) {
    ir::Model m = parse(kGraph);
    std::atomic<bool> cancel{true};
    Status s = runWith(id, m, {.cancel = &cancel});
    ASSERT_FALSE(s.isOk()) << id;
    EXPECT_EQ(s.error().code(), ErrorCode::kCancelled) << id;
    EXPECT_NE(s.error().message().find(std::string(id) + ": cancelled"), std::string::npos);
  }
}

// deduplicate_initializers stops between two initializers: the duplicate
// stays and the pass reports the Cancel.
TEST(NodePolicy, CancelStopsDeduplicateInitializers) {
  ir::Model m =
      parse(R"(main (float[3] x) => (float[3] y) <float[3] a = {1, 2, 3}, float[3] b = {1, 2, 3}> {
      t = Add(x, a)
      y = Mul(t, b) })");
  std::atomic<bool> cancel{true};
  Status s = runWith("deduplicate_initializers", m, {.cancel = &cancel});
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.error().code(), ErrorCode::kCancelled);
  EXPECT_EQ(m.graph().initializers().size(), 2u) << "an initializer was merged after Cancel";
  std::atomic<bool> go{false};
  ASSERT_TRUE(runWith("deduplicate_initializers", m, {.cancel = &go}).isOk());
  EXPECT_EQ(m.graph().initializers().size(), 1u) << "without Cancel the duplicate merges";
}

TEST(NodePolicy, DeadNodesOutsideTheSelectionStay) {
  ir::Model all = parse(kGraph);
  ASSERT_TRUE(runWith("eliminate_dead_nodes", all, {}).isOk());
  EXPECT_EQ(all.graph().nodeCount(), 3u);

  ir::Model m = parse(kGraph);
  rewrite::NodeFilter filter;
  filter.excluded.insert(nodeProducing(m, "b")->id());
  ASSERT_TRUE(runWith("eliminate_dead_nodes", m, {.filter = &filter}).isOk());
  EXPECT_EQ(m.graph().nodeCount(), 5u) << "b is excluded, and it keeps a alive";
}

TEST(NodePolicy, CommonSubexpressionOutsideTheSelectionIsExplained) {
  ir::Model m = parse(kGraph);
  const ir::NodeId d = nodeProducing(m, "d")->id();
  rewrite::NodeFilter filter;
  filter.excluded.insert(d);
  rewrite::ExplainLog explain;
  ASSERT_TRUE(
      runWith("eliminate_common_subexpressions", m, {.filter = &filter, .explain = &explain})
          .isOk());
  EXPECT_EQ(m.graph().nodeCount(), 4u) << "c merges into a; the excluded d stays";
  EXPECT_NE(nodeProducing(m, "d"), nullptr);
  const auto* reasons = explain.reasons(d);
  ASSERT_NE(reasons, nullptr);
  ASSERT_TRUE(reasons->count("common_subexpression"));
  EXPECT_EQ(reasons->at("common_subexpression"),
            "not applied: the node is excluded from this pass");
}

}  // namespace
}  // namespace passlab::testing
