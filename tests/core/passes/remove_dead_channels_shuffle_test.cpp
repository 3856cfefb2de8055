// remove_dead_channels through channel shuffles (Reshape to [N, g, C/g, H, W],
// Transpose [0, 2, 1, 3, 4], Reshape back) and into grouped Convs that are
// not depthwise: a shuffle loses channels only at the same places in every
// group (so that it stays a shuffle), a grouped Conv reading them loses as
// many input channels in every group, their constants folded into the
// group's bias. Structural, numeric (outputs equal on random inputs),
// convergence and the negatives (groups losing channels unevenly, a Reshape
// that is not a channel split, a Transpose that is not the shuffle's, a
// padded grouped Conv reading a nonzero constant).
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/core/passes/channel_passes_test_util.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "remove_dead_channels";

using namespace channels;

// h's channels 0 and 2 are dead (0.5 and 0.25): the shuffle's two groups
// {h0, h1}, {h2, h3} lose the channel at place 0 each, so it stays a
// shuffle of 2 groups of 1. It puts h0, h2 at 0, 1 of s, so the Conv after it
// loses its input channels 0 and 1 and takes their constants:
// b2 = {1 + 0.5 * 1 + 0.25 * 2, -1 + 0.5 * 5 + 0.25 * 6}.
const char* kShuffle = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3,3,3] x) => (float[1,2,3,3] y)
    <float[4,3,1,1] w = {0, 0, 0,  1, 2, 3,  0, 0, 0,  -1, 1, 2},
     float[4] b = {0.5, 0.1, 0.25, -0.2},
     int64[5] split = {1, 2, 2, 3, 3}, int64[4] whole = {1, 4, 3, 3},
     float[2,4,1,1] w2 = {1, 2, 3, 4,  5, 6, 7, 8}, float[2] b2 = {1, -1}> {
    h = Conv(x, w, b)
    r = Relu(h)
    a = Reshape(r, split)
    t = Transpose <perm = [0, 2, 1, 3, 4]> (a)
    s = Reshape(t, whole)
    y = Conv(s, w2, b2) })";

TEST(RemoveDeadChannelsShuffle, AShuffleLosingAColumnStaysAShuffle) {
  PassOutcome out = runPass(kPass, kShuffle);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(inputValues(out.model, "h", 1), (std::vector<double>{1, 2, 3, -1, 1, 2}));
  EXPECT_EQ(inputValues(out.model, "h", 2), (std::vector<double>{0.1f, -0.2f}));
  EXPECT_EQ(inputValues(out.model, "a", 1), (std::vector<double>{1, 2, 1, 3, 3}));
  EXPECT_EQ(inputValues(out.model, "s", 1), (std::vector<double>{1, 2, 3, 3}));
  EXPECT_EQ(inputValues(out.model, "y", 1), (std::vector<double>{3, 4, 7, 8}));
  EXPECT_EQ(inputValues(out.model, "y", 2), (std::vector<double>{2, 3}));
  expectEqualOutputs(kShuffle, out);
  expectConverges(kPass, kShuffle);
}

TEST(RemoveDeadChannelsShuffle, WhatIsNotAShuffleOrLosesUnevenlyStops) {
  // Channels 0 and 1 are both in the shuffle's group 0: nothing can go.
  std::string uneven =
      replaced(kShuffle, "{0, 0, 0,  1, 2, 3,  0, 0, 0,", "{0, 0, 0,  0, 0, 0,  1, 2, 3,");
  expectUnchanged(kPass, uneven,
                  "goes only with the channels at its place in every group, so that the "
                  "shuffle stays one");
  // A Reshape that does not split the channels (it splits H by W).
  std::string notSplit =
      replaced(kShuffle, "int64[5] split = {1, 2, 2, 3, 3}", "int64[5] split = {1, 4, 3, 3, 1}");
  notSplit = replaced(notSplit, "perm = [0, 2, 1, 3, 4]", "perm = [0, 1, 2, 4, 3]");
  expectUnchanged(kPass, notSplit, "reshapes them to another shape than [N, channels x positions]");
  // The split, transposed otherwise (H and W swapped, not the groups).
  std::string otherPerm = replaced(kShuffle, "perm = [0, 2, 1, 3, 4]", "perm = [0, 1, 2, 4, 3]");
  expectUnchanged(kPass, otherPerm,
                  "reshapes them to another shape than [N, channels x positions]");
}

