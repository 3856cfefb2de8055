// The sizes of a graph's tensors for given input shapes: shape inference on a
// copy of the model whose graph inputs take the given types and dims. A
// memory plan for a model with symbolic dims can then be made before the
// first run with those shapes (execution_memory.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/value.h"
#include "core/ir/model.h"

namespace passlab::exec::memory {

// Per slot of `graph` (compiled from `model`'s main graph), the bytes of the
// tensor written there with `inputs` bound, or kUnknownBytes (memory_plan.h)
// where inference leaves the size open (a shape that depends on values).
std::vector<uint64_t> sizesForInputs(const ir::Model& model, const CompiledGraph& graph,
                                     const std::vector<std::pair<std::string, Value>>& inputs);

}  // namespace passlab::exec::memory
