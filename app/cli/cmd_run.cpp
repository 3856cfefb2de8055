// passlab-cli run MODEL [--input NAME=FILE.npy|NAME=V|random|zeros] [--dim NAME=VALUE]
//   [--repeat N] [--warmup N] [--threads N] [--profile] [--json] [--save-outputs DIR]
// Runs a model on the CPU executor (or with --device cuda on a GPU: where the
// steps ran, --explain-fallback for why some ran on the CPU, --compare-cpu for
// the outputs against the CPU executor's): output summaries, latency (min, median),
// peak arena memory, and with --profile a per-node table sorted by time.
// With --profile each timed round is one run without per-node timing (the
// latency, as without --profile) and one with it (the node table: each node's
// median over those runs, core/pipeline/node_times.h, as `profile` reports).
// --save-outputs writes the outputs (and the inputs used) for other tools:
// DIR/outputs.json lists them; numeric tensors go to .npy files, strings,
// sequences and maps into the JSON itself.
// --memory-report [FILE] writes the memory plan as JSON (memory_report.h);
// --memory-limit is a promise (docs/memory.md "The memory limit"): a run it
// accepts fits. Before any run, the planned peak (the report's plan and the
// executor's, for the given input shapes when they are known only then) is
// checked against it; then the first untimed run, with the limit's plan but
// not refused, measures what a run needs (the block, kernel scratch that does
// not fit its gaps, subgraph bodies) and a limit below that is refused before
// the runs asked for. The executor runs on its own plan (one block per run,
// core/exec/memory/execution_memory.h; the line "executor memory:" says how)
// unless --no-memory-plan. Constant-only nodes run once per executor and
// their outputs are kept (core/exec/kept_values.h) unless
// --no-keep-constants. --no-huge-pages turns transparent huge pages off for
// the process (app/cli/huge_pages.h: less resident memory, a little slower).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli/body_plans.h"
#include "app/cli/commands.h"
#include "app/cli/device_report.h"
#include "app/cli/huge_pages.h"
#include "app/cli/memory_limit.h"
#include "app/cli/memory_report.h"
#include "app/cli/output_files.h"
#include "app/cli/run_inputs.h"
#include "app/cli/size_option.h"
#include "app/cli/thread_use_text.h"
#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/exec/memory/input_shapes.h"
#include "core/exec/memory/plan_check.h"
#include "core/exec/step_trials.h"
#include "core/io/model_io.h"
#include "core/io/npy.h"
#include "core/pipeline/node_times.h"
#include "core/support/strings.h"