// A grouped Conv (2 groups, 2 input channels each) reads h, whose channels 1
// (0.25) and 3 (0.75) are dead: one input channel of each group goes, and
// its constant goes into that group's bias:
// bg = {1 + 0.25 * 2, -1 + 0.75 * 4}.
const char* kGroupedSink = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3,3,3] x) => (float[1,2,3,3] y)
    <float[4,3,1,1] w = {1, 2, 3,  0, 0, 0,  -1, 1, 2,  0, 0, 0},
     float[4] b = {0.5, 0.25, 0.1, 0.75},
     float[2,2,1,1] wg = {1, 2,  3, 4}, float[2] bg = {1, -1}> {
    h = Conv(x, w, b)
    r = Relu(h)
    y = Conv <group = 2> (r, wg, bg) })";

TEST(RemoveDeadChannelsShuffle, AGroupedConvLosesAsManyInputChannelsInEveryGroup) {
  PassOutcome out = runPass(kPass, kGroupedSink);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(inputValues(out.model, "h", 1), (std::vector<double>{1, 2, 3, -1, 1, 2}));
  EXPECT_EQ(inputValues(out.model, "h", 2), (std::vector<double>{0.5, 0.1f}));
  EXPECT_EQ(inputDims(out.model, "y", 1), (std::vector<int64_t>{2, 1, 1, 1}));
  EXPECT_EQ(inputValues(out.model, "y", 1), (std::vector<double>{1, 3}));
  EXPECT_EQ(inputValues(out.model, "y", 2), (std::vector<double>{1.5, 2}));
  EXPECT_EQ(groupOf(out.model, "y"), 2);
  expectEqualOutputs(kGroupedSink, out);
  expectConverges(kPass, kGroupedSink);
}

TEST(RemoveDeadChannelsShuffle, AGroupedConvKeepsItsInputGroupsOfOneSize) {
  // Channels 0 and 1 are dead, both read by group 0: none goes.
  std::string uneven = replaced(kGroupedSink, "{1, 2, 3,  0, 0, 0,  -1, 1, 2,  0, 0, 0}",
                                "{0, 0, 0,  0, 0, 0,  -1, 1, 2,  1, 2, 3}");
  expectUnchanged(kPass, uneven, "every input group loses as many channels, 0 each");
  // 0, 1 and 3 dead: one of each group goes (0 and 3), 1 stays.
  std::string three = replaced(kGroupedSink, "{1, 2, 3,  0, 0, 0,  -1, 1, 2,  0, 0, 0}",
                               "{0, 0, 0,  0, 0, 0,  -1, 1, 2,  0, 0, 0}");
  PassOutcome out = runPass(kPass, three);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(inputDims(out.model, "h", 1), (std::vector<int64_t>{2, 3, 1, 1}));
  EXPECT_EQ(inputDims(out.model, "y", 1), (std::vector<int64_t>{2, 1, 1, 1}));
  EXPECT_NE(explainNotes(out).find("2 of 3 dead channels removed"), std::string::npos)
      << explainNotes(out);
  expectEqualOutputs(three, out);
  expectConverges(kPass, three);
  // A padded grouped Conv cannot take a nonzero constant into its bias...
  std::string padded = replaced(kGroupedSink, "y = Conv <group = 2> (r, wg, bg)",
                                "y = Conv <group = 2, pads = [1, 1, 1, 1]> (r, wg, bg)");
  padded = replaced(padded, "float[1,2,3,3] y", "float[1,2,5,5] y");
  expectUnchanged(kPass, padded,
                  "pads its input: channel 1 holds 0.25, which its bias cannot take");
  // ...but zeros go.
  std::string zeros =
      replaced(padded, "float[4] b = {0.5, 0.25, 0.1, 0.75}", "float[4] b = {0.5, 0, 0.1, 0}");
  PassOutcome zeroOut = runPass(kPass, zeros);
  ASSERT_TRUE(zeroOut.step.changed) << explainNotes(zeroOut);
  EXPECT_EQ(inputValues(zeroOut.model, "y", 1), (std::vector<double>{1, 3}));
  expectEqualOutputs(zeros, zeroOut);
}

