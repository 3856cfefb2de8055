// Profiling: every node gets a row, the node medians add up to the latency
// without per-node timing within a stated bound, errors name the problem,
// timing summaries, and the roof cache.
#include "core/pipeline/profile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/exec/kept_values.h"
#include "core/exec/step_trials.h"
#include "core/pipeline/roofs.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

// Four nodes with enough work each (a 192x192 matmul) to be timed well.
const char* kSmallModel = R"(
  main (float[192,192] X, float[192,192] W) => (float[192,192] Y) {
    [mm] A = MatMul(X, W)
    [add] B = Add(A, X)
    [relu] C = Relu(B)
    [softmax] Y = Softmax(C)
  }
)";

ProfileRequest request(const ir::Model& model) {
  ProfileRequest req;
  req.model = &model;
  req.threads = 1;
  req.warmup = 2;
  req.repeats = 15;
  return req;
}

TEST(TimingStats, MedianMinP90AndSpread) {
  Timing t = summarizeTimes({5, 1, 2, 3, 4, 6, 7, 8, 9, 10});
  EXPECT_EQ(t.samples, 10);
  EXPECT_DOUBLE_EQ(t.medianMs, 5.5);
  EXPECT_DOUBLE_EQ(t.minMs, 1);
  EXPECT_DOUBLE_EQ(t.p90Ms, 9);
  EXPECT_DOUBLE_EQ(t.spread, 8 / 5.5);
  EXPECT_TRUE(t.noisy);
  Timing steady = summarizeTimes({1.0, 1.01, 1.02, 1.0});
  EXPECT_FALSE(steady.noisy);
  EXPECT_EQ(summarizeTimes({}).samples, 0);
}

TEST(Profile, EveryNodeHasARowAndTheMediansAddUpToTheUntimedLatency) {
  ir::Model model = testing::parse(kSmallModel);
  auto r = profileModel(request(model));
  ASSERT_TRUE(r) << r.error().message();
  ASSERT_EQ(r->nodes.size(), 4u);
  std::set<std::string> names;
  for (const NodeTiming& n : r->nodes) {
    names.insert(n.name);
    EXPECT_EQ(n.time.samples, 15) << n.name;
    EXPECT_GT(n.time.medianMs, 0) << n.name;
    EXPECT_TRUE(n.cost.known) << n.name;
  }
  EXPECT_EQ(names, (std::set<std::string>{"mm", "add", "relu", "softmax"}));
  const NodeTiming& mm = r->nodes.front();
  EXPECT_EQ(mm.name, "mm");
  EXPECT_DOUBLE_EQ(mm.cost.flops, 2.0 * 192 * 192 * 192);
  EXPECT_GT(mm.gflops, 0);
  EXPECT_GT(mm.gbps, 0);
  // The stated bound: the per-node medians account for the untimed latency
  // within 35% of it or 0.2 ms (the machine running the tests is shared).
  EXPECT_NEAR(r->nodeSumMs, r->latency.medianMs, std::max(0.35 * r->latency.medianMs, 0.2))
      << "overhead " << r->overheadMs << " ms";
  EXPECT_DOUBLE_EQ(r->overheadMs, r->latency.medianMs - r->nodeSumMs);
  EXPECT_GT(r->peakArenaBytes, 0u);
  EXPECT_EQ(r->threads, 1);
  EXPECT_GT(r->machine.timerResolutionNs, 0);
  EXPECT_FALSE(r->machine.cpuModel.empty());
  double shares = 0;
  for (const OpTypeTotal& t : r->opTypes) shares += t.share;
  EXPECT_NEAR(shares, 1.0, 1e-9);
}

