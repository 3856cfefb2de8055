// A backend: where kernels run. The CPU backend is always there; the CUDA
// backend (core/exec/cuda/, built only when CUDA is found, linked into the
// programs by passlab_link_backends) registers itself here.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/exec/kernel_registry.h"
#include "core/exec/run_options.h"
#include "core/exec/value.h"
#include "core/support/error.h"

namespace passlab::ir {
class Model;
}

namespace passlab::exec {

class CompiledGraph;
class Compiler;
struct RunResult;

// Runs a compiled main graph somewhere other than host memory (a GPU): the
// backend's own kernels and memory, the CPU kernel of each step it has none
// for. Made once per Executor; runs are serialized by the Executor.
class GraphRunner {
 public:
  virtual ~GraphRunner() = default;
  // `slots`: the main graph's frame with constants and inputs bound (host
  // values); `initializersOverridden`: the caller gave a value for an
  // initializer listed as a graph input (Invariance::kUnlessOverridden values
  // are not invariant on this run). Fills outputs, profile and device summary
  // of `result` (names are set).
  virtual Status run(std::vector<Value> slots, bool initializersOverridden,
                     const RunOptions& options, RunResult& result) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // The kernels the executor's compiler selects per step. A backend with a
  // GraphRunner gives the CPU table here: its runner falls back to them.
  virtual const KernelRegistry& kernels() const = 0;
  // Threads a run uses when RunOptions::threads is 0.
  virtual int defaultThreads() const = 0;
  // Called on the running thread before each run.
  virtual void beginRun(int threads) = 0;
  // Whether makeRunner gives a runner: the executor then builds the CPU
  // kernels of kernels() only for the steps the runner sends to the CPU, on
  // their first use, not all ahead.
  virtual bool runsGraphs() const { return false; }
  // The runner for `plan` (a graph of `model`; `compiler` builds the CPU
  // kernels of fallback steps), or nullptr when the executor's interpreter
  // runs the steps on the host with kernels() (the CPU backend).
  virtual Expected<std::unique_ptr<GraphRunner>> makeRunner(const ir::Model& model,
                                                            const CompiledGraph& plan,
                                                            Compiler& compiler) {
    return std::unique_ptr<GraphRunner>();
  }
};

// "cpu", "cuda", "cuda:1" (a registered backend's name, optionally ":index").
Expected<std::unique_ptr<Backend>> makeBackend(std::string_view name);
// The backends this build has ("cpu", and "cuda" where built), whether or not
// a device is present.
std::vector<std::string> availableBackends();

// One device a backend can run on, as listed by `passlab-cli devices`.
struct DeviceDescription {
  std::string backend;  // "cuda"
  int index = 0;
  std::string name;     // "NVIDIA H100 80GB HBM3"
  std::string details;  // "compute 9.0, 79.1 GiB, driver 13.0"
};

// Where one step of a model would run on a device backend, planned on the host.
struct StepPlacement {
  std::string node;    // name, or description when unnamed
  std::string op;      // "Conv", "ai.passlab.FusedConv"
  std::string where;   // "device", "host", "cpu" (fallback), "run-time" (decided when it runs)
  std::string kernel;  // the device kernel ("cudnn.Conv") when on the device
  std::string reason;  // why not on the device
};

// A backend other than the CPU's, registered by its library at start-up.
struct BackendRegistration {
  std::string name;
  // Makes the backend for device `index`; an error says why it cannot run
  // (no driver, no device, index out of range).
  Expected<std::unique_ptr<Backend>> (*create)(int index) = nullptr;
  // The devices present, or an error saying why there are none.
  Expected<std::vector<DeviceDescription>> (*devices)() = nullptr;
  // Where the steps of a model would run, planned without a device (null: not offered).
  Expected<std::vector<StepPlacement>> (*plan)(const ir::Model& model) = nullptr;
};
void registerBackend(BackendRegistration registration);
// The placement plan of registered backend `name` ("cuda") for `model`.
Expected<std::vector<StepPlacement>> planPlacement(std::string_view name, const ir::Model& model);
// The devices of every registered backend; `notes` gets one line per backend
// that has none ("cuda: no CUDA driver (libcuda.so.1 not found)").
std::vector<DeviceDescription> listDevices(std::vector<std::string>* notes = nullptr);

}  // namespace passlab::exec