// A ShuffleNet unit: grouped 1x1 Conv (2 groups of 4), Relu, shuffle of 2
// groups, padded depthwise 3x3, grouped 1x1 Conv (2 groups of 2, 4 input
// channels each). g1's channels 0, 2 (group 0) and 4, 6 (group 1) are zero
// (weights and bias): the shuffle loses places 0 and 2 of both groups, which
// it puts at 0, 1 and 4, 5, two in each input group of g2, so all four go
// from g1, the shuffle, the depthwise Conv and g2 (whose bias takes the
// depthwise Conv's biases there).
const char* kUnit = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,4,5,5] x) => (float[1,4,5,5] y)
    <float[8,2,1,1] w1 = {0, 0, 0.55, -0.55, 0, 0, -0.99, 0.64, 0, 0, -0.39, -0.44, 0, 0,
                          0.01, 0.11},
     float[8] b1 = {0, 0.3, 0, -0.2, 0, 0.4, 0, 0.1},
     int64[5] split = {1, 2, 4, 5, 5}, int64[4] whole = {1, 8, 5, 5},
     float[8,1,3,3] dw = {0.99, 0.59, 0.24, 0.98, -0.57, -0.68, 0.23, -0.91, -0.93, 0.03, -0.07,
                          0.83, 0.26, 0.03, -0.01, -0.5, -0.98, -0.62, 0.38, -0.6, -0.26, -0.99,
                          0.66, -0.69, -0.46, 0.76, 0.02, 0.69, 0.28, 0.48, -0.82, 0.08, 0.02,
                          0.74, -0.28, 0.2, -0.88, -0.22, -0.35, -0.7, 0.63, -0.24, 0.96, 0.18,
                          0.21, 0.28, 0.35, -0.7, -0.12, -0.52, -0.2, -0.81, 0.94, -0.57, 0.34,
                          -0.4, 0.75, 0.32, -0.74, 0.69, 0.89, 0.81, 0.14, -0.71, -0.62, 0.86,
                          0.1, -0.64, 0.77, 0.28, 0.14, -0.25},
     float[8] db = {-0.18, -0.52, -0.92, 0.75, -0.06, 0.1, -0.36, 0.5},
     float[4,4,1,1] w2 = {-0.95, -0.26, -0.94, -0.75, 0.93, 0.32, -0.14, 0.05, 0.75, -0.31, 0.18,
                          0.37, -0.29, 0.04, 0.53, 0.82},
     float[4] b2 = {0.1, 0.2, 0.3, 0.4}> {
    g1 = Conv <group = 2> (x, w1, b1)
    r = Relu(g1)
    a = Reshape(r, split)
    t = Transpose <perm = [0, 2, 1, 3, 4]> (a)
    s = Reshape(t, whole)
    d = Conv <group = 8, pads = [1, 1, 1, 1]> (s, dw, db)
    y = Conv <group = 2> (d, w2, b2) })";

