// Helpers patterns use to inspect the graph without changing it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/model.h"
#include "core/support/text.h"

namespace passlab::rewrite {

// The constant data of a value: an initializer that is not also a graph input
// (those can be overridden at run time), or the output of a Constant node.
std::optional<ir::Tensor> constantValue(const ir::Value* v);
bool isConstant(const ir::Value* v);
// True when `v` is constant and every element equals `x` (any numeric dtype).
bool isConstantFilledWith(const ir::Value* v, double x);

// ---- Who reads a value: the one consumer API ----
//
// The uses of `v` ordered by consumer node id, then input index. Use lists are
// sets (a detach swaps the last use in), so a pass that builds something from
// several consumers, or names the first offender, takes them in this order to
// give the same result whatever the edit history.
std::vector<ir::Use> usesInNodeOrder(const ir::Value* v);
// "" when `v` feeds exactly one node input in its own graph and nothing else
// (no graph output, no second consumer, no read inside a subgraph); else the
// reason, for explanations: "'t' has 2 consumers".
Text whyNotSoleConsumer(const ir::Value* v);
// That one consumer (see whyNotSoleConsumer), or nullptr with the reason in
// `why` when asked for.
ir::Node* soleConsumer(const ir::Value* v, Text* why = nullptr);
// The node of `v`'s only use, ignoring readers that are default-domain
// `ignoredOp` nodes (e.g. "Shape"), whether or not `v` is also a graph output
// or that node lies in a subgraph: for matchers that walk a chain first and
// check the whole pattern with whyNotClosed afterwards. nullptr when there is
// no such use or more than one.
ir::Node* onlyReader(const ir::Value* v, std::string_view ignoredOp = {});
// "" when `v` is not a graph output and every node reading it is one of
// `nodes`; else the reason.
Text whyNotReadOnlyBy(const ir::Value* v, const std::vector<ir::Node*>& nodes);
// "" when the outputs of `nodes` other than `last`'s are read only by
// `nodes` themselves (not a graph output, not inside a subgraph); else the
// reason, naming the first offender: "'t' has a consumer outside the pattern
// (Add 'a')".
Text whyNotClosed(const std::vector<ir::Node*>& nodes, const ir::Node* last);
// "Add 'a'": a node's qualified op type and name, for reasons.
std::string nodeText(const ir::Node& n);

// Static dims of a tensor value, if known.
std::optional<std::vector<int64_t>> staticDims(const ir::Value* v);
// True if broadcasting `other` against `x` leaves `x`'s shape unchanged.
bool broadcastKeepsShape(const ir::Value* x, const ir::Value* other);
// True if both types are known tensors with equal element type and equal shapes (symbolic dims
// compared by name).
bool sameTensorType(const ir::Value* a, const ir::Value* b);

// An integer list given as an attribute (older opsets) or as a constant input
// (newer): Squeeze/Unsqueeze axes, Reduce* axes, Split sizes. nullopt if it is
// neither present nor constant; an empty vector when it is absent.
std::optional<std::vector<int64_t>> intsFromAttrOrInput(const ir::Node& n, const char* attr,
                                                        size_t inputIndex);

// Opset of the default domain in the model that owns `n`.
int64_t defaultOpset(const ir::Model& model);

}  // namespace passlab::rewrite
