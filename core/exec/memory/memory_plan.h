// A memory plan for one run of a compiled graph: every tensor a step of the
// main graph writes gets a lifetime [the step that writes it, the last step
// that reads it] (a value an If/Loop/Scan body reads from the outer scope
// lives until that node ends; graph outputs live until the run returns) and an
// offset in one arena, so that tensors live at the same time never share
// bytes.
//
// Sharing that is allowed:
//   view:     Reshape, Flatten, Squeeze, Unsqueeze, Identity and Dropout give a
//             view of their input (the executor copies nothing), so the output
//             is the same buffer and keeps it alive;
//   in place: an elementwise op (Relu, Add, Cast of the same width...) whose
//             output has its input's size takes the input's buffer when the
//             input's buffer dies at that step. Graph inputs, initializers and
//             graph outputs are never taken. A plan for the executor to run on
//             (PlanOptions::forExecution) takes an input's buffer only where
//             every kernel the step may run declares kInPlace.
//   concat part: a Concat whose inputs are contiguous ranges of its output
//             (every output dim before the axis is 1) has each input written
//             at its offset inside the Concat's output buffer; the Concat has
//             nothing to copy (TensorRT's concat elimination). That buffer is
//             a staircase: each byte range of it lives from the first step
//             writing a tensor over it to the last step reading one (a dense
//             block's layers each from their own step), not the whole buffer
//             from the first input's step. Only for an input this Concat reads
//             once, and last, whose whole buffer (the tensor a step wrote, its
//             views, what was written over it in place, the parts of it if it
//             is a Concat output: a dense block grows in one buffer) holds no
//             graph output nor what a node with subgraphs wrote, and dies at
//             the Concat. PASSLAB_CONCAT_PARTS=0: off.
// Offsets come from three strategies (offsets.h); the plan keeps the smallest.
// Graph outputs written outside the block (PlanOptions::outputsOutside): the
// buffers the executor writes where the caller gets them (output_buffers.h,
// directOutputSlots: a main-graph output listed once, and the base a view
// output views) are not in the block, nor are the views of them; the plan
// lists each in MemoryPlan::outside, and the peak and lower bound with them
// count it from its step to the end of the run. Runs that copy the outputs
// instead (a memory limit, PASSLAB_DIRECT_OUTPUTS=0) run on a plan with them
// inside.
// Tensors inside an output's buffer (PlanOptions::tensorsInOutputs): a result
// buffer is taken at the start of the run, so before its output's step its
// bytes are free; a block buffer whose every tensor dies before that step
// (last < the output's first) may be placed there instead of in the block
// (PlannedTensor::region), as in a second arena. Nothing is placed over an
// output once written, and nothing read at or after its step is placed in it.
// Kept only where it lowers the block's peak. PASSLAB_TENSORS_IN_OUTPUTS=0:
// off.
// If/Loop/Scan bodies are planned as graphs of their own (body_plans.h), not
// in this plan. Not planned: non-tensor values (sequences, maps), Constant outputs
// (they hold the model's data) and the outputs of constant-only steps, which
// the executor computes once and keeps (kept_values.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/support/error.h"