TEST(RemoveDeadChannelsShuffle, AShuffleNetUnitLosesItsDeadChannelsThroughout) {
  PassOutcome out = runPass(kPass, kUnit);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(inputDims(out.model, "g1", 1), (std::vector<int64_t>{4, 2, 1, 1}));
  EXPECT_EQ(inputValues(out.model, "a", 1), (std::vector<double>{1, 2, 2, 5, 5}));
  EXPECT_EQ(inputValues(out.model, "s", 1), (std::vector<double>{1, 4, 5, 5}));
  EXPECT_EQ(inputDims(out.model, "d", 1), (std::vector<int64_t>{4, 1, 3, 3}));
  EXPECT_EQ(groupOf(out.model, "d"), 4);
  EXPECT_EQ(inputDims(out.model, "y", 1), (std::vector<int64_t>{4, 2, 1, 1}));
  // Shuffled places 2, 3 (g1's 1, 5) and 6, 7 (g1's 3, 7) stay.
  EXPECT_EQ(inputValues(out.model, "d", 2), (std::vector<double>{-0.92f, 0.75f, -0.36f, 0.5f}));
  EXPECT_NE(out.step.note.str().find("4 channels removed from 1 layers"), std::string::npos)
      << out.step.note.str();
  expectEqualOutputs(kUnit, out);
  expectConverges(kPass, kUnit);
  // g1's channel 6 holds 0.5, which the padded depthwise Conv does not keep
  // constant: it stays, so its shuffle column (2 and 6) stays, and then g2's
  // input groups would lose 2 and 0 channels: none goes.
  expectUnchanged(kPass, replaced(kUnit, "0, 0.4, 0, 0.1}", "0, 0.4, 0.5, 0.1}"),
                  "every input group loses as many channels, 0 each");
}

// The ShuffleNet unit with g1 dense and the depthwise Conv's filters 0, 1, 4
// and 5 zero: the shuffle puts g1's channels 0, 4 (place 0) and 2, 6 (place
// 2) there, whole columns, two in each input group of g2. The trace back from
// the depthwise Conv passes the shuffle (shuffled b * 2 + a back to a * 4 +
// b), so g1 loses 0, 2, 4, 6 (their values unknown until the zero filters
// make them the depthwise biases), and g2 takes those biases.
const char* kUnitDense = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,4,5,5] x) => (float[1,4,5,5] y)
    <float[8,2,1,1] w1 = {0.3, -0.2, 0.55, -0.55, 0.7, 0.1, -0.99, 0.64, 0.25, -0.8, -0.39, -0.44,
                          -0.6, 0.45, 0.01, 0.11},
     float[8] b1 = {0.2, 0.3, -0.1, -0.2, 0.15, 0.4, 0.05, 0.1},
     int64[5] split = {1, 2, 4, 5, 5}, int64[4] whole = {1, 8, 5, 5},
     float[8,1,3,3] dw = {0, 0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0, 0,
                          0.83, 0.26, 0.03, -0.01, -0.5, -0.98, -0.62, 0.38, -0.6,
                          -0.26, -0.99, 0.66, -0.69, -0.46, 0.76, 0.02, 0.69, 0.28,
                          0, 0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0, 0,
                          -0.4, 0.75, 0.32, -0.74, 0.69, 0.89, 0.81, 0.14, -0.71,
                          -0.62, 0.86, 0.1, -0.64, 0.77, 0.28, 0.14, -0.25, 0.5},
     float[8] db = {-0.18, -0.52, -0.92, 0.75, -0.06, 0.1, -0.36, 0.5},
     float[4,4,1,1] w2 = {-0.95, -0.26, -0.94, -0.75, 0.93, 0.32, -0.14, 0.05, 0.75, -0.31, 0.18,
                          0.37, -0.29, 0.04, 0.53, 0.82},
     float[4] b2 = {0.1, 0.2, 0.3, 0.4}> {
    g1 = Conv <group = 2> (x, w1, b1)
    r = Relu(g1)
    a = Reshape(r, split)
    t = Transpose <perm = [0, 2, 1, 3, 4]> (a)
    s = Reshape(t, whole)
    d = Conv <group = 8, pads = [1, 1, 1, 1]> (s, dw, db)
    y = Conv <group = 2> (d, w2, b2) })";

