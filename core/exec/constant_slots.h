// The main graph's slots kept between an executor's runs, its initializers
// bound once. Binding every constant afresh on each run copied each Value
// (its dims on the heap, a reference count) and built and destroyed a Value
// per slot: on a small model with many initializers (an INT8 model: a scale
// and a zero point per tensor) that was a few microseconds per run.
//
// A run takes the slots (constants bound, every other slot empty) and gives
// them back when it ends, however it ends: the slots that are not constants
// are emptied (the run's tensors go as before), and the initializers the run
// overrode (graph inputs with an initializer) are bound again. A constant
// the run released (kept_values.h) stays released: the run updated its slot.
#pragma once

#include <cstdint>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/value.h"

namespace passlab::exec {

class ConstantSlots {
 public:
  // The slots for a run of `plan` (the main graph; the same plan on every
  // call): its constants bound, every other slot empty.
  std::vector<Value> take(const CompiledGraph& plan);
  // After the run: empties the slots that are not constants and, when the
  // run overrode initializers (`overridden`), binds the overridable ones
  // again; keeps the slots for the next run.
  void giveBack(const CompiledGraph& plan, std::vector<Value> slots, bool overridden);

 private:
  void build(const CompiledGraph& plan);

  std::vector<Value> slots_;
  bool built_ = false;
  std::vector<int32_t> others_;  // slots that are not constants
  // Constants that are graph inputs (a caller may override them): slot, and
  // index in CompiledGraph::constants.
  std::vector<std::pair<int32_t, size_t>> overridable_;
};

}  // namespace passlab::exec