namespace passlab::cli {

namespace {

struct RunArgs {
  std::string model;
  InputSpec inputs;
  int repeat = 10;
  int warmup = -1;  // -1: defaultWarmup()
  int threads = 0;
  bool profile = false;
  bool json = false;
  bool reference = false;
  bool noMemoryPlan = false;
  bool noKeepConstants = false;
  bool noHugePages = false;
  std::string saveOutputs;
  uint64_t memoryLimit = 0;
  bool memoryReportWanted = false;
  std::string memoryReport = "-";  // file, "-": standard output
  int64_t maxLoopIterations = 1'000'000;
  std::string device = "cpu";  // "cuda", "cuda:1"
  bool compareCpu = false;     // the outputs against the CPU executor's
  double rtol = 1e-3, atol = 1e-4;
  bool explainFallback = false;
};

// A device run's extras: where steps ran, and the outputs against the CPU's.
struct DeviceReport {
  exec::DeviceRunSummary summary;
  std::vector<OutputComparison> comparison;
  bool compared = false;
};

struct OutputSummary {
  std::string name, type;
  bool numeric = false;
  double min = 0, max = 0, mean = 0;
  std::vector<double> head;
};

OutputSummary summarize(const std::string& name, const exec::Value& v) {
  OutputSummary s;
  s.name = name;
  s.type = v.describe();
  if (!v.isTensor() || v.tensor().isString() || v.tensor().numel() == 0) return s;
  ir::Tensor t = v.tensor().toIr();
  auto values = t.toDoubleVector();
  s.numeric = true;
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  double sum = 0;
  for (double x : values) sum += x;
  s.mean = sum / static_cast<double>(values.size());
  s.head.assign(values.begin(), values.begin() + std::min<size_t>(values.size(), 5));
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The node table of --profile: each node's median over the profiled runs
// (largest first), their sum, and the whole time of those runs.
struct RunProfile {
  std::vector<pipeline::NodeTimes::Row> rows;
  double nodeSumMs = 0;                // sum of main-graph node medians
  pipeline::Timing profiled;           // whole time of the runs with per-node timing
  pipeline::Timing nodes;              // per profiled run: the sum of its main-graph nodes' times
  pipeline::Timing outside;            // per profiled run: its time minus that
  exec::StepThreadCounts stepThreads;  // of the last profiled run
};

RunProfile runProfile(const pipeline::NodeTimes& times, const std::vector<double>& profiledMs) {
  RunProfile p;
  p.rows = times.rows();
  p.nodeSumMs = pipeline::mainGraphMedianSumMs(p.rows);
  p.profiled = pipeline::summarizeTimes(profiledMs);
  p.nodes = times.runNodeSums();
  p.outside = times.outsideNodes();
  for (const pipeline::NodeTimes::Row& row : p.rows)
    p.stepThreads.add(row.node.threadUse, row.node.depth);
  std::stable_sort(p.rows.begin(), p.rows.end(),
                   [](const auto& a, const auto& b) { return a.time.medianMs > b.time.medianMs; });
  return p;
}

void printDeviceText(const RunArgs& args, const DeviceReport& device) {
  if (device.summary.device.empty()) return;
  std::printf("device:  %s\n", deviceSummaryText(device.summary).c_str());
  if (args.explainFallback)
    for (const std::string& line : fallbackLines(device.summary))
      std::printf("fallback: %s\n", line.c_str());
  if (!device.compared) return;
  for (const OutputComparison& c : device.comparison) {
    if (!c.compared) {
      std::printf("vs cpu:  %s not compared (%s)\n", c.name.c_str(), c.note.c_str());
      continue;
    }
    std::printf("vs cpu:  %s %s  max abs %.3g  max rel %.3g  outside %lld (rtol %g, atol %g)%s%s\n",
                c.name.c_str(), c.withinTolerance ? "equal within tolerance" : "DIFFERS",
                c.maxAbsError, c.maxRelError, static_cast<long long>(c.outside), args.rtol,
                args.atol, c.note.empty() ? "" : "; ", c.note.c_str());
  }
}

// --profile as text: the node total against the latency, then one row per node.
void printRunProfileText(const RunProfile& p, double latency) {
  const double total = p.nodeSumMs;
  std::printf("profile: node medians sum to %.3f ms, %.1f%% of the latency median\n", total,
              latency > 0 ? 100.0 * total / latency : 0.0);
  std::printf(
      "         %d runs with per-node timing (medians): whole %.3f ms (min %.3f), nodes %.3f ms, "
      "outside any node %.3f ms; nodes above the sum of node medians by %.3f ms (stalls from "
      "other work)\n",
      p.profiled.samples, p.profiled.medianMs, p.profiled.minMs, p.nodes.medianMs,
      p.outside.medianMs, p.nodes.medianMs - total);
  std::printf("         %s\n", stepThreadsSummaryText(p.stepThreads).c_str());
  std::printf("\n%-22s %-34s %-22s %10s %10s %7s %12s %3s %s\n", "op", "node", "kernel",
              "median ms", "min ms", "share", "bytes moved", "thr", "threads chosen by");
  for (const pipeline::NodeTimes::Row& row : p.rows) {
    const exec::NodeProfile& n = row.node;
    std::string node = n.name.empty() ? "#" + std::to_string(n.nodeId) : n.name;
    if (n.depth > 0) node = std::string(static_cast<size_t>(2 * n.depth), ' ') + node;
    if (node.size() > 34) node = node.substr(0, 31) + "...";
    std::printf("%-22s %-34s %-22s %10.3f %10.3f %6.1f%% %12s %3s %s\n", n.op.c_str(), node.c_str(),
                n.kernel.c_str(), row.time.medianMs, row.time.minMs,
                total > 0 ? 100.0 * row.time.medianMs / total : 0.0,
                str::humanBytes(n.bytesRead + n.bytesWritten).c_str(),
                threadsText(n.threadUse).c_str(), threadChoiceText(n.threadUse).c_str());
  }
}

void printText(const RunArgs& args, const std::vector<std::string>& repairs,
               const PreparedInputs& inputs, int threads, const std::vector<OutputSummary>& outs,
               const std::vector<double>& ms, uint64_t peak,
               const std::optional<RunProfile>& profile, const exec::memory::MemoryPlan* plan,
               const exec::memory::RunMemoryUse& use, const DeviceReport& device) {
  std::printf("model:   %s\nthreads: %d\n", args.model.c_str(), threads);
  printDeviceText(args, device);
  for (const std::string& r : repairs) std::printf("repair:  %s\n", r.c_str());
  for (const std::string& d : inputs.descriptions) std::printf("input:   %s\n", d.c_str());
  for (const OutputSummary& o : outs) {
    std::printf("output:  %s %s", o.name.c_str(), o.type.c_str());
    if (o.numeric) {
      std::printf("  min %.6g  max %.6g  mean %.6g  first [", o.min, o.max, o.mean);
      for (size_t i = 0; i < o.head.size(); ++i) std::printf("%s%.6g", i ? ", " : "", o.head[i]);
      std::printf("]");
    }
    std::printf("\n");
  }
  std::printf("latency: min %.3f ms, median %.3f ms (%zu runs after %d warm-up)\n",
              ms.empty() ? 0.0 : *std::min_element(ms.begin(), ms.end()), median(ms), ms.size(),
              args.warmup);
  std::printf("peak arena: %s\n", str::humanBytes(peak).c_str());
  if (plan) std::printf("memory plan: %s\n", memoryPlanSummary(*plan).c_str());
  std::printf("executor memory: %s\n", executorMemorySummary(use).c_str());
  if (profile) printRunProfileText(*profile, median(ms));
}

// --profile in JSON: "profile_total" and one "profile" row per node.
void addRunProfileJson(const RunProfile& p, nlohmann::json& j) {
  const double total = p.nodeSumMs;
  j["profile_total"] = {
      {"node_sum_ms", total},
      {"runs", p.profiled.samples},
      {"run_node_sums_ms", p.nodes.medianMs},
      {"outside_nodes_ms", p.outside.medianMs},
      {"profiled_latency_ms", {{"median", p.profiled.medianMs}, {"min", p.profiled.minMs}}},
      {"step_threads",
       {{"steps", p.stepThreads.steps},
        {"split", p.stepThreads.split},
        {"trials_decided", p.stepThreads.trialsDecided}}}};
  nlohmann::json rows = nlohmann::json::array();
  for (const pipeline::NodeTimes::Row& row : p.rows) {
    const exec::NodeProfile& n = row.node;
    rows.push_back({{"node_id", n.nodeId},
                    {"op", n.op},
                    {"name", n.name},
                    {"kernel", n.kernel},
                    {"depth", n.depth},
                    {"calls", row.callsPerRun},
                    {"median_ms", row.time.medianMs},
                    {"min_ms", row.time.minMs},
                    {"samples", row.time.samples},
                    {"share", total > 0 ? row.time.medianMs / total : 0.0},
                    {"bytes_read", n.bytesRead},
                    {"bytes_written", n.bytesWritten},
                    {"threads", n.threadUse.threads},
                    {"thread_choice", exec::threadChoiceName(n.threadUse.choice)}});
    // The trials' fastest run each way, where they timed it (as `profile --json`).
    if (n.threadUse.trialOneMicros >= 0)
      rows.back()["trial_one_thread_ms"] = n.threadUse.trialOneMicros / 1000.0;
    if (n.threadUse.trialSplitMicros >= 0)
      rows.back()["trial_split_ms"] = n.threadUse.trialSplitMicros / 1000.0;
  }
  j["profile"] = std::move(rows);
}

void printJson(const RunArgs& args, const std::vector<std::string>& repairs,
               const PreparedInputs& inputs, int threads, const std::vector<OutputSummary>& outs,
               const std::vector<double>& ms, uint64_t peak,
               const std::optional<RunProfile>& profile, const exec::memory::MemoryPlan* plan,
               const exec::memory::RunMemoryUse& use, const DeviceReport& device) {
  nlohmann::json j;
  j["model"] = args.model;
  if (!device.summary.device.empty()) j["device"] = deviceSummaryJson(device.summary);
  if (device.compared) j["compare_cpu"] = comparisonJson(device.comparison, args.rtol, args.atol);
  j["threads"] = threads;
  j["transparent_huge_pages"] = !transparentHugePagesDisabled();
  j["repairs"] = repairs;
  j["inputs"] = inputs.descriptions;
  for (const OutputSummary& o : outs) {
    nlohmann::json jo = {{"name", o.name}, {"type", o.type}};
    if (o.numeric) {
      jo["min"] = o.min;
      jo["max"] = o.max;
      jo["mean"] = o.mean;
      jo["first"] = o.head;
    }
    j["outputs"].push_back(jo);
  }
  j["latency_ms"] = {{"min", ms.empty() ? 0.0 : *std::min_element(ms.begin(), ms.end())},
                     {"median", median(ms)},
                     {"runs", ms.size()},
                     {"warmup", args.warmup},
                     {"all", ms}};
  j["peak_arena_bytes"] = peak;
  if (plan) j["memory_plan"] = memoryReportJson(args.model, *plan, peak)["totals"];
  j["executor_memory"] = executorMemoryJson(use);
  j["profile"] = nlohmann::json::array();
  if (profile) addRunProfileJson(*profile, j);
  std::cout << j.dump(2) << "\n";
}

// A value as JSON: tensors as {dtype, dims, data} (numbers or strings),
// sequences as lists, maps as {keys, values}.
nlohmann::json valueJson(const exec::Value& v) {
  switch (v.kind()) {
    case exec::Value::Kind::kNone:
      return nullptr;
    case exec::Value::Kind::kTensor: {
      ir::Tensor t = v.tensor().toIr();
      nlohmann::json j = {{"dtype", ir::dtypeName(t.dtype())}, {"dims", t.dims()}};
      if (t.dtype() == ir::DataType::kString)
        j["data"] = t.strings();
      else
        j["data"] = t.toDoubleVector();
      return j;
    }
    case exec::Value::Kind::kSequence: {
      nlohmann::json j = nlohmann::json::array();
      for (const exec::Value& item : v.sequence().items) j.push_back(valueJson(item));
      return j;
    }
    case exec::Value::Kind::kMap:
      return {{"keys", valueJson(exec::Value(v.map().keys))},
              {"values", valueJson(exec::Value(v.map().values))}};
  }
  return nullptr;
}

// Writes DIR/outputs.json naming, per output (and input), its .npy file or
// holding its value.
Status saveValues(const std::string& dir, const exec::NamedInputs& inputs,
                  const exec::RunResult& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return ioError("cannot create '" + dir + "': " + ec.message());
  nlohmann::json index = {{"inputs", nlohmann::json::array()},
                          {"outputs", nlohmann::json::array()}};
  auto save = [&](const char* kind, size_t i, const std::string& name,
                  const exec::Value& v) -> Status {
    nlohmann::json e = {{"name", name}, {"type", v.describe()}};
    bool npy = v.isTensor() && !v.tensor().isString();
    if (npy) {
      std::string file = std::string(kind) + "_" + std::to_string(i) + ".npy";
      Status st = io::writeNpy(dir + "/" + file, v.tensor().toIr());
      if (st) {
        e["file"] = file;
      } else if (st.error().code() == ErrorCode::kUnsupported) {
        npy = false;  // an element type .npy cannot hold: its value in the index
      } else {
        return st;  // the folder cannot be written
      }
    }
    if (!npy) e["value"] = valueJson(v);
    index[std::string(kind) + "s"].push_back(e);
    return Status::ok();
  };
  for (size_t i = 0; i < inputs.size(); ++i)
    PASSLAB_RETURN_IF_ERROR(save("input", i, inputs[i].first, inputs[i].second));
  for (size_t i = 0; i < r.values.size(); ++i)
    PASSLAB_RETURN_IF_ERROR(save("output", i, r.outputNames[i], r.values[i]));
  Status written = writeFileAtomically(dir + "/outputs.json", index.dump(1) + "\n");
  if (!written) return written.error().withContext("cannot write '" + dir + "/outputs.json'");
  return Status::ok();
}

// The plan of `ex`'s main graph, verified by the checker (`observed`: sizes
// from a run, for shapes only known then). Graph outputs the executor writes
// where the caller gets them are outside the block, as on its own plan; with
// `memoryLimit` the runs copy them and the block holds them.
// `scratch`: per step, the kernel scratch a run asked for, planned with the
// tensors.
Expected<exec::memory::MemoryPlan> checkedPlan(const exec::Executor& ex,
                                               const std::vector<uint64_t>* observed,
                                               uint64_t memoryLimit,
                                               const std::vector<uint64_t>* scratch = nullptr) {
  exec::memory::PlanOptions options = exec::memory::PlanOptions::withDirectOutputs({}, memoryLimit);
  options.scratchBytes = scratch;
  auto plan = exec::memory::planMemory(ex.compiled(), observed, options);
  if (!plan) return plan.error();
  PASSLAB_RETURN_IF_ERROR(exec::memory::checkPlan(*plan));
  return plan;
}

// The same inputs on the CPU executor (reference kernels when asked), its
// outputs set against `deviceRun`'s.
Expected<std::vector<OutputComparison>> compareWithCpu(
    const ir::Model& model, exec::ExecutorOptions eo, const exec::NamedInputs& inputs,
    exec::RunOptions ro, const exec::RunResult& deviceRun, const RunArgs& args) {
  eo.backend = "cpu";
  auto cpu = exec::Executor::create(model, eo);
  if (!cpu) return cpu.error();
  ro.profile = false;
  ro.valueBytes = nullptr;
  auto r = (*cpu)->run(inputs, ro);
  if (!r) return r.error().withContext("the CPU run");
  return compareOutputs(deviceRun, *r, args.rtol, args.atol);
}

// One warm-up run, and on several CPU threads as many as the executor's step
// trials take to decide (step_trials.h), so the timed runs run every step
// the chosen way.
int defaultWarmup(const std::string& device, int threads) {
  return device == "cpu" && threads > 1 ? exec::StepTrials::kRunsBeforeDecided : 1;
}

int runCommand(RunArgs args) {
  auto fail = [](const Error& e) {
    std::cerr << "error: " << e.message() << "\n";
    return 1;
  };
  // A report on the model's own file (or on an --input file) would replace
  // it, and so would --save-outputs' files: refused before any work.
  std::vector<NamedPath> readFiles = inputFilesOf(args.inputs.inputs);
  readFiles.insert(readFiles.begin(), {"the model", args.model});
  const NamedPath report = {"--memory-report", args.memoryReportWanted ? args.memoryReport : ""};
  if (Status paths = checkOutputPaths(readFiles, {report}); !paths) return fail(paths.error());
  if (Status saved = checkSaveDir({"--save-outputs", args.saveOutputs}, readFiles, {report});
      !saved)
    return fail(saved.error());
  // Before the model and the weights are allocated.
  if (args.noHugePages && !disableTransparentHugePages())
    std::cerr << "warning: transparent huge pages could not be turned off\n";
  auto loaded = io::loadModel(args.model);
  if (!loaded) return fail(loaded.error());
  // The memory plan sizes tensors from their types: infer them first.
  bool planWanted = args.memoryReportWanted || args.memoryLimit > 0;
  if (planWanted) analysis::inferShapes(loaded->model);
  exec::ExecutorOptions eo;
  eo.referenceKernels = args.reference;
  eo.memoryPlan = !args.noMemoryPlan;
  eo.keepConstantSteps = !args.noKeepConstants;
  eo.backend = args.device;
  auto ex = exec::Executor::create(loaded->model, eo);
  if (!ex) return fail(ex.error());
  // The executor holds its own copy of the model (weights shared): without
  // ours, the weights its kernels hold packed are freed (kept_values.h).
  // --compare-cpu makes a second executor from it.
  if (!args.compareCpu) loaded->model = ir::Model();
  std::optional<exec::memory::MemoryPlan> plan;
  if (planWanted && exec::memory::sizesKnownAhead((*ex)->compiled())) {
    auto p = checkedPlan(**ex, nullptr, args.memoryLimit);
    if (!p) return fail(p.error());
    if (Status st = exec::memory::checkMemoryLimit(*p, args.memoryLimit); !st)
      return fail(st.error());
    plan = std::move(p).value();
  }
  // Otherwise the first run reports the sizes the plan needs.
  std::vector<uint64_t> observed;
  bool observe = planWanted && !plan;
  auto planFromRun = [&]() -> Status {
    if (!observe) return Status::ok();
    observe = false;
    auto p = checkedPlan(**ex, &observed, args.memoryLimit);
    if (!p) return p.error();
    PASSLAB_RETURN_IF_ERROR(exec::memory::checkMemoryLimit(*p, args.memoryLimit));
    plan = std::move(p).value();
    return Status::ok();
  };
  auto inputs = prepareInputs(**ex, args.inputs);
  if (!inputs) return fail(inputs.error());
  if (args.memoryLimit > 0 && !args.noMemoryPlan)
    if (Status st = executorPlanWithin(**ex, inputs->values, args.memoryLimit); !st)
      return fail(st.error());
  exec::RunOptions ro;
  ro.threads = args.threads;
  ro.memoryLimitBytes = args.memoryLimit;
  ro.maxLoopIterations = args.maxLoopIterations;
  int threads = args.threads > 0 ? args.threads : (*ex)->backend().defaultThreads();
  if (args.warmup < 0) args.warmup = defaultWarmup(args.device, threads);
  exec::RunResult last;
  // Under a limit the first untimed runs measure what a run needs: the same
  // plan as a limited run (any limit copies the outputs into the block), no
  // allocation refused; where the first asked for kernel scratch, the plan
  // with it is checked and a second run measures on it (memory_limit.h).
  // They count as the first warm-up.
  const bool measure = args.memoryLimit > 0 && args.device == "cpu";
  int warmup = args.warmup;
  if (measure) {
    if (Status st =
            measureRunsWithin(**ex, inputs->values, ro, args.memoryLimit, !args.noMemoryPlan,
                              /*firstRunToo=*/false, observe ? &observed : nullptr);
        !st)
      return fail(st.error());
    if (Status st = planFromRun(); !st) return fail(st.error());
    warmup = std::max(warmup - 1, 0);
  }
  for (int i = 0; i < warmup; ++i) {
    exec::RunOptions o = ro;
    o.valueBytes = observe ? &observed : nullptr;
    auto r = (*ex)->run(inputs->values, o);
    if (!r) return fail(r.error());
    if (Status st = planFromRun(); !st) return fail(st.error());
  }
  std::vector<double> ms;
  uint64_t peak = 0;
  pipeline::NodeTimes nodeTimes;
  std::vector<double> profiledMs;
  for (int i = 0; i < std::max(args.repeat, 1); ++i) {
    ro.valueBytes = observe ? &observed : nullptr;
    auto r = (*ex)->run(inputs->values, ro);
    if (!r) return fail(r.error());
    if (Status st = planFromRun(); !st) return fail(st.error());
    ms.push_back(r->totalMicros / 1000.0);
    peak = std::max(peak, r->peakArenaBytes);
    last = std::move(r).value();
    if (!args.profile) continue;
    exec::RunOptions profiled = ro;
    profiled.profile = true;
    profiled.valueBytes = nullptr;
    auto p = (*ex)->run(inputs->values, profiled);
    if (!p) return fail(p.error());
    profiledMs.push_back(p->totalMicros / 1000.0);
    peak = std::max(peak, p->peakArenaBytes);
    nodeTimes.addRun(p->profile, p->totalMicros / 1000.0);
  }
  std::vector<OutputSummary> outs;
  for (size_t i = 0; i < last.values.size(); ++i)
    outs.push_back(summarize(last.outputNames[i], last.values[i]));
  std::optional<RunProfile> profile;
  if (args.profile) profile = runProfile(nodeTimes, profiledMs);
  if (!args.saveOutputs.empty()) {
    Status st = saveValues(args.saveOutputs, inputs->values, last);
    if (!st) return fail(st.error());
  }
  // The kernel scratch the last run's steps asked for, planned with the
  // tensors (each step's as a buffer live at that step); the plan without it
  // gives the peak without scratch.
  if (plan) {
    const std::vector<uint64_t>& scratch = last.memory.scratchBytes;
    if (std::any_of(scratch.begin(), scratch.end(), [](uint64_t b) { return b > 0; })) {
      auto p =
          checkedPlan(**ex, observed.empty() ? nullptr : &observed, args.memoryLimit, &scratch);
      if (!p) return fail(p.error().withContext("the memory plan with the kernel scratch"));
      p->peakWithoutScratch = plan->peak;
      plan = std::move(p).value();
    } else {
      plan->peakWithoutScratch = plan->peak;
    }
  }
  const auto& repairs = (*ex)->repairs();
  const exec::memory::MemoryPlan* shown = plan ? &*plan : nullptr;
  DeviceReport device;
  device.summary = last.device;
  if (args.compareCpu) {
    auto cmp = compareWithCpu(loaded->model, eo, inputs->values, ro, last, args);
    if (!cmp) return fail(cmp.error());
    device.comparison = std::move(cmp).value();
    device.compared = true;
  }
  if (args.json) {
    printJson(args, repairs, *inputs, threads, outs, ms, peak, profile, shown, last.memory, device);
  } else {
    printText(args, repairs, *inputs, threads, outs, ms, peak, profile, shown, last.memory, device);
  }
  int code = 0;  // 2: a device output differs from the CPU's
  for (const OutputComparison& c : device.comparison)
    if (c.compared && !c.withinTolerance) code = 2;
  if (args.memoryReportWanted && plan) {
    nlohmann::json report = memoryReportJson(args.model, *plan, peak);
    report["executor"] = executorMemoryJson(last.memory);
    report["bodies"] = bodyPlansJson((*ex)->compiled(), (*ex)->bodyPlans());
    // A file through a temporary file renamed over it (no partial report).
    Status st = args.memoryReport == "-"
                    ? writeMemoryReport(args.memoryReport, report)
                    : writeFileAtomically(args.memoryReport, report.dump(2) + "\n");
    if (!st) return fail(st.error().withContext("cannot write the memory report"));
  }
  return code;
}

}  // namespace

void registerRun(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "run", "Run a model on the CPU executor (or a GPU: --device cuda) and time it");
  auto args = std::make_shared<RunArgs>();
  cmd->add_option("model", args->model, "ONNX model file")->required();
  // One value per occurrence: a model path after it stays the positional argument.
  cmd->add_option(
         "--input", args->inputs.inputs,
         "NAME=FILE.npy or NAME=FILE.pb (a TensorProto), NAME=VALUE[,VALUE...] (one value fills "
         "the input), or random (default, seeded) / zeros / arange for every other input")
      ->allow_extra_args(false);
  cmd->add_option(
         "--dim", args->inputs.dims,
         "NAME=VALUE for a symbolic dim (default: chosen so the model runs; the reason is printed)")
      ->allow_extra_args(false);
  cmd->add_option("--seed", args->inputs.seed, "Seed of the random inputs (default 0)");
  cmd->add_option("--repeat", args->repeat, "Timed runs (default 10)")->check(CLI::PositiveNumber);
  cmd->add_option("--warmup", args->warmup,
                  "Untimed runs first (default 1; on several threads " +
                      std::to_string(exec::StepTrials::kRunsBeforeDecided) +
                      ", the runs the executor takes to time its steps both ways)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--threads", args->threads, "Threads (default: every core)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--profile", args->profile,
                "Per-node profile, sorted by time: each node's median over runs with per-node "
                "timing, one after each timed run");
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->add_flag("--reference", args->reference, "Use only the reference kernels");
  cmd->add_flag("--no-memory-plan", args->noMemoryPlan,
                "Allocate every tensor from the arena instead of one block laid out by the "
                "memory plan");
  cmd->add_flag("--no-keep-constants", args->noKeepConstants,
                "Run constant-only nodes on every run instead of once per executor (their "
                "outputs kept)");
  cmd->add_flag("--no-huge-pages", args->noHugePages,
                "Turn transparent huge pages off for the process: lower peak resident memory "
                "(resnet50 -12%), a few percent slower");
  cmd->add_option("--save-outputs", args->saveOutputs,
                  "Write the inputs and outputs to DIR (outputs.json, .npy files)");
  cmd->add_option("--memory-limit", args->memoryLimit,
                  "Intermediate memory a run may use (bytes, or with a unit: 64MiB, 1.5GB; not 0): "
                  "fails before running when the memory plan's peak is above it, and before "
                  "the timed runs when the first untimed run (not limited) needed more, with "
                  "kernel scratch")
      ->transform(sizeWithUnit());
  auto* report = cmd->add_option("--memory-report", args->memoryReport,
                                 "Write the memory plan as JSON to FILE (default: standard output)")
                     ->expected(0, 1);
  cmd->add_option("--device", args->device,
                  "Where to run: cpu (default), cuda, cuda:N (see `passlab-cli devices`)");
  cmd->add_flag("--compare-cpu", args->compareCpu,
                "Also run on the CPU executor and compare the outputs (exit code 2 when they "
                "differ beyond --rtol/--atol)");
  cmd->add_option("--rtol", args->rtol, "Relative tolerance of --compare-cpu (default 1e-3)");
  cmd->add_option("--atol", args->atol, "Absolute tolerance of --compare-cpu (default 1e-4)");
  cmd->add_flag("--explain-fallback", args->explainFallback,
                "List the nodes a device run sent to the CPU, and why");
  cmd->add_option("--max-loop-iterations", args->maxLoopIterations,
                  "Stop a Loop after this many iterations (default 1000000)");
  cmd->callback([args, report] {
    args->memoryReportWanted = report->count() > 0;
    if (args->memoryReport.empty()) args->memoryReport = "-";
    setExitCode(runCommand(*args));
  });
}

}  // namespace passlab::cli