TEST(RemoveDeadChannelsShuffle, ADepthwiseZeroFilterTakesItsChannelBackThroughTheShuffle) {
  PassOutcome out = runPass(kPass, kUnitDense);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(inputValues(out.model, "g1", 1),
            (std::vector<double>{0.55f, -0.55f, -0.99f, 0.64f, -0.39f, -0.44f, 0.01f, 0.11f}));
  EXPECT_EQ(inputValues(out.model, "g1", 2), (std::vector<double>{0.3f, -0.2f, 0.4f, 0.1f}));
  EXPECT_EQ(inputValues(out.model, "a", 1), (std::vector<double>{1, 2, 2, 5, 5}));
  EXPECT_EQ(inputValues(out.model, "s", 1), (std::vector<double>{1, 4, 5, 5}));
  EXPECT_EQ(groupOf(out.model, "d"), 4);
  EXPECT_EQ(inputValues(out.model, "d", 2), (std::vector<double>{-0.92f, 0.75f, -0.36f, 0.5f}));
  EXPECT_EQ(inputDims(out.model, "y", 1), (std::vector<int64_t>{4, 2, 1, 1}));
  // g2's bias takes the zero filters' biases: output o of group k reads
  // shuffled channels 4k .. 4k + 3, of which 4k and 4k + 1 went.
  const std::vector<double> w2 = {-0.95, -0.26, -0.94, -0.75, 0.93,  0.32, -0.14, 0.05,
                                  0.75,  -0.31, 0.18,  0.37,  -0.29, 0.04, 0.53,  0.82};
  const std::vector<double> db = {-0.18, -0.52, -0.92, 0.75, -0.06, 0.1, -0.36, 0.5};
  const std::vector<double> bias = inputValues(out.model, "y", 2);
  ASSERT_EQ(bias.size(), 4u);
  for (size_t o = 0; o < 4; ++o) {
    const size_t k = o / 2;
    const double want =
        0.1 * static_cast<double>(o + 1) + db[4 * k] * w2[o * 4] + db[4 * k + 1] * w2[o * 4 + 1];
    EXPECT_NEAR(bias[o], want, 1e-6) << o;
  }
  EXPECT_NE(out.step.note.str().find("8 channels removed from 2 layers"), std::string::npos)
      << out.step.note.str();
  expectEqualOutputs(kUnitDense, out);
  expectConverges(kPass, kUnitDense);
}

TEST(RemoveDeadChannelsShuffle, ThroughTheShuffleOnlyWholeColumnsGoAndOnlyThroughAShuffle) {
  // Zero filters 0 and 5: g1's channels 0 (place 0) and 6 (place 2), one of
  // each column: the shuffle would not stay one, nothing goes.
  std::string half = replaced(kUnitDense,
                              "0, 0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0, 0,\n"
                              "                          0.83",
                              "0, 0, 0, 0, 0, 0, 0, 0, 0,  1, 1, 1, 1, 1, 1, 1, 1, 1,\n"
                              "                          0.83");
  half = replaced(half,
                  "0, 0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0, 0,\n"
                  "                          -0.4",
                  "1, 1, 1, 1, 1, 1, 1, 1, 1,  0, 0, 0, 0, 0, 0, 0, 0, 0,\n"
                  "                          -0.4");
  expectUnchanged(kPass, half,
                  "goes only with the channels at its place in every group, so that the shuffle "
                  "stays one");
  // The Transpose swaps H and W, not the groups: not a shuffle, the trace
  // back stops at its Reshape.
  std::string notShuffle = replaced(kUnitDense, "perm = [0, 2, 1, 3, 4]", "perm = [0, 1, 2, 4, 3]");
  notShuffle =
      replaced(notShuffle, "int64[5] split = {1, 2, 4, 5, 5}", "int64[5] split = {1, 8, 5, 5, 1}");
  expectUnchanged(kPass, notShuffle, "its input 's' does not trace back to layers");
}

}  // namespace
}  // namespace passlab::testing
