// The DOT we send, the answers we accept, and the SVG we write.
#include <gtest/gtest.h>

#include "core/layout/dot_format.h"
#include "core/layout/layered_layout.h"
#include "core/layout/request_builder.h"
#include "core/layout/svg_export.h"
#include "tests/core/layout/layout_test_graphs.h"

namespace passlab::layout {
namespace {

BuiltRequest sample() {
  static ir::Model m = testgraphs::repeatedBlocks(3, true);
  GroupTree t = GroupTree::build(m.graph(), {GroupingMode::kScope});
  return buildRequest(m.graph(), t, {"/model"});
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(DotFormat, AlwaysSetsNslimitAndNeverOrtho) {
  BuiltRequest br = sample();
  std::string dot = writeDot(br.request);
  EXPECT_NE(dot.find("nslimit="), std::string::npos);
  EXPECT_NE(dot.find("nslimit1="), std::string::npos);
  EXPECT_EQ(dot.find("ortho"), std::string::npos);
  EXPECT_EQ(count(dot, " -> "), br.request.edges.size());
  EXPECT_EQ(count(dot, "subgraph cluster_"), br.request.clusters.size());
  // Large requests get the small nslimit that keeps dot near-linear.
  DotOptions o;
  o.nslimit = 0.05;
  EXPECT_NE(writeDot(br.request, o).find("nslimit=0.050"), std::string::npos);
}

TEST(DotFormat, QuotesClusterLabels) {
  LayoutRequest r;
  LayoutNode n;
  n.width = n.height = 20;
  n.cluster = 0;
  r.nodes.push_back(n);
  r.clusters.push_back({"/a", "say \"hi\"\\", -1});
  EXPECT_NE(writeDot(r).find(R"(label="say \"hi\"\\")"), std::string::npos) << writeDot(r);
}

TEST(DotFormat, ParsesAnswersAndRejectsBadOnes) {
  LayoutRequest r;
  for (int i = 0; i < 2; ++i) {
    LayoutNode n;
    n.width = 40;
    n.height = 20;
    r.nodes.push_back(n);
  }
  r.edges.push_back({0, 1, "v", "float", 1});
  std::string good =
      "passlab-layout 1\ngraph 100 80\nnode 0 50 10 40 20\nnode 1 50 70 40 20\n"
      "edge 0 1 50 60 4 50 20 50 30 50 40 50 53\nend\n";
  auto ok = parseLayoutAnswer(good, r);
  ASSERT_TRUE(ok) << ok.error().message();
  EXPECT_DOUBLE_EQ(ok->nodes[1].x, 30);
  EXPECT_DOUBLE_EQ(ok->nodes[1].y, 60);
  EXPECT_EQ(ok->edges[0].points.size(), 4u);
  EXPECT_TRUE(ok->edges[0].hasArrow);
  EXPECT_DOUBLE_EQ(ok->width, 100);

  EXPECT_FALSE(parseLayoutAnswer("", r));
  EXPECT_FALSE(parseLayoutAnswer("digraph {}", r));
  EXPECT_FALSE(parseLayoutAnswer("passlab-layout 1\ngraph 1 1\nnode 0 1 1 1 1\nend\n", r))
      << "node 1 has no position";
  EXPECT_FALSE(parseLayoutAnswer("passlab-layout 1\nnode 7 1 1 1 1\nend\n", r));
  auto cut = parseLayoutAnswer("passlab-layout 1\ngraph 1 1\nnode 0 1 1 1 1\nnode 1 1 1 1 1\n", r);
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().message().find("truncated"), std::string::npos);
}

TEST(SvgExport, DrawsEveryBoxArrowAndFrameWithEscapedText) {
  static ir::Model m = testgraphs::repeatedBlocks(3, true);
  GroupTree t = GroupTree::build(m.graph(), {GroupingMode::kScope});
  BuiltRequest br =
      buildRequest(m.graph(), t, {"/model", "/model/layers.0", "/model/layers.0/attn"});
  br.request.nodes[0].lines[0] = "a<b & \"c\"";
  LayoutResult lr = layeredLayout(br.request);
  std::string svg = renderSvg(br.request, lr, {true, "demo"});
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  // One rect per box and frame, plus the background.
  EXPECT_EQ(count(svg, "<rect "), br.request.nodes.size() + br.request.clusters.size() + 1);
  EXPECT_EQ(count(svg, "<path "), br.request.edges.size());
  EXPECT_NE(svg.find("a&lt;b &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
  // Op boxes use their family's colour.
  EXPECT_NE(svg.find("#9fc5e8"), std::string::npos) << "MatMul is Linear";
  EXPECT_NE(svg.find("#f6b26b"), std::string::npos) << "Softmax is an activation";
  EXPECT_NE(svg.find("#eef3fb"), std::string::npos) << "collapsed groups";
}

TEST(OpFamily, KnownOpsHaveFamiliesAndUnknownOnesAreOther) {
  EXPECT_EQ(familyOf("", "Conv"), OpFamily::kConvolution);
  EXPECT_EQ(familyOf("", "Relu"), OpFamily::kActivation);
  EXPECT_EQ(familyOf("", "Reshape"), OpFamily::kShape);
  EXPECT_EQ(familyOf("com.microsoft", "Attention"), OpFamily::kAttention);
  EXPECT_EQ(familyOf("", "NoSuchOp"), OpFamily::kOther);
  for (int f = 0; f < kOpFamilyCount; ++f)
    EXPECT_FALSE(familyName(static_cast<OpFamily>(f)).empty());
}

}  // namespace
}  // namespace passlab::layout
