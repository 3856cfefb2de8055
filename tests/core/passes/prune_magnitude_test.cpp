// prune_magnitude: the exact weights each pattern zeroes (unstructured,
// 2:4 along the reduction axis, whole channels with their bias), the outputs
// held to the accuracy budget (a step over it rolled back), convergence, the
// node block list, min_weights and option errors, channel pruning followed by
// remove_dead_channels, and per-layer sensitivity through the node filter.
#include <gtest/gtest.h>

#include "core/analysis/shape_inference.h"
#include "core/analysis/sparsity.h"
#include "core/io/text_format.h"
#include "core/pipeline/sensitivity.h"
#include "tests/support/pass_harness.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "prune_magnitude";

// The values of the initializer read as input `index` by the node whose output is `output`.
std::vector<double> inputValues(const ir::Model& m, const std::string& output, size_t index) {
  for (const auto& n : m.graph().nodes())
    if (n->output(0)->name() == output && n->inputs().size() > index && n->input(index) &&
        n->input(index)->initializer())
      return n->input(index)->initializer()->toDoubleVector();
  return {};
}

// Half the weights are tiny, so pruning them stays far inside the budget.
const char* kMatMul = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y)
    <float[4,4] w = {10, 0.001, -11, 0.002,  0.003, 12, -0.004, 13,
                     14, -0.005, 15, 0.006,  -0.007, 16, 0.008, 17}> {
    [fc] y = MatMul(x, w) })";

TEST(PruneMagnitude, UnstructuredZeroesTheSmallestShare) {
  PassOutcome out = runPass(kPass, kMatMul);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(inputValues(out.model, "y", 1),
            (std::vector<double>{10, 0, -11, 0, 0, 12, 0, 13, 14, 0, 15, 0, 0, 16, 0, 17}));
  ASSERT_TRUE(out.step.check.ran);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  EXPECT_NE(
      out.step.note.str().find("1 layers pruned (unstructured): 8 weights set to zero, 50.0%"),
      std::string::npos)
      << out.step.note.str();
  EXPECT_NE(
      explainNotes(out).find("pruned: 8 of 16 weights set to zero, 50.0% of the weight zero now"),
      std::string::npos)
      << explainNotes(out);
  // A quarter: the four smallest (0.001 ... 0.004).
  PassOutcome quarter = runPass(kPass, kMatMul, {{"sparsity", "0.25"}});
  EXPECT_EQ(inputValues(quarter.model, "y", 1),
            (std::vector<double>{10, 0, -11, 0, 0, 12, 0, 13, 14, -0.005f, 15, 0.006f, -0.007f, 16,
                                 0.008f, 17}));
  expectConverges(kPass, kMatMul);
}

// Conv with 8 input channels: two groups of 4 per output channel.
const char* kConv = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,8,2,2] x) => (float[1,2,2,2] y)
    <float[2,8,1,1] w = {5, 0.01, -6, 0.02,  0.03, 7, 0.04, -8,
                         0.01, 9, -0.02, 10,  11, -0.01, 12, 0.03},
     float[2] b = {0.5, -0.5}> {
    y = Conv(x, w, b) })";

TEST(PruneMagnitude, TwoFourZeroesTwoOfEachFourAlongTheReduction) {
  PassOutcome out = runPass(kPass, kConv, {{"pattern", "2:4"}});
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(inputValues(out.model, "y", 1),
            (std::vector<double>{5, 0, -6, 0, 0, 7, 0, -8, 0, 9, 0, 10, 11, 0, 12, 0}));
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  const auto report = analysis::sparsityReport(out.model);
  ASSERT_EQ(report.size(), 1u);
  EXPECT_EQ(report[0].twoFourShare(), 1.0);
  expectConverges(kPass, kConv, {{"pattern", "2:4"}});
}

// Channels 1 and 3 are small; pruned, their bias goes too, and
// remove_dead_channels then removes them.
const char* kChannels = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,3,3] x) => (float[1,2,3,3] y)
    <float[4,2,1,1] w = {2, -3,  0.001, 0.002,  4, 1,  -0.002, 0.001},
     float[4] b = {0.5, 0.001, -0.25, 0.002},
     float[2,4,1,1] w2 = {1, 2, 3, 4,  -1, 1, -1, 1}> {
    h = Conv(x, w, b)
    r = Relu(h)
    [c2] y = Conv(r, w2) })";

