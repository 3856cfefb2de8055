// prune_magnitude, channel pattern, on a layer whose channels reach a
// channel shuffle (Reshape [N, g, C/g, H, W], Transpose [0, 2, 1, 3, 4],
// Reshape back) and a grouped Conv: the channels are chosen as whole places
// (the same place in every shuffle group, as many in every input group of
// the grouped Conv), ranked by their norm, so that remove_dead_channels
// removes them. Structural (whole places, where the layer alone would choose
// others), numeric (the budget; remove_dead_channels then keeps the outputs
// exactly), convergence, and the negatives (a layer read by the shuffle and
// something else, a layer grouped unlike the shuffle: the per-layer choice).
#include <gtest/gtest.h>

#include "core/io/text_format.h"
#include "tests/core/passes/channel_passes_test_util.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "prune_magnitude";

using namespace channels;

// h's 8 channels go through a shuffle of 2 groups of 4 (places b: channels
// b and 4 + b, put at 2b and 2b + 1), a depthwise Conv and a Conv of 2
// groups (input group 0: places 0 and 1, group 1: places 2 and 3). Alone, h
// would lose its weakest channels 0, 6, 1, 3; as places (norms: place 0
// about 2, 1 about 1.3e-5, 2 about 1.25, 3 about 8e-6) it loses place 1 of
// input group 0 and place 3 of group 1: channels 1, 5, 3, 7.
const char* kUnit = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,2,2] x) => (float[1,2,2,2] y)
    <float[8,2,1,1] w = {0.001, 0,  0.002, 0,  1, 0.5,  0.002, 0,  1, -1,  0.003, 0,  0.001, 0,
                         0.002, 0},
     float[8] b = {0.1, 0.001, 0.2, 0.001, -0.1, 0.001, 0.3, 0.001},
     int64[5] split = {1, 2, 4, 2, 2}, int64[4] whole = {1, 8, 2, 2},
     float[8,1,1,1] wd = {1, -2, 3, 0.5, 2, 1, -1, 1.5},
     float[2,4,1,1] w2 = {1, 2, 3, 4,  5, 6, 7, 8}, float[2] b2 = {1, -1}> {
    [h] h = Conv(x, w, b)
    r = Relu(h)
    a = Reshape(r, split)
    t = Transpose <perm = [0, 2, 1, 3, 4]> (a)
    s = Reshape(t, whole)
    [d] d = Conv <group = 8> (s, wd)
    [y] y = Conv <group = 2> (d, w2, b2) })";

// Only h is pruned.
const passes::Options kHalf{
    {"pattern", "channel"}, {"sparsity", "0.5"}, {"node_block_list", "d,y"}};

TEST(PruneMagnitudeShuffle, ChoosesWholePlacesBalancedOverTheGroupedConvsGroups) {
  PassOutcome out = runPass(kPass, kUnit, kHalf);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  const std::vector<int64_t> zero = zeroRows(inputValues(out.model, "h", 1), 2);
  EXPECT_EQ(zero, (std::vector<int64_t>{1, 3, 5, 7}));
  for (int64_t c : zero)  // whole places: the channel at the same place in the other group too
    EXPECT_NE(std::find(zero.begin(), zero.end(), (c + 4) % 8), zero.end()) << c;
  EXPECT_EQ(inputValues(out.model, "h", 2),
            (std::vector<double>{0.1f, 0, 0.2f, 0, -0.1f, 0, 0.3f, 0}));
  EXPECT_NE(explainNotes(out).find("2 of 4 places zero (2 channels each, ranked by their norm; "
                                   "the same place in every group of channel shuffle"),
            std::string::npos)
      << explainNotes(out);
  // Numeric: within the default budget.
  ASSERT_TRUE(out.step.check.ran);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  expectConverges(kPass, kUnit, kHalf);
}

TEST(PruneMagnitudeShuffle, RemoveDeadChannelsThenRemovesEveryChosenChannel) {
  PassOutcome out = runPass(kPass, kUnit, kHalf);
  ASSERT_TRUE(out.step.changed);
  ir::Model pruned = out.model.clone();
  PassOutcome removed = runPass("remove_dead_channels", std::move(out.model));
  ASSERT_TRUE(removed.step.changed) << explainNotes(removed);
  EXPECT_EQ(inputDims(removed.model, "h", 1), (std::vector<int64_t>{4, 2, 1, 1}));
  EXPECT_EQ(inputValues(removed.model, "a", 1), (std::vector<double>{1, 2, 2, 2, 2}));
  EXPECT_EQ(inputDims(removed.model, "y", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  NumericResult num = compareOutputs(pruned, removed.model, 3);
  ASSERT_TRUE(num.ran) << num.detail;
  EXPECT_TRUE(num.equal) << num.detail;
}

TEST(PruneMagnitudeShuffle, ALayerReadByTheShuffleAndSomethingElseKeepsItsOwnChoice) {
  std::string shared =
      replaced(kUnit, "=> (float[1,2,2,2] y)", "=> (float[1,2,2,2] y, float[1,8,1,1] z)");
  shared = replaced(shared, "r = Relu(h)", "r = Relu(h)\n    z = GlobalAveragePool(r)");
  // keep_bias: zeroing the biases of h's own choice (0.1, 0.3) would take
  // y over the budget.
  passes::Options keepBias = kHalf;
  keepBias.emplace_back("keep_bias", "true");
  PassOutcome out = runPass(kPass, shared, keepBias);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "h", 1), 2), (std::vector<int64_t>{0, 1, 3, 6}));
  EXPECT_EQ(explainNotes(out).find("places"), std::string::npos) << explainNotes(out);
}

