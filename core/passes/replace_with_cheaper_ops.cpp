// replace_with_cheaper_ops — ops written the expensive way, replaced by the op that means it.
//
// Before:  y = Pow(x, 2);  z = Sub(0, x);  r = Clip(x, 0, +inf);  w = Where(Not(c), a, b)
// After:   y = Mul(x, x);  z = Neg(x);     r = Relu(x);          w = Where(c, b, a)
// Rules (one row each, the rule as its comment). Conditions common to all:
// the constant operand is a scalar (one element) whose broadcast keeps x's
// shape, and the replaced node's result is what its consumers read.
// Exactness: Pow(x, 2) and x*x round once, the same way; Pow(x, 0.5) and Sqrt
// are both correctly rounded (they differ only at -0, where Sqrt keeps the
// sign, and -inf, where Sqrt gives NaN and Pow +inf); 0 - x and -x differ only
// in the sign of a zero; Clip(x, 0) and Max(x, 0) are Relu(x) (NaN stays NaN
// in the CPU kernels of all three); Where swaps its branches exactly.
// Opsets: 1-28. Clip bounds are attributes before 11 (the default max there is
// FLT_MAX, not +inf: +inf would become FLT_MAX, so only an explicit +inf
// max fuses) and inputs from 11 (an omitted max is no bound). Relu takes
// integer types from opset 14 only, Neg signed ones from 6.
#include <cmath>
#include <limits>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

// "" when `c` is a constant scalar equal to `v` that broadcasts to x's shape.
Text whyNotScalar(const ir::Value* x, const ir::Value* c, double v) {
  auto s = fusion::scalarValue(c);
  if (!s) return "the operand is not a constant scalar";
  if (*s != v) return Text::of("the constant is %1, not %2", std::to_string(*s), std::to_string(v));
  if (!rewrite::broadcastKeepsShape(x, c)) return "the constant's broadcast widens x";
  return "";
}

// Relu takes float types, and integer types from opset 14. 16-bit floats
// stay as they are: ONNX allows them, but ONNX Runtime's CPU provider has no
// float16 or bfloat16 Relu, so the rewrite would save nothing and make a file
// it cannot run (docs/differential-testing.md).
Text whyNotReluType(const ir::Value* x, int64_t opset) {
  ir::DataType t = elemTypeOf(x);
  if (t == ir::DataType::kFloat16 || t == ir::DataType::kBFloat16)
    return Text::of("ONNX Runtime's CPU provider has no %1 Relu", std::string(ir::dtypeName(t)));
  if (fusion::isFloatType(t)) return "";
  if (opset >= 14 && ir::isSignedInteger(t) && t != ir::DataType::kInt4 && t != ir::DataType::kInt2)
    return "";
  return Text::of("Relu does not take %1 at opset %2", typeText(x), std::to_string(opset));
}

