// Graph outputs written where the caller gets them. A main-graph step whose
// output is a graph output (listed once among the graph's outputs and written
// by a step: not a graph input, an initializer, nor a value of a subgraph)
// allocates that tensor from the executor's result memory instead of the
// run's planned block or Arena, and the run hands that buffer to the caller's
// ir::Tensor instead of copying it out (Executor::run). A buffer the caller
// has released is reused by a later run (pages already touched, not fresh
// ones the system zero-fills on first write); one the caller still holds is
// never written again, so results of earlier runs stay as they were.
//
// A graph output that is a view (view_ops.h, a chain of them) of a value a
// step writes which is no graph output itself (gpt2's logits, a Reshape of a
// MatMul's output) is handed over in its base's buffer: the step writing the
// base writes a result buffer, which the later readers of the base read as
// any other tensor (nothing writes over it: the plan takes no result buffer
// in place). Two outputs viewing one base: the first gets the buffer, the
// second a copy.
//
// Only a tensor exactly as allocate() gave it for the slot or its base (all
// the buffer's bytes) is handed over, and once; anything else is copied as
// before: a kernel that returns another value (an input, a view of an input
// or an initializer, a kept value, a value of a subgraph), the same value
// listed twice as an output. A step the plan runs
// in place writes the result buffer instead of its input's place in the
// block. Steps kept across runs (kept_values.h) and subgraph bodies are not
// involved.
// PASSLAB_DIRECT_OUTPUTS=0 turns it off (every output copied out of the run's
// memory, the way it was before); runs with a memory limit copy too, so the
// limit counts every output as it did.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/exec/arena.h"
#include "core/exec/compiled_graph.h"
#include "core/exec/tensor.h"
#include "core/ir/tensor.h"

namespace passlab::exec {

// Per main-graph slot of `plan`, whether a step writing it writes a result
// buffer when the outputs are written directly: a graph output listed once
// that a step writes (not a graph input, an initializer, a constant), or the
// base of graph outputs that view it (written by a step, no graph output).
// The executor's memory plan leaves exactly these out of its block
// (memory/memory_plan.h, PlanOptions::outputsOutside).
std::vector<bool> directOutputSlots(const CompiledGraph& plan);

class OutputBuffers {
 public:
  // For the main graph `plan` (its slots that may be written in place).
  explicit OutputBuffers(const CompiledGraph& plan);

  // At the start of a run: `on` false (or PASSLAB_DIRECT_OUTPUTS=0) writes no
  // output in place on this run.
  void beginRun(bool on);
  // Whether a tensor of `dtype` that a step writes to main-graph slot `slot`
  // goes to a result buffer on this run (never strings).
  bool writes(int32_t slot, ir::DataType dtype) const;
  // A tensor of `dtype` and `dims` in a result buffer for `slot` (writes()
  // true); its bytes are not initialized. The buffer reserve() took for the
  // slot when it has exactly these bytes.
  Expected<Tensor> allocate(int32_t slot, ir::DataType dtype, Dims dims);
  // A result buffer of `bytes` for `slot`, taken at the start of the run,
  // before its step (the memory plan places tensors that die before that
  // step in it: PlannedTensor::region); null when outputs are not written
  // directly on this run, the slot has none, or the memory is not there.
  std::shared_ptr<Storage> reserve(int32_t slot, uint64_t bytes);
  // Graph output `t`, the value of `slot`, as the caller's tensor: the buffer
  // allocate() gave for `slot` (or for the base `slot` views) when `t` is
  // exactly that buffer's tensor and it was not handed over yet, else a copy.
  ir::Tensor take(int32_t slot, const Tensor& t);
  // After the run: buffers not handed over go back for reuse.
  void endRun();
  // Outputs handed over without a copy on this run.
  int handedOver() const { return handedOver_; }

  // Whether PASSLAB_DIRECT_OUTPUTS=0 turns it off.
  static bool turnedOff();

 private:
  struct Given {
    std::shared_ptr<Storage> storage;
    size_t bytes = 0;
    bool reserved = false;  // taken by reserve(), not yet given by allocate()
  };
  // Hands over the buffer allocate() gave for `slot` when `t` is all of it.
  std::optional<ir::Tensor> handOver(int32_t slot, const Tensor& t);

  std::vector<bool> eligible_;   // per slot
  std::vector<int32_t> viewOf_;  // per output slot: the base it views, or -1
  bool on_ = false;
  std::vector<Given> given_;  // per slot, on this run
  int handedOver_ = 0;
  Arena memory_;  // no limit: the results live outside the run's memory
};

}  // namespace passlab::exec
