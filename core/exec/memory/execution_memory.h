// Which memory plan an Executor's runs use. A graph whose tensor sizes all
// follow from its value types is planned before its first run ("ahead").
// Otherwise, at the first run with given input types and dims, shape
// inference on a copy of the model with those inputs sizes the tensors and
// the plan is made before running ("from the input shapes", input_sizes.h);
// where inference leaves a size open, that run allocates from the Arena and
// records the bytes of every value it writes, and the plan made from them
// serves the later runs ("from a run's sizes"). A run with other input shapes
// plans again. A plan the checker (plan_check.h) refuses is not run on.
// Tensors whose size differs from the plan's on a run (data-dependent shapes)
// fall back to the Arena (planned_block.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/memory/memory_plan.h"
#include "core/exec/memory/planned_block.h"
#include "core/ir/model.h"

namespace passlab::exec::memory {

enum class PlanSource : uint8_t {
  kNone,         // the run allocated from the Arena alone (see RunMemoryUse::note)
  kAhead,        // sizes from the value types
  kInputShapes,  // sizes inferred for the run's input shapes, before it ran
  kRunTime,      // sizes recorded by an earlier run with the same input shapes
};

// What the subgraph bodies (If / Loop / Scan) of one run did with their
// plans (body_plans.h).
struct BodyRunCounts {
  int onPlan = 0;   // activations run on a body's block
  int inArena = 0;  // activations on the Arena (recording sizes, or not plannable)
  int blocks = 0;   // blocks taken from the Arena (the other activations reused one)
  BlockCounts counts;
};

// How one run used memory.
struct RunMemoryUse {
  PlanSource source = PlanSource::kNone;
  // Why the run was not on a plan ("turned off", "recording sizes...").
  std::string note;
  uint64_t blockBytes = 0;  // the plan's block
  int inPlace = 0;          // steps the plan runs in place
  BlockCounts counts;
  // Outputs of constant-only steps the executor holds across runs (outside
  // the block; kept_values.h), and the bytes freed from them so far because
  // every reader holds its own packed copy (KernelContext::holdsOwnCopy).
  uint64_t keptBytes = 0;
  uint64_t keptFreedBytes = 0;
  // The most kept bytes held at once so far (the first run's peak: a
  // constant-only step runs just before its first reader,
  // constant_steps_order.h, so one original weight is held at a time).
  uint64_t keptPeakBytes = 0;
  BodyRunCounts bodies;
  // Graph outputs the caller got in the buffer their step wrote, without a
  // copy (output_buffers.h).
  int outputsHandedOver = 0;
  // Per main-graph step, the kernel scratch it asked for on this run
  // (KernelContext::scratch; each request rounded up to 64 bytes, summed);
  // empty when the run did not record it (a device runner). Constant-only
  // steps computed for keeping and subgraph bodies' steps are not counted.
  std::vector<uint64_t> scratchBytes;
  // The scratch the plan this run ran on holds (0: none planned yet: the
  // first run records it and the next runs' plan holds it).
  uint64_t plannedScratchBytes = 0;
};

class ExecutionMemory {
 public:
  // `tight`: the plans place buffers with the hill climb too (the smallest
  // block); false: the greedy placements alone (ExecutorOptions::tightMemoryPlan).
  explicit ExecutionMemory(bool enabled, bool tight = true) : enabled_(enabled), tight_(tight) {}

  using Inputs = std::vector<std::pair<std::string, Value>>;
  // The layout a run with `inputs` runs on, or null; fills `use`.
  // `outputsOutside`: whether the run writes graph outputs where the caller
  // gets them, so they stay out of the block (PlanOptions::outputsOutside); a
  // run that copies them instead plans again with them in it.
  // `recordBytes()` then says whether this run should record its values' bytes.
  const BlockLayout* prepare(const ir::Model& model, const CompiledGraph& graph,
                             const Inputs& inputs, bool outputsOutside, RunMemoryUse& use);
  bool recordBytes() const { return stage_ == Stage::kRecording; }
  // The plan the next run takes its block from, or none.
  const std::optional<MemoryPlan>& plan() const { return plan_; }
  // After a successful run that recorded `bytes` (per main-graph slot):
  // plans from them for the next runs with the same input shapes.
  void recorded(const CompiledGraph& graph, const std::vector<uint64_t>& bytes);
  // After a successful run that asked for `scratch` (per main-graph step,
  // RunMemoryUse::scratchBytes): where a step asked for more than the plan
  // holds, plans again with each step's most so far as a buffer live at that
  // step, for the next runs (the same sizes as the plan in use).
  void scratchRecorded(const CompiledGraph& graph, const std::vector<uint64_t>& scratch);

 private:
  enum class Stage : uint8_t { kFresh, kRecording, kPlanned, kFailed };
  bool adopt(Expected<MemoryPlan> plan, const CompiledGraph& graph, PlanSource source);
  const BlockLayout* use(RunMemoryUse& use) const;

  PlanOptions options() const;

  bool enabled_;
  bool tight_;
  bool outputsOutside_ = true;  // what the plans so far were made for
  bool aheadTried_ = false;
  std::string signature_;  // input shapes the stage is for
  Stage stage_ = Stage::kFresh;
  PlanSource source_ = PlanSource::kNone;
  std::optional<MemoryPlan> plan_;
  std::unique_ptr<BlockLayout> layout_;
  std::string failure_;            // why the last plan was not usable
  std::vector<uint64_t> scratch_;  // per step, the most scratch a run asked for
  // Plans again with the same sizes as the plan in use (for new scratch).
  std::function<Expected<MemoryPlan>()> replan_;
};

}  // namespace passlab::exec::memory
