// prune_magnitude, channel pattern, on residual streams: the layers whose
// outputs residual Adds add into one stream (residual_stream.h) lose the
// same channels, ranked by their norm over all of them, so that
// remove_dead_channels removes them; structural (the same channels in all
// source Convs, where each layer alone would choose others), numeric (the
// budget; remove_dead_channels then keeps the outputs exactly), convergence,
// and negatives (a blocked layer blocks its stream, a broadcast Add groups
// nothing, streams = false prunes layer by layer).
#include <gtest/gtest.h>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "core/passes/residual_stream.h"
#include "tests/core/passes/channel_passes_test_util.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "prune_magnitude";

using namespace channels;

// Two residual blocks with identity shortcuts (a ResNet stage): the stream
// h -> r1 -> r2 is added by h, b and d. Alone, h would lose its channels 0
// and 1 (0.001-sized); over the stream, channels 2 and 3 are the smallest
// (b and d hold 1-sized weights in 0 and 1).
const char* kBlocks = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[4,2,1,1] w0 = {0.001, 0.002,  -0.001, 0.001,  0.01, -0.01,  0.01, 0.01},
     float[4] b0 = {0.25, -0.5, 0.002, -0.001},
     float[3,4,1,1] wa = {1, 0.5, -1, 2,  2, 1, 0, -1,  -1, 1, 1, 0.5}, float[3] ba = {0.1, 0.2, 0.3},
     float[4,3,1,1] wb = {1, -1, 0.5,  0.5, 1, -1,  0.001, 0.002, -0.001,  -0.002, 0.001, 0.001},
     float[4] bb = {0.1, -0.2, 0.001, 0.002},
     float[3,4,1,1] wc = {0.5, 1, -1, 1,  1, -1, 2, 0.5,  1, 1, 1, -1},
     float[4,3,1,1] wd = {-1, 0.5, 1,  1, 1, -0.5,  0.002, -0.001, 0.001,  0.001, 0.001, -0.002},
     float[4] bd = {0.2, 0.1, -0.001, 0.001},
     float[2,4,1,1] wy = {1, 2, 3, 4,  4, 3, 2, 1}, float[2] by = {1, -1}> {
    [h] h = Conv(x, w0, b0)
    [ca] ca = Conv(h, wa, ba)
    a = Relu(ca)
    [b] b = Conv(a, wb, bb)
    [s1] s1 = Add(b, h)
    r1 = Relu(s1)
    [cc] cc = Conv(r1, wc)
    c = Relu(cc)
    [d] d = Conv(c, wd, bd)
    [s2] s2 = Add(r1, d)
    r2 = Relu(s2)
    [y] y = Conv(r2, wy, by) })";

// The layers outside the stream stay dense, so only the stream is pruned.
const passes::Options kStreamOnly{
    {"pattern", "channel"}, {"sparsity", "0.5"}, {"node_block_list", "ca,cc,y"}};

TEST(PruneMagnitudeStreams, FindsTheLayersAResidualStageAdds) {
  ir::Model m = parse(kBlocks);
  analysis::inferShapes(m);
  auto streams = passes::residual::residualStreams(m.graph(), 13);
  ASSERT_EQ(streams.size(), 1u);
  std::vector<std::string> layers, joins;
  for (const ir::Node* n : streams[0].layers) layers.push_back(n->output(0)->name());
  for (const ir::Node* n : streams[0].joins) joins.push_back(n->output(0)->name());
  EXPECT_EQ(layers, (std::vector<std::string>{"h", "b", "d"}));
  EXPECT_EQ(joins, (std::vector<std::string>{"s1", "s2"}));
}

