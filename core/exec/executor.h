// The executor: runs an ONNX model (any ir::Model, including If/Loop/Scan
// bodies) on a backend.
//
//   auto ex = exec::Executor::create(model, {});        // kernels, packing, memory plan
//   auto r = (*ex)->run({{"x", xTensor}}, {.profile = true});
//   r->outputs[0]  // ir::Tensor, in graph-output order
//
// create() checks every operator has a kernel (the error names the op, its
// domain and opset, and the node), builds kernels whose element types are
// known, and computes value lifetimes. run() checks the inputs, runs (the
// main graph's tensors in one block laid out by a memory plan unless
// ExecutorOptions::memoryPlan is off), and returns the outputs, the per-node
// profile and the peak of arena memory; a graph output a step writes is
// handed over without a copy (output_buffers.h). Constant-only nodes run on the first
// run only; later runs reuse their kept outputs (kept_values.h; profiled as
// kKeptKernel, 0 µs).
// A failed run leaves the executor usable. Runs of one executor are serialized.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/arena.h"
#include "core/exec/backend.h"
#include "core/exec/device_run_summary.h"
#include "core/exec/memory/execution_memory.h"
#include "core/exec/profiler.h"
#include "core/exec/run_options.h"
#include "core/exec/value.h"
#include "core/ir/model.h"
#include "core/support/error.h"

namespace passlab::exec {

class Compiler;
class CompiledGraph;
class KeptValues;
class OutputBuffers;
namespace memory {
class BodyPlans;
}

struct ExecutorOptions {
  // "cpu", or a device backend ("cuda", "cuda:1") where this build has one.
  std::string backend = "cpu";
  // Use only the reference kernels (tests compare them with the optimized ones).
  bool referenceKernels = false;
  // Run the main graph's tensors in one block per run laid out by a memory
  // plan (memory/execution_memory.h); false: every tensor from the Arena.
  bool memoryPlan = true;
  // Compute the main graph's constant-only steps once and keep their outputs
  // for later runs (kept_values.h); false: every step runs on every run.
  bool keepConstantSteps = true;
  // On multi-threaded runs after the first, time the steps near the
  // single-thread limit both ways and keep the faster (step_trials.h); false:
  // every run takes the cost model's thread count, so its kernels (which may
  // differ by thread count: Winograd or brgemm on one) are those of a fresh
  // executor's first run (the numeric check's runs).
  bool stepTrials = true;
  // Outputs that a saved file or a decision depends on (calibration
  // statistics, the numeric check and its rounding floor, unit checks): the
  // same bytes on every run of every process on this machine. A step split
  // over threads may sum in another order (a float Conv: a few ulps), so
  // which steps split must not depend on timing: true turns the step trials
  // off and fixes the split limit (fork_join_cost.h,
  // reproducibleSplitLimitMicros) instead of the fork-join cost measured in
  // the process. The outputs then depend on the model, the inputs, the CPU's
  // instruction set and the thread count alone (issue #25).
  bool reproducible = false;
  // How the memory plan places the block's buffers (offsets.h): true, the
  // two greedy placements and a hill climb, the smallest block kept; false,
  // the greedy placements alone: the same buffers, lifetimes and in-place
  // sharing, a block as large or larger, made in a fraction of the time (a
  // plan is made before the first run and again once it recorded its kernel
  // scratch). The numeric check's runs, one Executor per candidate model of a
  // mixed-precision search, take false: their outputs are the same bytes.
  // PASSLAB_QUICK_PLANS=0: every plan tight (to compare the two).
  bool tightMemoryPlan = true;
};

struct RunResult {
  std::vector<std::string> outputNames;
  std::vector<ir::Tensor> outputs;   // tensor outputs; an undefined Tensor for other kinds
  std::vector<Value> values;         // every output as a runtime value (sequences, maps, ...)
  std::vector<NodeProfile> profile;  // when RunOptions::profile
  uint64_t peakArenaBytes = 0;       // most intermediate memory live at once
  memory::RunMemoryUse memory;       // whether the run was on a memory plan, and how
  double totalMicros = 0;
  DeviceRunSummary device;  // runs on a device backend (Backend::makeRunner)
};

using NamedInputs = std::vector<std::pair<std::string, Value>>;

// A model input the caller feeds (initializers listed as inputs are optional).
struct InputInfo {
  std::string name;
  ir::Type type;
  bool optional = false;  // has an initializer to fall back on
};

class Executor {
 public:
  static Expected<std::unique_ptr<Executor>> create(const ir::Model& model,
                                                    const ExecutorOptions& options = {});
  ~Executor();

  Expected<RunResult> run(const NamedInputs& inputs, const RunOptions& options = {});

  const std::vector<InputInfo>& inputs() const { return inputs_; }
  const std::vector<std::string>& outputNames() const { return outputNames_; }
  const Backend& backend() const { return *backend_; }
  const ir::Model& model() const { return model_; }
  // The main graph as prepared for running (steps, slots, lifetimes).
  const CompiledGraph& compiled() const { return *plan_; }
  // The plans its subgraph bodies ran on (memory/body_plans.h).
  const memory::BodyPlans& bodyPlans() const { return *bodies_; }
  // The main graph's memory plan the next run takes its block from.
  const memory::ExecutionMemory& executionMemory() const { return *memory_; }
  // What create() repaired in its copy of the model (legacy_repairs.h).
  const std::vector<std::string>& repairs() const { return repairs_; }

 private:
  Executor() = default;
  Status bindInputs(const NamedInputs& inputs, std::vector<Value>& slots) const;
  // A run of a backend that runs graphs itself (Backend::makeRunner).
  Expected<RunResult> runOnRunner(std::vector<Value> slots, bool initializersOverridden,
                                  const RunOptions& options,
                                  std::chrono::steady_clock::time_point start);
  // The caller gives a value for an initializer listed as a graph input.
  bool overridesInitializers(const NamedInputs& inputs) const;

  ir::Model model_;  // a private copy (weights shared)
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<Compiler> compiler_;
  std::unique_ptr<CompiledGraph> plan_;
  std::unique_ptr<GraphRunner> runner_;  // null: the interpreter runs plan_ on the host
  Arena arena_;
  std::unique_ptr<memory::ExecutionMemory> memory_;
  std::unique_ptr<memory::BodyPlans> bodies_;
  std::unique_ptr<KeptValues> kept_;
  std::unique_ptr<OutputBuffers> outputs_;  // graph outputs written in place
  bool stepTrials_ = true;                  // ExecutorOptions::stepTrials
  bool reproducible_ = false;               // ExecutorOptions::reproducible
  std::vector<InputInfo> inputs_;
  std::vector<std::string> outputNames_;
  std::vector<std::string> repairs_;
  std::mutex runMutex_;
};

}  // namespace passlab::exec
