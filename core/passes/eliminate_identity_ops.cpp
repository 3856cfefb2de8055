// eliminate_identity_ops — redundancy kind 1: ops meaningless at inference.
//
// Before:  t = Identity(x); y = Relu(t)
// After:   y = Relu(x)
// Rules (one row each, the rule as its comment). Conditions common to all: the
// removed node's other outputs are unused, and if its output is a model output
// the replacement takes over that name (not possible when the replacement is a
// model input or constant: then the node stays, with that reason). An Identity
// that returns an outer-scope value from a subgraph stays (ONNX Runtime
// refuses that value returned directly).
#include <algorithm>

#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

using rewrite::RulePattern;

// The node returns, as an output of its subgraph, a value of an outer scope:
// ONNX Runtime refuses that value returned directly, so the node stays.
bool returnsOuterValue(const ir::Node& n) {
  const ir::Graph* g = n.owner();
  if (!g || !g->parentNode() || !n.output(0) || n.input(0)->owner() == g) return false;
  const auto& of = n.output(0)->outputOf();
  return std::find(of.begin(), of.end(), g) != of.end();
}

std::vector<std::unique_ptr<rewrite::Pattern>> rules() {
  std::vector<std::unique_ptr<rewrite::Pattern>> r;
  // Identity(x) -> x
  r.push_back(std::make_unique<RulePattern>(
      "identity", "Identity(x) -> x", std::vector<rewrite::OpKey>{{"", "Identity"}},
      [](ir::Node& n, const MatchContext&) {
        if (!n.input(0) || (!n.input(0)->type().isTensor() && !n.input(0)->type().isUndefined()))
          return MatchResult::failure("Identity of a sequence or optional is kept");
        if (returnsOuterValue(n))
          return MatchResult::failure(
              "it returns an outer-scope value from a subgraph (ONNX Runtime needs a node there)");
        return forwardInput(n);
      }));
  // Dropout(x) -> x at inference (no training_mode, or training_mode false; mask unused)
  r.push_back(std::make_unique<RulePattern>(
      "dropout", "Dropout(x) -> x (inference)", std::vector<rewrite::OpKey>{{"", "Dropout"}},
      [](ir::Node& n, const MatchContext&) {
        if (n.attrInt("is_test", 1) == 0)
          return MatchResult::failure("is_test = 0 marks a training-mode Dropout");
        if (ir::Value* mode = n.input(2)) {
          if (!rewrite::isConstantFilledWith(mode, 0.0))
            return MatchResult::failure("training_mode is not a constant false");
        }
        return forwardInput(n);
      }));
  // Cast(x, to = type of x) -> x
  r.push_back(std::make_unique<RulePattern>(
      "cast_to_same_type", "Cast(x: T, to=T) -> x", std::vector<rewrite::OpKey>{{"", "Cast"}},
      [](ir::Node& n, const MatchContext&) {
        ir::DataType from = elemTypeOf(n.input(0));
        if (from == ir::DataType::kUndefined)
          return MatchResult::failure("the input type is unknown");
        if (n.attrInt("to", 0) != static_cast<int64_t>(from))
          return MatchResult::failure(
              Text::of("casts %1 to another type", std::string(ir::dtypeName(from))));
        return forwardInput(n);
      }));
  // CastLike(x: T, like: T) -> x
  r.push_back(std::make_unique<RulePattern>(
      "castlike_to_same_type", "CastLike(x: T, t: T) -> x",
      std::vector<rewrite::OpKey>{{"", "CastLike"}}, [](ir::Node& n, const MatchContext&) {
        ir::DataType from = elemTypeOf(n.input(0));
        ir::DataType to = elemTypeOf(n.input(1));
        if (from == ir::DataType::kUndefined || to == ir::DataType::kUndefined)
          return MatchResult::failure("an input type is unknown");
        if (from != to) return MatchResult::failure("the types differ");
        return forwardInput(n);
      }));
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeEliminateIdentityOps() {
  return std::make_unique<PatternPass>(catalogInfo("eliminate_identity_ops"), rules());
}

}  // namespace passlab::passes