TEST(PruneMagnitude, ChannelZeroesWholeChannelsWithTheirBias) {
  const passes::Options channel{{"pattern", "channel"}, {"node_block_list", "c2"}};
  PassOutcome out = runPass(kPass, kChannels, channel);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(inputValues(out.model, "h", 1), (std::vector<double>{2, -3, 0, 0, 4, 1, 0, 0}));
  EXPECT_EQ(inputValues(out.model, "h", 2), (std::vector<double>{0.5, 0, -0.25, 0}));
  EXPECT_EQ(inputValues(out.model, "y", 1), (std::vector<double>{1, 2, 3, 4, -1, 1, -1, 1}));
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  expectConverges(kPass, kChannels, channel);
  PassOutcome removed = runPass("remove_dead_channels", std::move(out.model));
  ASSERT_TRUE(removed.step.changed);
  EXPECT_EQ(inputValues(removed.model, "h", 1), (std::vector<double>{2, -3, 4, 1}));
  EXPECT_EQ(inputValues(removed.model, "y", 1), (std::vector<double>{1, 3, -1, -1}));
}

TEST(PruneMagnitude, KeepBiasLeavesTheChannelItsBiasForTheNextLayer) {
  const passes::Options keep{
      {"pattern", "channel"}, {"node_block_list", "c2"}, {"keep_bias", "true"}};
  PassOutcome out = runPass(kPass, kChannels, keep);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(inputValues(out.model, "h", 1), (std::vector<double>{2, -3, 0, 0, 4, 1, 0, 0}));
  EXPECT_EQ(inputValues(out.model, "h", 2), (std::vector<double>{0.5, 0.001f, -0.25, 0.002f}));
  // The channels hold relu(0.001) and relu(0.002): c2 (no padding) takes
  // them into a new bias, and the outputs stay what the pruned model computes.
  ir::Model pruned = out.model.clone();
  PassOutcome removed = runPass("remove_dead_channels", std::move(out.model));
  ASSERT_TRUE(removed.step.changed);
  EXPECT_EQ(inputValues(removed.model, "y", 1), (std::vector<double>{1, 3, -1, -1}));
  EXPECT_EQ(inputValues(removed.model, "y", 2).size(), 2u) << io::printModelText(removed.model);
  NumericResult num = compareOutputs(pruned, removed.model, 3);
  ASSERT_TRUE(num.ran) << num.detail;
  EXPECT_TRUE(num.equal) << num.detail;
}

TEST(PruneMagnitude, AnIrVersion2ModelKeepsItsLegacyChannelBroadcast) {
  // Below IR version 3 the executor reads Add(h, b) with a 1-D b as a
  // channel broadcast; raising the IR version (freezing w) would end that.
  const char* old = R"(<ir_version: 2, opset_import: ["" : 6]>
main (float[1,2,2,2] x, float[2,2,1,1] w, float[2] b) => (float[1,2,2,2] y)
    <float[2,2,1,1] w = {4, 0.001, -0.002, 3}, float[2] b = {0.5, -0.5}> {
    h = Conv(x, w)
    y = Add(h, b) })";
  PassOutcome out = runPass(kPass, old);
  ASSERT_TRUE(out.step.changed);
  EXPECT_EQ(out.model.irVersion, 2);
  ASSERT_TRUE(out.step.check.ran);
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
}

TEST(PruneMagnitude, AStepOverTheBudgetIsRolledBack) {
  // Weights of one size: zeroing 90% of them moves the output far.
  PassOutcome out = runPassMayFail(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y)
    <float[4,4] w = {1, -1, 1, 1,  -1, 1, 1, -1,  1, 1, -1, 1,  -1, -1, 1, 1}> {
    y = MatMul(x, w) })",
                                   {{"sparsity", "0.9"}});
  EXPECT_TRUE(out.step.rolledBack);
  EXPECT_FALSE(out.step.check.passed);
  EXPECT_NE(out.step.error.str().find("over the accuracy budget"), std::string::npos)
      << out.step.error.str();
}