TEST(PruneMagnitudeStreams, TheSameChannelsGoInEveryLayerOfTheStream) {
  PassOutcome out = runPass(kPass, kBlocks, kStreamOnly);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "h", 1), 2), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(zeroRows(inputValues(out.model, "b", 1), 3), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(zeroRows(inputValues(out.model, "d", 1), 3), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(inputValues(out.model, "h", 2), (std::vector<double>{0.25, -0.5, 0, 0}));
  EXPECT_EQ(inputValues(out.model, "b", 2), (std::vector<double>{0.1f, -0.2f, 0, 0}));
  EXPECT_EQ(inputValues(out.model, "d", 2), (std::vector<double>{0.2f, 0.1f, 0, 0}));
  EXPECT_EQ(inputValues(out.model, "ca", 1), inputValues(parse(kBlocks), "ca", 1));
  EXPECT_NE(
      explainNotes(out).find(
          "pruned with its residual stream (2 channels ranked over its 3 layers): 4 of 8 weights"),
      std::string::npos)
      << explainNotes(out);
  EXPECT_NE(out.step.note.str().find(
                "3 layers pruned (channel), 1 residual streams as one: 16 weights set to zero"),
            std::string::npos)
      << out.step.note.str();
  // Numeric: within the default budget.
  ASSERT_TRUE(out.step.check.ran);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  expectConverges(kPass, kBlocks, kStreamOnly);
}

TEST(PruneMagnitudeStreams, RemoveDeadChannelsThenRemovesThemWithTheOutputsEqual) {
  PassOutcome out = runPass(kPass, kBlocks, kStreamOnly);
  ASSERT_TRUE(out.step.changed);
  ir::Model pruned = out.model.clone();
  PassOutcome removed = runPass("remove_dead_channels", std::move(out.model));
  ASSERT_TRUE(removed.step.changed) << explainNotes(removed);
  EXPECT_NE(removed.step.note.str().find("6 channels removed from 3 layers"), std::string::npos)
      << removed.step.note.str();
  for (const char* layer : {"h", "b", "d"}) EXPECT_EQ(inputDims(removed.model, layer, 1).at(0), 2);
  EXPECT_EQ(inputDims(removed.model, "ca", 1), (std::vector<int64_t>{3, 2, 1, 1}));
  EXPECT_EQ(inputDims(removed.model, "cc", 1), (std::vector<int64_t>{3, 2, 1, 1}));
  EXPECT_EQ(inputDims(removed.model, "y", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  NumericResult num = compareOutputs(pruned, removed.model, 3);
  ASSERT_TRUE(num.ran) << num.detail;
  EXPECT_TRUE(num.equal) << num.detail;
}

TEST(PruneMagnitudeStreams, EachLayerOnItsOwnWithStreamsOff) {
  passes::Options perLayer = kStreamOnly;
  perLayer.emplace_back("streams", "false");
  // keep_bias: h's own smallest channels carry its largest biases, which
  // zeroed would take the outputs over the budget.
  perLayer.emplace_back("keep_bias", "true");
  PassOutcome out = runPass(kPass, kBlocks, perLayer);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "h", 1), 2), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(zeroRows(inputValues(out.model, "b", 1), 3), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(zeroRows(inputValues(out.model, "d", 1), 3), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(explainNotes(out).find("residual stream"), std::string::npos) << explainNotes(out);
}

TEST(PruneMagnitudeStreams, ABlockedLayerBlocksItsWholeStream) {
  const passes::Options blocked{
      {"pattern", "channel"}, {"sparsity", "0.5"}, {"node_block_list", "ca,cc,y,b"}};
  expectUnchanged(kPass, kBlocks,
                  "not pruned: its residual stream (3 layers, added by Add 's1') is pruned as one, "
                  "and Conv 'b' is not pruned: the node is in node_block_list",
                  blocked);
}

// Add of h [1,4,4,4] and e [1,4,1,1] (a broadcast): no stream; each layer
// keeps its own ranking (h: channels 0 and 1, e: 2 and 3).
const char* kBroadcast = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,4,4,4] y)
    <float[4,2,1,1] w0 = {0.001, 0.002,  -0.001, 0.001,  1, -1,  1, 1}, float[4] b0 = {0, 0, 0.5, 1},
     float[4,2,1,1] we = {1, 2,  -1, 1,  0.001, -0.002,  0.001, 0.001}, float[4] be = {1, 0.5, 0, 0}> {
    [h] h = Conv(x, w0, b0)
    g = GlobalAveragePool(x)
    [e] e = Conv(g, we, be)
    s = Add(h, e)
    y = Relu(s) })";

TEST(PruneMagnitudeStreams, ABroadcastAddGroupsNothing) {
  ir::Model m = parse(kBroadcast);
  analysis::inferShapes(m);
  EXPECT_TRUE(passes::residual::residualStreams(m.graph(), 13).empty());
  PassOutcome out = runPass(kPass, kBroadcast, {{"pattern", "channel"}, {"sparsity", "0.5"}});
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "h", 1), 2), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(zeroRows(inputValues(out.model, "e", 1), 2), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(explainNotes(out).find("residual stream"), std::string::npos) << explainNotes(out);
}

// A feature map r read by two depthwise Convs (two branches, as a detector's
// heads): remove_dead_channels removes h's channel only where both drop it,
// so they are pruned as one, their filters ranked by the summed norm. Alone
// d1 would lose 0 and 2, d2 2 and 3; together (norms: 0 about 3.6e-3, 1
// about 8, 2 about 1e-4, 3 about 2.9e-3) both lose 2 and 3.
const char* kBranches = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y1, float[1,2,4,4] y2)
    <float[4,2,1,1] w = {1, 0.5,  -1, 1,  0.5, 1,  1, -0.5}, float[4] b = {0.1, 0.2, 0.3, 0.4},
     float[4,1,1,1] dw1 = {0.001, 2, 0.01, 0.05}, float[4,1,1,1] dw2 = {0.06, 2, 0.001, 0.02},
     float[2,4,1,1] wy1 = {1, 2, 1, 1,  -1, 1, 1, 1}, float[2,4,1,1] wy2 = {1, 1, -1, 1,  2, 1, 1, -1}> {
    [h] h = Conv(x, w, b)
    r = Relu(h)
    [d1] d1 = Conv <group = 4> (r, dw1)
    [d2] d2 = Conv <group = 4> (r, dw2)
    [y1] y1 = Conv(d1, wy1)
    [y2] y2 = Conv(d2, wy2) })";