// The structure of a profile, not its timing: every node of the graph has
// one row with a sample per measured run, the warm-up runs are not among them
// (the constant-only node computed in the warm-up shows as kept, 0 ms, in
// every measured run), the total is the sum of the main-graph medians the
// shares divide, and the time outside the nodes is measured in every
// profiled run.
TEST(Profile, OneRowPerNodeWarmUpExcludedAndTheTotalIsTheSumOfTheRows) {
  ir::Model model = testing::parse(R"(
    main (float[64,64] X) => (float[64,64] Y)
    <float[1] B = {1}>
    {
      [cneg] C = Neg(B)
      [add] A = Add(X, C)
      [relu] Y = Relu(A)
    })");
  ProfileRequest req = request(model);
  req.warmup = 1;
  req.repeats = 5;
  auto r = profileModel(req);
  ASSERT_TRUE(r) << r.error().message();
  std::set<ir::NodeId> graphNodes, rows;
  for (const auto& n : model.graph().nodes()) graphNodes.insert(n->id());
  double sum = 0, shares = 0;
  for (const NodeTiming& n : r->nodes) {
    EXPECT_TRUE(rows.insert(n.nodeId).second) << "two rows for " << n.label();
    EXPECT_EQ(n.time.samples, req.repeats) << n.label();
    EXPECT_EQ(n.callsPerRun, 1) << n.label();
    if (n.depth == 0) sum += n.time.medianMs;
    shares += n.share;
    if (n.name == "cneg") {
      EXPECT_EQ(n.kernel, exec::kKeptKernel);
      EXPECT_EQ(n.time.medianMs, 0);
    } else {
      EXPECT_NE(n.kernel, exec::kKeptKernel) << n.label();
    }
  }
  EXPECT_EQ(rows, graphNodes);
  EXPECT_DOUBLE_EQ(r->nodeSumMs, sum);
  EXPECT_NEAR(shares, 1.0, 1e-9);
  EXPECT_EQ(r->latency.samples, req.repeats);
  EXPECT_EQ(r->profiledLatency.samples, req.repeats);
  EXPECT_EQ(r->outsideNodes.samples, req.repeats);
  EXPECT_EQ(r->runNodeSums.samples, req.repeats);
  // A run's node time is at least its fastest nodes' (every node's minimum).
  double minSum = 0;
  for (const NodeTiming& n : r->nodes)
    if (n.depth == 0) minSum += n.time.minMs;
  EXPECT_GE(r->runNodeSums.minMs, minSum * (1 - 1e-12));
  EXPECT_GE(r->outsideNodes.minMs, 0);
  EXPECT_LE(r->outsideNodes.medianMs, r->profiledLatency.medianMs);
}

// On several threads the executor times its steps both ways in its first
// runs (step_trials.h): a profile warms up past them, whatever the request
// asked, and says how many runs it warmed up; on one thread it keeps the
// request's count.
TEST(Profile, SeveralThreadsWarmUpPastTheStepTrials) {
  ir::Model model = testing::parse(kSmallModel);
  ProfileRequest req = request(model);
  req.warmup = 1;
  req.repeats = 2;
  auto one = profileModel(req);
  ASSERT_TRUE(one) << one.error().message();
  EXPECT_EQ(one->warmup, 1);
  req.threads = 2;
  std::vector<std::string> phases;
  req.progress = [&](const ProfileProgress& p) { phases.push_back(p.phase); };
  auto two = profileModel(req);
  ASSERT_TRUE(two) << two.error().message();
  EXPECT_EQ(two->warmup, exec::StepTrials::kRunsBeforeDecided);
  EXPECT_EQ(std::count(phases.begin(), phases.end(), "warm-up"),
            exec::StepTrials::kRunsBeforeDecided);
  req.warmup = 20;  // more than the trials: the request's count stays
  auto more = profileModel(req);
  ASSERT_TRUE(more) << more.error().message();
  EXPECT_EQ(more->warmup, 20);
}

TEST(Profile, AnUnknownInputIsAnErrorNamingIt) {
  ir::Model model = testing::parse(kSmallModel);
  ProfileRequest req = request(model);
  auto inputs = makeInputs(model, {});
  ASSERT_TRUE(inputs);
  req.given = *inputs;
  req.given.emplace_back("nonesuch", req.given.front().second);
  auto r = profileModel(req);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("nonesuch"), std::string::npos) << r.error().message();
}

