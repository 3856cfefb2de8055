// The dims of a graph's tensors for given input shapes, and a memory plan that
// uses them where the graph's own value types leave dims open: a Concat's
// inputs are written inside its output (memory_plan.h, concat part) only
// where the dims before its axis are known to be 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/memory/memory_plan.h"
#include "core/exec/value.h"
#include "core/ir/model.h"

namespace passlab::exec::memory {

// Per main-graph slot, the static dims of the tensor written there, or none.
using SlotDims = std::vector<std::optional<std::vector<int64_t>>>;

struct InputShapes {
  std::vector<uint64_t> bytes;  // as sizesForInputs (input_sizes.h)
  SlotDims dims;
};

// Shape inference on a copy of `model` with `inputs` bound (input_sizes.h).
InputShapes shapesForInputs(const ir::Model& model, const CompiledGraph& graph,
                            const std::vector<std::pair<std::string, Value>>& inputs);

// planMemory, with `dims` for the slots whose value types give no static dims.
Expected<MemoryPlan> planMemory(const CompiledGraph& graph,
                                const std::vector<uint64_t>* observedBytes,
                                const PlanOptions& options, const SlotDims* dims);

}  // namespace passlab::exec::memory
