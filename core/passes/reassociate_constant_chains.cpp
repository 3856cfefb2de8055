// reassociate_constant_chains — two Muls (or two Adds) by constants in a row become one.
//
// Before:  t = Mul(x, c1); y = Mul(t, c2)        t = Add(x, c1); y = Add(t, c2)
// After:   y = Mul(x, c1 * c2)                   y = Add(x, c1 + c2)
// (c1 * c2 evaluated once, at optimization time, in the constants' type.)
// Exporters leave such chains where a scale is applied in two steps (box
// decoding: x * variance * prior; x * 0.5 after a Div by 2 became a Mul).
// (x * c1) * c2 and x * (c1 * c2) differ by rounding (changesNumerics), and
// by more where the original's intermediate overflows or cancels (float16
// (x * 256) * (1/256), float32 (x + 1e8) - 1e8): there the folded form is the
// more accurate one. The broadcast result shape is the same (broadcasting is
// associative).
// Conditions: both constants (either operand of each op) of the same float
// type; t read only by the second op (not a graph output, not in a
// subgraph); the folded constant has no more elements than the larger of c1
// and c2 (no growth: [N,1] with [1,M] is not folded); an evaluator is
// available (the pipeline supplies the executor). Opsets: 7-28 (numpy
// broadcasting of Mul and Add).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

MatchResult reassociate(ir::Node& outer, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 7, 28, "reassociate_constant_chains"); !why.empty())
    return MatchResult::failure(why);
  const std::string& op = outer.opType();
  // The outer op: one operand produced by the same op, the other constant.
  ir::Node* inner = nullptr;
  size_t innerSide = 0;
  std::optional<ir::Tensor> c2;
  for (size_t k = 0; k < 2 && !inner; ++k)
    if (ir::Node* p = producerOp(outer.input(k), op))
      if ((c2 = rewrite::constantValue(outer.input(1 - k)))) {
        inner = p;
        innerSide = k;
      }
  if (!inner)
    return MatchResult::failure(Text::of("no operand is a %1 by a constant beside a constant", op));
  size_t c1Side = 1;
  auto c1 = rewrite::constantValue(inner->input(1));
  if (!c1) {
    c1Side = 0;
    c1 = rewrite::constantValue(inner->input(0));
  }
  if (!c1) return MatchResult::failure(Text::of("the inner %1 has no constant operand", op));
  ir::Value* x = inner->input(1 - c1Side);
  if (Text why = rewrite::whyNotSoleConsumer(outer.input(innerSide)); !why.empty())
    return MatchResult::failure(Text::of("the inner %1's result %2", op, why));
  if (c1->dtype() != c2->dtype() || !fusion::isFloatType(c1->dtype()))
    return MatchResult::failure("the constants are not of one float type");
  if (!c.evaluator) return MatchResult::failure("no evaluator to fold the constants");
  auto folded = c.evaluator->evaluate(outer, {&*c1, &*c2}, c.opset);
  if (!folded || folded->size() != 1)
    return MatchResult::failure("the constants could not be folded");
  ir::Tensor t = std::move(folded->front());
  if (t.numel() > std::max(c1->numel(), c2->numel()))
    return MatchResult::failure(
        Text::of("the folded constant would have %1 elements, more than either operand",
                 std::to_string(t.numel())));
  return MatchResult::success({&outer, inner}, [&outer, inner, x, t, op](rewrite::Rewriter& rw) {
    ir::Value* k =
        addConstant(rw, *outer.owner(), inner, op == "Mul" ? "scale" : "shift", t, {inner, &outer});
    ir::Node* fused =
        fusion::addDerived(rw, op, {x, k}, inner, {inner, &outer}, nullptr, {outer.output(0)});
    fusion::replaceAndErase(rw, outer.output(0), fused->output(0), {&outer, inner});
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // (x * c1) * c2 -> x * (c1 * c2)
  fusion::addRule(r, "mul_chain", "(x * c1) * c2 -> x * (c1 * c2), c1 and c2 constant", {"Mul"},
                  reassociate);
  // (x + c1) + c2 -> x + (c1 + c2)
  fusion::addRule(r, "add_chain", "(x + c1) + c2 -> x + (c1 + c2), c1 and c2 constant", {"Add"},
                  reassociate);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeReassociateConstantChains() {
  return std::make_unique<PatternPass>(catalogInfo("reassociate_constant_chains"), rules());
}

}  // namespace passlab::passes