namespace passlab::exec::memory {

enum class Reuse : uint8_t {
  kNone,     // a buffer of its own
  kView,     // the buffer of `sharesWith` (a view of it)
  kInPlace,  // the buffer of `sharesWith`, which dies at `first`
  // bytes [partOffset, partOffset + size) of the buffer of `sharesWith`, the
  // (later) output of the Concat where it dies; the views of it and the
  // outputs written over it in place share its partOffset
  kConcatPart,
};

struct PlannedTensor {
  std::string name;
  std::string producer;  // the node that writes it
  int32_t slot = -1;     // in the main graph's frame
  uint64_t bytes = 0;    // what the tensor holds
  uint64_t size = 0;     // bytes rounded up to the arena's 64-byte alignment
  int32_t first = 0;     // step that writes it
  int32_t last = 0;      // last step that reads it; stepCount for graph outputs
  bool graphOutput = false;
  Reuse reuse = Reuse::kNone;
  int32_t sharesWith = -1;  // index into MemoryPlan::tensors
  uint64_t offset = 0;      // in the block, or in its region
  uint64_t partOffset = 0;  // in a Concat part's buffer: where it starts in the Concat's output
  // -1: in the block. k >= 0: inside the result buffer of MemoryPlan::outside[k]
  // (PlanOptions::tensorsInOutputs), `offset` from its start; dies before
  // that output's step.
  int32_t region = -1;
  // Kernel scratch of step `first` (= `last`; PlanOptions::scratchBytes): the
  // working memory the step's kernel asks for while it runs
  // (KernelContext::scratch), planned as a buffer live at that step only. No
  // slot (-1); `producer` names the step's node.
  bool scratch = false;
};

struct MemoryPlan {
  std::vector<PlannedTensor> tensors;
  int32_t stepCount = 0;
  std::vector<uint64_t> liveBytes;  // per step, of the buffers planned in the block
  uint64_t peak = 0;                // arena bytes the plan needs (the block)
  uint64_t lowerBound = 0;          // most bytes live at one step: no plan needs less
  int32_t peakStep = -1;            // a step where lowerBound bytes are live
  std::string peakNode;             // the node run at peakStep
  int32_t peakTensor = -1;          // the largest tensor live at peakStep
  std::string strategy;             // the strategy kept (the smallest peak)
  // Every strategy tried and its peak: greedy-by-size, greedy-by-breadth,
  // hill-climb (offsets.h; not tried with PlanOptions::hillClimbBudget 0).
  std::vector<std::pair<std::string, uint64_t>> strategyPeaks;
  bool plannedAtRunTime = false;  // sizes observed in a run, not known from the types
  int inPlaceCount = 0, viewCount = 0, concatPartCount = 0;
  int unplannedBodies = 0;  // steps with subgraphs (their bodies are not in this plan)
  // Graph outputs outside the block (PlanOptions::outputsOutside), each
  // live from its step to the end of the run (offset 0: not in the block).
  std::vector<PlannedTensor> outside;
  uint64_t outsideBytes = 0;  // their sizes (64-byte aligned), all together
  // Tensors placed inside those outputs' buffers (PlannedTensor::region >= 0),
  // and the buffers they make up (their sizes, all together).
  int inOutputsCount = 0;
  uint64_t inOutputsBytes = 0;
  std::vector<uint64_t> liveBytesInOutputs;  // per step, of the buffers placed there
  // The block's peak had nothing been placed inside the outputs (= peak
  // when nothing is).
  uint64_t peakWithoutRegions = 0;
  // The least block any placement needs beside the outside outputs, tensors
  // placed inside the outputs' buffers where they may go (memory_plan.cpp,
  // blockBoundBesideOutputs; 0 without outside outputs).
  uint64_t blockBoundBesideOutputs = 0;
  // What any placement of all of them needs, the block and the outputs: the
  // most bytes live at one step (the block's, the tensors' inside the outputs
  // and the outside outputs' together), or blockBoundBesideOutputs plus the
  // outputs, whichever is more.
  uint64_t lowerBoundWithOutside = 0;
  // Kernel scratch planned with the tensors (PlanOptions::scratchBytes): the
  // steps with scratch (one PlannedTensor each, `scratch` set), their bytes
  // together, and the most bytes live at one step without them. peak and
  // lowerBound above count the scratch; `peakWithoutScratch` is the peak of
  // the same tensors planned without it where a caller planned that too (0:
  // not planned).
  int scratchCount = 0;
  uint64_t scratchBytes = 0;
  uint64_t lowerBoundWithoutScratch = 0;
  uint64_t peakWithoutScratch = 0;
  double ratio() const {
    return lowerBound == 0 ? 1.0 : static_cast<double>(peak) / static_cast<double>(lowerBound);
  }
  // The block and the outputs outside it: what a run holds at its end.
  uint64_t peakWithOutside() const { return peak + outsideBytes; }
  double ratioWithOutside() const {
    return lowerBoundWithOutside == 0 ? 1.0
                                      : static_cast<double>(peakWithOutside()) /
                                            static_cast<double>(lowerBoundWithOutside);
  }
};

// Whether every tensor of the main graph has a size known before running
// (a static shape and a fixed-width element type).
bool sizesKnownAhead(const CompiledGraph& graph);

// The first tensor of the main graph (in execution order) whose size is not
// known before running, and the node that writes it; both null when none.
struct SizeUnknownAhead {
  const ir::Value* value = nullptr;
  const ir::Node* producer = nullptr;
};
SizeUnknownAhead firstSizeUnknownAhead(const CompiledGraph& graph);

struct PlanOptions {
  // In place only where every kernel row the step may run has kInPlace (what
  // the executor can do); otherwise for every elementwise op (what could be
  // saved).
  bool declaredInPlaceOnly = false;
  // Work the hill climb may spend (offsets.h); 0: no hill climb, the greedy
  // placements alone (with no work to spend it would place the buffers as
  // greedy-by-size does).
  uint64_t hillClimbBudget = 1'000'000'000;
  // The slots the plan may hold (empty: every tensor a step writes). A
  // device's plan holds only the values its device steps write
  // (cuda/device_memory.h); the others live elsewhere.
  std::vector<bool> heldSlots;
  // Whether an output may take an input's buffer at all (false: every kernel
  // writes a buffer of its own, as the CUDA kernels do).
  bool inPlace = true;
  // Whether Concat inputs may be written inside the Concat's output (with
  // declaredInPlaceOnly, where the Concat runs cpu.Concat, which skips an
  // input already at its place). Needs inPlace.
  bool concatParts = true;
  // Sizes from `observedBytes` where it gives them, before the value types
  // (a device plan is made from what a run wrote).
  bool observedFirst = false;
  // Whether a main-graph output the executor may write where the caller gets
  // it (listed once among the graph's outputs, its own buffer: not a view,
  // not written in place, no Concat parts in it) stays out of the block.
  bool outputsOutside = false;
  // With outputsOutside: whether block buffers that die before an outside
  // output's step may be placed inside that output's buffer (taken at the
  // start of the run), where that lowers the block's peak.
  bool tensorsInOutputs = false;
  // Per main-graph step, the bytes of kernel scratch it asks for while it
  // runs (RunMemoryUse::scratchBytes: each request rounded up to 64 bytes,
  // summed over the step); each nonzero entry is planned as a buffer live at
  // that step only. Null: no scratch planned.
  const std::vector<uint64_t>* scratchBytes = nullptr;

