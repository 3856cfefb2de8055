// Grouping large graphs by name scope and by repeated block.
#include <gtest/gtest.h>

#include "core/io/model_io.h"
#include "core/layout/grouping.h"
#include "tests/core/layout/layout_test_graphs.h"
#include "tests/support/test_support.h"

namespace passlab::layout {
namespace {

TEST(Grouping, ScopeOfSplitsOnSlashesAndDropsTheNodeName) {
  EXPECT_EQ(scopeOf("/encoder/layer.3/attention/MatMul"),
            (std::vector<std::string>{"encoder", "layer.3", "attention"}));
  EXPECT_TRUE(scopeOf("Conv_12").empty());
  EXPECT_TRUE(scopeOf("/MatMul").empty());
  EXPECT_EQ(scopeOf("a//b/c"), (std::vector<std::string>{"a", "b"}));
}

TEST(Grouping, SmallGraphsAreNotGrouped) {
  ir::Model m = testgraphs::repeatedBlocks(2, true);
  GroupTree t = GroupTree::build(m.graph());  // 17 nodes, under the threshold
  EXPECT_EQ(t.mode(), GroupingMode::kNone);
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.ungrouped().size(), m.graph().nodeCount());
}

TEST(Grouping, ScopesFormATreeWithChainsMerged) {
  ir::Model m = testgraphs::repeatedBlocks(3, true);
  GroupTree t = GroupTree::build(m.graph(), {GroupingMode::kScope});
  ASSERT_EQ(t.mode(), GroupingMode::kScope);
  // "/model" has only child scopes and no nodes of its own: it is not merged
  // with a single child because it has three (layers.0..2); "/head" holds one node.
  int model = t.find("/model");
  ASSERT_GE(model, 0);
  EXPECT_EQ(t.group(model).children.size(), 3u);
  EXPECT_EQ(t.group(model).totalNodes, 24u);
  int layer1 = t.find("/model/layers.1");
  ASSERT_GE(layer1, 0);
  EXPECT_EQ(t.group(layer1).nodes.size(), 2u);     // the two residual Adds
  EXPECT_EQ(t.group(layer1).children.size(), 2u);  // attn, mlp
  EXPECT_EQ(t.group(t.find("/model/layers.1/attn")).totalNodes, 3u);
  // Every node is in exactly one innermost group.
  for (const auto& n : m.graph().nodes()) EXPECT_GE(t.groupOf(n->id()), 0) << n->name();
  // The path to a node opens its ancestors, outermost first.
  const ir::Node* softmax = nullptr;
  for (const auto& n : m.graph().nodes())
    if (n->name().find("layers.2/attn/Softmax") != std::string::npos) softmax = n.get();
  ASSERT_NE(softmax, nullptr);
  EXPECT_EQ(t.pathTo(softmax->id()),
            (std::vector<std::string>{"/model", "/model/layers.2", "/model/layers.2/attn"}));
}

TEST(Grouping, SingleChildChainsAreMergedIntoOneGroup) {
  ir::Model m = testgraphs::chain(4);
  int i = 0;
  for (const auto& n : m.graph().nodes()) n->setName(i++ < 3 ? "/a/b/c/Relu" : "/a/x/Relu");
  GroupTree t = GroupTree::build(m.graph(), {GroupingMode::kScope});
  ASSERT_GE(t.find("/a"), 0);
  EXPECT_GE(t.find("/a/b/c"), 0) << "b has one child and no nodes: merged as b/c";
  EXPECT_EQ(t.find("/a/b"), -1);
  EXPECT_EQ(t.group(t.find("/a/b/c")).label, "b/c");
}

TEST(Grouping, DefaultExpansionRespectsTheBudget) {
  ir::Model m = testgraphs::repeatedBlocks(10, true);  // 81 nodes
  GroupTree t = GroupTree::build(m.graph(), {GroupingMode::kScope});
  for (size_t budget : {1u, 5u, 12u, 30u, 200u}) {
    auto open = t.defaultExpansion(budget);
    size_t visible = t.visibleCount(open);
    if (budget >= 2) {
      EXPECT_LE(visible, budget) << "budget " << budget;
    }
    if (budget == 200) {
      EXPECT_EQ(visible, m.graph().nodeCount());
    }
  }
  // Opening "/model" shows its ten layers.
  std::set<std::string> open = {"/model"};
  EXPECT_EQ(t.visibleCount(open), 11u);  // 10 layers + /head
  EXPECT_EQ(t.visibleCount({}), 2u);
}

TEST(Grouping, BlocksFollowRepeatedLayersWhenNamesHaveNoScopes) {
  ir::Model m = testgraphs::repeatedBlocks(24, false);  // 193 nodes, 8 per layer
  GroupingOptions o;
  o.mode = GroupingMode::kBlock;
  o.targetBlockSize = 12;
  GroupTree t = GroupTree::build(m.graph(), o);
  ASSERT_EQ(t.mode(), GroupingMode::kBlock);
  ASSERT_GE(t.groups().size(), 10u);
  size_t total = 0;
  for (const Group& g : t.groups()) total += g.totalNodes;
  EXPECT_EQ(total + t.ungrouped().size(), m.graph().nodeCount());
  // Most blocks are the same sequence of ops: recognised as repeats.
  int maxRepeat = 0;
  for (const Group& g : t.groups()) maxRepeat = std::max(maxRepeat, g.repeatCount);
  EXPECT_GE(maxRepeat, 10) << "layers should repeat";
  // Blocks are cut where only the residual stream crosses: each repeated block
  // starts with a MatMul reading the previous block's output.
  for (const Group& g : t.groups()) {
    if (g.repeatCount < 10) continue;
    const ir::Node* first = nullptr;
    for (const auto& n : m.graph().nodes())
      if (n->id() == g.nodes.front()) first = n.get();
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->opType(), "MatMul") << g.label;
  }
}

TEST(Grouping, AutoPicksBlocksForLargeUnscopedGraphs) {
  ir::Model m = testgraphs::repeatedBlocks(60, false);  // 481 nodes > 400
  GroupTree t = GroupTree::build(m.graph());
  EXPECT_EQ(t.mode(), GroupingMode::kBlock);
  EXPECT_LE(t.visibleCount({}), 40u);
  ir::Model s = testgraphs::repeatedBlocks(60, true);
  EXPECT_EQ(GroupTree::build(s.graph()).mode(), GroupingMode::kScope);
}

TEST(Grouping, CorpusGpt2IsGroupedIntoRepeatedBlocks) {
  PASSLAB_REQUIRE_CORPUS();
  auto models = testing::corpusModels();
  std::string path;
  for (const auto& p : models)
    if (p.find("ort_gpt2_past.onnx") != std::string::npos) path = p;
  if (path.empty()) GTEST_SKIP() << "ort_gpt2_past.onnx not in the corpus";
  auto loaded = io::loadModel(path);
  ASSERT_TRUE(loaded) << loaded.error().message();
  GroupTree t = GroupTree::build(loaded->model.graph());
  EXPECT_EQ(t.mode(), GroupingMode::kBlock);
  size_t visible = t.visibleCount({});
  EXPECT_LE(visible, 60u);
  int maxRepeat = 0;
  for (const Group& g : t.groups()) maxRepeat = std::max(maxRepeat, g.repeatCount);
  std::cout << "gpt2_past: " << t.groups().size() << " blocks, " << visible
            << " boxes collapsed, most repeated block x" << maxRepeat << "\n";
  EXPECT_GE(maxRepeat, 6) << "GPT-2's 12 layers should show up as repeated blocks";
}

}  // namespace
}  // namespace passlab::layout
