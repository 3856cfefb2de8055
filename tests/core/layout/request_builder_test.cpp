// Building layout requests: boxes, arrows with type labels, collapsed groups.
#include <gtest/gtest.h>

#include "core/layout/request_builder.h"
#include "tests/core/layout/layout_test_graphs.h"
#include "tests/support/test_support.h"

namespace passlab::layout {
namespace {

int countKind(const LayoutRequest& r, ItemKind k) {
  int c = 0;
  for (const auto& n : r.nodes) c += n.kind == k;
  return c;
}

TEST(RequestBuilder, OneBoxPerNodeInputAndOutputWithTypedArrows) {
  ir::Model m = testing::parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[2,3] x) => (float[2,3] y)
    <float[3] b = {1, 2, 3}>
    {
      [add] t = Add(x, b)
      y = Relu(t)
    })");
  BuiltRequest br = buildRequest(m.graph(), GroupTree(), {});
  const LayoutRequest& r = br.request;
  EXPECT_EQ(countKind(r, ItemKind::kOp), 2);
  EXPECT_EQ(countKind(r, ItemKind::kInput), 1) << "the initializer b is drawn inside Add";
  EXPECT_EQ(countKind(r, ItemKind::kOutput), 1);
  ASSERT_EQ(r.edges.size(), 3u);  // x->Add, Add->Relu, Relu->y
  int add = r.indexOf("n:" + std::to_string(m.graph().nodes().front()->id()));
  ASSERT_GE(add, 0);
  const LayoutNode& addBox = r.nodes[static_cast<size_t>(add)];
  EXPECT_EQ(addBox.lines[0], "Add");
  EXPECT_EQ(addBox.lines[1], "add");
  EXPECT_EQ(addBox.lines[2], "b float[3]");
  EXPECT_EQ(addBox.family, OpFamily::kElementwise);
  // Declared types label the arrows; t has none until shape inference runs.
  for (const LayoutEdge& e : r.edges)
    EXPECT_EQ(e.label, e.valueName == "t" ? "" : "float[2,3]") << e.valueName;
  for (const LayoutNode& n : r.nodes) {
    EXPECT_GT(n.width, 0);
    EXPECT_GT(n.height, 0);
  }
}

TEST(RequestBuilder, CollapsedGroupsMergeTheirArrowsAndDropInnerOnes) {
  ir::Model m = testgraphs::repeatedBlocks(3, true);
  GroupTree t = GroupTree::build(m.graph(), {GroupingMode::kScope});
  BuiltRequest collapsed = buildRequest(m.graph(), t, {});
  // x, /model, /head, y
  EXPECT_EQ(collapsed.request.nodes.size(), 4u);
  EXPECT_EQ(collapsed.request.edges.size(), 3u);
  EXPECT_TRUE(collapsed.request.clusters.empty());
  // Every node maps to the box that shows it.
  for (const auto& n : m.graph().nodes()) ASSERT_TRUE(collapsed.nodeItem.count(n->id()));

  BuiltRequest open = buildRequest(m.graph(), t, {"/model", "/model/layers.1"});
  // x, layers.0, layers.1's two Adds + attn + mlp, layers.2, /head, y
  EXPECT_EQ(open.request.nodes.size(), 9u);
  ASSERT_EQ(open.request.clusters.size(), 2u);
  EXPECT_EQ(open.request.clusters[1].parent, 0);
  // layers.0 -> layers.1 carries h twice (into MatMul and Add): two arrows
  // to two different boxes (attn group and the Add).
  int l0 = open.request.indexOf("g:/model/layers.0");
  ASSERT_GE(l0, 0);
  int fromL0 = 0;
  for (const auto& e : open.request.edges) fromL0 += e.from == l0;
  EXPECT_EQ(fromL0, 2);
  // A closed child of an open parent sits in the parent's frame.
  int attn = open.request.indexOf("g:/model/layers.1/attn");
  ASSERT_GE(attn, 0);
  EXPECT_EQ(open.request.nodes[static_cast<size_t>(attn)].cluster, 1);
  EXPECT_EQ(open.request.nodes[static_cast<size_t>(attn)].memberCount, 3u);
}

TEST(RequestBuilder, ParallelValuesBetweenTwoBoxesBecomeOneArrow) {
  ir::Model m = testing::parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[4] x) => (float[4] y)
    {
      a, b = Split <num_outputs = 2> (x)
      y = Add(a, b)
    })");
  BuiltRequest br = buildRequest(m.graph(), GroupTree(), {});
  int arrows = 0;
  for (const auto& e : br.request.edges)
    if (br.request.nodes[static_cast<size_t>(e.from)].opType == "Split") {
      ++arrows;
      EXPECT_EQ(e.multiplicity, 2);
      EXPECT_EQ(e.label, "2 values");
    }
  EXPECT_EQ(arrows, 1);
}

TEST(RequestBuilder, InlinedConstantsJoinTheirReader) {
  ir::Model m = testing::parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[4] x) => (float[4] y)
    {
      [c] k = Constant <value = float[1] {2}> ()
      y = Mul(x, k)
    })");
  BuiltRequest plain = buildRequest(m.graph(), GroupTree(), {});
  EXPECT_EQ(countKind(plain.request, ItemKind::kOp), 2);
  RequestOptions o;
  o.inlineConstants = true;
  BuiltRequest in = buildRequest(m.graph(), GroupTree(), {}, o);
  ASSERT_EQ(countKind(in.request, ItemKind::kOp), 1);
  const ir::Node* constant = m.graph().nodes().front().get();
  const ir::Node* mul = m.graph().nodes().back().get();
  EXPECT_EQ(in.nodeItem.at(constant->id()), in.nodeItem.at(mul->id()));
  const LayoutNode& box = in.request.nodes[static_cast<size_t>(in.nodeItem.at(mul->id()))];
  EXPECT_EQ(box.lines.back(), "k float[1]");
}

TEST(RequestBuilder, BodiesDrawValuesOfTheEnclosingGraphAsInputs) {
  ir::Model m = testing::parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    main (float[2] x, bool c) => (float[2] z)
    {
      s = Relu(x)
      z = If <
        then_branch = then_g () => (float[2] a) { a = Identity(s) },
        else_branch = else_g () => (float[2] b) { b = Neg(x) }> (c)
    })");
  const ir::Node* iff = m.graph().nodes().back().get();
  // In the main graph, the If box receives c, and s and x through its bodies.
  BuiltRequest main = buildRequest(m.graph(), GroupTree(), {});
  int ifBox = main.nodeItem.at(iff->id());
  int into = 0;
  for (const auto& e : main.request.edges) into += e.to == ifBox;
  EXPECT_EQ(into, 3);
  EXPECT_TRUE(main.request.nodes[static_cast<size_t>(ifBox)].hasSubgraphs);
  // In the then-branch, s comes from outside.
  const ir::Graph* then = iff->subgraphs()[0];
  BuiltRequest body = buildRequest(*then, GroupTree(), {});
  int outer = body.request.indexOf("in:s");
  ASSERT_GE(outer, 0);
  EXPECT_EQ(body.request.nodes[static_cast<size_t>(outer)].lines[1], "outer scope");
}

}  // namespace
}  // namespace passlab::layout