const passes::Options kBranchesOnly{
    {"pattern", "channel"}, {"sparsity", "0.5"}, {"node_block_list", "h,y1,y2"}};

TEST(PruneMagnitudeStreams, DepthwiseBranchesOfOneFeatureMapLoseTheSameChannels) {
  PassOutcome out = runPass(kPass, kBranches, kBranchesOnly);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "d1", 1), 1), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(zeroRows(inputValues(out.model, "d2", 1), 1), (std::vector<int64_t>{2, 3}));
  EXPECT_NE(explainNotes(out).find("pruned with the 2 depthwise Convs reading 'r' (2 channels "
                                   "ranked over them)"),
            std::string::npos)
      << explainNotes(out);
  ASSERT_TRUE(out.step.check.ran);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  expectConverges(kPass, kBranches, kBranchesOnly);
  // remove_dead_channels then removes h's channels 2 and 3 with both
  // branches', the outputs equal.
  ir::Model pruned = out.model.clone();
  PassOutcome removed = runPass("remove_dead_channels", std::move(out.model));
  ASSERT_TRUE(removed.step.changed) << explainNotes(removed);
  EXPECT_EQ(inputDims(removed.model, "h", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  EXPECT_EQ(inputDims(removed.model, "y2", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  NumericResult num = compareOutputs(pruned, removed.model, 3);
  ASSERT_TRUE(num.ran) << num.detail;
  EXPECT_TRUE(num.equal) << num.detail;
}

TEST(PruneMagnitudeStreams, DepthwiseBranchesOnTheirOwnWithStreamsOffOrOneBlocked) {
  passes::Options perLayer = kBranchesOnly;
  perLayer.emplace_back("streams", "false");
  PassOutcome out = runPass(kPass, kBranches, perLayer);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "d1", 1), 1), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(zeroRows(inputValues(out.model, "d2", 1), 1), (std::vector<int64_t>{2, 3}));
  // d2 blocked: d1 on its own.
  PassOutcome one =
      runPass(kPass, kBranches,
              {{"pattern", "channel"}, {"sparsity", "0.5"}, {"node_block_list", "h,y1,y2,d2"}});
  ASSERT_TRUE(one.step.changed) << explainNotes(one);
  EXPECT_EQ(zeroRows(inputValues(one.model, "d1", 1), 1), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(zeroRows(inputValues(one.model, "d2", 1), 1), (std::vector<int64_t>{}));
  EXPECT_EQ(explainNotes(one).find("depthwise Convs reading"), std::string::npos)
      << explainNotes(one);
}

// A shortcut through a grouped Conv (2 groups, not depthwise): g's channel c
// sums e's channels of c's group, so h and e are no stream (h's channel c
// meets g's, not e's); through a depthwise Conv (channel c from channel c)
// they are. Alone (e blocked: pruning e, which feeds the grouped Conv, one
// channel per group, would take the outputs over the budget) h loses 0 and 1;
// joined with e, e's 1-sized channels 0 and 1 would make h lose 2 and 3.
const char* kGroupedShortcut = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,4,4,4] y)
    <float[4,2,1,1] wh = {0.001, 0.002,  -0.001, 0.001,  0.01, -0.01,  0.01, 0.01},
     float[4,2,1,1] we = {1, -1,  0.5, 1,  0.001, 0.002,  -0.002, 0.001},
     float[4,2,1,1] wg = {1, 0.5,  -1, 1,  0.5, 2,  1, -1}, float[4] bg = {0.1, 0.2, 0.3, 0.4}> {
    [h] h = Conv(x, wh)
    [e] e = Conv(x, we)
    r = Relu(e)
    [g] g = Conv <group = 2> (r, wg, bg)
    s = Add(h, g)
    y = Relu(s) })";

TEST(PruneMagnitudeStreams, AShortcutThroughAGroupedConvIsNoStream) {
  ir::Model m = parse(kGroupedShortcut);
  analysis::inferShapes(m);
  EXPECT_TRUE(passes::residual::residualStreams(m.graph(), 13).empty());
  PassOutcome out =
      runPass(kPass, kGroupedShortcut,
              {{"pattern", "channel"}, {"sparsity", "0.5"}, {"node_block_list", "g,e"}});
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "h", 1), 2), (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(zeroRows(inputValues(out.model, "e", 1), 2).empty());
  // Depthwise (4 groups, one filter each): the channels keep their places.
  ir::Model d = parse(replaced(replaced(kGroupedShortcut, "group = 2", "group = 4"),
                               "float[4,2,1,1] wg = {1, 0.5,  -1, 1,  0.5, 2,  1, -1}",
                               "float[4,1,1,1] wg = {1, -1, 0.5, 2}"));
  analysis::inferShapes(d);
  auto streams = passes::residual::residualStreams(d.graph(), 13);
  ASSERT_EQ(streams.size(), 1u);
  std::vector<std::string> layers;
  for (const ir::Node* n : streams[0].layers) layers.push_back(n->output(0)->name());
  EXPECT_EQ(layers, (std::vector<std::string>{"h", "e"}));
}

}  // namespace
}  // namespace passlab::testing