// h has 3 groups of 2 channels, the shuffle 2 groups of 3: whole places
// (channels b and 3 + b) would take a group's both channels, so h keeps
// the per-group choice: the weaker channel of each group, 0, 3 and 4.
const char* kOtherGroups = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,3,2,2] x) => (float[1,6,2,2] y)
    <float[6,1,1,1] w = {0.001, 1, 2, 0.001, 0.001, 3},
     int64[5] split = {1, 2, 3, 2, 2}, int64[4] whole = {1, 6, 2, 2}> {
    [h] h = Conv <group = 3> (x, w)
    a = Reshape(h, split)
    t = Transpose <perm = [0, 2, 1, 3, 4]> (a)
    y = Reshape(t, whole) })";

TEST(PruneMagnitudeShuffle, ALayerGroupedUnlikeTheShuffleKeepsThePerGroupChoice) {
  PassOutcome out = runPass(kPass, kOtherGroups, {{"pattern", "channel"}, {"sparsity", "0.5"}});
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "h", 1), 1), (std::vector<int64_t>{0, 3, 4}));
  EXPECT_EQ(explainNotes(out).find("places"), std::string::npos) << explainNotes(out);
}

// Without the grouped Conv the shuffle's places are ranked together: the
// two weakest, 3 and 1 (the same channels here).
TEST(PruneMagnitudeShuffle, AShuffleAloneRanksAllItsPlacesTogether) {
  std::string alone = replaced(kUnit, "=> (float[1,2,2,2] y)", "=> (float[1,8,2,2] y)");
  alone = replaced(alone, "[y] y = Conv <group = 2> (d, w2, b2)", "y = Relu(d)");
  PassOutcome out = runPass(kPass, alone, kHalf);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "h", 1), 2), (std::vector<int64_t>{1, 3, 5, 7}));
}

// Only the depthwise Conv d after the shuffle is pruned: its channels are
// the shuffle's places too (shuffled 2b and 2b + 1 are place b; y's input
// group 0 holds places 0 and 1, group 1 places 2 and 3). Alone, d would
// lose its weakest filters 0, 4, 6, 7; as places (norms: 0 about 1.7e-5, 1
// 13, 2 0.25, 3 1.8e-5) place 0 of group 0 and place 3 of group 1: 0, 1, 6, 7.
const passes::Options kDepthwiseHalf{
    {"pattern", "channel"}, {"sparsity", "0.5"}, {"node_block_list", "h,y"}};

std::string withDepthwise(const std::string& filters) {
  return replaced(kUnit, "wd = {1, -2, 3, 0.5, 2, 1, -1, 1.5}", "wd = {" + filters + "}");
}

const char* kWeakPlaces = "0.001, 0.004, 3, 2, 0.002, 0.5, 0.003, 0.003";

TEST(PruneMagnitudeShuffle, ADepthwiseConvAfterTheShuffleChoosesWholePlaces) {
  const std::string unit = withDepthwise(kWeakPlaces);
  PassOutcome out = runPass(kPass, unit, kDepthwiseHalf);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "d", 1), 1), (std::vector<int64_t>{0, 1, 6, 7}));
  EXPECT_NE(explainNotes(out).find("2 of 4 places zero (2 channels each"), std::string::npos)
      << explainNotes(out);
  ASSERT_TRUE(out.step.check.ran);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  expectConverges(kPass, unit, kDepthwiseHalf);
  // Then remove_dead_channels takes them back through the shuffle: h loses
  // 0, 4 (place 0) and 3, 7 (place 3), the outputs equal.
  ir::Model pruned = out.model.clone();
  PassOutcome removed = runPass("remove_dead_channels", std::move(out.model));
  ASSERT_TRUE(removed.step.changed) << explainNotes(removed);
  EXPECT_EQ(inputDims(removed.model, "h", 1), (std::vector<int64_t>{4, 2, 1, 1}));
  EXPECT_EQ(inputValues(removed.model, "h", 2), (std::vector<double>{0.001f, 0.2f, 0.001f, 0.3f}));
  EXPECT_EQ(inputDims(removed.model, "d", 1), (std::vector<int64_t>{4, 1, 1, 1}));
  EXPECT_EQ(inputDims(removed.model, "y", 1), (std::vector<int64_t>{2, 2, 1, 1}));
  NumericResult num = compareOutputs(pruned, removed.model, 3);
  ASSERT_TRUE(num.ran) << num.detail;
  EXPECT_TRUE(num.equal) << num.detail;
}

TEST(PruneMagnitudeShuffle, ADepthwiseConvNotAfterAShuffleKeepsItsOwnChoice) {
  // The Transpose swaps H and W: no shuffle, d's weakest filters alone.
  std::string notShuffle =
      replaced(withDepthwise(kWeakPlaces), "perm = [0, 2, 1, 3, 4]", "perm = [0, 1, 2, 4, 3]");
  PassOutcome out = runPass(kPass, notShuffle, kDepthwiseHalf);
  ASSERT_TRUE(out.step.changed) << explainNotes(out);
  EXPECT_EQ(zeroRows(inputValues(out.model, "d", 1), 1), (std::vector<int64_t>{0, 4, 6, 7}));
  EXPECT_EQ(explainNotes(out).find("places"), std::string::npos) << explainNotes(out);
}

}  // namespace
}  // namespace passlab::testing
