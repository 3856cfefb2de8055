// replace_div_by_constant — division by a constant becomes multiplication by its reciprocal.
//
// Before:  y = Div(x, c)          (c a float constant)
// After:   y = Mul(x, 1/c)        (1/c computed in float64, rounded once to c's type)
// Algebra: x / c = x * (1/c) in real arithmetic. In floating point x/c rounds
// once and x * fl(1/c) rounds twice, so the result can differ in the last bit
// (changesNumerics) — except when every element of c is a power of two: then
// 1/c is exact and both compute the exactly scaled x rounded once, bit for
// bit. A multiply is several times cheaper than a divide on every CPU.
// Option exact_only (default true): only constants whose every element is a
// power of two (so the default pipeline stays exact); false: any constant
// with no zero, infinite or NaN element and whose reciprocal is finite.
// Conditions: c is a constant of a float type (integer division truncates and
// is never replaced); the reciprocal of each element is finite in c's type.
// Opsets: 1-28 (Div and Mul broadcast alike from opset 7; before that the
// legacy broadcast/axis attributes are copied to the Mul).
#include <cmath>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

fusion::Rules rules() {
  fusion::Rules r;
  // x / c -> x * (1/c)   (c a float constant; by default only powers of two)
  fusion::addRule(
      r, "div_by_constant", "x / c -> x * (1/c)", {"Div"}, [](ir::Node& n, const MatchContext& c) {
        bool exactOnly = c.boolOption("exact_only", true);
        auto t = rewrite::constantValue(n.input(1));
        if (!t) return MatchResult::failure("the divisor is not constant");
        auto vals = fusion::floatValues(*t);
        if (!vals)
          return MatchResult::failure(
              "the divisor is not a float constant (integer "
              "division truncates)");
        std::vector<double> inv(vals->size());
        for (size_t i = 0; i < vals->size(); ++i) {
          double v = (*vals)[i];
          if (v == 0 || !std::isfinite(v))
            return MatchResult::failure("the divisor holds 0, inf or NaN");
          if (exactOnly && !fusion::isPowerOfTwo(v))
            return MatchResult::failure(
                Text::of("the divisor %1 is not a power of two, so x * (1/c) may differ in the "
                         "last bit (option exact_only=false allows it)",
                         std::to_string(v)));
          inv[i] = 1.0 / v;
        }
        ir::Tensor rt = fusion::floatTensorLike(*t, inv);
        auto back = fusion::floatValues(rt);
        for (size_t i = 0; i < inv.size(); ++i)
          if (!std::isfinite((*back)[i]) || (*back)[i] == 0)
            return MatchResult::failure(
                Text::of("the reciprocal of %1 is not finite and nonzero in %2",
                         std::to_string((*vals)[i]), std::string(ir::dtypeName(t->dtype()))));
        return MatchResult::success({&n}, [&n, rt](rewrite::Rewriter& rw) {
          ir::Value* rc =
              addConstant(rw, *n.owner(), &n, n.input(1)->name() + "_reciprocal", rt, {&n});
          ir::Node* m =
              fusion::addDerived(rw, "Mul", {n.input(0), rc}, &n, {&n}, &n, {n.output(0)});
          fusion::replaceAndErase(rw, n.output(0), m->output(0), {&n});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeReplaceDivByConstant() {
  return std::make_unique<PatternPass>(catalogInfo("replace_div_by_constant"), rules());
}

}  // namespace passlab::passes
