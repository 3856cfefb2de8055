// The rank of factorize_low_rank chosen by the budget (core/pipeline/
// low_rank_search.h) on a layer whose weight has rank 4 plus a little noise
// (a fixture with low-rank structure: the corpus's weights are full rank):
// the search finds rank 4 for a budget the noise allows, keeps the layer
// dense for one nothing under full rank meets, bisects rather than trying
// every rank, and decomposes the weight once for all its trials.
#include "core/pipeline/low_rank_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "core/passes/weight_svd.h"
#include "core/pipeline/low_rank_latency.h"
#include "tests/core/pipeline/checked_model_test.h"
#include "tests/core/pipeline/low_rank_weights.h"

namespace passlab::pipeline {
namespace {

constexpr int kSize = kLowRankSize, kRank = kLowRankRank;

// x [4, 32] -> MatMul(w) with w = a b (a [32, 4], b [4, 32]) + 1e-4 noise -> y.
std::string lowRankNet() {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[4,32] x) => (float[4,32] y) <float[32,32] w = {)" +
         lowRankValues(25) + R"(}> {
    [fc] y = MatMul(x, w) })";
}

class LowRankSearch : public CheckedModelTest {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(load(lowRankNet())); }
};

TEST_F(LowRankSearch, FindsTheRankOfTheStructure) {
  auto layers = searchRanks(model_, *checker_, snr(40), {});
  ASSERT_TRUE(layers) << layers.error().message();
  ASSERT_EQ(layers->size(), 1u);
  const LowRankLayer& l = (*layers)[0];
  EXPECT_EQ(l.k, kSize);
  EXPECT_EQ(l.n, kSize);
  EXPECT_EQ(l.maxRank, 12);  // 12 (32 + 32) <= 0.75 32 32 < 13 (32 + 32)
  EXPECT_EQ(l.rank, kRank);  // rank 3 drops a singular value the size of the others
  EXPECT_GE(l.snrDb, 40);
  EXPECT_LE(l.trials, 5);  // 12, then a bisection of [1, 12]: not 12 trials
}

TEST_F(LowRankSearch, TheLayersFactorizedTogetherHoldTheBudget) {
  auto layers = searchRanks(model_, *checker_, snr(40), {});
  ASSERT_TRUE(layers);
  ir::Model result = model_.clone();
  auto check = applyRanks(result, *checker_, *layers, snr(40), {});
  ASSERT_TRUE(check) << check.error().message();
  ASSERT_TRUE(check->ran);
  EXPECT_TRUE(check->passed) << check->detail.str();
  EXPECT_TRUE((*layers)[0].applied);
  EXPECT_EQ((*layers)[0].step, 1);  // the first (and only) one factorized
  EXPECT_EQ((*layers)[0].paramsBefore(), kSize * kSize);
  EXPECT_EQ((*layers)[0].paramsAfter(), kRank * 2 * kSize);
  size_t matmuls = 0;
  for (const auto& n : result.graph().nodes()) matmuls += n->opType() == "MatMul";
  EXPECT_EQ(matmuls, 2u);
}

TEST_F(LowRankSearch, ABudgetTheNoiseDoesNotAllowKeepsTheLayerDense) {
  // Rank 12 still drops the noise's share (about 1e-4 of the weights): ~80 dB.
  auto layers = searchRanks(model_, *checker_, snr(200), {});
  ASSERT_TRUE(layers) << layers.error().message();
  ASSERT_EQ(layers->size(), 1u);
  EXPECT_EQ((*layers)[0].rank, 0);
  EXPECT_EQ((*layers)[0].trials, 1);
  ir::Model result = model_.clone();
  auto check = applyRanks(result, *checker_, *layers, snr(200), {});
  ASSERT_TRUE(check);
  EXPECT_FALSE((*layers)[0].applied);
  EXPECT_EQ(result.graph().nodes().size(), model_.graph().nodes().size());
}

