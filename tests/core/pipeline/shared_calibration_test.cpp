// The calibration shared between sensitivity trials (core/pipeline/
// shared_calibration.h) and the trials on several threads (parallel_trials.h):
// the ranking of quantize_static is the same, to the bit, with one shared
// calibration as with one per trial, and on several threads as on one; the
// shared path runs the calibration sets once instead of once per layer.
#include "core/pipeline/shared_calibration.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>

#include "core/analysis/shape_inference.h"
#include "core/exec/cpu/cpu_backend.h"
#include "core/exec/thread_limit.h"
#include "core/io/text_format.h"
#include "core/pipeline/calibration.h"
#include "core/pipeline/parallel_trials.h"
#include "core/pipeline/sensitivity.h"
#include "tests/core/pipeline/checked_model_test.h"

namespace passlab::pipeline {
namespace {

// Three quantizable layers with Relus between them (each layer's input and
// output are calibrated).
const char* kNet = R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y)
    <float[4,4] w1 = {0.5, -0.25, 0.1, 0.7, -0.3, 0.5, 0.25, 0.05, 0.9, -0.1, 0.5, 0.25, 0.25, 0.3, -0.6, 0.5},
     float[4,4] w2 = {1.5, 0.2, -0.4, 0.1, 0.3, -1.1, 0.6, 0.2, -0.2, 0.4, 0.8, -0.7, 0.1, 0.9, 0.05, 1.2},
     float[4,4] w3 = {0.05, 0.6, -0.9, 0.3, 0.7, 0.2, 0.1, -0.4, -0.5, 0.3, 0.6, 0.2, 0.4, -0.2, 0.3, 0.8}> {
    [fc1] h1 = MatMul(x, w1)
    r1 = Relu(h1)
    [fc2] h2 = MatMul(r1, w2)
    r2 = Relu(h2)
    [fc3] y = MatMul(r2, w3) })";

// Counts the calls that run the calibration sets.
class CountingEvaluator final : public rewrite::Evaluator {
 public:
  explicit CountingEvaluator(rewrite::Evaluator& inner) : inner_(inner) {}
  Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             int64_t opset) override {
    return inner_.evaluate(node, inputs, opset);
  }
  Status observeValues(const ir::Model& model, const std::vector<std::string>& values,
                       const Observer& observe, const std::atomic<bool>* cancel) override {
    ++calibrations;
    return inner_.observeValues(model, values, observe, cancel);
  }
  size_t calibrationSets() const override { return inner_.calibrationSets(); }
  std::atomic<int> calibrations{0};

 private:
  rewrite::Evaluator& inner_;
};

class SharedCalibrationTest : public CheckedModelTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(load(kNet));
    auto sets = synthesizedCalibrationSets(model_, {}, 8);
    ASSERT_TRUE(sets) << sets.error().message();
    calibrating_ = std::make_unique<CalibratingEvaluator>(std::move(*sets));
  }

  std::vector<LayerSensitivity> rank(bool share, int workers, int* calibrations = nullptr) {
    CountingEvaluator counting(*calibrating_);
    SensitivityOptions o;
    o.passId = "quantize_static";
    o.evaluator = &counting;
    o.shareCalibration = share;
    o.workers = workers;
    o.reuseUnchangedCopies = reuse_;
    auto ranked = rankLayers(model_, *checker_, o);
    EXPECT_TRUE(ranked) << ranked.error().message();
    if (calibrations) *calibrations = counting.calibrations;
    return ranked ? *ranked : std::vector<LayerSensitivity>{};
  }

  std::unique_ptr<CalibratingEvaluator> calibrating_;
  bool reuse_ = true;
};

void expectSameRanking(const std::vector<LayerSensitivity>& a,
                       const std::vector<LayerSensitivity>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].node, b[i].node) << i;
    EXPECT_EQ(a[i].snrDb, b[i].snrDb) << a[i].describe;  // to the bit
    EXPECT_EQ(a[i].cosine, b[i].cosine) << a[i].describe;
  }
}

