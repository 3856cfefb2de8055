// What the Memory dock draws for one model: the executor's memory plan of its
// main graph (core/exec/memory/memory_plan.h) made from the value types after
// shape inference, with each step's node and each planned tensor's producer
// and readers as node ids of that model, so a band can select them. Plain
// C++ (no Qt): computed on a worker thread.
//
// When a tensor's size is known only at run time, the plan is made from one
// run on synthesized inputs (as `passlab-cli run --memory-report` does with
// its inputs), and the timeline says so: which tensor needed the run and
// which inputs it ran on. If that run fails, the timeline names the tensor
// and the run's error instead of planning.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/memory/memory_plan.h"
#include "core/ir/model.h"
#include "core/support/text.h"

namespace passlab::ui {

// One step of the execution order: the node it runs.
struct MemoryStep {
  ir::NodeId node = 0;
  std::string name;  // the node's name, or its description when unnamed
  std::string opType;
};

// One planned buffer as the chart draws it: a tensor of the block or inside
// an output's buffer (`tensor`: into MemoryPlan::tensors; a step's kernel
// scratch too), or a graph output outside the block (`outside`: into
// MemoryPlan::outside, `tensor` -1).
struct MemoryBand {
  int tensor = -1;
  int outside = -1;
  ir::NodeId producer = 0;
  std::vector<ir::NodeId> readers;  // main-graph nodes that take it as an input
};

struct MemoryTimeline {
  enum class State {
    kPlanned,       // plan, steps and bands are set
    kSizesUnknown,  // unknownTensor's size is known only at run time and the run failed: error
    kFailed,        // the model cannot be compiled: error
    kCancelled,     // a newer request came first
  };
  State state = State::kFailed;
  exec::memory::MemoryPlan plan;
  std::vector<MemoryStep> steps;
  // One per plan.tensors entry, in its order, then one per plan.outside entry.
  std::vector<MemoryBand> bands;
  // The first tensor whose size is known only at run time (empty: none).
  std::string unknownTensor, unknownProducer;
  // Planned from the value sizes of one run on these synthesized inputs
  // ("x float[1,4]: dim 0 = 1 (...)"), because of unknownTensor.
  bool plannedFromRun = false;
  // The inputs of that run, or of the run that gives the kernel scratch
  // where the sizes are known ahead (planned with the tensors, as the report
  // plans its last run's).
  std::vector<Text> runInputs;
  // Sizes known ahead, why that run failed (its scratch is not planned);
  // empty when it ran.
  Text scratchRunError;
  Text error;

  // The planned tensor `b` draws.
  const exec::memory::PlannedTensor& tensorOf(const MemoryBand& b) const {
    return b.outside >= 0 ? plan.outside[static_cast<size_t>(b.outside)]
                          : plan.tensors[static_cast<size_t>(b.tensor)];
  }
};

// Infers the shapes of a copy of `model`, compiles it for the executor and
// plans its memory, from a run when a size is known only at run time, with
// the options of `passlab-cli run --memory-report` (memoryPlanOptions): graph
// outputs the executor writes where the caller gets them outside the block,
// tensors placed inside their buffers, and each step's kernel scratch of one
// run on synthesized inputs (sizes known ahead too: that run is then only
// for the scratch, and where it fails the plan has none).
// `cancel` (may be null) is checked between those stages and stops the run.
MemoryTimeline memoryTimelineOf(const ir::Model& model, const std::atomic<bool>* cancel = nullptr);

// The options the dock plans with: app/cli/cmd_run.cpp's checkedPlan's for a
// run without a memory limit (PlanOptions::withDirectOutputs), `scratch` the
// per-step kernel scratch of a run (null: none).
exec::memory::PlanOptions memoryPlanOptions(const std::vector<uint64_t>* scratch = nullptr);

}  // namespace passlab::ui
