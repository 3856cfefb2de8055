// Standalone models cut out of a model, for timing one node (or one group of
// nodes) on its own: the values the group reads from outside become graph
// inputs with the concrete types of a run, its outputs that are read outside
// (or are graph outputs) become the graph outputs, weights stay initializers,
// everything else is dropped.
#pragma once

#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/ir/model.h"
#include "core/support/error.h"

namespace passlab::pipeline {

// A clone of `model` whose graph inputs carry the shapes of `inputs`, with
// shapes inferred from them (node ids are kept).
ir::Model withRunShapes(const ir::Model& model, const exec::NamedInputs& inputs);

// A clone of `m` whose every tensor value computed in the main graph is also
// a graph output; `order` (when given) receives the names of all node outputs
// in graph order.
ir::Model exposeAllValues(const ir::Model& m, std::vector<std::string>* order = nullptr);

// The main-graph nodes `nodes` of `shaped` (a model through withRunShapes) as
// a model of their own; its graph inputs carry the names of the values they
// stand for. An error names a node that is not in the main graph,
// or a value the group reads whose type is not known.
Expected<ir::Model> extractNodes(const ir::Model& shaped, const std::vector<ir::NodeId>& nodes);

}  // namespace passlab::pipeline
