// Passes with their own run() follow the pattern driver's policy
// (core/passes/node_policy.h): Cancel stops them, the filter keeps them away
// from excluded nodes, and the explain log says so.
#include <gtest/gtest.h>

#include <atomic>

#include "core/analysis/shape_inference.h"
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
  Text* note = nullptr;
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
  ctx.note = policy.note;
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

// fuse_hard_swish raises an older model to opset 14 for its chains, which
// rewrites nodes outside them (Squeeze's axes become an input at 13): not
// where the step's node filter keeps the pass away from such a node, whether
// excluded or left out of the chosen ones. Then the opset, the excluded node
// and the chain stay, and the note names the node.
TEST(NodePolicy, FuseHardSwishRaisesNoOpsetOverANodeTheFilterKeeps) {
  const char* text = R"(<ir_version: 7, opset_import: ["" : 11]>
      main (float[2,3] x, float[1,3] u) => (float[2,3] y, float[3] v)
      <float three = {3}, float zero = {0}, float six = {6}> {
      a = Add(x, three)
      c = Clip(a, zero, six)
      m = Mul(x, c)
      y = Div(m, six)
      s = Squeeze <axes = [0]> (u)
      v = Relu(s) })";
  auto run = [&](auto fill, Text& note) {
    ir::Model m = parse(text);
    analysis::inferShapes(m);
    rewrite::NodeFilter filter;
    fill(m, filter);
    EXPECT_TRUE(runWith("fuse_hard_swish", m, {.filter = &filter, .note = &note}).isOk());
    return m;
  };
  auto countOps = [](const ir::Model& m, const std::string& op) {
    int k = 0;
    for (const auto& n : m.graph().nodes()) k += n->opType() == op;
    return k;
  };
  // The Squeeze excluded.
  Text note;
  ir::Model m =
      run([](ir::Model& model,
             rewrite::NodeFilter& f) { f.excluded.insert(nodeProducing(model, "s")->id()); },
          note);
  EXPECT_EQ(m.opsetVersion(""), 11);
  EXPECT_EQ(countOps(m, "HardSwish"), 0);
  EXPECT_TRUE(nodeProducing(m, "s")->hasAttr("axes"));
  EXPECT_EQ(nodeProducing(m, "s")->inputs().size(), 1u);
  EXPECT_NE(note.str().find("1 written-out HardSwish kept"), std::string::npos) << note;
  EXPECT_NE(note.str().find("the raise would rewrite Squeeze"), std::string::npos) << note;
  // Only the chain's nodes chosen: the Squeeze is outside them.
  Text onlyNote;
  m = run(
      [](ir::Model& model, rewrite::NodeFilter& f) {
        for (const char* v : {"a", "c", "m", "y"}) f.only.insert(nodeProducing(model, v)->id());
      },
      onlyNote);
  EXPECT_EQ(m.opsetVersion(""), 11);
  EXPECT_EQ(countOps(m, "HardSwish"), 0);
  EXPECT_NE(onlyNote.str().find("the raise would rewrite Squeeze"), std::string::npos) << onlyNote;
  // A node the raise leaves as it is excluded (Relu): raised, fused, the
  // Squeeze rewritten.
  Text raisedNote;
  m = run([](ir::Model& model,
             rewrite::NodeFilter& f) { f.excluded.insert(nodeProducing(model, "v")->id()); },
          raisedNote);
  EXPECT_EQ(m.opsetVersion(""), 14);
  EXPECT_EQ(countOps(m, "HardSwish"), 1);
  EXPECT_FALSE(nodeProducing(m, "s")->hasAttr("axes"));
  EXPECT_NE(raisedNote.str().find("opset 11 -> 14"), std::string::npos) << raisedNote;
}

// raise_opset rewrites in place the nodes whose op changed (Squeeze's axes
// become an input at 13): where the step's node filter keeps the pass away
// from such a node, the model is not raised and the error names the node; a
// node the raise leaves as it is may be excluded.
TEST(NodePolicy, RaiseOpsetRewritesNoNodeTheFilterKeeps) {
  const char* text = R"(<ir_version: 7, opset_import: ["" : 11]>
      main (float[1,3] u) => (float[3] v) {
      s = Squeeze <axes = [0]> (u)
      v = Relu(s) })";
  auto run = [&](const char* excludedOutput, Status& status) {
    ir::Model m = parse(text);
    analysis::inferShapes(m);
    rewrite::NodeFilter filter;
    filter.excluded.insert(nodeProducing(m, excludedOutput)->id());
    status = runWith("raise_opset", m, {.filter = &filter});
    return m;
  };
  Status kept;
  ir::Model m = run("s", kept);
  EXPECT_FALSE(kept.isOk());
  EXPECT_NE(kept.message().find("would rewrite Squeeze"), std::string::npos) << kept.message();
  EXPECT_EQ(m.opsetVersion(""), 11);
  EXPECT_TRUE(nodeProducing(m, "s")->hasAttr("axes"));
  Status raised;
  m = run("v", raised);
  EXPECT_TRUE(raised.isOk()) << raised.message();
  EXPECT_EQ(m.opsetVersion(""), 13);
  EXPECT_FALSE(nodeProducing(m, "s")->hasAttr("axes"));
}

}  // namespace
}  // namespace passlab::testing
