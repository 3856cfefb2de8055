// The latency check of the low-rank search (core/pipeline/low_rank_latency.h)
// and the search on a 1x1 Conv: a model with a 1x1 Conv and a MatMul whose
// weights have rank 4 plus a little noise; the search finds rank 4 for the
// Conv as for the MatMul; a layer whose factorization timed slower stays
// dense in applyRanks (timings injected: tests do not assert on timings);
// the margin; the default timer times each chosen layer alone, dense and
// factorized, and no layer without a rank.
#include "core/pipeline/low_rank_latency.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "core/pipeline/low_rank_search.h"
#include "tests/core/pipeline/checked_model_test.h"
#include "tests/core/pipeline/low_rank_weights.h"

namespace passlab::pipeline {
namespace {

constexpr int kSize = kLowRankSize, kRank = kLowRankRank;

// x [1, 32, 4, 4] -> Conv 1x1 (W [32, 32, 1, 1], bias) -> y;
// t [4, 32] -> MatMul (w [32, 32]) -> z.
std::string convAndMatMul() {
  std::ostringstream bias;
  for (int i = 0; i < kSize; ++i) bias << (i ? ", " : "") << 0.01 * i;
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,32,4,4] x, float[4,32] t) => (float[1,32,4,4] y, float[4,32] z)
    <float[32,32,1,1] cw = {)" +
         lowRankValues(7) + R"(}, float[32] cb = {)" + bias.str() + R"(}, float[32,32] mw = {)" +
         lowRankValues(25) + R"(}> {
    [conv] y = Conv <kernel_shape = [1, 1]> (x, cw, cb)
    [fc] z = MatMul(t, mw) })";
}

class LowRankLatency : public CheckedModelTest {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(load(convAndMatMul())); }

  static LowRankLayer* named(std::vector<LowRankLayer>& layers, const std::string& op) {
    for (LowRankLayer& l : layers)
      if (l.describe.find(op) != std::string::npos) return &l;
    return nullptr;
  }
  size_t count(const ir::Model& m, const std::string& op) const {
    size_t c = 0;
    for (const auto& n : m.graph().nodes()) c += n->opType() == op;
    return c;
  }
};

TEST_F(LowRankLatency, TheSearchFindsTheRankOfAOneByOneConv) {
  auto layers = searchRanks(model_, *checker_, snr(40), {});
  ASSERT_TRUE(layers) << layers.error().message();
  ASSERT_EQ(layers->size(), 2u);
  LowRankLayer* conv = named(*layers, "Conv");
  ASSERT_TRUE(conv) << (*layers)[0].describe;
  EXPECT_EQ(conv->k, kSize);
  EXPECT_EQ(conv->n, kSize);
  EXPECT_EQ(conv->maxRank, 12);
  EXPECT_EQ(conv->rank, kRank);
  EXPECT_GE(conv->snrDb, 40);
  ir::Model result = model_.clone();
  auto check = applyRanks(result, *checker_, *layers, snr(40), {});
  ASSERT_TRUE(check) << check.error().message();
  EXPECT_TRUE(check->passed) << check->detail.str();
  EXPECT_TRUE(conv->applied);
  EXPECT_EQ(count(result, "Conv"), 2u);
  EXPECT_EQ(count(result, "MatMul"), 2u);
}

TEST_F(LowRankLatency, AFactorizationThatTimedSlowerStaysDense) {
  auto layers = searchRanks(model_, *checker_, snr(40), {});
  ASSERT_TRUE(layers) << layers.error().message();
  ASSERT_EQ(layers->size(), 2u);
  auto timer = [](const ir::Model&, const LowRankLayer& l) -> Expected<LayerTimes> {
    LayerTimes t;
    t.dense.medianMs = 1.0;
    t.thin.medianMs = l.describe.find("Conv") != std::string::npos ? 1.5 : 0.5;
    return t;
  };
  ASSERT_TRUE(timeLowRankLayers(model_, *layers, {}, timer).isOk());
  LowRankLayer *conv = named(*layers, "Conv"), *fc = named(*layers, "MatMul");
  ASSERT_TRUE(conv && fc);
  EXPECT_TRUE(conv->slower);
  EXPECT_FALSE(fc->slower);
  EXPECT_EQ(conv->denseMs, 1.0);
  EXPECT_EQ(conv->thinMs, 1.5);
  EXPECT_EQ(conv->rows, 16);  // 4 x 4 output positions
  EXPECT_EQ(fc->rows, 4);     // 4 rows of t
  EXPECT_EQ(conv->macsBefore(), 16 * kSize * kSize);
  ir::Model result = model_.clone();
  auto check = applyRanks(result, *checker_, *layers, snr(40), {});
  ASSERT_TRUE(check) << check.error().message();
  EXPECT_FALSE(conv->applied);  // slower: dense
  EXPECT_TRUE(fc->applied);
  EXPECT_EQ(fc->macsAfter(), 4 * kRank * 2 * kSize);
  EXPECT_EQ(conv->macsAfter(), conv->macsBefore());
  EXPECT_EQ(count(result, "Conv"), 1u);
  EXPECT_EQ(count(result, "MatMul"), 2u);
}

