// A run's input types on a model: what the memory plan (memory/input_sizes),
// the per-step thread decision (step_threads) and the profile's run shapes
// (pipeline/node_extract) infer shapes from.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/exec/value.h"
#include "core/ir/model.h"

namespace passlab::exec {

// The graph inputs of `model` take the element types and dims of `inputs`
// (tensors only; a name the graph does not have is skipped).
void bindInputTypes(ir::Model& model, const std::vector<std::pair<std::string, Value>>& inputs);

}  // namespace passlab::exec