// A Conv whose output only a BatchNormalization reads: quantize_static folds
// the BatchNormalization into the Conv first (fold_batchnorm), unless the
// user excludes it (bbd7d06). The ranking's trial of the Conv follows the
// exclusion too, so it measures the model the user will get.
class SensitivityWithAnExcludedBatchNorm : public CheckedModelTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(load(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[1,2,5,5] x) => (float[1,3,5,5] y)
    <float[3,2,1,1] w = {0.5, -0.25, 0.75, 0.1, -0.5, 0.3}, float[3] cb = {0.1, -0.2, 0.05},
     float[3] sc = {1.5, 0.5, 2.0}, float[3] bb = {0.1, 0.2, -0.3}, float[3] mu = {0.05, -0.1, 0.2},
     float[3] va = {0.5, 1.5, 0.01}> {
    [conv0] c = Conv <kernel_shape = [1,1]> (x, w, cb)
    [bn0] b = BatchNormalization (c, sc, bb, mu, va)
    y = Relu(b) })"));
    auto sets = synthesizedCalibrationSets(model_, {}, 8);
    ASSERT_TRUE(sets) << sets.error().message();
    calibrating_ = std::make_unique<CalibratingEvaluator>(std::move(*sets));
  }
  ir::NodeId idOf(const std::string& name) const {
    for (const auto& n : model_.graph().nodes())
      if (n->name() == name) return n->id();
    return 0;
  }
  // The Conv's trial figure (SNR in dB), with `excluded` kept float32.
  double convTrialSnr(std::unordered_set<ir::NodeId> excluded) {
    SensitivityOptions o;
    o.passId = "quantize_static";
    o.evaluator = calibrating_.get();
    o.workers = 1;
    o.excluded = std::move(excluded);
    auto ranked = rankLayers(model_, *checker_, o);
    EXPECT_TRUE(ranked) << ranked.error().message();
    if (ranked)
      for (const LayerSensitivity& l : *ranked)
        if (l.node == idOf("conv0")) return l.snrDb;
    ADD_FAILURE() << "conv0 was not ranked";
    return 0;
  }
  std::unordered_set<ir::NodeId> excludedNode(const char* name) { return {idOf(name)}; }
  std::unique_ptr<CalibratingEvaluator> calibrating_;
};

TEST_F(SensitivityWithAnExcludedBatchNorm, TheConvsTrialDoesNotFoldIt) {
  const double folded = convTrialSnr({});
  const double unfolded = convTrialSnr(excludedNode("bn0"));
  // Folded, the quantized output is the normalized one; unfolded, the
  // BatchNormalization scales the Conv's quantization error up (one channel
  // by 2 / sqrt(0.01) = 20): the trial must show that cost, not the fold's.
  EXPECT_LT(unfolded, folded - 3) << "folded " << folded << " dB, unfolded " << unfolded << " dB";
}

TEST_F(SharedCalibrationTest, OneSharedCalibrationRanksAsOnePerTrialDoes) {
  int perTrial = 0, shared = 0;
  const auto recalibrating = rank(false, 1, &perTrial);
  const auto sharing = rank(true, 1, &shared);
  ASSERT_EQ(recalibrating.size(), 3u);
  expectSameRanking(recalibrating, sharing);
  EXPECT_EQ(perTrial, 3);                         // one per layer
  EXPECT_EQ(shared, 1);                           // once, for all of them
  EXPECT_LT(sharing[0].snrDb, sharing[2].snrDb);  // the layers do differ
}

TEST_F(SharedCalibrationTest, TrialsOnSeveralThreadsRankAsOnOne) {
  expectSameRanking(rank(true, 1), rank(true, 3));
  expectSameRanking(rank(false, 1), rank(false, 2));
}

TEST_F(SharedCalibrationTest, MixedPrecisionWithSharedStatisticsKeepsTheSameLayers) {
  const auto ranked = rank(true, 1);
  ASSERT_EQ(ranked.size(), 3u);
  AccuracyBudget budget;
  budget.minSnrDb = ranked.back().snrDb + 1;  // more than any one layer converted gives
  budget.minCosine = -1;
  MixedPrecision results[2];
  for (int share = 0; share < 2; ++share) {
    SensitivityOptions o;
    o.passId = "quantize_static";
    o.evaluator = calibrating_.get();
    o.shareCalibration = share == 1;
    auto mixed = mixedPrecision(model_, *checker_, ranked, budget, o);
    ASSERT_TRUE(mixed) << mixed.error().message();
    results[share] = *mixed;
  }
  EXPECT_EQ(results[0].keptFloat32, results[1].keptFloat32);
  EXPECT_FALSE(results[1].keptFloat32.empty());
  EXPECT_EQ(results[0].conversions, results[1].conversions);
  EXPECT_EQ(results[0].check.ran, results[1].check.ran);
  if (results[0].check.ran) {
    ASSERT_FALSE(results[0].check.accuracy.empty());
    EXPECT_EQ(results[0].check.accuracy[0].snrDb, results[1].check.accuracy[0].snrDb);
  }
}