TEST_F(LowRankLatency, TheMarginIsForTheNoise) {
  EXPECT_FALSE(slowerThanDense(1.0, 1.0, 0));
  EXPECT_TRUE(slowerThanDense(1.0, 1.01, 0));
  EXPECT_FALSE(slowerThanDense(1.0, 1.01, 0.02));  // within the noise: the same speed
  EXPECT_TRUE(slowerThanDense(1.0, 1.03, 0.02));
  EXPECT_TRUE(slowerThanDense(1.0, 0.97, -0.05));  // a gain of 5% asked, 3% found
  EXPECT_FALSE(slowerThanDense(1.0, 0.9, -0.05));
  // Through timeLowRankLayers: 1% slower is kept with the default margin, not with 0.
  auto layers = searchRanks(model_, *checker_, snr(40), {});
  ASSERT_TRUE(layers);
  auto timer = [](const ir::Model&, const LowRankLayer&) -> Expected<LayerTimes> {
    LayerTimes t;
    t.dense.medianMs = 1.0;
    t.thin.medianMs = 1.01;
    return t;
  };
  ASSERT_TRUE(timeLowRankLayers(model_, *layers, {}, timer).isOk());
  for (const LowRankLayer& l : *layers) EXPECT_FALSE(l.slower) << l.describe;
  LowRankLatencyOptions strict;
  strict.margin = 0;
  ASSERT_TRUE(timeLowRankLayers(model_, *layers, strict, timer).isOk());
  for (const LowRankLayer& l : *layers) EXPECT_TRUE(l.slower) << l.describe;
}

TEST_F(LowRankLatency, TheDefaultTimerTimesEachChosenLayerAloneAndNoOther) {
  auto layers = searchRanks(model_, *checker_, snr(40), {});
  ASSERT_TRUE(layers);
  LowRankLayer* fc = named(*layers, "MatMul");
  ASSERT_TRUE(fc);
  fc->rank = 0;  // as if no rank held the budget: not timed
  LowRankLatencyOptions quick;
  quick.rounds = 3;
  quick.sampleMs = 0.2;
  int timed = 0;
  LayerTimes conv;
  auto timer = [&](const ir::Model& shaped, const LowRankLayer& l) {
    ++timed;
    auto t = timeLayerAlone(shaped, l, quick);
    if (t) conv = *t;
    return t;
  };
  ASSERT_TRUE(timeLowRankLayers(model_, *layers, quick, timer).isOk());
  EXPECT_EQ(timed, 1);
  EXPECT_EQ(conv.dense.samples, 3);
  EXPECT_EQ(conv.thin.samples, 3);
  EXPECT_EQ(conv.outputNumel, kSize * 16);  // [1, 32, 4, 4]
  EXPECT_GT(conv.dense.medianMs, 0);
  EXPECT_GT(conv.thin.medianMs, 0);
  EXPECT_EQ(fc->denseMs, 0);
  EXPECT_FALSE(fc->slower);
  EXPECT_EQ(named(*layers, "Conv")->denseMs, conv.dense.medianMs);
}

TEST_F(LowRankLatency, ATimerErrorIsReturned) {
  auto layers = searchRanks(model_, *checker_, snr(40), {});
  ASSERT_TRUE(layers);
  auto timer = [](const ir::Model&, const LowRankLayer&) -> Expected<LayerTimes> {
    return Error(ErrorCode::kUnsupported, "cannot run");
  };
  Status s = timeLowRankLayers(model_, *layers, {}, timer);
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("cannot run"), std::string::npos);
}

}  // namespace
}  // namespace passlab::pipeline
