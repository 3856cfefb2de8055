// Per-layer sensitivity and automatic mixed precision (core/pipeline/
// sensitivity.h) on a two-layer net whose second layer has weights float16
// cannot hold (a value beyond its range): that layer ranks first, and the
// mixed precision keeps it, and only it, in float32 for a budget the full
// conversion misses.
#include "core/pipeline/sensitivity.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "tests/core/pipeline/checked_model_test.h"

namespace passlab::pipeline {
namespace {

// fc2 has a weight beyond float16's range (1e5, clamped to 65504): converted
// it moves the output by a third; fc1's weights are exact in float16.
const char* kNet = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y)
    <float[4,4] w1 = {0.5, 0.25, 0, 0, 0, 0.5, 0.25, 0, 0, 0, 0.5, 0.25, 0.25, 0, 0, 0.5},
     float[4,4] w2 = {100000, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}> {
    [fc1] h = MatMul(x, w1)
    [fc2] y = MatMul(h, w2) })";

class Sensitivity : public CheckedModelTest {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(load(kNet)); }
  ir::NodeId idOf(const std::string& name) const {
    for (const auto& n : model_.graph().nodes())
      if (n->name() == name) return n->id();
    return 0;
  }
};

// The same layers inside the branches of an If (#25: silero_vad holds all
// its layers so): each is trialled on its own and fc2 still ranks first;
// mixed precision keeps it, inside its branch, and converts the rest.
// The layers of kNet inside the then branch of an If that always takes it
// (#25: silero_vad holds all its layers in If branches): each is trialled
// on its own, fc2 still ranks first, and mixed precision keeps only it.
class SensitivityInSubgraphs : public CheckedModelTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(load(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y)
    <float[4,4] w1 = {0.5, 0.25, 0, 0, 0, 0.5, 0.25, 0, 0, 0, 0.5, 0.25, 0.25, 0, 0, 0.5},
     float[4,4] w2 = {100000, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, int64 z = {0}> {
    n = Size(x)
    c = Greater(n, z)
    y = If <then_branch = g1 () => (float[2,4] a) {
               [fc1] h = MatMul(x, w1)
               [fc2] a = MatMul(h, w2) },
            else_branch = g2 () => (float[2,4] b) {
               [fc3] k = MatMul(x, w1)
               [fc4] b = MatMul(k, w1) }> (c) })"));
  }
  ir::NodeId idOf(const std::string& name) const {
    ir::NodeId id = 0;
    model_.graph().forEachNodeRecursive([&](ir::Node* n) {
      if (n->name() == name) id = n->id();
    });
    return id;
  }
};

TEST_F(SensitivityInSubgraphs, LayersInsideIfBranchesAreRankedAndKept) {
  auto ranked = rankLayers(model_, *checker_, {});
  ASSERT_TRUE(ranked) << ranked.error().message();
  ASSERT_GE(ranked->size(), 2u);
  EXPECT_EQ((*ranked)[0].node, idOf("fc2")) << (*ranked)[0].describe;
  auto mixed = mixedPrecision(model_, *checker_, *ranked, snr(30), {});
  ASSERT_TRUE(mixed) << mixed.error().message();
  ASSERT_EQ(mixed->keptFloat32.size(), 1u);
  EXPECT_EQ(mixed->keptFloat32[0], idOf("fc2"));
  EXPECT_TRUE(mixed->check.passed) << mixed->check.detail;
}

TEST_F(Sensitivity, TheLayerWhoseWeightsHalfCannotHoldRanksFirst) {
  auto ranked = rankLayers(model_, *checker_, {});
  ASSERT_TRUE(ranked) << ranked.error().message();
  ASSERT_GE(ranked->size(), 2u);
  EXPECT_EQ((*ranked)[0].node, idOf("fc2")) << (*ranked)[0].describe;
  for (size_t i = 1; i < ranked->size(); ++i)
    EXPECT_LE((*ranked)[i - 1].snrDb, (*ranked)[i].snrDb);  // most sensitive first
}

TEST_F(Sensitivity, MixedPrecisionKeepsOnlyWhatTheBudgetNeeds) {
  auto ranked = rankLayers(model_, *checker_, {});
  ASSERT_TRUE(ranked);
  // A budget between the full conversion's SNR and fc2-kept's.
  AccuracyBudget loose;
  loose.minSnrDb = -1000;
  loose.minCosine = -1;
  auto all = mixedPrecision(model_, *checker_, *ranked, loose, {});
  ASSERT_TRUE(all) << all.error().message();
  EXPECT_TRUE(all->keptFloat32.empty());  // anything holds: nothing kept
  EXPECT_EQ(all->conversions, 1);
  // fc2 alone costs ~4 dB, fc1 alone ~70 dB: 30 dB needs fc2 kept, and only it.
  ASSERT_LT((*ranked)[0].snrDb, 30);
  ASSERT_GT((*ranked)[1].snrDb, 40);
  AccuracyBudget tight;
  tight.minSnrDb = 30;
  auto mixed = mixedPrecision(model_, *checker_, *ranked, tight, {});
  ASSERT_TRUE(mixed) << mixed.error().message();
  ASSERT_EQ(mixed->keptFloat32.size(), 1u);
  EXPECT_EQ(mixed->keptFloat32[0], idOf("fc2"));
  EXPECT_TRUE(mixed->check.passed) << mixed->check.detail;
  EXPECT_LE(mixed->conversions, 4);  // a bisection, not one per node
  EXPECT_FALSE(convertsNothingWithinBudget(*mixed, ranked->size()));
  ASSERT_TRUE(mixed->missWithOneFewer.ran);  // fc2 converted too: over 30 dB
  EXPECT_FALSE(mixed->missWithOneFewer.passed);
  EXPECT_FALSE(convertsNothingWithinBudget(*all, ranked->size()));
  EXPECT_FALSE(all->missWithOneFewer.ran);  // nothing kept: no conversion missed
}

