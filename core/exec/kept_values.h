// Outputs of the main graph's constant-only steps, computed once per executor
// and reused by its later runs. A step is constant-only when its outputs are
// Invariance::kAlways, or kUnlessOverridden on a run where the caller
// overrides no initializer (a run that does computes such steps afresh and
// keeps nothing from them). Kept values have storage of their own (the
// kernel allocates them on the heap; a value it hands over from elsewhere is
// copied once, a view of the model's weights is kept as it is): never the
// run's planned block nor the Arena, so the memory plan does not reserve
// space for them and the Arena's limit and peak do not count them (like
// initializers).
//
// A kept value whose every reader holds its own copy of it (a kernel that
// packed it said KernelContext::holdsOwnCopy) or is itself a kept step that
// will not run again is freed after the run (releaseHeld): its data goes,
// Tensor::withoutData() (dtype and dims) is bound in its place. A graph output, a value a subgraph
// reads, a reader that did not say so, and a reader run afresh on runs that override initializers
// while the value is still bound from here, each keep it.
//
// The main graph's initializers that are not graph inputs (trackConstants)
// are released by the same rule: the executor's binding
// (CompiledGraph::constants) and its copy of the model's tensor give up the
// data, and keep dtype and dims. The memory goes only when the caller's model
// no longer shares it (`passlab-cli run` drops its copy once the executor is
// made); otherwise only the executor's references go. freedBytes() counts
// both kinds. Not the int64 initializers shape inference reads (a shape, axes:
// at most ShapeInferenceOptions::maxConstantElements): the executor infers
// shapes from its model again for new input shapes, as a fresh one would.
//
// Whether a value is still read changes only when a value is kept or a
// holder is noted (the generation): the checks after a step, and after a
// run, are made again only after such a change, so a run whose steps all
// checked before costs one comparison per step.
//
// It also holds the main graph's slots between runs, the initializers bound
// once (constant_slots.h).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/constant_slots.h"
#include "core/exec/shape_values.h"
#include "core/exec/value.h"

namespace passlab::exec {

// The kernel name a reused step is profiled under (0 µs: it did not run).
inline constexpr std::string_view kKeptKernel = "kept (computed once per executor)";

// Whether `step`'s outputs can be computed once and kept: outputs all
// invariant, and it writes at least one.
bool keepsOutputs(const Step& step);

class KeptValues {
 public:
  explicit KeptValues(size_t stepCount)
      : values_(stepCount), held_(stepCount), stepCheckedAt_(stepCount, kNever) {}

  // Whether a run (`overridden`: it overrides an initializer) may reuse or
  // keep the outputs of `step`.
  static bool applies(const Step& step, bool overridden);
  // The outputs kept for step `index` (one Value per output, None where
  // omitted), or null when not computed yet.
  const std::vector<Value>* find(size_t index) const;
  // Keeps `outputs` of step `index` and returns them for the run to bind.
  // Outputs marked in `own` (tensors the kernel allocated on the heap) and
  // read-only views of the model's data are kept as they are; anything else
  // is copied off the Arena and the block.
  const std::vector<Value>& keep(size_t index, std::vector<Value> outputs,
                                 const std::vector<bool>& own);
  // Values kept so far and the bytes they hold (views of the model's weights
  // included).
  size_t count() const;
  uint64_t bytes() const { return bytes_; }
  // The most bytes kept at once so far (on the first run, before readers
  // packed and freed them).
  uint64_t peakBytes() const { return peakBytes_; }

