// fuse_gelu — the erf and tanh GELU subgraphs become one Gelu.
//
// Before (erf):   y = x * 0.5 * (1 + Erf(x / sqrt(2)))      (x / 1.4142135 or x * 0.70710678)
// After:          y = Gelu(x)
// Before (tanh):  y = x * 0.5 * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
//                 (x^3 as Pow(x, 3), Mul(x, Mul(x, x)) or Mul(Mul(x, x), x))
// After:          y = Gelu(x, approximate = "tanh")
// Algebra: Gelu(x) = x * Phi(x) = 0.5 * x * (1 + erf(x / sqrt(2))); the tanh
// form is Gelu's own approximate = "tanh" definition. The product of x, the
// (1 + ...) factor and 0.5 is matched in any association: (x * p) * 0.5,
// (x * 0.5) * p, x * (p * 0.5). The kernel evaluates the same formula, so
// results agree within rounding (changesNumerics). Constants match within a
// relative 1e-4.
// Conditions: opset >= 20 (Gelu); every intermediate is read only inside the
// pattern (not a graph output, not read in a subgraph); x is a float type;
// the result has x's shape (no constant of higher rank widens it).
// Opsets: 20-28.
#include <cmath>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"

namespace passlab::passes {

namespace {

using rewrite::MatchContext;
using rewrite::MatchResult;

using fusion::defaultOp;
using fusion::onlyConsumer;

// 1 + v: the Add node consuming v with a constant 1.
ir::Node* plusOne(ir::Value* v) {
  ir::Node* a = defaultOp(onlyConsumer(v), "Add");
  if (!a || !fusion::isScalarNear(fusion::otherOperand(*a, v), 1.0)) return nullptr;
  return a;
}

MatchResult finish(const MatchContext& c, ir::Value* x, std::vector<ir::Node*> nodes,
                   ir::Node* last, bool tanh) {
  if (std::string why = fusion::whyNotClosed(nodes, last); !why.empty())
    return MatchResult::failure(why);
  if (!fusion::isFloatType(elemTypeOf(x))) return MatchResult::failure("x is not a float tensor");
  // A constant of higher rank than x (0.5 as [1, 1]) broadcasts the result to a
  // larger shape than Gelu(x) has.
  if (!rewrite::sameTensorType(x, last->output(0)))
    return MatchResult::failure(
        "the result does not have x's type and shape (a constant "
        "broadcasts it, or a shape is unknown)");
  return MatchResult::success(nodes, [x, nodes, last, tanh](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    ir::Node* g = fusion::addDerived(rw, "Gelu", {x}, last, from, nullptr, {last->output(0)});
    if (tanh) rw.setAttr(g, ir::Attribute::makeString("approximate", "tanh"));
    fusion::replaceAndErase(rw, last->output(0), g->output(0), nodes);
  });
}

// Rooted at Erf(x / sqrt(2)).
MatchResult erfForm(ir::Node& erf, const MatchContext& c) {
  if (std::string why = fusion::whyNotOpset(c, 20, 28, "Gelu"); !why.empty())
    return MatchResult::failure(why);
  ir::Node* scale = erf.input(0) ? erf.input(0)->producer() : nullptr;
  ir::Value* x = nullptr;
  if (defaultOp(scale, "Div") && fusion::isScalarNear(scale->input(1), std::sqrt(2.0)))
    x = scale->input(0);
  else if (defaultOp(scale, "Mul")) {
    for (size_t i = 0; i < 2 && !x; ++i)
      if (fusion::isScalarNear(scale->input(1 - i), 1.0 / std::sqrt(2.0))) x = scale->input(i);
  }
  if (!x) return MatchResult::failure("the Erf input is not x / sqrt(2)");
  ir::Node* p = plusOne(erf.output(0));
  if (!p) return MatchResult::failure("the Erf result is not the operand of an Add of 1");
  std::vector<ir::Node*> nodes{scale, &erf, p};
  ir::Node* last = fusion::geluHalfProduct(p->output(0), x, nodes);
  if (!last) return MatchResult::failure("1 + Erf(...) is not multiplied by x and 0.5");
  return finish(c, x, nodes, last, false);
}

// x^3 as Pow(x, 3) or two Muls: the nodes, or empty.
std::vector<ir::Node*> cubeOf(ir::Value* v, ir::Value*& x) {
  ir::Node* n = v ? v->producer() : nullptr;
  if (defaultOp(n, "Pow") && fusion::isScalarNear(n->input(1), 3.0)) {
    x = n->input(0);
    return {n};
  }
  if (!defaultOp(n, "Mul")) return {};
  for (size_t i = 0; i < 2; ++i) {
    ir::Node* sq = producerOp(n->input(i), "Mul");
    if (sq && sq->input(0) == sq->input(1) && sq->input(0) == n->input(1 - i)) {
      x = sq->input(0);
      return {sq, n};
    }
  }
  return {};
}

// Rooted at Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)).
MatchResult tanhForm(ir::Node& tanh, const MatchContext& c) {
  if (std::string why = fusion::whyNotOpset(c, 20, 28, "Gelu"); !why.empty())
    return MatchResult::failure(why);
  ir::Node* u = producerOp(tanh.input(0), "Mul");
  ir::Value* s = nullptr;
  if (u)
    for (size_t i = 0; i < 2 && !s; ++i)
      if (fusion::isScalarNear(u->input(1 - i), std::sqrt(2.0 / M_PI))) s = u->input(i);
  if (!s) return MatchResult::failure("the Tanh input is not sqrt(2/pi) * (...)");
  ir::Node* add = producerOp(s, "Add");
  if (!add) return MatchResult::failure("sqrt(2/pi) multiplies no Add");
  for (size_t i = 0; i < 2; ++i) {
    ir::Value* x = add->input(i);
    ir::Node* k = producerOp(add->input(1 - i), "Mul");
    if (!k) continue;
    for (size_t j = 0; j < 2; ++j) {
      if (!fusion::isScalarNear(k->input(1 - j), 0.044715)) continue;
      ir::Value* cx = nullptr;
      std::vector<ir::Node*> cube = cubeOf(k->input(j), cx);
      if (cube.empty() || cx != x) continue;
      ir::Node* p = plusOne(tanh.output(0));
      if (!p) return MatchResult::failure("the Tanh result is not the operand of an Add of 1");
      std::vector<ir::Node*> nodes = cube;
      nodes.insert(nodes.end(), {k, add, u, &tanh, p});
      ir::Node* last = fusion::geluHalfProduct(p->output(0), x, nodes);
      if (!last) return MatchResult::failure("1 + Tanh(...) is not multiplied by x and 0.5");
      return finish(c, x, nodes, last, true);
    }
  }
  return MatchResult::failure("the Add is not x + 0.044715 * x^3");
}

fusion::Rules rules() {
  fusion::Rules r;
  // x * 0.5 * (1 + Erf(x / sqrt(2))) -> Gelu(x)
  fusion::addRule(r, "gelu_erf", "x * 0.5 * (1 + Erf(x / sqrt(2))) -> Gelu(x)", {"Erf"}, erfForm);
  // x * 0.5 * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 x^3))) -> Gelu(x, approximate="tanh")
  fusion::addRule(r, "gelu_tanh",
                  "x * 0.5 * (1 + Tanh(sqrt(2/pi) (x + 0.044715 x^3))) -> Gelu(x, tanh)", {"Tanh"},
                  tanhForm);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseGelu() {
  PassInfo info{"fuse_gelu",
                Category::kStructural,
                "fusion: into one standard op",
                "Fuse the erf and tanh GELU subgraphs into Gelu (approximate = \"tanh\" for the "
                "tanh form)",
                "将 erf 与 tanh 形式的 GELU 子图融合为 Gelu（tanh 形式使用 approximate=\"tanh\"）",
                {},
                20,
                28,
                true};
  return std::make_unique<PatternPass>(std::move(info), rules());
}

}  // namespace passlab::passes
