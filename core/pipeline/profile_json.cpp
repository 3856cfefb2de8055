// Profiles as JSON and CSV (see profile_json.h).
#include "core/pipeline/profile_json.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/support/strings.h"

namespace passlab::pipeline {

namespace {

using nlohmann::json;

json timingJson(const Timing& t) {
  return {{"median_ms", t.medianMs}, {"min_ms", t.minMs}, {"p90_ms", t.p90Ms},
          {"spread", t.spread},      {"noisy", t.noisy},  {"samples", t.samples}};
}

json deviceRunJson(const exec::DeviceRunSummary& s) {
  json fallbacks = json::array();
  for (const exec::DeviceFallback& f : s.fallbacks)
    fallbacks.push_back({{"node", f.node}, {"op", f.op}, {"reason", f.reason}});
  return {{"device", s.device},
          {"device_steps", s.deviceSteps},
          {"host_steps", s.hostSteps},
          {"fallback_steps", s.fallbackSteps},
          {"kept_steps", s.keptSteps},
          {"copies_to_device", s.copiesToDevice},
          {"copies_to_host", s.copiesToHost},
          {"bytes_to_device", s.bytesToDevice},
          {"bytes_to_host", s.bytesToHost},
          {"block_bytes", s.blockBytes},
          {"planned_tensor_bytes", s.plannedTensorBytes},
          {"placed_in_block", s.placedInBlock},
          {"block_fallbacks", s.blockFallbacks},
          {"copied_out_of_block", s.copiedOutOfBlock},
          {"memory_note", s.memoryNote},
          {"timing", s.timing},
          {"fallbacks", fallbacks}};
}

// The threads a node ran on and how they were chosen; the trials' fastest
// times where the trials timed it.
void addThreadUse(json& j, const exec::StepThreadUse& use) {
  j["threads"] = use.threads;
  j["thread_choice"] = exec::threadChoiceName(use.choice);
  if (use.trialOneMicros >= 0) j["trial_one_thread_ms"] = use.trialOneMicros / 1000.0;
  if (use.trialSplitMicros >= 0) j["trial_split_ms"] = use.trialSplitMicros / 1000.0;
}

json nodeJson(const NodeTiming& n) {
  json j = {{"node_id", n.nodeId},
            {"name", n.name},
            {"op", n.op},
            {"kernel", n.kernel},
            {"depth", n.depth},
            {"calls_per_run", n.callsPerRun},
            {"time", timingJson(n.time)},
            {"share", n.share},
            {"bytes_moved", n.bytesMoved},
            {"gbps", n.gbps}};
  j["flops"] = n.cost.known ? json(n.cost.flops) : json(nullptr);
  j["gflops"] = n.gflops > 0 ? json(n.gflops) : json(nullptr);
  addThreadUse(j, n.threadUse);
  return j;
}

json stepThreadsJson(const exec::StepThreadCounts& c) {
  return {{"steps", c.steps}, {"split", c.split}, {"trials_decided", c.trialsDecided}};
}

json profileJson(const ProfileResult& r) {
  json j = {{"device", r.device},
            {"threads", r.threads},
            {"warmup", r.warmup},
            {"repeats", r.repeats},
            {"cpu_model", r.machine.cpuModel},
            {"logical_cores", r.machine.logicalCores},
            {"timer_resolution_ns", r.machine.timerResolutionNs},
            {"inputs", r.inputs},
            {"latency", timingJson(r.latency)},
            {"profiled_latency", timingJson(r.profiledLatency)},
            {"node_sum_ms", r.nodeSumMs},
            {"overhead_ms", r.overheadMs},
            {"overhead_share", r.overheadShare},
            {"overhead_min_ms", r.overheadMinMs},
            {"run_node_sums", timingJson(r.runNodeSums)},
            {"outside_nodes", timingJson(r.outsideNodes)},
            {"peak_arena_bytes", r.peakArenaBytes},
            {"step_threads", stepThreadsJson(r.stepThreads)}};
  if (!r.deviceRun.device.empty()) j["device_run"] = deviceRunJson(r.deviceRun);
  j["nodes"] = json::array();
  for (const NodeTiming& n : r.nodes) j["nodes"].push_back(nodeJson(n));
  j["op_types"] = json::array();
  for (const OpTypeTotal& t : r.opTypes)
    j["op_types"].push_back(
        {{"op", t.op}, {"nodes", t.nodes}, {"ms", t.ms}, {"share", t.share}, {"flops", t.flops}});
  return j;
}

json groupJson(const NodeGroup& g) {
  return {{"kind", groupKindName(g.kind)},
          {"original_nodes", g.originalLabels},
          {"original_ops", g.originalOps},
          {"new_nodes", g.newLabels},
          {"new_ops", g.newOps},
          {"before_ms", g.beforeMs},
          {"after_ms", g.afterMs},
          {"speedup", g.speedup},
          {"saved_ms", g.savedMs},
          {"regression", g.regression},
          {"noisy", g.noisy}};
}

// A CSV field, quoted when it holds a separator, a quote or a line break.
std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A trial time in ms for CSV; empty when not timed.
std::string trialMs(double micros) {
  if (micros < 0) return "";
  std::ostringstream out;
  out << micros / 1000.0;
  return out.str();
}

}  // namespace

std::string profileToJson(const ProfileResult& r) {
  return profileJson(r).dump();
}

std::string compareToJson(const CompareResult& r) {
  json j = {{"before", profileJson(r.before)},
            {"after", profileJson(r.after)},
            {"latency_before", timingJson(r.latencyBefore)},
            {"latency_after", timingJson(r.latencyAfter)},
            {"speedup", r.speedup},
            {"matching", r.matching}};
  j["groups"] = json::array();
  for (const NodeGroup& g : r.groups) j["groups"].push_back(groupJson(g));
  return j.dump();
}

std::string deviceRunToJson(const exec::DeviceRunSummary& s) {
  return deviceRunJson(s).dump();
}

std::string profileToCsv(const ProfileResult& r) {
  std::ostringstream out;
  out << "node_id,name,op,kernel,depth,median_ms,min_ms,p90_ms,spread,noisy,share,flops,"
         "bytes_moved,gflops,gbps,threads,thread_choice,trial_one_thread_ms,trial_split_ms\n";
  for (const NodeTiming& n : r.nodes)
    out << n.nodeId << ',' << csvField(n.name) << ',' << csvField(n.op) << ',' << csvField(n.kernel)
        << ',' << n.depth << ',' << n.time.medianMs << ',' << n.time.minMs << ',' << n.time.p90Ms
        << ',' << n.time.spread << ',' << (n.time.noisy ? 1 : 0) << ',' << n.share << ','
        << (n.cost.known ? std::to_string(n.cost.flops) : "") << ',' << n.bytesMoved << ','
        << n.gflops << ',' << n.gbps << ',' << n.threadUse.threads << ','
        << exec::threadChoiceName(n.threadUse.choice) << ',' << trialMs(n.threadUse.trialOneMicros)
        << ',' << trialMs(n.threadUse.trialSplitMicros) << '\n';
  return out.str();
}

std::string compareToCsv(const CompareResult& r) {
  std::ostringstream out;
  out << "kind,new_nodes,original_nodes,before_ms,after_ms,speedup,saved_ms,regression,noisy\n";
  for (const NodeGroup& g : r.groups)
    out << groupKindName(g.kind) << ',' << csvField(str::join(g.newLabels, " ")) << ','
        << csvField(str::join(g.originalLabels, " ")) << ',' << g.beforeMs << ',' << g.afterMs
        << ',' << g.speedup << ',' << g.savedMs << ',' << (g.regression ? 1 : 0) << ','
        << (g.noisy ? 1 : 0) << '\n';
  return out.str();
}

}  // namespace passlab::pipeline
