// remove_dead_channels from grouped and depthwise Convs: a depthwise Conv's
// zero filter removes its channel with the input channel and the channel of
// the layer computing it (backwards) and folds its bias into the next layer
// (forwards); a grouped Conv loses as many dead channels in every group.
// Structural, numeric (outputs equal on random inputs), convergence and the
// negatives (an input channel read elsewhere, an input not computed by a
// layer, dead channels spread unevenly over the groups).
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/core/passes/channel_passes_test_util.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "remove_dead_channels";

using namespace channels;

// The depthwise Conv d (3x3, padded) has a zero filter for channel 1: d's
// channel 1 holds db[1] = 0.75 everywhere, padding or not, and relu(0.75)
// goes into the 1x1 Conv's bias: {1 + 0.75 * 2, -1 + 0.75 * 5}. Its input
// channel 1 (h's channel 1, not zero) is read by nothing else, so h loses
// it too, and d's group shrinks to 2.
const char* kDepthwise = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,5,5] x) => (float[1,2,5,5] y)
    <float[3,2,1,1] w = {1, 2,  -1, 0.5,  3, -2}, float[3] b = {0.1, 0.2, 0.3},
     float[3,1,3,3] dw = {1, 2, 3, 4, 5, 6, 7, 8, 9,  0, 0, 0, 0, 0, 0, 0, 0, 0,
                          -1, 1, -1, 1, 2, 1, -1, 1, -1},
     float[3] db = {0.5, 0.75, -0.25},
     float[2,3,1,1] w2 = {1, 2, 3,  4, 5, 6}, float[2] b2 = {1, -1}> {
    h = Conv(x, w, b)
    r = Relu(h)
    d = Conv <group = 3, pads = [1, 1, 1, 1]> (r, dw, db)
    a = Relu(d)
    y = Conv(a, w2, b2) })";

TEST(RemoveDeadChannelsGrouped, ADepthwiseZeroFilterTakesItsInputChannelAlong) {
  PassOutcome out = runPass(kPass, kDepthwise);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(inputValues(out.model, "h", 1), (std::vector<double>{1, 2, 3, -2}));
  EXPECT_EQ(inputValues(out.model, "h", 2), (std::vector<double>{0.1f, 0.3f}));
  EXPECT_EQ(inputDims(out.model, "d", 1), (std::vector<int64_t>{2, 1, 3, 3}));
  EXPECT_EQ(inputValues(out.model, "d", 2), (std::vector<double>{0.5, -0.25}));
  EXPECT_EQ(groupOf(out.model, "d"), 2);
  EXPECT_EQ(inputValues(out.model, "y", 1), (std::vector<double>{1, 3, 4, 6}));
  EXPECT_EQ(inputValues(out.model, "y", 2), (std::vector<double>{2.5, 2.75}));
  EXPECT_NE(out.step.note.str().find("2 channels removed from 2 layers, 15 weights fewer"),
            std::string::npos)
      << out.step.note.str();
  expectEqualOutputs(kDepthwise, out);
  expectConverges(kPass, kDepthwise);
}

// Two depthwise Convs in a row, the second with a zero filter: the first
// carries h's channel 1 on (its value unknown) and loses its filter too.
TEST(RemoveDeadChannelsGrouped, ThroughAnEarlierDepthwiseConv) {
  std::string chain = replaced(kDepthwise, "    d = Conv <group = 3, pads = [1, 1, 1, 1]> (r,",
                               "    e = Conv <group = 3> (r, dw0)\n    d2 = Relu(e)\n"
                               "    d = Conv <group = 3, pads = [1, 1, 1, 1]> (d2,");
  chain = replaced(chain, "float[3] db", "float[3,1,1,1] dw0 = {2, -1, 0.5}, float[3] db");
  PassOutcome out = runPass(kPass, chain);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(inputValues(out.model, "e", 1), (std::vector<double>{2, 0.5}));
  EXPECT_EQ(groupOf(out.model, "e"), 2);
  EXPECT_EQ(groupOf(out.model, "d"), 2);
  EXPECT_EQ(inputDims(out.model, "h", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  expectEqualOutputs(chain, out);
  expectConverges(kPass, chain);
}

TEST(RemoveDeadChannelsGrouped, ADepthwiseChannelStaysWhereItsInputIsReadElsewhere) {
  // r is read by another 1x1 Conv too: h's channel 1 is needed there.
  std::string shared =
      replaced(kDepthwise, "(float[1,2,5,5] y)", "(float[1,2,5,5] y, float[1,1,5,5] z)");
  shared = replaced(shared, "    y = Conv", "    z = Conv(r, w3)\n    y = Conv");
  shared = replaced(shared, "float[2] b2", "float[1,3,1,1] w3 = {1, 1, 1}, float[2] b2");
  expectUnchanged(kPass, shared, "channel 1 is not zero where Conv reads it");
  // The depthwise Conv reads a graph input: its input channel cannot go.
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,4,4] x) => (float[1,2,4,4] y)
    <float[2,1,1,1] w = {1, 0}, float[2,2,1,1] w2 = {1, 2, 3, 4}> {
    h = Conv <group = 2> (x, w)
    y = Conv(h, w2) })",
                  "its input 'x' does not trace back to layers whose channels could go");
  // The zero filter's bias reaches a padded Conv: the channel stays.
  std::string padded =
      replaced(kDepthwise, "y = Conv(a, w2, b2)", "y = Conv <pads = [1, 1, 1, 1]> (a, w2, b2)");
  padded = replaced(padded, "float[1,2,5,5] y", "float[1,2,7,7] y");
  expectUnchanged(kPass, padded, "pads its input: channel 1 holds 0.75");
}