TEST(PruneMagnitude, LeavesBlockedSmallAndComputedWeights) {
  expectUnchanged(kPass, kMatMul, "not pruned: the node is in node_block_list",
                  {{"node_block_list", "other, fc"}});
  expectUnchanged(kPass, kMatMul, "not pruned: 16 weights, fewer than min_weights",
                  {{"min_weights", "17"}});
  expectUnchanged(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x, float[4,6] w) => (float[2,6] y) { y = MatMul(x, w) })",
                  "not pruned: the weight is not a floating-point constant stored in the file");
}

// Grouped Convs in the channel pattern: a depthwise one (one channel per
// group) has its filters ranked together; one of 2 groups of 2 channels
// loses the weakest of each group, so that the groups keep one size (the
// weakest two overall, channels 0 and 1, are both in group 0; channel 3 is
// group 1's).
TEST(PruneMagnitude, ChannelPatternPrunesGroupedConvsEvenly) {
  const passes::Options channel{{"pattern", "channel"}, {"sparsity", "0.5"}};
  PassOutcome dw = runPass(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,4,2,2] x) => (float[1,4,2,2] y)
    <float[4,1,1,1] w = {1, 0.001, -2, 0.002}, float[4] b = {1, 0.001, 3, 0.002}> {
    y = Conv <group = 4> (x, w, b) })",
                           channel);
  EXPECT_EQ(inputValues(dw.model, "y", 1), (std::vector<double>{1, 0, -2, 0}));
  EXPECT_EQ(inputValues(dw.model, "y", 2), (std::vector<double>{1, 0, 3, 0}));
  const char* grouped = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,4,2,2] x) => (float[1,4,2,2] y)
    <float[4,2,1,1] w = {0.001, 0, 0.002, 0.001,  5, 6, 0.003, 0}> {
    y = Conv <group = 2> (x, w) })";
  PassOutcome g = runPass(kPass, grouped, channel);
  EXPECT_EQ(inputValues(g.model, "y", 1), (std::vector<double>{0, 0, 0.002f, 0.001f, 5, 6, 0, 0}));
  expectConverges(kPass, grouped, channel);
}

TEST(PruneMagnitude, RejectsUnknownPatternsAndSparsityAboveOne) {
  PassOutcome bad = runPassMayFail(kPass, kMatMul, {{"pattern", "3:8"}});
  EXPECT_TRUE(bad.step.rolledBack);
  EXPECT_NE(bad.step.error.str().find("pattern '3:8' is not unstructured, 2:4 or channel"),
            std::string::npos)
      << bad.step.error.str();
  PassOutcome over = runPassMayFail(kPass, kMatMul, {{"sparsity", "1.5"}});
  EXPECT_TRUE(over.step.rolledBack);
  EXPECT_NE(over.step.error.str().find("sparsity 1.5 is not a fraction between 0 and 1"),
            std::string::npos)
      << over.step.error.str();
}

TEST(PruneMagnitude, RanksLayersThroughTheNodeFilter) {
  // fc1's weights are one size (pruning half hurts), fc2's are half tiny.
  ir::Model model = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y)
    <float[4,4] w1 = {1, -1, 1, 1,  -1, 1, 1, -1,  1, 1, -1, 1,  -1, -1, 1, 1},
     float[4,4] w2 = {10, 0.001, -11, 0.002,  0.003, 12, -0.004, 13,
                      14, -0.005, 15, 0.006,  -0.007, 16, 0.008, 17}> {
    [fc1] h = MatMul(x, w1)
    [fc2] y = MatMul(h, w2) })");
  analysis::inferShapes(model);
  pipeline::NoiseOptions quiet;
  quiet.draws = 0;
  auto checker = pipeline::ExecOutputChecker::create(model, 2, {}, quiet);
  ASSERT_TRUE(checker) << checker.error().message();
  pipeline::SensitivityOptions o;
  o.passId = kPass;
  auto ranked = pipeline::rankLayers(model, **checker, o);
  ASSERT_TRUE(ranked) << ranked.error().message();
  ASSERT_EQ(ranked->size(), 2u);
  EXPECT_NE((*ranked)[0].describe.find("fc1"), std::string::npos) << (*ranked)[0].describe;
  EXPECT_GT((*ranked)[1].snrDb, 40);
}

}  // namespace
}  // namespace passlab::testing
