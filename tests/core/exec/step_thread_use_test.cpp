// The profile says which threads each step ran on and why (issue #26,
// step_thread_use.h): a heavy MatMul and a tiny Relu run by an executor,
// the split limit forced both ways through PASSLAB_SMALL_STEP_MICROS, the
// trials left to decide, and a one-thread run.
#include "core/exec/step_thread_use.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "exec_test_util.h"

namespace passlab::exec {
namespace {

constexpr const char* kHeavyAndTiny = R"(
    main (float[512,256] a, float[256,256] b, float[3] c) => (float[512,256] y, float[3] z) {
      y = MatMul(a, b)
      z = Relu(c)
    })";

NamedInputs inputs() {
  std::vector<float> a(512 * 256), b(256 * 256);
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37f * static_cast<float>(i));
  for (size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.11f * static_cast<float>(i)) / 16;
  return {{"a", Value(Tensor::fromIr(testutil::floats({512, 256}, a)))},
          {"b", Value(Tensor::fromIr(testutil::floats({256, 256}, b)))},
          {"c", Value(Tensor::fromIr(testutil::floats({3}, {-1, 0.5f, 2})))}};
}

// Sets PASSLAB_SMALL_STEP_MICROS for a scope (unset: the measured limit and
// the trials).
class SplitLimit {
 public:
  explicit SplitLimit(const char* micros) {
    if (micros != nullptr)
      ::setenv("PASSLAB_SMALL_STEP_MICROS", micros, 1);
    else
      ::unsetenv("PASSLAB_SMALL_STEP_MICROS");
  }
  ~SplitLimit() { ::unsetenv("PASSLAB_SMALL_STEP_MICROS"); }
};

// `runs` runs on `threads` threads; the profile of the last.
std::vector<NodeProfile> profileOfRun(int threads, int runs) {
  ir::Model m = testutil::parseModel(kHeavyAndTiny);
  auto ex = Executor::create(m, {});
  EXPECT_TRUE(ex) << ex.error().message();
  if (!ex) return {};
  RunOptions options;
  options.threads = threads;
  const NamedInputs in = inputs();
  for (int r = 0; r < runs; ++r) {
    options.profile = r == runs - 1;
    auto res = (*ex)->run(in, options);
    EXPECT_TRUE(res) << res.error().message();
    if (!res) return {};
    if (options.profile) return res->profile;
  }
  return {};
}

const NodeProfile& entry(const std::vector<NodeProfile>& profile, const std::string& op) {
  for (const NodeProfile& p : profile)
    if (p.op == op) return p;
  ADD_FAILURE() << "no " << op << " in the profile";
  static const NodeProfile none;
  return none;
}

StepThreadCounts counts(const std::vector<NodeProfile>& profile) {
  StepThreadCounts c;
  for (const NodeProfile& p : profile) c.add(p.threadUse, p.depth);
  return c;
}

TEST(StepThreadUse, ALimitOfZeroFromTheEnvironmentSplitsEveryStep) {
  SplitLimit limit("0");
  const std::vector<NodeProfile> profile = profileOfRun(2, 2);
  for (const char* op : {"MatMul", "Relu"}) {
    const StepThreadUse& use = entry(profile, op).threadUse;
    EXPECT_EQ(use.threads, 2) << op;
    EXPECT_EQ(use.choice, ThreadChoice::kFixed) << op;
    EXPECT_LT(use.trialOneMicros, 0) << op;  // no trials
    EXPECT_LT(use.trialSplitMicros, 0) << op;
  }
  const StepThreadCounts c = counts(profile);
  EXPECT_EQ(c.steps, 2);
  EXPECT_EQ(c.split, 2);
  EXPECT_EQ(c.trialsDecided, 0);
}

TEST(StepThreadUse, AHugeLimitFromTheEnvironmentPutsEveryStepOnOneThread) {
  SplitLimit limit("1e12");
  const std::vector<NodeProfile> profile = profileOfRun(2, 2);
  for (const char* op : {"MatMul", "Relu"}) {
    EXPECT_EQ(entry(profile, op).threadUse.threads, 1) << op;
    EXPECT_EQ(entry(profile, op).threadUse.choice, ThreadChoice::kFixed) << op;
  }
  const StepThreadCounts c = counts(profile);
  EXPECT_EQ(c.steps, 2);
  EXPECT_EQ(c.split, 0);
}

TEST(StepThreadUse, TheTrialsDecideTheHeavyStepAndShowTheirTimes) {
  SplitLimit limit(nullptr);
  const std::vector<NodeProfile> profile = profileOfRun(2, StepTrials::kRunsBeforeDecided + 1);
  const StepThreadUse& matmul = entry(profile, "MatMul").threadUse;
  EXPECT_EQ(matmul.choice, ThreadChoice::kTrial);
  ASSERT_GT(matmul.trialOneMicros, 0);
  ASSERT_GT(matmul.trialSplitMicros, 0);
  // The way the trials' own rule takes from the times they show.
  const bool split = matmul.trialSplitMicros < StepTrials::kSplitShare * matmul.trialOneMicros;
  EXPECT_EQ(matmul.threads, split ? 2 : 1);
  // The tiny step is not tried: the cost model puts it on one thread.
  const StepThreadUse& relu = entry(profile, "Relu").threadUse;
  EXPECT_EQ(relu.choice, ThreadChoice::kCostModel);
  EXPECT_EQ(relu.threads, 1);
  EXPECT_LT(relu.trialOneMicros, 0);
  const StepThreadCounts c = counts(profile);
  EXPECT_EQ(c.steps, 2);
  EXPECT_EQ(c.split, split ? 1 : 0);
  EXPECT_EQ(c.trialsDecided, 1);
}

TEST(StepThreadUse, DuringTheTrialsTheStepIsTryingOneWay) {
  SplitLimit limit(nullptr);
  // The second run is the first of the one-thread visit (untimed).
  const StepThreadUse& matmul = entry(profileOfRun(2, 2), "MatMul").threadUse;
  EXPECT_EQ(matmul.choice, ThreadChoice::kTrying);
  EXPECT_EQ(matmul.threads, 1);
  EXPECT_LT(matmul.trialOneMicros, 0);  // nothing timed yet
}

TEST(StepThreadUse, AOneThreadRunSaysOneEverywhere) {
  SplitLimit limit(nullptr);
  const std::vector<NodeProfile> profile = profileOfRun(1, StepTrials::kRunsBeforeDecided + 1);
  ASSERT_EQ(profile.size(), 2u);
  for (const NodeProfile& p : profile) {
    EXPECT_EQ(p.threadUse.threads, 1) << p.op;
    EXPECT_EQ(p.threadUse.choice, ThreadChoice::kOneThreadRun) << p.op;
  }
  EXPECT_EQ(counts(profile).split, 0);
}

TEST(StepThreadUse, ChoiceNamesAreStable) {
  EXPECT_STREQ(threadChoiceName(ThreadChoice::kUnknown), "unknown");
  EXPECT_STREQ(threadChoiceName(ThreadChoice::kOneThreadRun), "one_thread_run");
  EXPECT_STREQ(threadChoiceName(ThreadChoice::kCostModel), "cost_model");
  EXPECT_STREQ(threadChoiceName(ThreadChoice::kTrial), "trial");
  EXPECT_STREQ(threadChoiceName(ThreadChoice::kTrying), "trying");
  EXPECT_STREQ(threadChoiceName(ThreadChoice::kFixed), "fixed_by_env");
}

}  // namespace
}  // namespace passlab::exec
