#include "core/pipeline/profile.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/exec/step_trials.h"
#include "core/pipeline/node_extract.h"
#include "core/pipeline/node_times.h"

namespace passlab::pipeline {

namespace {

std::string describeGiven(const std::string& name, const exec::Value& v) {
  return name + " " + v.describe() + " (given)";
}

Status checkRequest(const ProfileRequest& request) {
  if (request.repeats < 1) return invalidArgument("repeats must be at least 1");
  if (request.warmup < 0) return invalidArgument("warm-up runs cannot be negative");
  if (request.threads < 0) return invalidArgument("threads cannot be negative");
  return Status::ok();
}

Status cancelled(const ProfileRequest& request) {
  if (request.cancel && request.cancel->load())
    return Error(ErrorCode::kCancelled, "profiling cancelled");
  return Status::ok();
}

void report(const ProfileRequest& request, const char* phase, int done, int total) {
  if (request.progress) request.progress({phase, done, total});
}

// Node costs with the shapes of this run, keyed by node id (a clone keeps them).
std::unordered_map<ir::NodeId, analysis::NodeCost> costsForRun(const ir::Model& model,
                                                               const exec::NamedInputs& inputs) {
  const ir::Model shaped = withRunShapes(model, inputs);
  std::unordered_map<ir::NodeId, analysis::NodeCost> costs;
  shaped.graph().forEachNodeRecursive(
      [&](ir::Node* n) { costs.emplace(n->id(), analysis::estimateNodeCost(*n)); });
  return costs;
}

struct Measurements {
  std::vector<double> untimedMs, profiledMs;
  NodeTimes nodes;
  uint64_t peakArenaBytes = 0;
  exec::DeviceRunSummary deviceRun;  // of the last profiled run
};

Status measure(PreparedRun& run, const ProfileRequest& request, Measurements& m) {
  exec::RunOptions profiled = run.options;
  profiled.profile = true;
  for (int i = 0; i < request.repeats; ++i) {
    PASSLAB_RETURN_IF_ERROR(cancelled(request));
    report(request, "measuring", i, request.repeats);
    auto untimed = timeRun(run);
    if (!untimed) return untimed.error();
    m.untimedMs.push_back(*untimed);
    auto r = run.executor->run(run.inputs, profiled);
    if (!r) return r.error();
    m.profiledMs.push_back(r->totalMicros / 1000.0);
    m.peakArenaBytes = std::max(m.peakArenaBytes, r->peakArenaBytes);
    m.deviceRun = std::move(r->device);
    m.nodes.addRun(r->profile, r->totalMicros / 1000.0);
  }
  report(request, "measuring", request.repeats, request.repeats);
  return Status::ok();
}

NodeTiming nodeTiming(const NodeTimes::Row& row,
                      const std::unordered_map<ir::NodeId, analysis::NodeCost>& costs) {
  const exec::NodeProfile& p = row.node;
  NodeTiming n;
  n.nodeId = p.nodeId;
  n.name = p.name;
  n.op = p.op;
  n.kernel = p.kernel;
  n.depth = p.depth;
  n.callsPerRun = row.callsPerRun;
  n.threadUse = p.threadUse;
  n.time = row.time;
  auto it = costs.find(n.nodeId);
  if (it != costs.end())
    n.cost = it->second;
  else
    n.cost.known = false;
  n.bytesMoved =
      n.cost.known ? n.cost.bytesRead + n.cost.bytesWritten : p.bytesRead + p.bytesWritten;
  const double seconds = n.time.medianMs / 1000.0;
  if (seconds > 0) {
    if (n.cost.known && n.cost.flops > 0) n.gflops = n.cost.flops / seconds / 1e9;
    n.gbps = static_cast<double>(n.bytesMoved) / seconds / 1e9;
  }
  return n;
}

std::vector<OpTypeTotal> opTypeTotals(const std::vector<NodeTiming>& nodes, double total) {
  std::map<std::string, OpTypeTotal> byOp;
  for (const NodeTiming& n : nodes) {
    if (n.depth != 0) continue;
    OpTypeTotal& t = byOp[n.op];
    t.op = n.op;
    t.nodes++;
    t.ms += n.time.medianMs;
    if (n.cost.known) t.flops += n.cost.flops;
  }
  std::vector<OpTypeTotal> out;
  for (auto& [op, t] : byOp) {
    t.share = total > 0 ? t.ms / total : 0;
    out.push_back(t);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.ms > b.ms; });
  return out;
}

ProfileResult summarize(const Measurements& m, const ProfileRequest& request, PreparedRun& run,
                        const std::unordered_map<ir::NodeId, analysis::NodeCost>& costs) {
  ProfileResult r;
  r.device = request.device;
  r.threads = run.threads;
  r.warmup = request.warmup;
  r.repeats = request.repeats;
  r.machine = machineInfo();
  r.inputs = run.descriptions;
  const std::vector<NodeTimes::Row> rows = m.nodes.rows();
  for (const NodeTimes::Row& row : rows) r.nodes.push_back(nodeTiming(row, costs));
  r.nodeSumMs = mainGraphMedianSumMs(rows);
  for (NodeTiming& n : r.nodes) n.share = r.nodeSumMs > 0 ? n.time.medianMs / r.nodeSumMs : 0;
  r.opTypes = opTypeTotals(r.nodes, r.nodeSumMs);
  r.latency = summarizeTimes(m.untimedMs);
  r.profiledLatency = summarizeTimes(m.profiledMs);
  r.runNodeSums = m.nodes.runNodeSums();
  r.outsideNodes = m.nodes.outsideNodes();
  r.overheadMs = r.latency.medianMs - r.nodeSumMs;
  r.overheadShare = r.latency.medianMs > 0 ? r.overheadMs / r.latency.medianMs : 0;
  double nodeMinSum = 0;
  for (const NodeTiming& n : r.nodes)
    if (n.depth == 0) nodeMinSum += n.time.minMs;
  r.overheadMinMs = r.latency.minMs - nodeMinSum;
  for (const NodeTiming& n : r.nodes) r.stepThreads.add(n.threadUse, n.depth);
  r.peakArenaBytes = m.peakArenaBytes;
  r.deviceRun = m.deviceRun;
  return r;
}

Expected<std::vector<std::string>> synthesize(const ir::Model& model, const InputSpec& spec,
                                              exec::NamedInputs& values) {
  auto plan = planInputs(model, spec);
  if (!plan) return plan.error().withContext("cannot make up inputs");
  auto filled = fillInputs(*plan, model, spec);
  if (!filled) return filled.error().withContext("cannot make up inputs");
  values = std::move(filled.value());
  std::vector<std::string> descriptions;
  for (const InputPlan& p : *plan)
    descriptions.push_back(p.describe().str() + (p.given ? " (given)" : " (made up)"));
  return descriptions;
}

}  // namespace

