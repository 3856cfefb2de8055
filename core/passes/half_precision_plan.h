// Which nodes of a float32 model can compute in a 16-bit float type (float16
// or bfloat16), and which of their inputs and outputs change type
// (convert_to_float16 / convert_to_bfloat16).
//
// The rule is the op's schema: an input or output that is float32 and bound to
// a type parameter that allows the 16-bit type changes with it; one of fixed
// type ("tensor(float)": Resize's scales, ...) stays. A node converts when
// every float32 value bound to a type parameter may change, and at least one
// does. So Range (no float16 in its schema), DequantizeLinear before opset 19
// and shape arithmetic (integers) stay without a list. Besides the schema:
//   - ops whose float result is set by an attribute convert only where the
//     pass patches it: Cast (`to`), ConstantOfShape and Constant (`value`),
//     EyeLike (`dtype`); others with such attributes (RandomNormal, ...) stay;
//   - random ops, and the ops of the default block list, stay;
//   - nodes with subgraphs stay, as do producers of values a subgraph reads
//     or returns (the bodies are planned on their own: planHalfPrecision
//     with the body, whose inputs, outputs and outer reads stay float32);
//   - the user's op and node block lists.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/ir/model.h"
#include "core/rewrite/driver.h"
#include "core/support/text.h"

namespace passlab::passes {

struct HalfPrecisionOptions {
  ir::DataType target = ir::DataType::kFloat16;
  std::unordered_set<std::string> blockedOps;    // op types (any domain)
  std::unordered_set<std::string> blockedNodes;  // node names
  const rewrite::NodeFilter* filter = nullptr;   // the step's node filter (ids)
  bool enterSubgraphs = false;  // the bodies are converted too (the explain note says so)
};

// Whether the bodies of `n` (a node with subgraphs) are converted: the
// option is on, and `n` is in neither block list nor excluded by the filter
// (a filter that allows only some nodes, such as a recipe's or a
// sensitivity trial's, is applied to the nodes inside the bodies).
bool entersSubgraphs(const ir::Node& n, const HalfPrecisionOptions& options);

// The ops that stay float32 unless the user unblocks nothing: results too
// sensitive or not defined in 16 bits (random draws, detection post-processing).
const std::vector<std::string>& defaultHalfPrecisionBlockList();

struct NodeConversion {
  std::vector<bool> inputs, outputs;  // per slot: the value becomes 16-bit
};

struct HalfPrecisionPlan {
  std::unordered_map<const ir::Node*, NodeConversion> converted;
  // Nodes with float32 values that stay float32, and why (the explain log).
  std::vector<std::pair<const ir::Node*, Text>> kept;
  // Of the kept nodes, the inputs that take either type: bound to a type
  // parameter of their own that allows the 16-bit type (Shape's data,
  // ArgMax's), so a 16-bit value is read as it is, without a Cast.
  std::unordered_map<const ir::Node*, std::vector<bool>> eitherType;
};

// The plan for the main graph of `model` (subgraphs are not visited).
HalfPrecisionPlan planHalfPrecision(const ir::Model& model, const HalfPrecisionOptions& options);
// The plan for the nodes of `graph` (the main graph or a body in `model`),
// its nested subgraphs not visited.
HalfPrecisionPlan planHalfPrecision(const ir::Model& model, const ir::Graph& graph,
                                    const HalfPrecisionOptions& options);

}  // namespace passlab::passes
