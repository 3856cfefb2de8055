// fuse_hard_swish — HardSwish written out in elementwise ops becomes one HardSwish.
//
// Before (Clip):         y = x * Clip(x + 3, 0, 6) / 6
//                        (/ 6 or * 1/6; on the product or on the Clip)
// Before (HardSigmoid):  y = x * HardSigmoid(x, alpha = 1/6, beta = 0.5)
// After:                 y = HardSwish(x)
// Algebra: HardSwish(x) = x * max(0, min(1, x / 6 + 1/2)) = x * min(max(x + 3, 0), 6) / 6
// (Relu6(x + 3) is Clip(x + 3, 0, 6)). The HardSigmoid form is HardSwish's
// own definition; the Clip form rounds in another order, so the results
// agree within a few float32 ulps, not bit for bit (changesNumerics).
// Every product and the Add match in either operand order; the constants
// (3, 0, 6, 1/6; alpha 1/6, beta 0.5) within a relative 1e-6.
// Why: picodet and MobileNetV3 exports write HardSwish out as Add, Clip, Mul,
// Div. In a QDQ file ONNX Runtime runs those four between a
// DequantizeLinear and a QuantizeLinear in float (it has no lookup for the
// chain); as one HardSwish its per-node cost is two nodes' (issue #25).
// Conditions: opset >= 14 (HardSwish); x is float, double or float16; every
// intermediate is read only inside the pattern (not a graph output, not read
// in a subgraph); the constants are single values of rank at most x's (the
// result keeps x's shape).
// Opsets: 14-28.
#include <cmath>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

// The one other input of the binary `n` when `v` is one of its inputs.
ir::Value* otherInput(const ir::Node& n, const ir::Value* v) {
  if (n.inputCount() != 2) return nullptr;
  if (n.input(0) == v) return n.input(1);
  if (n.input(1) == v) return n.input(0);
  return nullptr;
}

// `c` is a single constant value within a relative 1e-6 of `want` (exactly 0
// for 0) whose rank does not widen `x`.
bool isScalar(const ir::Value* c, double want, const ir::Value* x) {
  auto t = rewrite::constantValue(c);
  if (!t || t->numel() != 1) return false;
  if (!t->dims().empty()) {
    auto r = rankOf(x);
    if (!r || *r < static_cast<int64_t>(t->dims().size())) return false;
  }
  auto v = fusion::scalarValue(c);
  if (!v) return false;
  return want == 0 ? *v == 0 : std::fabs(*v - want) <= 1e-6 * std::fabs(want);
}

// `n` is Div(v, 6) or Mul(v, 1/6) / Mul(1/6, v) for the input `v`.
bool isSixth(const ir::Node& n, const ir::Value* v, const ir::Value* x) {
  if (isDefaultOp(n, "Div"))
    return n.inputCount() == 2 && n.input(0) == v && isScalar(n.input(1), 6, x);
  if (isDefaultOp(n, "Mul")) {
    const ir::Value* o = otherInput(n, v);
    return o && isScalar(o, 1.0 / 6.0, x);
  }
  return false;
}

// The consumer of `v` when it is its only reader, with the reason otherwise.
ir::Node* onlyReader(const ir::Value* v, Text& why) {
  if (Text w = rewrite::whyNotSoleConsumer(v); !w.empty()) {
    why = w;
    return nullptr;
  }
  return rewrite::soleConsumer(v);
}

bool hardSwishType(const ir::Value* x) {
  ir::DataType t = elemTypeOf(x);
  return t == ir::DataType::kFloat || t == ir::DataType::kDouble || t == ir::DataType::kFloat16;
}

MatchResult rewriteTo(ir::Value* x, std::vector<ir::Node*> nodes) {
  return MatchResult::success(nodes, [x, nodes](rewrite::Rewriter& rw) {
    ir::Node* last = nodes.back();
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    ir::Node* h = fusion::addDerived(rw, "HardSwish", {x}, last, from, nullptr, {last->output(0)});
    fusion::replaceAndErase(rw, last->output(0), h->output(0), nodes);
  });
}