// The user's exclusions (precision --exclude-node / --exclude-op): fc2 is
// neither trialled nor converted by any conversion of the bisection, so the
// budget that needed fc2 kept holds with nothing kept.
TEST_F(Sensitivity, ExcludedNodesAreNeitherTrialledNorConverted) {
  SensitivityOptions o;
  o.excluded.insert(idOf("fc2"));
  auto ranked = rankLayers(model_, *checker_, o);
  ASSERT_TRUE(ranked) << ranked.error().message();
  ASSERT_FALSE(ranked->empty());
  for (const LayerSensitivity& l : *ranked) EXPECT_NE(l.node, idOf("fc2")) << l.describe;
  EXPECT_EQ((*ranked)[0].node, idOf("fc1")) << (*ranked)[0].describe;
  AccuracyBudget tight;
  tight.minSnrDb = 30;  // fc2 converted misses it (~4 dB)
  auto mixed = mixedPrecision(model_, *checker_, *ranked, tight, o);
  ASSERT_TRUE(mixed) << mixed.error().message();
  EXPECT_TRUE(mixed->keptFloat32.empty());
  ASSERT_TRUE(mixed->check.ran);
  EXPECT_TRUE(mixed->check.passed) << mixed->check.detail;
  ASSERT_FALSE(mixed->check.accuracy.empty());
  EXPECT_GT(mixed->check.accuracy[0].snrDb, 40);  // fc1 alone converted
}

TEST_F(Sensitivity, ABudgetNothingMeetsKeepsEveryLayer) {
  // Keeping every ranked layer converts nothing, which holds trivially: the
  // answer is "all of them".
  auto ranked = rankLayers(model_, *checker_, {});
  ASSERT_TRUE(ranked);
  AccuracyBudget impossible;
  impossible.minSnrDb = 1e9;
  auto mixed = mixedPrecision(model_, *checker_, *ranked, impossible, {});
  ASSERT_TRUE(mixed) << mixed.error().message();
  EXPECT_EQ(mixed->keptFloat32.size(), ranked->size());
  EXPECT_FALSE(mixed->check.ran);  // nothing converted, nothing to check
  // That answer is the unchanged model: callers say the budget cannot be
  // met (passlab-cli precision -o exits 2, nothing saved), with why: the
  // conversion of the least sensitive node alone, over the budget.
  EXPECT_TRUE(convertsNothingWithinBudget(*mixed, ranked->size()));
  ASSERT_TRUE(mixed->missWithOneFewer.ran);
  EXPECT_FALSE(mixed->missWithOneFewer.passed);
  EXPECT_NE(mixed->missWithOneFewer.detail.str().find("is below 1e+09 dB"), std::string::npos)
      << mixed->missWithOneFewer.detail.str();
}

// The ranking's top-k is the budget's k (SensitivityOptions::topK): float16
// moves classes 0 and 1 of this classifier (1.00051 - 0.00003) above class 9
// (1.000482), so the reference class falls to third place in both rows.
// Ranked with k = 2, the node that does it shows top-2 0%; with k = 3 every
// node keeps 100%. Before, each trial measured k = 5 (and the ranking kept
// no top-k).
class SensitivityTopK : public CheckedModelTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(load(R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[2,10] x) => (float[2,10] y)
    <float[10] a = {1.00051, 1.00051, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1.000482},
     float[10] c = {0.00003, 0.00003, 0, 0, 0, 0, 0, 0, 0, 0}, float[1] z = {0}> {
    t = Sub(a, c)
    u = Mul(x, z)
    y = Add(u, t) })"));
  }
};

TEST_F(SensitivityTopK, TheRankingMeasuresTheTopKOfTheBudgetsK) {
  for (int k : {2, 3}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    SensitivityOptions o;
    o.passId = "convert_to_float16";
    o.topK = k;
    auto ranked = rankLayers(model_, *checker_, o);
    ASSERT_TRUE(ranked) << ranked.error().message();
    ASSERT_FALSE(ranked->empty());
    double least = 1;
    for (const LayerSensitivity& l : *ranked) {
      ASSERT_TRUE(l.topK.has_value()) << l.describe;
      least = std::min(least, *l.topK);
    }
    EXPECT_EQ(least, k == 2 ? 0.0 : 1.0);
  }
}

}  // namespace
}  // namespace passlab::pipeline