std::string NodeTiming::label() const {
  return name.empty() ? "#" + std::to_string(nodeId) : name;
}

Expected<PreparedRun> prepareRun(const ir::Model& model, const ProfileRequest& request) {
  PASSLAB_RETURN_IF_ERROR(checkRequest(request));
  exec::ExecutorOptions eo;
  eo.backend = request.device;
  auto ex = exec::Executor::create(model, eo);
  if (!ex) return ex.error();
  PreparedRun run;
  run.executor = std::move(ex.value());
  if (request.given.empty()) {
    auto d = synthesize(run.executor->model(), request.inputs, run.inputs);
    if (!d) return d.error();
    run.descriptions = std::move(d.value());
  } else {
    run.inputs = request.given;
    for (const auto& [name, value] : run.inputs)
      run.descriptions.push_back(describeGiven(name, value));
  }
  run.options.threads = request.threads;
  run.options.cancel = request.cancel;
  run.options.memoryLimitBytes = request.memoryLimitBytes;
  run.threads = request.threads > 0 ? request.threads : run.executor->backend().defaultThreads();
  return run;
}

Expected<double> timeRun(PreparedRun& run) {
  auto r = run.executor->run(run.inputs, run.options);
  if (!r) return r.error();
  return r->totalMicros / 1000.0;
}

// The request's warm-up runs, and on several CPU threads at least as many as
// the executor's step trials take to decide (step_trials.h): the timed runs
// then run every step the chosen way, not some on one thread and some split.
int warmupRuns(const ProfileRequest& request, const PreparedRun& run) {
  const bool cpu = request.device.empty() || request.device == "cpu";
  return cpu && run.threads > 1 ? std::max(request.warmup, exec::StepTrials::kRunsBeforeDecided)
                                : request.warmup;
}

Expected<ProfileResult> profilePrepared(const ir::Model& model, PreparedRun& run,
                                        const ProfileRequest& request) {
  PASSLAB_RETURN_IF_ERROR(checkRequest(request));
  const int warmup = warmupRuns(request, run);
  for (int i = 0; i < warmup; ++i) {
    PASSLAB_RETURN_IF_ERROR(cancelled(request));
    report(request, "warm-up", i, warmup);
    auto t = timeRun(run);
    if (!t) return t.error();
  }
  Measurements m;
  PASSLAB_RETURN_IF_ERROR(measure(run, request, m));
  ProfileResult r = summarize(m, request, run, costsForRun(model, run.inputs));
  r.warmup = warmup;
  return r;
}

Expected<ProfileResult> profileModel(const ProfileRequest& request) {
  if (!request.model) return invalidArgument("no model to profile");
  auto run = prepareRun(*request.model, request);
  if (!run) return run.error();
  return profilePrepared(*request.model, *run, request);
}

}  // namespace passlab::pipeline