// r (h after Relu) feeds two branches: the depthwise Conv d, whose filter 1
// is zero, and a second depthwise Conv e, whose filter 1 is zero too, and a
// 1x1 Conv z, whose weights for input channel 1 are zero. Every reader drops
// channel 1 (e's becomes its bias 0.5, z's takes no part), so h loses it:
// d, e and z lose their input channel 1, and the Convs after d and e take
// their biases.
const char* kBranches = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,5,5] x) => (float[1,2,5,5] y, float[1,2,5,5] u, float[1,1,7,7] z)
    <float[3,2,1,1] w = {1, 2,  -1, 0.5,  3, -2}, float[3] b = {0.1, 0.2, 0.3},
     float[3,1,3,3] dw = {1, 2, 3, 4, 5, 6, 7, 8, 9,  0, 0, 0, 0, 0, 0, 0, 0, 0,
                          -1, 1, -1, 1, 2, 1, -1, 1, -1},
     float[3] db = {0.5, 0.75, -0.25},
     float[2,3,1,1] w2 = {1, 2, 3,  4, 5, 6}, float[2] b2 = {1, -1},
     float[3,1,1,1] ew = {2, 0, -1}, float[3] eb = {0.1, 0.5, 0.2},
     float[2,3,1,1] uw = {1, -1, 2,  0.5, 3, -2},
     float[1,3,1,1] zw = {1, 0, -1}, float[1] zb = {0.25}> {
    h = Conv(x, w, b)
    r = Relu(h)
    d = Conv <group = 3, pads = [1, 1, 1, 1]> (r, dw, db)
    a = Relu(d)
    y = Conv(a, w2, b2)
    e = Conv <group = 3> (r, ew, eb)
    u = Conv(e, uw)
    z = Conv <pads = [1, 1, 1, 1]> (r, zw, zb) })";

TEST(RemoveDeadChannelsGrouped, AChannelGoesWhereEveryBranchReadingItDropsIt) {
  PassOutcome out = runPass(kPass, kBranches);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(inputValues(out.model, "h", 1), (std::vector<double>{1, 2, 3, -2}));
  EXPECT_EQ(groupOf(out.model, "d"), 2);
  EXPECT_EQ(groupOf(out.model, "e"), 2);
  EXPECT_EQ(inputValues(out.model, "e", 1), (std::vector<double>{2, -1}));
  EXPECT_EQ(inputValues(out.model, "y", 2), (std::vector<double>{2.5, 2.75}));
  // u had no bias: it gets e's 0.5 times its weights for channel 1.
  EXPECT_EQ(inputValues(out.model, "u", 1), (std::vector<double>{1, 2, 0.5, -2}));
  EXPECT_EQ(inputValues(out.model, "u", 2), (std::vector<double>{-0.5, 1.5}));
  EXPECT_EQ(inputDims(out.model, "z", 1), (std::vector<int64_t>{1, 2, 1, 1}));
  EXPECT_EQ(inputValues(out.model, "z", 1), (std::vector<double>{1, -1}));
  EXPECT_EQ(inputValues(out.model, "z", 2), (std::vector<double>{0.25}));
  expectEqualOutputs(kBranches, out);
  expectConverges(kPass, kBranches);
}

TEST(RemoveDeadChannelsGrouped, AChannelOneBranchStillReadsStays) {
  // z reads channel 1 (weight 0.5): it stays for all the branches.
  expectUnchanged(kPass, replaced(kBranches, "zw = {1, 0, -1}", "zw = {1, 0.5, -1}"),
                  "channel 1 is not zero where Conv reads it");
  // e's filter 1 is not zero: e carries h's channel 1 on to u, which reads it.
  expectUnchanged(kPass, replaced(kBranches, "ew = {2, 0, -1}", "ew = {2, 0.25, -1}"),
                  "channel 1 is not zero where Conv reads it");
}