// The weight is decomposed once for all the layer's trials, and the search
// finds what it found when every trial decomposed it: the same rank, the same
// SNR to the bit (the same factors), the same trials.
TEST_F(LowRankSearch, OneDecompositionPerLayerChangesNothing) {
  LowRankOptions each;
  each.shareDecompositions = false;
  const size_t before = passes::weightDecompositions();
  auto separate = searchRanks(model_, *checker_, snr(40), each);
  ASSERT_TRUE(separate) << separate.error().message();
  const size_t afterSeparate = passes::weightDecompositions();
  auto shared = searchRanks(model_, *checker_, snr(40), {});
  ASSERT_TRUE(shared) << shared.error().message();
  const size_t afterShared = passes::weightDecompositions();
  ASSERT_EQ(separate->size(), 1u);
  ASSERT_EQ(shared->size(), 1u);
  const LowRankLayer &a = (*separate)[0], &b = (*shared)[0];
  EXPECT_EQ(afterSeparate - before, static_cast<size_t>(a.trials));  // one per trial
  EXPECT_EQ(afterShared - afterSeparate, 1u);                        // one for the layer
  EXPECT_GT(a.trials, 1);
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.snrDb, b.snrDb);
  EXPECT_EQ(a.trials, b.trials);
}

TEST_F(LowRankSearch, ALayerThatCannotSaveEnoughIsNoCandidate) {
  LowRankOptions o;
  o.minSaving = 0.99;  // 32 x 32 cannot save 99% at rank 1 (64 of 1024 = 94%)
  auto layers = searchRanks(model_, *checker_, snr(40), o);
  ASSERT_TRUE(layers);
  EXPECT_TRUE(layers->empty());
}

// The same layer with its weight in a Constant node (paddle2onnx writes every
// weight so): a candidate, its weight decomposed once for all trials (the
// cache reads the Constant node's tensor), factorized within the budget.
TEST_F(LowRankSearch, AWeightInAConstantNodeIsSearchedAndFactorized) {
  std::string text = lowRankNet();
  const std::string open = "<float[32,32] w = {";
  const size_t at = text.find(open), end = text.find("}> {", at);
  ASSERT_TRUE(at != std::string::npos && end != std::string::npos);
  text = text.substr(0, at) + "{\n    w = Constant <value = float[32,32] {" +
         text.substr(at + open.size(), end - at - open.size()) + "}> ()" + text.substr(end + 4);
  ASSERT_NO_FATAL_FAILURE(load(text));
  ASSERT_TRUE(model_.graph().initializers().empty()) << text;
  const size_t before = passes::weightDecompositions();
  auto layers = searchRanks(model_, *checker_, snr(40), {});
  ASSERT_TRUE(layers) << layers.error().message();
  ASSERT_EQ(layers->size(), 1u);
  EXPECT_EQ((*layers)[0].rank, kRank);
  EXPECT_GT((*layers)[0].trials, 1);
  EXPECT_EQ(passes::weightDecompositions() - before, 1u);  // one for the layer
  // Timed alone (the layer cut out with its Constant node): dense and thin.
  LowRankLatencyOptions quick;
  quick.rounds = 3;
  quick.sampleMs = 0.2;
  Status timed = timeLowRankLayers(model_, *layers, quick);
  ASSERT_TRUE(timed.isOk()) << timed.message();
  EXPECT_GT((*layers)[0].denseMs, 0);
  EXPECT_GT((*layers)[0].thinMs, 0);
  (*layers)[0].slower = false;  // whatever the timing said: applied below
  ir::Model result = model_.clone();
  auto check = applyRanks(result, *checker_, *layers, snr(40), {});
  ASSERT_TRUE(check) << check.error().message();
  EXPECT_TRUE(check->passed) << check->detail.str();
  EXPECT_TRUE((*layers)[0].applied);
  std::string ops;
  for (const auto& n : result.graph().nodes()) ops += n->opType() + " ";
  EXPECT_EQ(ops, "MatMul MatMul ");  // the Constant node gone with the dense MatMul
}

}  // namespace
}  // namespace passlab::pipeline
