// The one serializer of profiles (profile_json.h) that `passlab-cli profile
// --json/--csv` and the GUI's export share: every figure of a made-up
// profile, comparison and device run comes back under its field, unknown
// FLOPs as null, the device run only for a device, CSV fields quoted.
#include "core/pipeline/profile_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace passlab::pipeline {
namespace {

using nlohmann::json;

Timing timing(double median) {
  Timing t;
  t.medianMs = median;
  t.minMs = median - 0.25;
  t.p90Ms = median + 0.5;
  t.spread = 0.125;
  t.noisy = true;
  t.samples = 7;
  return t;
}

NodeTiming node(ir::NodeId id, const std::string& name, bool flopsKnown) {
  NodeTiming n;
  n.nodeId = id;
  n.name = name;
  n.op = "Conv";
  n.kernel = "onednn.Conv";
  n.depth = 1;
  n.callsPerRun = 3;
  n.time = timing(2.5);
  n.share = 0.75;
  n.cost.flops = 4e6;
  n.cost.known = flopsKnown;
  n.bytesMoved = 123456;
  n.gflops = flopsKnown ? 1.6 : 0;
  n.gbps = 0.05;
  return n;
}

ProfileResult profile() {
  ProfileResult r;
  r.device = "cpu";
  r.threads = 2;
  r.warmup = 3;
  r.repeats = 10;
  r.machine.cpuModel = "Test CPU";
  r.machine.logicalCores = 4;
  r.machine.timerResolutionNs = 20;
  r.inputs = {"x float[1,3]"};
  r.nodes = {node(5, "conv, \"a\"", true), node(6, "", false)};
  r.opTypes = {{.op = "Conv", .nodes = 2, .ms = 5, .share = 1, .flops = 8e6}};
  r.latency = timing(6);
  r.profiledLatency = timing(6.5);
  r.runNodeSums = timing(5.5);
  r.outsideNodes = timing(0.75);
  r.nodeSumMs = 5;
  r.overheadMs = 1;
  r.overheadShare = 1.0 / 6;
  r.overheadMinMs = 0.5;
  r.peakArenaBytes = 4096;
  return r;
}

void expectTiming(const json& j, const Timing& t) {
  EXPECT_EQ(j.at("median_ms").get<double>(), t.medianMs);
  EXPECT_EQ(j.at("min_ms").get<double>(), t.minMs);
  EXPECT_EQ(j.at("p90_ms").get<double>(), t.p90Ms);
  EXPECT_EQ(j.at("spread").get<double>(), t.spread);
  EXPECT_EQ(j.at("noisy").get<bool>(), t.noisy);
  EXPECT_EQ(j.at("samples").get<int>(), t.samples);
}

TEST(ProfileJson, EveryFigureOfAProfileUnderItsField) {
  const ProfileResult r = profile();
  const json j = json::parse(profileToJson(r));
  EXPECT_EQ(j.at("device"), "cpu");
  EXPECT_EQ(j.at("threads"), 2);
  EXPECT_EQ(j.at("warmup"), 3);
  EXPECT_EQ(j.at("repeats"), 10);
  EXPECT_EQ(j.at("cpu_model"), "Test CPU");
  EXPECT_EQ(j.at("logical_cores"), 4);
  EXPECT_EQ(j.at("inputs"), json({"x float[1,3]"}));
  expectTiming(j.at("latency"), r.latency);
  expectTiming(j.at("profiled_latency"), r.profiledLatency);
  expectTiming(j.at("run_node_sums"), r.runNodeSums);
  expectTiming(j.at("outside_nodes"), r.outsideNodes);
  EXPECT_EQ(j.at("node_sum_ms").get<double>(), 5);
  EXPECT_EQ(j.at("overhead_ms").get<double>(), 1);
  EXPECT_EQ(j.at("overhead_share").get<double>(), 1.0 / 6);
  EXPECT_EQ(j.at("overhead_min_ms").get<double>(), 0.5);
  EXPECT_EQ(j.at("peak_arena_bytes"), 4096);
  EXPECT_FALSE(j.contains("device_run"));  // the CPU

  ASSERT_EQ(j.at("nodes").size(), 2u);
  const json& n = j.at("nodes")[0];
  EXPECT_EQ(n.at("node_id"), 5);
  EXPECT_EQ(n.at("name"), "conv, \"a\"");
  EXPECT_EQ(n.at("op"), "Conv");
  EXPECT_EQ(n.at("kernel"), "onednn.Conv");
  EXPECT_EQ(n.at("depth"), 1);
  EXPECT_EQ(n.at("calls_per_run"), 3);
  expectTiming(n.at("time"), r.nodes[0].time);
  EXPECT_EQ(n.at("share").get<double>(), 0.75);
  EXPECT_EQ(n.at("flops").get<double>(), 4e6);
  EXPECT_EQ(n.at("bytes_moved"), 123456);
  EXPECT_EQ(n.at("gflops").get<double>(), 1.6);
  EXPECT_EQ(n.at("gbps").get<double>(), 0.05);
  EXPECT_TRUE(j.at("nodes")[1].at("flops").is_null());  // unknown to the cost model
  EXPECT_TRUE(j.at("nodes")[1].at("gflops").is_null());

  ASSERT_EQ(j.at("op_types").size(), 1u);
  EXPECT_EQ(j.at("op_types")[0].at("op"), "Conv");
  EXPECT_EQ(j.at("op_types")[0].at("nodes"), 2);
  EXPECT_EQ(j.at("op_types")[0].at("flops").get<double>(), 8e6);
}

TEST(ProfileJson, ADeviceRunSaysWhereItRan) {
  ProfileResult r = profile();
  r.device = "cuda";
  r.deviceRun.device = "cuda:0 Test GPU";
  r.deviceRun.deviceSteps = 40;
  r.deviceRun.fallbackSteps = 1;
  r.deviceRun.bytesToDevice = 1024;
  r.deviceRun.fallbacks = {{"loop", "Loop", "no CUDA kernel for Loop"}};
  const json d = json::parse(profileToJson(r)).at("device_run");
  EXPECT_EQ(d, json::parse(deviceRunToJson(r.deviceRun)));
  EXPECT_EQ(d.at("device"), "cuda:0 Test GPU");
  EXPECT_EQ(d.at("device_steps"), 40);
  EXPECT_EQ(d.at("fallback_steps"), 1);
  EXPECT_EQ(d.at("bytes_to_device"), 1024);
  ASSERT_EQ(d.at("fallbacks").size(), 1u);
  EXPECT_EQ(d.at("fallbacks")[0].at("reason"), "no CUDA kernel for Loop");
}

TEST(ProfileJson, AComparisonHasItsGroupsAndBothProfiles) {
  CompareResult c;
  c.before = profile();
  c.after = profile();
  c.after.nodeSumMs = 4;
  c.latencyBefore = timing(6);
  c.latencyAfter = timing(4);
  c.speedup = 1.5;
  c.matching = "provenance";
  NodeGroup g;
  g.kind = GroupKind::kRewritten;
  g.originalLabels = {"conv", "relu"};
  g.originalOps = {"Conv", "Relu"};
  g.newLabels = {"fused"};
  g.newOps = {"ai.passlab.FusedConv"};
  g.beforeMs = 3;
  g.afterMs = 2;
  g.speedup = 1.5;
  g.savedMs = 1;
  c.groups = {g};
  const json j = json::parse(compareToJson(c));
  EXPECT_EQ(j.at("matching"), "provenance");
  EXPECT_EQ(j.at("speedup").get<double>(), 1.5);
  expectTiming(j.at("latency_after"), c.latencyAfter);
  EXPECT_EQ(j.at("before"), json::parse(profileToJson(c.before)));
  EXPECT_EQ(j.at("after").at("node_sum_ms").get<double>(), 4);
  ASSERT_EQ(j.at("groups").size(), 1u);
  const json& jg = j.at("groups")[0];
  EXPECT_EQ(jg.at("kind"), groupKindName(GroupKind::kRewritten));
  EXPECT_EQ(jg.at("original_nodes"), json({"conv", "relu"}));
  EXPECT_EQ(jg.at("new_ops"), json({"ai.passlab.FusedConv"}));
  EXPECT_EQ(jg.at("saved_ms").get<double>(), 1);
  EXPECT_FALSE(jg.at("regression").get<bool>());

  const std::string csv = compareToCsv(c);
  std::istringstream lines(csv);
  std::string header, row, extra;
  ASSERT_TRUE(std::getline(lines, header));
  ASSERT_TRUE(std::getline(lines, row));
  EXPECT_FALSE(std::getline(lines, extra));
  EXPECT_EQ(header,
            "kind,new_nodes,original_nodes,before_ms,after_ms,speedup,saved_ms,regression,noisy");
  EXPECT_EQ(row,
            std::string(groupKindName(GroupKind::kRewritten)) + ",fused,conv relu,3,2,1.5,1,0,0");
}

// Issue #26: each node's threads and how they were chosen, the trials' times
// only where it was timed, and the summary of split steps.
TEST(ProfileJson, ThreadsAndTheirChoicePerNodeAndTheSplitSummary) {
  ProfileResult r = profile();
  r.nodes[0].threadUse = {.threads = 2,
                          .choice = exec::ThreadChoice::kTrial,
                          .trialOneMicros = 250,
                          .trialSplitMicros = 125};
  r.nodes[1].threadUse = {.threads = 1, .choice = exec::ThreadChoice::kCostModel};
  r.stepThreads = {.steps = 2, .split = 1, .trialsDecided = 1};
  const json j = json::parse(profileToJson(r));
  const json& tried = j.at("nodes")[0];
  EXPECT_EQ(tried.at("threads"), 2);
  EXPECT_EQ(tried.at("thread_choice"), "trial");
  EXPECT_EQ(tried.at("trial_one_thread_ms").get<double>(), 0.25);
  EXPECT_EQ(tried.at("trial_split_ms").get<double>(), 0.125);
  const json& costModel = j.at("nodes")[1];
  EXPECT_EQ(costModel.at("threads"), 1);
  EXPECT_EQ(costModel.at("thread_choice"), "cost_model");
  EXPECT_FALSE(costModel.contains("trial_one_thread_ms"));
  EXPECT_FALSE(costModel.contains("trial_split_ms"));
  EXPECT_EQ(j.at("step_threads"), json({{"steps", 2}, {"split", 1}, {"trials_decided", 1}}));

  std::istringstream lines(profileToCsv(r));
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[1].ends_with(",2,trial,0.25,0.125")) << rows[1];
  EXPECT_TRUE(rows[2].ends_with(",1,cost_model,,")) << rows[2];
}

TEST(ProfileJson, CsvHasAHeaderAndARowPerNodeWithQuotedFields) {
  const std::string csv = profileToCsv(profile());
  std::istringstream lines(csv);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0],
            "node_id,name,op,kernel,depth,median_ms,min_ms,p90_ms,spread,noisy,share,flops,"
            "bytes_moved,gflops,gbps,threads,thread_choice,trial_one_thread_ms,trial_split_ms");
  EXPECT_EQ(rows[1].rfind("5,\"conv, \"\"a\"\"\",Conv,onednn.Conv,1,2.5,2.25,3,0.125,1,0.75,", 0),
            0u)
      << rows[1];
  // Unknown FLOPs: an empty field.
  EXPECT_NE(rows[2].find(",0.75,,123456,0,0.05"), std::string::npos) << rows[2];
}

}  // namespace
}  // namespace passlab::pipeline
