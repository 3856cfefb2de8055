// Building blocks shared by the rule tables of the elimination passes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/rewrite/match_utils.h"
#include "core/rewrite/pattern.h"

namespace passlab::passes {

// The matcher vocabulary of every rule table (core/rewrite/pattern.h).
using rewrite::MatchContext;
using rewrite::MatchResult;

// Matches when `node` can be removed by forwarding input `in` to output `out`
// (its other outputs unused): the apply step rewires every use of the output
// to the input and deletes the node.
rewrite::MatchResult forwardInput(ir::Node& node, size_t in = 0, size_t out = 0);

// forwardInput, and the apply step also drops the node's constant inputs
// (initializers, Constant nodes) that nobody reads any more, and producers
// in `consumed` that became dead (an inner node of a matched chain).
rewrite::MatchResult forwardValue(ir::Node& node, ir::Value* replacement, size_t out = 0,
                                  std::vector<ir::Node*> consumed = {});

// The element type of a tensor value, or kUndefined.
ir::DataType elemTypeOf(const ir::Value* v);

// Whether `n` is the default-domain op `op`.
bool isDefaultOp(const ir::Node& n, std::string_view op);
// The producer of `v` when it is the default-domain op `op`, else nullptr.
ir::Node* producerOp(const ir::Value* v, std::string_view op);
// The rank of a tensor value, if known.
std::optional<int64_t> rankOf(const ir::Value* v);
// "float[2,3]" or "unknown" for messages.
std::string typeText(const ir::Value* v);
// "[0, 2, 1]" for messages.
std::string intsText(const std::vector<int64_t>& v);

// Axes in [0, rank) (negative ones count from the end), in the given order.
// nullopt when one is out of range, repeated, or negative with an unknown rank.
std::optional<std::vector<int64_t>> normalizeAxes(const std::vector<int64_t>& axes,
                                                  std::optional<int64_t> rank);

// The constant integer list held by `v`, nullopt if it is not constant.
std::optional<std::vector<int64_t>> constantInts(const ir::Value* v);

// True when every value of type `from` converts to `to` and back exactly
// (int8 -> int32, float16 -> float, float -> double, bool -> anything numeric).
bool castIsExact(ir::DataType from, ir::DataType to);

// Adds a constant for `graph`: an initializer, or a Constant node before
// `before` when `asNode` is set or the model's IR version is below 4 (there
// every initializer must also be a graph input, i.e. overridable). Before
// opset 9 a Constant node holds only float16, float and double: another type
// becomes an initializer, the model raised to IR version 4 where needed.
ir::Value* addConstant(rewrite::Rewriter& rw, ir::Graph& graph, ir::Node* before,
                       const std::string& hint, ir::Tensor t,
                       const std::vector<const ir::Node*>& derivedFrom, bool asNode = false);
// Removes `v` when nobody reads it any more and it is an initializer (not a
// graph input) or the output of a Constant node.
void dropIfUnused(rewrite::Rewriter& rw, ir::Value* v);
// Removes `node` (its outputs must be unused), then its constant inputs that
// became unused.
void removeWithConstants(rewrite::Rewriter& rw, ir::Node* node);
// Sets an integer-list parameter that older opsets give as attribute `attr`
// and newer ones as input `inputIndex` (a new constant); the old constant goes
// if it became unused.
void setIntsParam(rewrite::Rewriter& rw, ir::Node* node, const char* attr, size_t inputIndex,
                  bool asInput, const std::vector<int64_t>& values);

// A copy of a non-graph attribute; nullopt for GRAPH/GRAPHS attributes.
std::optional<ir::Attribute> copyAttribute(const ir::Attribute& a);

// "" when `n` always computes the same outputs from the same inputs and has
// no subgraphs (so it may be merged or evaluated ahead of time); else why not.
Text whyNotPure(const ir::Node& n, const ir::Model& model);

}  // namespace passlab::passes
