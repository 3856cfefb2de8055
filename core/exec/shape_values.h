// Outputs of the main graph's steps that depend only on the shapes of the
// run's values (issue #26): Shape -> Gather -> Unsqueeze -> Concat chains
// feeding Reshapes, as in exported transformers. They are computed on a run
// and reused by the next runs whose shapes are the same; the steps making
// them do not run (their profile rows name kShapeKernel, 0 µs).
//
// Two kinds of steps, found once per executor (main graph only; subgraph
// bodies run every time):
//   probe       a Shape or Size whose input is computed from data (a graph
//               input or any value of the run). It runs on every run; its
//               output is compared with the last run's: the first that
//               differs makes the rest of the run "stale".
//   shape-only  a deterministic step without subgraphs, not a kept constant
//               step (kept_values.h), whose inputs are each a probe's output,
//               another shape-only step's output, or invariant (initializers,
//               kept values), at least one not invariant; not a graph output.
// On a run that is not stale a shape-only step with a value kept binds it
// instead of running. Its inputs all come from probes that ran earlier in
// the run (producers first) and matched, so the value is the one the step
// would compute. On a stale run every shape-only step runs and its outputs
// replace the kept ones. A run that fails, and a run that overrides an
// initializer (shape-only steps may read kUnlessOverridden values), leave
// nothing trusted: the next run is stale from its first step.
//
// Memory: only tensors of at most kMaxElements elements each are kept
// (copied off the planned block and the Arena); a step with a larger output
// runs on every run. One value per step: the last signature's (shapes A, B,
// A recompute on each change).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/value.h"

namespace passlab::exec {

// The kernel name a reused shape-only step is profiled under.
inline constexpr std::string_view kShapeKernel = "shape-only (kept for these input shapes)";

class ShapeValues {
 public:
  // Elements a kept tensor may have (shape tensors have a few).
  static constexpr int64_t kMaxElements = 4096;

  // PASSLAB_SHAPE_VALUES=0 in the environment: classify() finds nothing,
  // every step runs (for A/B timings).
  static bool turnedOff();
  // Finds the probe and shape-only steps of `plan`, the main graph. Until it
  // is called every step runs.
  void classify(const CompiledGraph& plan);
  // At the start of a run; `trusted` false (a run that overrides an
  // initializer): every step runs, and the next run is stale.
  void beginRun(bool trusted);
  // After a run that succeeded: what it kept is trusted by the next.
  void endRun() { trusted_ = enabled_; }
  // The outputs to bind instead of running step `index`, or null: it runs.
  const std::vector<Value>* reuse(size_t index) const;
  // After step `index` ran and its outputs are in `slots`.
  void ran(const Step& step, size_t index, const std::vector<Value>& slots);

  size_t probeCount() const;
  size_t shapeOnlyCount() const;

 private:
  enum class Role : uint8_t { kNone, kProbe, kShapeOnly };
  std::vector<Role> roles_;
  std::vector<std::optional<std::vector<Value>>> values_;
  bool enabled_ = false;  // this run may reuse and keep
  bool trusted_ = false;  // the last run succeeded with values kept
  bool stale_ = true;     // this run recomputes from here on
};

}  // namespace passlab::exec
