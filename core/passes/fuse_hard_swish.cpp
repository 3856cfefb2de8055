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
// An older model (picodet_s_320 is opset 11) is first raised to opset 14, as
// raise_opset would, but only when at least one chain would then fuse, every
// node can be raised, and the raise rewrites no node the step's node filter
// keeps the pass away from (option raise_opset, default true); the step's
// note says how many chains the raise is for, or why the model was not
// raised. A model without such a chain keeps its opset.
// Opsets: 7-28 (below 14 through the raise).
#include <cmath>

#include "core/passes/fusion_utils.h"
#include "core/passes/opset_raise.h"
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

// Clip's bounds are 0 and 6: its inputs 1 and 2 (opset 11 on), or its min
// and max attributes (opsets 6-10), which the dry run at opset 14 sees on a
// model not raised yet and the raise turns into those inputs.
bool boundsZeroAndSix(const ir::Node& clip, const ir::Value* x) {
  if (clip.inputCount() == 1)
    return clip.hasAttr("min") && clip.hasAttr("max") && clip.attrFloat("min", 1.0f) == 0.0f &&
           clip.attrFloat("max", 0.0f) == 6.0f;
  return clip.inputCount() >= 3 && isScalar(clip.input(1), 0, x) && isScalar(clip.input(2), 6, x);
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
  if (!boundsZeroAndSix(clip, x)) return MatchResult::failure("the Clip bounds are not 0 and 6");
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

constexpr int64_t kHardSwishOpset = 14;

bool isRootOf(const rewrite::Pattern& p, const ir::Node& n) {
  for (const rewrite::OpKey& k : p.rootOps())
    if (k.domain == n.domain() && k.op == n.opType()) return true;
  return false;
}

// How many chains the rules would fuse were the model at opset 14 (a dry
// run: nothing is edited), counting only those the node filter allows.
size_t chainsAtOpset14(const PassContext& ctx, const std::vector<const rewrite::Pattern*>& rules) {
  rewrite::MatchContext m = ctx.matchContext();
  m.opset = kHardSwishOpset;
  auto allowed = [&](const rewrite::MatchResult& r) {
    if (!ctx.filter) return true;
    for (const ir::Node* n : r.nodes())
      if (!ctx.filter->allows(n->id())) return false;
    return true;
  };
  size_t chains = 0;
  ctx.model().graph().forEachNodeRecursive([&](ir::Node* n) {
    for (const rewrite::Pattern* p : rules) {
      if (!isRootOf(*p, *n)) continue;
      if (rewrite::MatchResult r = p->match(*n, m); r.matched() && allowed(r)) {
        ++chains;
        return;
      }
    }
  });
  return chains;
}

// The model's opset raised to 14 when it is older, chains would fuse there,
// and every node can be raised (raise_opset's rewrite); the note says what
// was raised and why, or why not. Nothing changes when no chain would fuse.
Text raiseForChains(PassContext& ctx, const std::vector<const rewrite::Pattern*>& rules) {
  const int64_t opset = ctx.model().opsetVersion("").value_or(1);
  const size_t chains = chainsAtOpset14(ctx, rules);
  if (chains == 0) return "";
  const std::string n = std::to_string(chains), from = std::to_string(opset);
  if (!ctx.boolOption("raise_opset"))
    return Text::of(
        "%1 written-out HardSwish kept: HardSwish is an op from opset 14, the model imports "
        "opset %2, and raise_opset is false",
        n, from);
  if (Text why = whyNotRaiseOpset(ctx.rewriter, kHardSwishOpset); !why.empty())
    return Text::of("%1 written-out HardSwish kept: HardSwish is an op from opset 14, and %2", n,
                    why);
  // The raise rewrites nodes outside the chains: none the step's node filter
  // keeps away from (--exclude-node, --exclude-op, a recipe's node ids).
  if (ctx.filter)
    if (const ir::Node* kept = raiseRewritesOutside(ctx.rewriter, kHardSwishOpset, *ctx.filter))
      return Text::of(
          "%1 written-out HardSwish kept: HardSwish is an op from opset 14, and the raise would "
          "rewrite %2, which this step's node filter keeps the pass away from",
          n, kept->describe());
  const size_t rewritten = raiseOpset(ctx.rewriter, kHardSwishOpset);
  return Text::of(
      "opset %1 -> 14 so that %2 written-out HardSwish become the op (an op from opset 14); the "
      "raise rewrote %3 other nodes to mean the same",
      from, n, std::to_string(rewritten));
}

// The rules, after raising the model's opset to 14 where that lets them fuse
// (option raise_opset).
class FuseHardSwish final : public Pass {
 public:
  FuseHardSwish() : rules_(catalogInfo("fuse_hard_swish"), rules()) {}
  const PassInfo& info() const override { return rules_.info(); }
  std::vector<const rewrite::Pattern*> patterns() const override { return rules_.patterns(); }

  Status run(PassContext& ctx) const override {
    Text raised;
    if (ctx.model().opsetVersion("").value_or(1) < kHardSwishOpset)
      raised = raiseForChains(ctx, rules_.patterns());
    Status s = rules_.run(ctx);
    if (s.isOk() && ctx.note && !raised.empty())
      *ctx.note = ctx.note->empty() ? raised : Text::join({raised, *ctx.note}, "; ");
    return s;
  }

 private:
  PatternPass rules_;
};

}  // namespace

std::unique_ptr<Pass> makeFuseHardSwish() {
  return std::make_unique<FuseHardSwish>();
}

}  // namespace passlab::passes