TEST(Profile, AWrongShapeIsAnErrorNamingTheInput) {
  ir::Model model = testing::parse(kSmallModel);
  ProfileRequest req = request(model);
  InputSpec spec;
  auto other = makeInputs(testing::parse(R"(
    main (float[3,5] X, float[192,192] W) => (float[3,5] Y) { Y = Relu(X) })"),
                          spec);
  ASSERT_TRUE(other);
  req.given = *other;
  auto r = profileModel(req);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("'X'"), std::string::npos) << r.error().message();
}

TEST(Profile, AnOpWithoutAKernelIsAnErrorNamingTheNode) {
  ir::Model model = testing::parse(R"(
    <ir_version: 8, opset_import: ["" : 17, "x.custom" : 1]>
    main (float[4] X) => (float[4] Y) { [mystery] Y = x.custom.Frobnicate(X) })");
  auto r = profileModel(request(model));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("mystery"), std::string::npos) << r.error().message();
}

TEST(Profile, BadRequestsAreRefused) {
  ir::Model model = testing::parse(kSmallModel);
  ProfileRequest req = request(model);
  req.repeats = 0;
  EXPECT_FALSE(profileModel(req));
  req = request(model);
  req.model = nullptr;
  EXPECT_FALSE(profileModel(req));
}

TEST(Profile, ACancelledRunStops) {
  ir::Model model = testing::parse(kSmallModel);
  std::atomic<bool> cancel{true};
  ProfileRequest req = request(model);
  req.cancel = &cancel;
  auto r = profileModel(req);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kCancelled);
}

TEST(Profile, ProgressIsReportedBetweenRuns) {
  ir::Model model = testing::parse(kSmallModel);
  ProfileRequest req = request(model);
  req.repeats = 3;
  std::vector<ProfileProgress> seen;
  req.progress = [&](const ProfileProgress& p) { seen.push_back(p); };
  ASSERT_TRUE(profileModel(req));
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front().phase, "warm-up");
  EXPECT_EQ(seen.back().phase, "measuring");
  EXPECT_EQ(seen.back().done, 3);
  EXPECT_EQ(seen.back().total, 3);
}

TEST(Profile, ACpuProfileHasNoDeviceRunSummary) {
  ir::Model model = testing::parse(kSmallModel);
  ProfileRequest req = request(model);
  req.warmup = 0;
  req.repeats = 2;
  auto r = profileModel(req);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->device, "cpu");
  EXPECT_EQ(r->deviceRun.device, "");
  EXPECT_EQ(r->deviceRun.deviceSteps, 0);
  EXPECT_EQ(r->deviceRun.hostSteps, 0);
  EXPECT_EQ(r->deviceRun.fallbackSteps, 0);
  EXPECT_EQ(r->deviceRun.copiesToDevice + r->deviceRun.copiesToHost, 0);
  EXPECT_TRUE(r->deviceRun.fallbacks.empty());
  for (const NodeTiming& n : r->nodes)
    EXPECT_EQ(n.kernel.rfind("cpu-fallback:", 0), std::string::npos) << n.kernel;
}

TEST(Roofs, MeasuredOnceThenCachedAndRemeasuredOnDemand) {
  RoofOptions o;
  o.threads = 1;
  o.gemmSize = 64;
  o.triadElements = 1 << 16;
  o.cachePath = testing::tempDir() + "/roofs_test/roofs.json";
  std::filesystem::remove(o.cachePath);
  auto first = machineRoofs(o);
  ASSERT_TRUE(first) << first.error().message();
  EXPECT_FALSE(first->fromCache);
  EXPECT_GT(first->gemmGflops, 0);
  EXPECT_GT(first->bandwidthGBps, 0);
  auto second = machineRoofs(o);
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->fromCache);
  EXPECT_DOUBLE_EQ(second->gemmGflops, first->gemmGflops);
  o.remeasure = true;
  auto third = machineRoofs(o);
  ASSERT_TRUE(third);
  EXPECT_FALSE(third->fromCache);
}

}  // namespace
}  // namespace passlab::pipeline
