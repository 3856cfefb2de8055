// Per-node timing of a run: wall time, bytes read and written, the kernel used.
// Nodes inside subgraphs (Loop bodies, If branches) get their own entries,
// summed over calls, with the nesting depth; their time is also inside their
// parent node's time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/node.h"

namespace passlab::exec {

// How the threads a step ran on were chosen (issue #26): on a run of one
// thread every step has one; on more, the cost model (step_threads.h), the
// step trials (step_trials.h: decided, or still timing both ways in this run),
// or PASSLAB_SMALL_STEP_MICROS fixing the cost model's limit (no trials).
enum class ThreadChoice : uint8_t { kUnknown, kOneThreadRun, kCostModel, kTrial, kTrying, kFixed };

// The stable name of `c` in JSON and CSV: "unknown", "one_thread_run",
// "cost_model", "trial", "trying", "fixed_by_env".
const char* threadChoiceName(ThreadChoice c);

struct StepThreadUse {
  // The threads the node ran on (1, or the run's threads); 0: not known (it
  // ran no kernel, a kept or shape-only step, or its calls in a body ran on
  // different counts).
  int threads = 0;
  ThreadChoice choice = ThreadChoice::kUnknown;
  // A main-graph step the trials time: the fastest timed run on one thread
  // and split, in microseconds, of the trials that decided (or are deciding)
  // its way; negative: not timed that way yet.
  double trialOneMicros = -1.0, trialSplitMicros = -1.0;
};

struct NodeProfile {
  ir::NodeId nodeId = 0;
  std::string op;      // "Conv", "com.microsoft.Attention"
  std::string name;    // node name ("" when unnamed)
  std::string kernel;  // "onednn.Conv"
  int depth = 0;       // 0: main graph
  int64_t calls = 0;
  double micros = 0;
  uint64_t bytesRead = 0, bytesWritten = 0;
  StepThreadUse threadUse;
};

// Recording is a push onto a reserved vector: no strings, no map, no
// allocation per node in the timed path (at most one per kCompactEvery
// records); the entries with their strings are built by take(), after the run.
class Profiler {
 public:
  explicit Profiler(size_t expectedRecords = 0) { raw_.reserve(expectedRecords); }
  // `threads`: the threads the kernel ran on; 0: it ran none.
  void record(const ir::Node& node, std::string_view kernel, int depth, double micros,
              uint64_t bytesRead, uint64_t bytesWritten, int threads = 0) {
    raw_.push_back({&node, kernel, depth, micros, bytesRead, bytesWritten, threads});
    if (raw_.size() >= kCompactEvery) compact();
  }
  // Entries in the order nodes first ran, one per node (calls summed).
  std::vector<NodeProfile> take();

 private:
  static constexpr size_t kCompactEvery = 1 << 16;  // bounds memory in long Loops
  struct Raw {
    const ir::Node* node;
    std::string_view kernel;  // a KernelDef's name: static storage
    int depth;
    double micros;
    uint64_t bytesRead, bytesWritten;
    int threads;
  };
  void compact();  // folds raw_ into entries_

  std::vector<Raw> raw_;
  std::vector<NodeProfile> entries_;
  std::unordered_map<const ir::Node*, size_t> index_;
};

}  // namespace passlab::exec
