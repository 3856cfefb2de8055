// Profiling a model: per-node time over repeated runs with its spread, the
// share of the total, FLOPs and bytes from the cost model with the achieved
// GFLOP/s and GB/s, totals per op type, and the whole-model latency measured
// in separate runs without per-node timing, so the profiler's overhead is
// known. Qt-free; the CLI (`passlab-cli profile`) and the GUI's Profile dock
// both use it.
//
//   pipeline::ProfileRequest req;
//   req.model = &model;
//   req.repeats = 20;
//   auto r = pipeline::profileModel(req);
//   if (!r) show(r.error().message());   // names the node, the input or the kernel
//   for (const pipeline::NodeTiming& n : r->nodes) ...  // run order
//
// Method: `warmup` untimed runs, then `repeats` rounds of one untimed run
// (the latency) and one run with per-node timing. A node's samples are its
// time per run (summed over calls, for nodes in Loop bodies). Every Timing
// has median, min, p90 and spread = (p90 - min) / median; spread > 10% is
// marked noisy. overheadMs = latency median - sum of main-graph node medians:
// what the per-node figures do not account for (scheduling, input checks,
// freeing between nodes, the profiler itself, and on a shared machine the
// stalls that medians of separate nodes drop but a median run keeps);
// outsideNodes is the part measured within the profiled runs themselves.
// The per-node reduction is node_times.h, shared with `run --profile`.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/cost_model.h"
#include "core/exec/device_run_summary.h"
#include "core/exec/executor.h"
#include "core/exec/step_thread_use.h"
#include "core/ir/model.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/machine_info.h"
#include "core/pipeline/timing_stats.h"
#include "core/support/error.h"

namespace passlab::pipeline {

struct ProfileProgress {
  std::string phase;  // "warm-up", "measuring"
  int done = 0, total = 0;
};

struct ProfileRequest {
  const ir::Model* model = nullptr;  // not owned; must outlive the call
  // Inputs made up with this spec (dims, seed, fixed inputs) ...
  InputSpec inputs;
  // ... unless given here (then used as they are; names the model lacks are an error).
  exec::NamedInputs given;
  int threads = 0;  // 0: every core
  int warmup = 2;
  int repeats = 10;
  std::string device = "cpu";  // the executor backend: "cpu", "cuda", "cuda:N"
  const std::atomic<bool>* cancel = nullptr;
  uint64_t memoryLimitBytes = 0;  // intermediate tensors of one run; 0: no limit
  std::function<void(const ProfileProgress&)> progress;  // called between runs
};

struct NodeTiming {
  ir::NodeId nodeId = 0;
  std::string name;    // "" when unnamed
  std::string op;      // "Conv", "ai.passlab.FusedAttention"
  std::string kernel;  // "onednn.Conv"
  int depth = 0;       // 0: main graph; subgraph nodes' time is also in their parent's
  int64_t callsPerRun = 0;
  Timing time;
  double share = 0;         // of the sum of main-graph node medians
  analysis::NodeCost cost;  // from the cost model with the run's input shapes
  uint64_t bytesMoved = 0;  // cost model when known, else what the kernel read and wrote
  double gflops = 0;        // achieved (median); 0 when the FLOPs are unknown
  double gbps = 0;          // achieved (median)
  // The threads it ran on in the last profiled run and how they were chosen
  // (step_thread_use.h).
  exec::StepThreadUse threadUse;
  std::string label() const;  // name, or "#id" when unnamed
};

struct OpTypeTotal {
  std::string op;
  int nodes = 0;
  double ms = 0;  // sum of node medians (main graph)
  double share = 0;
  double flops = 0;
};

struct ProfileResult {
  std::string device;  // as requested: "cpu", "cuda", "cuda:1"
  // Where the last profiled run's steps ran on a device backend (the device's
  // name, steps on the device / host / CPU fallback with reasons, copies);
  // empty (deviceRun.device == "") on the CPU.
  exec::DeviceRunSummary deviceRun;
  int threads = 0;
  int warmup = 0, repeats = 0;
  MachineInfo machine;
  std::vector<std::string> inputs;   // "x float[1,3,224,224]: ... (made up)"
  std::vector<NodeTiming> nodes;     // every node that ran, in run order
  std::vector<OpTypeTotal> opTypes;  // by time, largest first
  Timing latency;                    // whole-model runs without per-node timing
  Timing profiledLatency;            // whole-model time of the runs with per-node timing
  // Per run with per-node timing: the sum of its main-graph nodes' times
  // (above nodeSumMs by the stalls other work scattered over the nodes), and
  // its whole time minus that (binding inputs, the executor's work between
  // nodes, freeing); measured within each run, unlike overheadMs.
  Timing runNodeSums, outsideNodes;
  double nodeSumMs = 0;      // sum of main-graph node medians
  double overheadMs = 0;     // latency.medianMs - nodeSumMs
  double overheadShare = 0;  // overheadMs / latency.medianMs
  // The same from the minimums (latency.minMs - sum of node minimums): steadier
  // than the medians on a machine that other work shares.
  double overheadMinMs = 0;
  uint64_t peakArenaBytes = 0;
  // Main-graph steps split over the threads, of those that ran, and how many
  // the step trials decided (the last profiled run).
  exec::StepThreadCounts stepThreads;
};

// Profiles `request.model`. Errors (no kernel for an op, a bad or missing
// input, a kernel failing, cancellation) come back naming the node or input.
Expected<ProfileResult> profileModel(const ProfileRequest& request);

// The parts of profileModel that a comparison reuses.
struct PreparedRun {
  std::unique_ptr<exec::Executor> executor;
  exec::NamedInputs inputs;
  std::vector<std::string> descriptions;
  exec::RunOptions options;  // threads and cancel flag of the request
  int threads = 0;           // as resolved (0 in the request: the backend's default)
};
// Builds the executor and the inputs for `model` as `request` asks.
Expected<PreparedRun> prepareRun(const ir::Model& model, const ProfileRequest& request);
// One run without per-node timing; its wall time in ms.
Expected<double> timeRun(PreparedRun& run);
// profileModel on an already prepared run of `model`.
Expected<ProfileResult> profilePrepared(const ir::Model& model, PreparedRun& run,
                                        const ProfileRequest& request);

}  // namespace passlab::pipeline
