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
#include "core/passes/fusion_utils.h"
#include "core/passes/gelu_match.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

// The rewrite of a match (core/passes/gelu_match.h) into one Gelu.
MatchResult toGelu(std::optional<fusion::GeluMatch> m, const Text& why) {
  if (!m) return MatchResult::failure(why);
  return MatchResult::success(m->nodes, [m = *m](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from(m.nodes.begin(), m.nodes.end());
    ir::Node* g = fusion::addDerived(rw, "Gelu", {m.x}, m.last, from, nullptr, {m.last->output(0)});
    if (m.tanh) rw.setAttr(g, ir::Attribute::makeString("approximate", "tanh"));
    fusion::replaceAndErase(rw, m.last->output(0), g->output(0), m.nodes);
  });
}

// Rooted at Erf(x / sqrt(2)).
MatchResult erfForm(ir::Node& erf, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 20, 28, "Gelu"); !why.empty())
    return MatchResult::failure(why);
  Text why;
  auto m = fusion::matchGeluErf(erf, why);
  return toGelu(std::move(m), why);
}

// Rooted at Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)).
MatchResult tanhForm(ir::Node& tanh, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 20, 28, "Gelu"); !why.empty())
    return MatchResult::failure(why);
  Text why;
  auto m = fusion::matchGeluTanh(tanh, why);
  return toGelu(std::move(m), why);
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
  return std::make_unique<PatternPass>(catalogInfo("fuse_gelu"), rules());
}

}  // namespace passlab::passes
