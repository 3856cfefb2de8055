// Where the main graph's constant-only nodes run: just before their first
// reader, not where the model lists them. A constant-only node (its outputs
// are invariant: compiled_graph.h's Invariance) runs once per executor and
// its outputs are kept (kept_values.h); a kept weight is freed once every
// reader holds its own packed copy. Run up front (the onnx_light_* models make
// every weight with ConstantOfShape before the first Conv), every original
// weight is live at once on the first run; run late, one original weight is
// live beside the packed copies made so far.
#pragma once

#include <unordered_map>
#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/ir/graph.h"

namespace passlab::exec {

using InvariantValues = std::unordered_map<const ir::Value*, Invariance>;

// The values of `g` invariant before any node runs: its initializers
// (kUnlessOverridden for those that are also inputs of the main graph; in a
// subgraph those are bound by the node that runs it, so not invariant).
InvariantValues invariantInitializers(const ir::Graph& g, bool mainGraph);

// The invariance of `n`'s outputs given the values known invariant so far:
// the least invariant of its inputs; kNo for nodes with subgraphs and for
// nondeterministic ones (Random*, Multinomial, Bernoulli, Dropout).
Invariance outputInvariance(const ir::Node& n, const InvariantValues& invariant);

// `order` (producers first) with each constant-only node of the main graph
// `g` moved to just before the first node that reads it (directly, through a
// chain of constant-only nodes, or from a subgraph); constant-only nodes that
// nothing else reads (graph outputs, dead ones) go last. Other nodes keep
// their relative order, and the result still has producers first.
std::vector<const ir::Node*> constantNodesBeforeFirstReader(
    const std::vector<const ir::Node*>& order, const ir::Graph& g);

}  // namespace passlab::exec