// A grouped Conv (2 groups of 2 output channels) with channel 1 dead in
// group 0 and channel 3 in group 1: one of each group goes, the group stays
// 2, and the next Conv takes their constants 0.25 and 1 into its bias:
// {0.25 * 2 + 1 * 4, 0.25 * 6 + 1 * 8}.
const char* kGrouped = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,4,3,3] x) => (float[1,2,3,3] y)
    <float[4,2,1,1] g = {1, 2,  0, 0,  3, 4,  0, 0}, float[4] gb = {0.5, 0.25, -0.5, 1},
     float[2,4,1,1] w2 = {1, 2, 3, 4,  5, 6, 7, 8}> {
    h = Conv <group = 2> (x, g, gb)
    y = Conv(h, w2) })";

TEST(RemoveDeadChannelsGrouped, AGroupedConvLosesAsManyChannelsInEveryGroup) {
  PassOutcome out = runPass(kPass, kGrouped);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(inputValues(out.model, "h", 1), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(inputValues(out.model, "h", 2), (std::vector<double>{0.5, -0.5}));
  EXPECT_EQ(groupOf(out.model, "h"), 2);
  EXPECT_EQ(inputValues(out.model, "y", 1), (std::vector<double>{1, 3, 5, 7}));
  EXPECT_EQ(inputValues(out.model, "y", 2), (std::vector<double>{4.5, 9.5}));
  expectEqualOutputs(kGrouped, out);
  expectConverges(kPass, kGrouped);
}

TEST(RemoveDeadChannelsGrouped, UnevenDeadChannelsKeepTheGroupLayout) {
  // Group 1 has no dead channel: none can go.
  std::string uneven = replaced(kGrouped, "3, 4,  0, 0}", "3, 4,  5, 6}");
  expectUnchanged(kPass, uneven, "grouped Conv (group 2): 1 dead channels, but a group has none");
  // Group 0 has two dead channels, group 1 one: one of each goes.
  std::string more = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,4,3,3] x) => (float[1,2,3,3] y)
    <float[6,2,1,1] g = {0, 0,  0, 0,  1, 2,  3, 4,  0, 0,  5, 6},
     float[6] gb = {0.5, 0.25, -0.5, 1, 2, 3},
     float[2,6,1,1] w2 = {1, 2, 3, 4, 5, 6,  7, 8, 9, 10, 11, 12}> {
    h = Conv <group = 2> (x, g, gb)
    y = Conv(h, w2) })";
  PassOutcome out = runPass(kPass, more);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(inputDims(out.model, "h", 1), (std::vector<int64_t>{4, 2, 1, 1}));
  EXPECT_NE(explainNotes(out).find("2 of 3 dead channels removed; the others stay: grouped Conv "
                                   "(group 2) keeps its groups of one size: 1 dead channels of "
                                   "each go"),
            std::string::npos)
      << explainNotes(out);
  expectEqualOutputs(more, out);
  expectConverges(kPass, more);
}

// prune_magnitude's channel pattern on a depthwise Conv (the layers around
// it blocked), then remove_dead_channels: the pruned filter (channel 1, the
// weakest) goes with what feeds it, and the outputs stay what the pruned
// model computes.
TEST(RemoveDeadChannelsGrouped, AfterPruningADepthwiseConv) {
  std::string weak =
      replaced(kDepthwise, "0, 0, 0, 0, 0, 0, 0, 0, 0", "0.1, 0, -0.1, 0, 0.2, 0, 0.1, 0, 0");
  weak = replaced(weak, "    h = Conv", "    [ph] h = Conv");
  weak = replaced(weak, "    y = Conv", "    [py] y = Conv");
  const passes::Options channel{{"pattern", "channel"},
                                {"sparsity", "0.34"},
                                {"node_block_list", "ph, py"},
                                {"keep_bias", "true"}};
  PassOutcome pruned = runPass("prune_magnitude", weak, channel);
  ASSERT_TRUE(pruned.step.changed);
  EXPECT_EQ(inputValues(pruned.model, "d", 1).at(9), 0);
  ir::Model before = pruned.model.clone();
  PassOutcome removed = runPass(kPass, std::move(pruned.model));
  ASSERT_TRUE(removed.step.changed) << explainNotes(removed);
  EXPECT_EQ(groupOf(removed.model, "d"), 2);
  EXPECT_EQ(inputDims(removed.model, "h", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  NumericResult num = compareOutputs(before, removed.model, 3);
  ASSERT_TRUE(num.ran) << num.detail;
  EXPECT_TRUE(num.equal) << num.detail;
}

}  // namespace
}  // namespace passlab::testing
