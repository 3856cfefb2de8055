// fuse_conv_activation — a Conv, the residual Add after it and the
// activation after that become one ai.passlab FusedConv (non-standard).
//
// Before:  t = Conv(x, W, B); u = Add(t, z); y = Relu(u)     (the Add or the activation
//                                                            may be missing; Sum(t, z) too)
// After:   y = ai.passlab.FusedConv(x, W, B, z) <Conv's attributes, activation = "Relu">
// Algebra: FusedConv computes act(Conv(x, W) + B + z) (docs/fused-kernels.md):
// the residual is added to the convolution's accumulator and the activation
// applied in oneDNN's store loop (sum and eltwise post-ops), so the output is
// written once instead of three times. Activations: Relu, LeakyRelu, Clip
// (constant bounds), Sigmoid, Tanh, HardSigmoid, HardSwish, Gelu (opset >= 20)
// and the erf and tanh GELU subgraphs. oneDNN's activations are polynomial
// approximations and GELU subgraphs match within a relative 1e-4 of their
// constants (changesNumerics).
// Conditions: every value the fused node swallows (t, u) feeds only the next
// node of the chain (not a graph output, not read in a subgraph); t is
// float32 (the FusedConv kernel runs float32 only); x has rank 3-5 (1-3
// spatial dims); z has t's shape (dims equal, or the same symbols) and is not
// t itself — a per-channel constant is fuse_conv_add_mul's job (the default
// level runs it first); a Clip's bounds are constant scalars. The residual
// Add alone (no activation after it) is fused too: bench_fused_kernels
// measures it faster than Conv then Add on the corpus shapes
// (docs/fused-kernels.md).
// Near misses, with the reason: a Conv output with another consumer, a
// consumer that is neither a residual Add nor an activation, an Add whose
// other operand broadcasts, float16/double Convs.
// Opsets: 1-28 (Conv from 1; Add/Sum operands of equal shape need no
// broadcasting, so the legacy broadcast attribute is not involved; Clip
// bounds are attributes before 11 and inputs from 11; Gelu from 20).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"

namespace passlab::passes {

namespace {

// The residual Add/Sum reading `t` and its other operand; nullptr with `why`.
ir::Node* residualAdd(ir::Value* t, ir::Value*& z, Text& why) {
  if (Text w = rewrite::whyNotSoleConsumer(t); !w.empty()) {
    why = w;
    return nullptr;
  }
  ir::Node* add = t->uses()[0].node;
  bool isAdd = add->domain().empty() && (add->opType() == "Add" || add->opType() == "Sum") &&
               add->inputCount() == 2;
  if (!isAdd) {
    why = Text::of("the consumer of '%1' is not an Add", t->name());
    return nullptr;
  }
  z = fusion::otherOperand(*add, t);
  if (!z || z == t) {
    why = Text::of("the Add adds '%1' to itself", t->name());
    return nullptr;
  }
  if (!fusedops::sameShape(z, t)) {
    why = Text::of("the Add's other operand '%1' (%2) does not have the Conv output's shape (%3)",
                   z->name(), typeText(z), typeText(t));
    return nullptr;
  }
  if (elemTypeOf(z) != ir::DataType::kFloat) {
    why = Text::of("the residual '%1' is not float32", z->name());
    return nullptr;
  }
  return add;
}

MatchResult fuse(ir::Node& conv, const MatchContext& c) {
  if (c.standardOnly) return MatchResult::failure("standard ONNX only: FusedConv is ai.passlab");
  ir::Value* t = conv.output(0);
  if (elemTypeOf(t) != ir::DataType::kFloat)
    return MatchResult::failure(
        Text::of("FusedConv runs float32 only ('%1' is %2)", t->name(), typeText(t)));
  auto rank = rankOf(conv.input(0));
  if (!rank || *rank < 3 || *rank > 5)
    return MatchResult::failure("the Conv input's rank is unknown or not 3-5");
  std::vector<ir::Node*> nodes{&conv};
  ir::Value* cur = t;
  ir::Value* z = nullptr;
  Text whyResidual, whyAct;
  if (ir::Node* add = residualAdd(t, z, whyResidual)) {
    nodes.push_back(add);
    cur = add->output(0);
  }
  auto act = fusedops::activationAfter(cur, c, whyAct);
  if (act) {
    nodes.insert(nodes.end(), act->nodes.begin(), act->nodes.end());
    cur = act->output;
  }
  if (nodes.size() == 1)
    return MatchResult::failure(
        Text::of("no residual Add (%1) and no activation (%2)", whyResidual, whyAct));
  if (Text why = rewrite::whyNotClosed(nodes, nodes.back()); !why.empty())
    return MatchResult::failure(why);
  ir::Value* out = cur;
  std::string name = act ? act->name : "";
  std::vector<float> params = act ? act->params : std::vector<float>{};
  return MatchResult::success(nodes, [&conv, nodes, z, out, name, params](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> in = {conv.input(0), conv.input(1),
                                  conv.inputCount() > 2 ? conv.input(2) : nullptr};
    if (z) in.push_back(z);
    while (!in.empty() && !in.back()) in.pop_back();
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    ir::Node* fused = fusedops::addFused(rw, "FusedConv", in, nodes.back(), from, out);
    for (const ir::Attribute& a : conv.attributes())
      if (auto copy = copyAttribute(a)) rw.setAttr(fused, std::move(*copy));
    if (!name.empty()) rw.setAttr(fused, ir::Attribute::makeString("activation", name));
    if (!params.empty()) rw.setAttr(fused, ir::Attribute::makeFloats("activation_params", params));
    fusion::replaceAndErase(rw, out, fused->output(0), nodes);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // act(Conv(x, W, B) + z) -> ai.passlab.FusedConv(x, W, B, z) <activation>
  fusion::addRule(r, "conv_residual_activation",
                  "act(Conv(x, W, B) [+ z]) -> ai.passlab.FusedConv(x, W, B [, z])", {"Conv"},
                  fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseConvActivation() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_conv_activation"), rules());
}

}  // namespace passlab::passes