// Replaces `n` by a new `op` over `inputs`.
MatchResult replaceBy(ir::Node& n, const std::string& op, std::vector<ir::Value*> inputs) {
  if (Text why = fusion::whyExtraOutputsUsed(n); !why.empty()) return MatchResult::failure(why);
  return MatchResult::success({&n}, [&n, op, inputs](rewrite::Rewriter& rw) {
    ir::Node* r = fusion::addDerived(rw, op, inputs, &n, {&n}, nullptr, {n.output(0)});
    fusion::replaceAndErase(rw, n.output(0), r->output(0), {&n});
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Pow(x, 2) -> Mul(x, x)
  fusion::addRule(r, "pow_two", "Pow(x, 2) -> x * x", {"Pow"},
                  [](ir::Node& n, const MatchContext&) {
                    if (Text why = whyNotScalar(n.input(0), n.input(1), 2.0); !why.empty())
                      return MatchResult::failure(why);
                    if (elemTypeOf(n.output(0)) != elemTypeOf(n.input(0)))
                      return MatchResult::failure("the result type is not x's");
                    return replaceBy(n, "Mul", {n.input(0), n.input(0)});
                  });
  // Pow(x, 0.5) -> Sqrt(x)
  fusion::addRule(r, "pow_half", "Pow(x, 0.5) -> Sqrt(x)", {"Pow"},
                  [](ir::Node& n, const MatchContext&) {
                    if (Text why = whyNotScalar(n.input(0), n.input(1), 0.5); !why.empty())
                      return MatchResult::failure(why);
                    if (!fusion::isFloatType(elemTypeOf(n.input(0))))
                      return MatchResult::failure("x is not a float tensor");
                    return replaceBy(n, "Sqrt", {n.input(0)});
                  });
  // Sub(0, x) -> Neg(x)
  fusion::addRule(
      r, "sub_from_zero", "0 - x -> Neg(x)", {"Sub"}, [](ir::Node& n, const MatchContext& c) {
        if (Text why = whyNotScalar(n.input(1), n.input(0), 0.0); !why.empty())
          return MatchResult::failure(why);
        ir::DataType t = elemTypeOf(n.input(1));
        if (!fusion::isFloatType(t) &&
            !(ir::isSignedInteger(t) && c.opset >= 6 && ir::dtypeBits(t) >= 8))
          return MatchResult::failure(Text::of("Neg does not take %1", typeText(n.input(1))));
        return replaceBy(n, "Neg", {n.input(1)});
      });
  // Clip(x, 0, +inf) -> Relu(x)   (no max from opset 11, or max = +inf)
  fusion::addRule(
      r, "clip_to_relu", "Clip(x, 0, +inf) -> Relu(x)", {"Clip"},
      [](ir::Node& n, const MatchContext& c) {
        double lo, hi;
        if (c.opset < 11) {
          if (!n.hasAttr("min")) return MatchResult::failure("Clip has no min");
          lo = n.attrFloat("min", 0);
          if (!n.hasAttr("max"))
            return MatchResult::failure("Clip's default max before opset 11 is FLT_MAX, not +inf");
          hi = n.attrFloat("max", 0);
        } else {
          auto l = fusion::scalarValue(n.input(1));
          if (!l) return MatchResult::failure("Clip min is absent or not a constant scalar");
          lo = *l;
          hi = std::numeric_limits<double>::infinity();
          if (n.input(2)) {
            auto h = fusion::scalarValue(n.input(2));
            if (!h) return MatchResult::failure("Clip max is not a constant scalar");
            hi = *h;
          }
        }
        if (lo != 0) return MatchResult::failure("Clip min is not 0");
        if (!std::isinf(hi) || hi < 0) return MatchResult::failure("Clip has a finite max");
        if (Text why = whyNotReluType(n.input(0), c.opset); !why.empty())
          return MatchResult::failure(why);
        return replaceBy(n, "Relu", {n.input(0)});
      });
  // Max(x, 0) -> Relu(x)
  fusion::addRule(r, "max_zero_to_relu", "Max(x, 0) -> Relu(x)", {"Max"},
                  [](ir::Node& n, const MatchContext& c) {
                    if (n.inputCount() != 2) return MatchResult::failure("Max has not 2 inputs");
                    for (size_t i = 0; i < 2; ++i) {
                      if (whyNotScalar(n.input(1 - i), n.input(i), 0.0).empty()) {
                        if (Text why = whyNotReluType(n.input(1 - i), c.opset); !why.empty())
                          return MatchResult::failure(why);
                        return replaceBy(n, "Relu", {n.input(1 - i)});
                      }
                    }
                    return MatchResult::failure("no operand is a constant scalar 0");
                  });
  // Where(Not(c), a, b) -> Where(c, b, a)
  fusion::addRule(r, "where_not", "Where(Not(c), a, b) -> Where(c, b, a)", {"Where"},
                  [](ir::Node& n, const MatchContext&) {
                    ir::Node* no = producerOp(n.input(0), "Not");
                    if (!no) return MatchResult::failure("the condition is not produced by a Not");
                    if (Text why = rewrite::whyNotSoleConsumer(n.input(0)); !why.empty())
                      return MatchResult::failure(Text::of("Not output %1", why));
                    return MatchResult::success({&n, no}, [&n, no](rewrite::Rewriter& rw) {
                      ir::Node* w =
                          fusion::addDerived(rw, "Where", {no->input(0), n.input(2), n.input(1)},
                                             &n, {no, &n}, nullptr, {n.output(0)});
                      fusion::replaceAndErase(rw, n.output(0), w->output(0), {&n, no});
                    });
                  });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeReplaceWithCheaperOps() {
  return std::make_unique<PatternPass>(catalogInfo("replace_with_cheaper_ops"), rules());
}

}  // namespace passlab::passes