// Rooted at Clip(x + 3, 0, 6).
MatchResult clipForm(ir::Node& clip, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 14, 28, "HardSwish"); !why.empty())
    return MatchResult::failure(why);
  ir::Node* add = producerOp(clip.input(0), "Add");
  if (!add) return MatchResult::failure("the Clip input is not produced by an Add");
  ir::Value* x = nullptr;
  for (size_t i = 0; i < 2 && !x; ++i)
    if (add->inputCount() == 2 && isScalar(add->input(1 - i), 3, add->input(i))) x = add->input(i);
  if (!x) return MatchResult::failure("the Clip input is not x + 3");
  if (!hardSwishType(x))
    return MatchResult::failure(Text::of("x is %1, not float, double or float16", typeText(x)));
  if (clip.inputCount() < 3 || !isScalar(clip.input(1), 0, x) || !isScalar(clip.input(2), 6, x))
    return MatchResult::failure("the Clip bounds are not 0 and 6");
  Text why;
  if (!onlyReader(add->output(0), why)) return MatchResult::failure(Text::of("x + 3: %1", why));
  ir::Node* next = onlyReader(clip.output(0), why);
  if (!next) return MatchResult::failure(Text::of("the Clip output: %1", why));
  // x * Clip(...) / 6
  if (isDefaultOp(*next, "Mul") && otherInput(*next, clip.output(0)) == x) {
    ir::Node* scale = onlyReader(next->output(0), why);
    if (!scale) return MatchResult::failure(Text::of("x * Clip: %1", why));
    if (!isSixth(*scale, next->output(0), x))
      return MatchResult::failure("x * Clip(x + 3, 0, 6) is not divided by 6");
    return rewriteTo(x, {add, &clip, next, scale});
  }
  // x * (Clip(...) / 6)
  if (isSixth(*next, clip.output(0), x)) {
    ir::Node* mul = onlyReader(next->output(0), why);
    if (!mul) return MatchResult::failure(Text::of("Clip / 6: %1", why));
    if (!isDefaultOp(*mul, "Mul") || otherInput(*mul, next->output(0)) != x)
      return MatchResult::failure("Clip(x + 3, 0, 6) / 6 is not multiplied by x");
    return rewriteTo(x, {add, &clip, next, mul});
  }
  return MatchResult::failure("Clip(x + 3, 0, 6) is not multiplied by x and divided by 6");
}

// Rooted at HardSigmoid(x, 1/6, 0.5).
MatchResult hardSigmoidForm(ir::Node& hs, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 14, 28, "HardSwish"); !why.empty())
    return MatchResult::failure(why);
  ir::Value* x = hs.input(0);
  if (!hardSwishType(x))
    return MatchResult::failure(Text::of("x is %1, not float, double or float16", typeText(x)));
  Text why;
  ir::Node* mul = onlyReader(hs.output(0), why);
  if (!mul) return MatchResult::failure(Text::of("the HardSigmoid output: %1", why));
  if (!isDefaultOp(*mul, "Mul") || otherInput(*mul, hs.output(0)) != x)
    return MatchResult::failure("HardSigmoid(x) is not multiplied by x");
  if (std::fabs(hs.attrFloat("alpha", 0.2f) - 1.0 / 6.0) > 1e-6 / 6.0 ||
      hs.attrFloat("beta", 0.5f) != 0.5f)
    return MatchResult::failure("the HardSigmoid's alpha and beta are not 1/6 and 0.5");
  return rewriteTo(x, {&hs, mul});
}

fusion::Rules rules() {
  fusion::Rules r;
  // x * Clip(x + 3, 0, 6) / 6 -> HardSwish(x)
  fusion::addRule(r, "hard_swish_clip", "x * Clip(x + 3, 0, 6) / 6 -> HardSwish(x)", {"Clip"},
                  clipForm);
  // x * HardSigmoid(x, 1/6, 0.5) -> HardSwish(x)
  fusion::addRule(r, "hard_swish_hard_sigmoid", "x * HardSigmoid(x, 1/6, 0.5) -> HardSwish(x)",
                  {"HardSigmoid"}, hardSigmoidForm);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseHardSwish() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_hard_swish"), rules());
}

}  // namespace passlab::passes