// The Relus convert nothing alone: their trials give their copies back, and
// the trials after them (fc2 after r1, fc3 after r2, one worker) convert a
// reused copy. The ranking and the mixed precision are those of a new copy
// for every trial, to the bit, on one worker and on two. (A changed copy
// given back would rank fc2 with fc1 quantized too.)
TEST_F(SharedCalibrationTest, TrialsOnReusedCopiesRankAsOnNewOnes) {
  for (int workers : {1, 2}) {
    reuse_ = false;
    const auto fresh = rank(true, workers);
    reuse_ = true;
    const auto reused = rank(true, workers);
    ASSERT_EQ(fresh.size(), 3u);
    expectSameRanking(fresh, reused);
  }
  reuse_ = false;
  const auto ranked = rank(true, 1);
  ASSERT_EQ(ranked.size(), 3u);
  AccuracyBudget budget;
  budget.minSnrDb = ranked.back().snrDb + 1;
  budget.minCosine = -1;
  MixedPrecision results[2];
  for (int reuse = 0; reuse < 2; ++reuse) {
    SensitivityOptions o;
    o.passId = "quantize_static";
    o.evaluator = calibrating_.get();
    o.workers = 1;
    o.reuseUnchangedCopies = reuse == 1;
    auto mixed = mixedPrecision(model_, *checker_, ranked, budget, o);
    ASSERT_TRUE(mixed) << mixed.error().message();
    results[reuse] = *mixed;
  }
  EXPECT_FALSE(results[1].keptFloat32.empty());
  EXPECT_EQ(results[0].keptFloat32, results[1].keptFloat32);
  EXPECT_EQ(results[0].conversions, results[1].conversions);
  ASSERT_EQ(results[0].check.accuracy.size(), results[1].check.accuracy.size());
  for (size_t i = 0; i < results[0].check.accuracy.size(); ++i)
    EXPECT_EQ(results[0].check.accuracy[i].snrDb, results[1].check.accuracy[i].snrDb);
}

// One prepared calibration (prepareTrialCalibration, as `passlab-cli
// precision -o` does) serves the ranking and the bisection: the sets run once,
// not once for each, and both give what each preparing its own gives.
TEST_F(SharedCalibrationTest, RankingAndBisectionShareOnePreparedCalibration) {
  AccuracyBudget budget;
  budget.minCosine = -1;
  auto runBoth = [&](bool prepared, int* calibrations) {
    CountingEvaluator counting(*calibrating_);
    SensitivityOptions o;
    o.passId = "quantize_static";
    o.evaluator = &counting;
    o.workers = 1;
    if (prepared) {
      auto shared = prepareTrialCalibration(model_, o);
      EXPECT_TRUE(shared) << shared.error().message();
      if (shared) o.trialCalibration = *shared;
      EXPECT_TRUE(o.trialCalibration);
    }
    auto ranked = rankLayers(model_, *checker_, o);
    EXPECT_TRUE(ranked) << ranked.error().message();
    if (!ranked || ranked->size() != 3u) {
      ADD_FAILURE() << "expected 3 ranked layers";
      return std::make_pair(std::vector<LayerSensitivity>{}, MixedPrecision{});
    }
    budget.minSnrDb = ranked->back().snrDb + 1;  // more than any one layer gives
    auto mixed = mixedPrecision(model_, *checker_, *ranked, budget, o);
    EXPECT_TRUE(mixed) << mixed.error().message();
    *calibrations = counting.calibrations;
    return std::make_pair(*ranked, mixed ? *mixed : MixedPrecision{});
  };
  int own = 0, shared = 0;
  const auto [ownRanking, ownMixed] = runBoth(false, &own);
  const auto [sharedRanking, sharedMixed] = runBoth(true, &shared);
  EXPECT_EQ(own, 2);     // the ranking's and the bisection's
  EXPECT_EQ(shared, 1);  // prepared once for both
  expectSameRanking(ownRanking, sharedRanking);
  EXPECT_FALSE(sharedMixed.keptFloat32.empty());
  EXPECT_EQ(ownMixed.keptFloat32, sharedMixed.keptFloat32);
  EXPECT_EQ(ownMixed.conversions, sharedMixed.conversions);
  ASSERT_EQ(ownMixed.check.accuracy.size(), sharedMixed.check.accuracy.size());
  for (size_t i = 0; i < ownMixed.check.accuracy.size(); ++i)
    EXPECT_EQ(ownMixed.check.accuracy[i].snrDb, sharedMixed.check.accuracy[i].snrDb);
}