  // Kernel `k` of step `step` said it holds its own copy of input `input`.
  void noteHeld(size_t step, size_t input, const Kernel& k);
  // Before `k` runs at `step`: an error when an input was freed (releaseHeld)
  // and `k` is not the kernel that holds its copy (a kernel built later for
  // another element type), instead of a kernel reading freed data.
  Status checkFreedInputs(size_t step, const Kernel& k, const std::vector<const Value*>& ins) const;
  // After a run of `plan` (the main graph these values belong to): frees the
  // data of every kept value all of whose readers hold their own copy, and
  // releases the initializers no reader reads any more (in `slots`, the
  // run's, too, when given). Returns the bytes freed by this call.
  uint64_t releaseHeld(const CompiledGraph& plan, std::vector<Value>* slots = nullptr);
  // The same for the kept values and initializers step `step` reads, right
  // after it ran (in `slots`, the run's, too): on the first run a weight goes
  // as soon as its last reader packed it, so the peak does not hold every
  // weight twice.
  uint64_t releaseReadBy(const CompiledGraph& plan, size_t step, std::vector<Value>& slots);
  // Lets the initializers of `plan` (the main graph) be released as above:
  // `graph` is the executor's copy of the model's main graph, whose tensors
  // the plan's constants share their data with.
  void trackConstants(CompiledGraph& plan, ir::Graph& graph);
  // Values freed so far and the bytes they held.
  size_t freedCount() const { return freedCount_; }
  uint64_t freedBytes() const { return freedBytes_; }

  // The values kept for the last run's input shapes (shape_values.h).
  ShapeValues& shapes() { return shapes_; }
  const ShapeValues& shapes() const { return shapes_; }
  // The main graph's slots between runs (constant_slots.h).
  ConstantSlots& slots() { return slots_; }

 private:
  // Whether the value in `slot` (invariant as `made` says: its producer's
  // outputsInvariance, kAlways for an initializer) has no reader left that
  // reads its data.
  bool unread(const CompiledGraph& plan, Invariance made, int32_t slot) const;
  // Frees output `out` of kept step `producer` when nothing reads its data.
  uint64_t release(const CompiledGraph& plan, size_t producer, size_t out);
  // Releases initializer `k` of constants_ when nothing reads its data.
  uint64_t releaseConstant(const CompiledGraph& plan, size_t k, std::vector<Value>* slots);
  void findReaders(const CompiledGraph& plan);
  // The kernel noted as holding its own copy of input `input` of step
  // `step`, or null.
  const Kernel* heldBy(size_t step, size_t input) const;

  static constexpr uint64_t kNever = UINT64_MAX;

  std::vector<std::optional<std::vector<Value>>> values_;
  uint64_t bytes_ = 0;
  uint64_t peakBytes_ = 0;
  std::vector<std::vector<const Kernel*>> held_;  // per step, per input: the holder or null
  // Per slot of the main graph: the (step, input) pairs that read it; slots
  // a subgraph reads or the graph returns are in pinned_.
  std::vector<std::vector<std::pair<size_t, size_t>>> readers_;
  std::vector<bool> pinned_;
  std::vector<int32_t> producer_;  // per slot: the step that writes it, or -1
  size_t freedCount_ = 0;
  uint64_t freedBytes_ = 0;
  // Bumped when what unread() reads changes (a value kept, a holder noted);
  // per slot, the generation at which unread() last said it is still read:
  // asked again only after a change (every step asks it on every run).
  uint64_t generation_ = 0;
  std::vector<uint64_t> stillReadAt_;
  // Per step, and for releaseHeld: the generation its releases were last
  // decided at (after it every value it looks at is freed, or still read at
  // that generation): nothing to do again until the generation changes.
  std::vector<uint64_t> stepCheckedAt_;
  uint64_t runCheckedAt_ = kNever;
  // trackConstants: the plan's constants, and per constant the executor's
  // model tensor it shares data with (null: a graph input, never released).
  std::vector<std::pair<int32_t, Value>>* constants_ = nullptr;
  std::vector<ir::Tensor*> constantTensors_;
  std::vector<int32_t> constantOfSlot_;  // per slot: index in constants_, or -1
  ShapeValues shapes_;
  ConstantSlots slots_;
};

}  // namespace passlab::exec
