// The in-process fallback layout: layered, no overlaps, fast on big graphs.
#include <gtest/gtest.h>

#include <chrono>

#include "core/layout/layered_layout.h"
#include "core/layout/request_builder.h"
#include "tests/core/layout/layout_test_graphs.h"

namespace passlab::layout {
namespace {

LayoutRequest boxes(int n, const std::vector<std::pair<int, int>>& edges) {
  LayoutRequest r;
  for (int i = 0; i < n; ++i) {
    LayoutNode node;
    node.key = "n:" + std::to_string(i);
    node.width = 60 + 10 * (i % 3);
    node.height = 30;
    r.nodes.push_back(node);
  }
  for (auto [a, b] : edges) {
    LayoutEdge e;
    e.from = a;
    e.to = b;
    r.edges.push_back(e);
  }
  return r;
}

bool overlap(const Rect& a, const Rect& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

void expectNoOverlaps(const LayoutResult& r) {
  // Sorted sweep would be faster; the graphs here are small enough.
  for (size_t i = 0; i < r.nodes.size(); ++i)
    for (size_t j = i + 1; j < r.nodes.size(); ++j)
      ASSERT_FALSE(overlap(r.nodes[i], r.nodes[j])) << "boxes " << i << " and " << j;
}

TEST(LayeredLayout, EdgesPointDownwardsInADag) {
  LayoutRequest r = boxes(6, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {0, 4}, {5, 4}});
  LayoutResult out = layeredLayout(r);
  EXPECT_EQ(out.engine, Engine::kLayered);
  ASSERT_EQ(out.nodes.size(), 6u);
  expectNoOverlaps(out);
  for (const LayoutEdge& e : r.edges) {
    const Rect& a = out.nodes[static_cast<size_t>(e.from)];
    const Rect& b = out.nodes[static_cast<size_t>(e.to)];
    EXPECT_LT(a.y + a.height, b.y) << e.from << "->" << e.to;
  }
  // Source 5 has a single reader on the last layer: pulled down next to it.
  EXPECT_GT(out.nodes[5].y, out.nodes[1].y);
  EXPECT_DOUBLE_EQ(out.nodes[5].y, out.nodes[3].y);
  // Routes start at the tail's bottom and point at the head's top.
  for (size_t e = 0; e < r.edges.size(); ++e) {
    const EdgeRoute& route = out.edges[e];
    ASSERT_GE(route.points.size(), 4u);
    EXPECT_EQ((route.points.size() - 1) % 3, 0u);
    const Rect& head = out.nodes[static_cast<size_t>(r.edges[e].to)];
    EXPECT_NEAR(route.arrowTip.y, head.y, 0.01);
  }
  // Everything lies inside the reported size.
  for (const Rect& b : out.nodes) {
    EXPECT_GE(b.x, 0);
    EXPECT_GE(b.y, 0);
    EXPECT_LE(b.x + b.width, out.width);
    EXPECT_LE(b.y + b.height, out.height);
  }
}

TEST(LayeredLayout, CyclesFromCollapsedGroupsAreDrawnNotFatal) {
  LayoutRequest r = boxes(3, {{0, 1}, {1, 2}, {2, 0}, {1, 1}});
  LayoutResult out = layeredLayout(r);
  expectNoOverlaps(out);
  EXPECT_EQ(out.edges[3].points.size(), 0u) << "self-loops are not drawn";
  EXPECT_FALSE(out.edges[2].points.empty());
}

TEST(LayeredLayout, ClustersFrameTheirMembers) {
  LayoutRequest r = boxes(4, {{0, 1}, {1, 2}, {2, 3}});
  r.clusters.push_back({"g", "g", -1});
  r.clusters.push_back({"g/h", "h", 0});
  r.nodes[1].cluster = 0;
  r.nodes[2].cluster = 1;
  LayoutResult out = layeredLayout(r);
  auto inside = [](const Rect& in, const Rect& out) {
    return in.x >= out.x && in.y >= out.y && in.x + in.width <= out.x + out.width &&
           in.y + in.height <= out.y + out.height;
  };
  EXPECT_TRUE(inside(out.nodes[1], out.clusters[0]));
  EXPECT_TRUE(inside(out.nodes[2], out.clusters[1]));
  EXPECT_TRUE(inside(out.clusters[1], out.clusters[0]));
  EXPECT_FALSE(inside(out.nodes[0], out.clusters[0]));
}

TEST(LayeredLayout, TenThousandNodesInWellUnderASecondPerThousand) {
  ir::Model m = testgraphs::repeatedBlocks(1250, false);  // 10,001 nodes
  BuiltRequest br = buildRequest(m.graph(), GroupTree(), {});
  ASSERT_GT(br.request.nodes.size(), 10000u);
  auto t0 = std::chrono::steady_clock::now();
  LayoutResult out = layeredLayout(br.request);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "layered layout of " << br.request.nodes.size() << " boxes: " << s << " s\n";
  EXPECT_LT(s, 5.0);
  EXPECT_EQ(out.nodes.size(), br.request.nodes.size());
  EXPECT_GT(out.height, out.width) << "a deep chain of blocks is tall";
}

TEST(LayeredLayout, LongChainsOfBlocksDoNotDriftSideways) {
  // Each block forks and merges (a residual): the merge must sit between its
  // two inputs, or 600 blocks walk off to one side.
  ir::Model m = testgraphs::repeatedBlocks(600, false);
  BuiltRequest br = buildRequest(m.graph(), GroupTree(), {});
  LayoutResult out = layeredLayout(br.request);
  EXPECT_LT(out.width, 1000) << "height " << out.height;
  ir::Model small = testgraphs::repeatedBlocks(6, false);
  LayoutResult few = layeredLayout(buildRequest(small.graph(), GroupTree(), {}).request);
  EXPECT_LT(out.width, few.width * 1.5);
}

TEST(LayeredLayout, StopsWhenCancelled) {
  ir::Model m = testgraphs::repeatedBlocks(200, false);
  BuiltRequest br = buildRequest(m.graph(), GroupTree(), {});
  std::stop_source stop;
  stop.request_stop();
  LayoutResult out = layeredLayout(br.request, {}, stop.get_token());
  EXPECT_TRUE(out.cancelled);
}

}  // namespace
}  // namespace passlab::layout
