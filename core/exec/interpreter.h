// Runs compiled graphs: a frame of slots per graph activation, one kernel call
// per step, values released after their last use, nested graphs for control
// flow. Also the KernelContext kernels see.
#pragma once

#include <absl/container/inlined_vector.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/exec/arena.h"
#include "core/exec/compiled_graph.h"
#include "core/exec/compiler.h"
#include "core/exec/kept_values.h"
#include "core/exec/kernel.h"
#include "core/exec/memory/body_plans.h"
#include "core/exec/memory/planned_block.h"
#include "core/exec/memory/scratch_record.h"
#include "core/exec/output_buffers.h"
#include "core/exec/profiler.h"

namespace passlab::exec {

struct RunState {
  Arena& arena;
  Compiler* compiler = nullptr;  // builds kernels met with a new element type
  int threads = 1;
  const std::atomic<bool>* cancel = nullptr;
  int64_t maxLoopIterations = 1'000'000;
  Profiler* profiler = nullptr;  // null: not profiling
  // The caller gave a value for an initializer listed as a graph input on this
  // run: Invariance::kUnlessOverridden inputs are not invariant on it.
  bool initializersOverridden = false;
  // The plans subgraph bodies run on (body_plans.h); null: bodies allocate
  // from the Arena.
  memory::BodyPlans* bodies = nullptr;
  // Outputs of the main graph's constant-only steps kept across the
  // executor's runs (reused, or computed and kept); null: every step runs.
  KeptValues* kept = nullptr;
  // Per main-graph step: whether it runs on one thread (its work is too small
  // to pay for waking the others, step_threads.h); null: every step uses
  // `threads`.
  const std::vector<bool>* singleThreadSteps = nullptr;
  // For the main-graph steps it tries, which way each runs in this run
  // (before singleThreadSteps), and which are timed (step_trials.h); null:
  // singleThreadSteps alone, untimed.
  StepTrials* trials = nullptr;
  // Which steps of subgraph bodies run on one thread (StepThreads::bodyStep);
  // null: every body step uses `threads`.
  StepThreads* bodyThreads = nullptr;
  // Where main-graph steps write the graph outputs (output_buffers.h); null:
  // in the block or the Arena like every other tensor.
  OutputBuffers* outputs = nullptr;
};

// One activation of a graph (the main graph, or a body's run).
struct Frame {
  std::vector<Value> slots;
  const Frame* parent = nullptr;
  // Where the tensors its steps write go: a block laid out by a memory plan
  // (null: the Arena); and, when set, the bytes each slot's value holds are
  // recorded there (per slot of this graph).
  memory::PlannedBlock* block = nullptr;
  std::vector<uint64_t>* valueBytes = nullptr;
  // When set: the kernel scratch each step asks for is recorded there (per
  // step of this graph; memory/scratch_record.h).
  memory::ScratchRecord* scratch = nullptr;
  const Value& at(SlotRef r) const {
    const Frame* f = this;
    for (uint32_t i = 0; i < r.depth; ++i) f = f->parent;
    return f->slots[static_cast<size_t>(r.index)];
  }
};

// A tensor for a kernel: arena memory (strings on the heap); checks the dims.
Expected<Tensor> allocateTensor(Arena& arena, ir::DataType dtype, Dims dims);

class NodeContext final : public KernelContext {
 public:
  // Inline for up to 2 outputs: no heap allocation per step.
  using Outputs = absl::InlinedVector<Value, 2>;

  // `step`: the step being run (for invariantInput), or nullptr.
  NodeContext(RunState& state, const Frame* frame, const std::vector<const Value*>& inputs,
              const std::vector<bool>& wanted, const Step* step = nullptr);
  // For `step` of a compiled graph: the outputs wanted are those with a slot.
  NodeContext(RunState& state, const Frame* frame, const std::vector<const Value*>& inputs,
              const Step& step);

  size_t inputCount() const override { return inputs_.size(); }
  const Value* value(size_t i) const override { return i < inputs_.size() ? inputs_[i] : nullptr; }
  bool invariantInput(size_t i) const override;
  void holdsOwnCopy(size_t i) override;
  size_t outputCount() const override { return outputs_.size(); }
  bool wantsOutput(size_t i) const override { return i < wanted_.size() && wanted_[i]; }
  Expected<Tensor*> allocate(size_t i, ir::DataType dtype, Dims dims) override;
  void setOutput(size_t i, Value v) override;
  Expected<Tensor> scratch(ir::DataType dtype, Dims dims) override;
  int threads() const override { return threads_; }
  bool cancelled() const override { return state_.cancel && state_.cancel->load(); }
  int64_t maxLoopIterations() const override { return state_.maxLoopIterations; }
  Expected<std::vector<Value>> runSubgraph(const CompiledGraph& graph,
                                           std::vector<Value> inputs) override;

  Outputs& outputs() { return outputs_; }
  bool produced(size_t i) const { return produced_[i]; }
  // Outputs are allocated in `block` where the plan places them, and scratch
  // in its gaps at step `stepIndex` (of the graph the block is for).
  void placeOutputsIn(memory::PlannedBlock* block, int32_t stepIndex) {
    block_ = block;
    stepIndex_ = stepIndex;
  }
  // Outputs that are graph outputs are allocated in `buffers` (a main-graph
  // step; output_buffers.h) before the block is asked.
  void writeGraphOutputsTo(OutputBuffers* buffers) { outputBuffers_ = buffers; }
  // Outputs are allocated on the heap, not from the Arena nor the block: they
  // are kept across runs (kept_values.h).
  void allocateOutputsOnHeap() { onHeap_ = true; }
  // The kernel may use `threads` threads (fewer than the run's).
  void limitThreads(int threads) { threads_ = threads; }
  // Whether output i is a tensor allocate() gave from the heap.
  bool allocatedOnHeap(size_t i) const { return i < heapOutput_.size() && heapOutput_[i]; }
  // Whether the kernel said it holds its own copy of invariant input i.
  bool holds(size_t i) const { return i < holds_.size() && holds_[i]; }

 private:
  RunState& state_;
  const Frame* frame_;
  const Step* step_;
  memory::PlannedBlock* block_ = nullptr;
  OutputBuffers* outputBuffers_ = nullptr;
  int32_t stepIndex_ = -1;
  int threads_;
  bool onHeap_ = false;
  // Inline for up to 8 inputs and outputs: no heap allocation per step.
  absl::InlinedVector<const Value*, 8> inputs_;
  absl::InlinedVector<bool, 8> wanted_;
  Outputs outputs_;
  absl::InlinedVector<bool, 8> produced_;
  absl::InlinedVector<bool, 8> heapOutput_;
  absl::InlinedVector<bool, 8> holds_;
  memory::BodyBlocks bodyBlocks_;  // the blocks of the bodies this kernel runs
};

// Runs the steps of `plan` in `frame` (inputs and constants already bound).
Status runGraph(const CompiledGraph& plan, Frame& frame, RunState& state);
// Runs a subgraph in a fresh frame whose parent is `parent`: on its plan's
// block from `blocks` when RunState::bodies plans it (body_plans.h), else on
// the Arena.
Expected<std::vector<Value>> runSubgraph(const CompiledGraph& plan, std::vector<Value> inputs,
                                         const Frame* parent, RunState& state,
                                         memory::BodyBlocks* blocks = nullptr);

}  // namespace passlab::exec
