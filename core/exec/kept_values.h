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
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/value.h"

namespace passlab::exec {

// The kernel name a reused step is profiled under (0 µs: it did not run).
inline constexpr std::string_view kKeptKernel = "kept (computed once per executor)";

// Whether `step`'s outputs can be computed once and kept: outputs all
// invariant, and it writes at least one.
bool keepsOutputs(const Step& step);

class KeptValues {
 public:
  explicit KeptValues(size_t stepCount) : values_(stepCount) {}

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

 private:
  std::vector<std::optional<std::vector<Value>>> values_;
  uint64_t bytes_ = 0;
};

}  // namespace passlab::exec