TEST_F(SharedCalibrationTest, StatisticsAreOnlyHandedToACopyOfThePreparedModel) {
  SharedCalibration shared(*calibrating_);
  ASSERT_TRUE(shared.prepare(model_, "quantize_static", {}, nullptr).isOk());
  EXPECT_EQ(shared.sharedValues(), 4u);  // x, r1, r2 and y
  ir::Model copy = model_.clone();
  const passes::TensorStats* s = shared.statsOf(copy, "r1");
  ASSERT_NE(s, nullptr);
  EXPECT_GE(s->min(), 0.0f);                       // after a Relu
  EXPECT_EQ(shared.statsOf(copy, "h1"), nullptr);  // not calibrated
  // Another model (a node less) gets nothing: it calibrates itself.
  auto other = io::parseModelText(R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] r1) { r1 = Relu(x) })");
  ASSERT_TRUE(other);
  EXPECT_EQ(shared.statsOf(*other, "r1"), nullptr);
}

TEST_F(SharedCalibrationTest, APassThatDoesNotCalibrateSharesNothing) {
  SharedCalibration shared(*calibrating_);
  ASSERT_TRUE(shared.prepare(model_, "convert_to_float16", {}, nullptr).isOk());
  EXPECT_EQ(shared.sharedValues(), 0u);
}

TEST(ParallelTrials, EveryTrialRunsOnceAndProgressCountsUpOnTheCallingThread) {
  std::mutex m;
  std::multiset<size_t> ran;
  std::vector<size_t> reported;
  const auto caller = std::this_thread::get_id();
  bool progressOnCaller = true;
  TrialPool pool;
  pool.workers = 4;
  pool.progress = [&](size_t done, size_t total) {
    EXPECT_EQ(total, 50u);
    progressOnCaller = progressOnCaller && std::this_thread::get_id() == caller;
    reported.push_back(done);
  };
  Status s = runTrials(50, pool, [&](size_t i) {
    std::lock_guard<std::mutex> lock(m);
    ran.insert(i);
    return Status::ok();
  });
  ASSERT_TRUE(s.isOk()) << s.message();
  ASSERT_EQ(ran.size(), 50u);
  for (size_t i = 0; i < 50; ++i) EXPECT_EQ(ran.count(i), 1u) << i;
  EXPECT_TRUE(progressOnCaller);
  ASSERT_FALSE(reported.empty());
  EXPECT_EQ(reported.back(), 50u);
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
}

TEST(ParallelTrials, TheFirstErrorStopsTheTrialsNotStarted) {
  std::atomic<int> started{0};
  TrialPool pool;
  pool.workers = 2;
  Status s = runTrials(1000, pool, [&](size_t i) -> Status {
    ++started;
    if (i == 3) return invalidArgument("trial 3 failed");
    return Status::ok();
  });
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("trial 3 failed"), std::string::npos);
  EXPECT_LT(started.load(), 1000);
}

TEST(ParallelTrials, ACancelledPoolSaysSo) {
  std::atomic<bool> cancel{true};
  TrialPool pool;
  pool.workers = 2;
  pool.cancel = &cancel;
  int ran = 0;
  Status s = runTrials(10, pool, [&](size_t) {
    ++ran;
    return Status::ok();
  });
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.error().code(), ErrorCode::kCancelled);
  EXPECT_EQ(ran, 0);
}

TEST(ParallelTrials, EachWorkerRunsOnItsShareOfTheCores) {
  std::mutex m;
  std::set<int> limits;
  TrialPool pool;
  pool.workers = 2;
  ASSERT_TRUE(runTrials(8, pool, [&](size_t) {
                std::lock_guard<std::mutex> lock(m);
                limits.insert(exec::threadLimit());
                return Status::ok();
              }).isOk());
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int workers = std::min(2, cores);
  for (int l : limits) EXPECT_EQ(l, workers > 1 ? std::max(1, cores / workers) : 0);
  EXPECT_EQ(exec::threadLimit(), 0);  // the caller's is untouched
}

TEST(ThreadLimit, ScopesNestAndRestore) {
  EXPECT_EQ(exec::threadLimit(), 0);
  {
    exec::ScopedThreadLimit a(3);
    EXPECT_EQ(exec::threadLimit(), 3);
    {
      exec::ScopedThreadLimit b(1);
      EXPECT_EQ(exec::threadLimit(), 1);
    }
    EXPECT_EQ(exec::threadLimit(), 3);
  }
  EXPECT_EQ(exec::threadLimit(), 0);
}

TEST(ThreadLimit, BoundsTheExecutorsDefaultThreads) {
  auto backend = exec::cpu::makeCpuBackend();
  const int all = backend->defaultThreads();
  EXPECT_GE(all, 1);
  exec::ScopedThreadLimit one(1);
  EXPECT_EQ(backend->defaultThreads(), 1);
  exec::ScopedThreadLimit many(all + 8);
  EXPECT_EQ(backend->defaultThreads(), all);  // never more than the cores
}

}  // namespace
}  // namespace passlab::pipeline