  // The plan the executor runs on: declared in-place kernels only, and a
  // hill climb bounded to about 0.1 s on the largest corpus graphs.
  static PlanOptions forExecution() {
    PlanOptions o;
    o.declaredInPlaceOnly = true;
    o.hillClimbBudget = 100'000'000;
    return o;
  }
  // `o` with outputsOutside (and tensorsInOutputs) set as an Executor's run
  // with `memoryLimitBytes` (0: none) writes graph outputs: directly, unless
  // the run has a limit (it copies them into the memory the limit counts) or
  // PASSLAB_DIRECT_OUTPUTS=0 (output_buffers.h).
  static PlanOptions withDirectOutputs(PlanOptions o, uint64_t memoryLimitBytes = 0);
};

// An entry of `observedBytes` that gives no size.
inline constexpr uint64_t kUnknownBytes = ~uint64_t{0};

// The plan of `graph`. `observedBytes` (per main-graph slot, from
// RunOptions::valueBytes or from the types inferred for given input shapes)
// gives the sizes the types do not; without it (or where it holds
// kUnknownBytes), a size that is not known ahead is an error naming the tensor.
Expected<MemoryPlan> planMemory(const CompiledGraph& graph,
                                const std::vector<uint64_t>* observedBytes = nullptr,
                                const PlanOptions& options = {});

// Ok when `plan` fits in `limitBytes` (0: no limit), the outputs outside the
// block counted; else a kLimit error naming the planned peak, the step where most bytes are live
// and the largest tensor live there.
Status checkMemoryLimit(const MemoryPlan& plan, uint64_t limitBytes);

}  // namespace passlab::exec::memory
