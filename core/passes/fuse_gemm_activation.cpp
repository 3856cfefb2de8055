// fuse_gemm_activation — a Gemm or MatMul, the bias and residual Adds after
// it and the activation after those become one ai.passlab FusedGemm
// (non-standard).
//
// Before:  t = MatMul(A, B); u = Add(t, C); v = Add(u, z); y = Gelu(v)
//          (each Add and the activation optional; Gemm(A, B, C) in place of MatMul + Add;
//           an activation after a Reshape of the product: y = act(Reshape(t, s)))
// After:   y = ai.passlab.FusedGemm(A, B, C, z) <Gemm's attributes, activation = "Gelu">
//          (y = Reshape(ai.passlab.FusedGemm(...), s) for the Reshape form)
// Algebra: FusedGemm computes act(alpha * A' * B' + beta * C + z) with C
// broadcast to the output (docs/fused-kernels.md); A may have batch dims in
// front of [M, K] (MatMul with a 2-D B). Additions commute, so the bias and
// the residual may come in either order. An elementwise activation commutes
// with a Reshape: act(Reshape(t)) = Reshape(act(t)). oneDNN applies the bias,
// the residual (binary post-op) and the activation (eltwise post-op) in the
// matmul's store loop; its activations are polynomial approximations and GELU
// subgraphs match within a relative 1e-4 of their constants (changesNumerics).
// Conditions: every swallowed value feeds only the next node of the chain
// (not a graph output, not read in a subgraph); the product is float32 (the
// kernel runs float32 only); MatMul's B has rank 2 and A rank >= 2 (known
// ranks); an Add's other operand is the residual when it has the product's
// shape (equal dims or the same symbols), else the bias C when it broadcasts
// to the product without widening it (at most one of each; a Gemm that has C
// takes only a residual); activations as in fuse_conv_activation. MatMul (or
// Gemm) + bias Add alone is fused too (the bias in the primitive; 2-D
// MatMul + Add is fuse_matmul_add_into_gemm's in the default level, which
// runs first).
// Near misses, with the reason: a batched MatMul (B of rank > 2: attention's
// Q·Kᵀ), a product with another consumer, a consumer that is neither an Add
// nor an activation, an Add whose other operand widens the result.
// Opsets: 7-28 (Gemm's C broadcasts unidirectionally from 7; MatMul from 1).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"

namespace passlab::passes {

namespace {

struct Chain {
  std::vector<ir::Node*> nodes;  // base first, the node whose output is replaced last
  ir::Value* c = nullptr;        // the bias
  ir::Value* z = nullptr;        // the residual
  ir::Value* product = nullptr;  // what FusedGemm computes (before a Reshape)
  std::optional<fusedops::Activation> act;
  ir::Node* reshape = nullptr;  // act(Reshape(product)): the Reshape
};

// Follows Adds after `cur`: bias or residual. Returns the reason the next node stops the chain.
Text followAdds(Chain& ch, bool gemmHasC) {
  for (int k = 0; k < 2; ++k) {
    ir::Value* cur = ch.product;
    if (Text w = rewrite::whyNotSoleConsumer(cur); !w.empty()) return w;
    ir::Node* add = cur->uses()[0].node;
    if (!(add->domain().empty() && (add->opType() == "Add" || add->opType() == "Sum") &&
          add->inputCount() == 2))
      return Text::of("the consumer of '%1' is not an Add", cur->name());
    ir::Value* o = fusion::otherOperand(*add, cur);
    if (!o || o == cur) return Text::of("the Add adds '%1' to itself", cur->name());
    if (elemTypeOf(o) != ir::DataType::kFloat)
      return Text::of("the Add's other operand '%1' is not float32", o->name());
    if (!ch.z && fusedops::sameShape(o, cur)) {
      ch.z = o;
    } else if (!ch.c && !gemmHasC && rewrite::broadcastKeepsShape(cur, o)) {
      ch.c = o;
    } else if (ch.c || gemmHasC) {
      return Text::of(
          "the product already has a bias and '%1' does not have its shape (a residual)",
          o->name());
    } else {
      return Text::of("the Add's other operand '%1' (%2) widens the product (%3)", o->name(),
                      typeText(o), typeText(cur));
    }
    ch.nodes.push_back(add);
    ch.product = add->output(0);
  }
  return "";
}

MatchResult fuse(ir::Node& base, const MatchContext& c) {
  if (c.standardOnly) return MatchResult::failure("standard ONNX only: FusedGemm is ai.passlab");
  if (Text why = fusion::whyNotOpset(c, 7, 28, "fuse_gemm_activation"); !why.empty())
    return MatchResult::failure(why);
  const bool isGemm = base.opType() == "Gemm";
  ir::Value* t = base.output(0);
  if (elemTypeOf(t) != ir::DataType::kFloat)
    return MatchResult::failure(
        Text::of("FusedGemm runs float32 only ('%1' is %2)", t->name(), typeText(t)));
  if (!isGemm) {
    auto ra = rankOf(base.input(0));
    auto rb = rankOf(base.input(1));
    if (!ra || !rb) return MatchResult::failure("the MatMul operands' ranks are not known");
    if (*rb != 2)
      return MatchResult::failure(
          Text::of("MatMul's B has rank %1 (FusedGemm takes a 2-D B)", std::to_string(*rb)));
    if (*ra < 2) return MatchResult::failure("MatMul's A has rank 1");
  }
  const bool gemmHasC = isGemm && base.inputCount() > 2 && base.input(2);
  Chain ch;
  ch.nodes = {&base};
  ch.product = t;
  Text whyAdd = followAdds(ch, gemmHasC);
  Text whyAct;
  ch.act = fusedops::activationAfter(ch.product, c, whyAct);
  if (!ch.act && ch.product->uses().size() == 1 && !ch.product->isGraphOutput()) {
    // act(Reshape(product)) = Reshape(act(product))
    ir::Node* r = ch.product->uses()[0].node;
    if (r->domain().empty() && r->opType() == "Reshape" && r->input(0) == ch.product &&
        r->owner() == ch.product->owner()) {
      Text whyAfter;
      ch.act = fusedops::activationAfter(r->output(0), c, whyAfter);
      if (ch.act) ch.reshape = r;
    }
  }
  if (ch.act) {
    if (ch.reshape) ch.nodes.push_back(ch.reshape);
    ch.nodes.insert(ch.nodes.end(), ch.act->nodes.begin(), ch.act->nodes.end());
  }
  if (ch.nodes.size() == 1)
    return MatchResult::failure(
        Text::of("no bias or residual Add (%1) and no activation (%2)", whyAdd, whyAct));
  if (Text why = rewrite::whyNotClosed(ch.nodes, ch.nodes.back()); !why.empty())
    return MatchResult::failure(why);
  return MatchResult::success(ch.nodes, [&base, ch, isGemm, gemmHasC](rewrite::Rewriter& rw) {
    ir::Value* c = gemmHasC ? base.input(2) : ch.c;
    std::vector<ir::Value*> in = {base.input(0), base.input(1), c, ch.z};
    while (!in.empty() && !in.back()) in.pop_back();
    std::vector<const ir::Node*> from(ch.nodes.begin(), ch.nodes.end());
    ir::Node* last = ch.nodes.back();
    ir::Node* at = ch.reshape ? ch.reshape : last;
    ir::Value* typeLike = ch.act && !ch.reshape ? ch.act->output : ch.product;
    ir::Node* fused = fusedops::addFused(rw, "FusedGemm", in, at, from, typeLike);
    if (isGemm)
      for (const ir::Attribute& a : base.attributes())
        if (auto copy = copyAttribute(a)) rw.setAttr(fused, std::move(*copy));
    // A bias that came from an Add is added once (beta = 1); a Gemm's own C keeps its beta.
    if (isGemm && !gemmHasC && ch.c) rw.setAttr(fused, ir::Attribute::makeFloat("beta", 1.0f));
    if (ch.act) {
      rw.setAttr(fused, ir::Attribute::makeString("activation", ch.act->name));
      if (!ch.act->params.empty())
        rw.setAttr(fused, ir::Attribute::makeFloats("activation_params", ch.act->params));
    }
    ir::Value* result = fused->output(0);
    if (ch.reshape) {
      std::vector<ir::Value*> rin(ch.reshape->inputs().begin(), ch.reshape->inputs().end());
      rin[0] = result;
      ir::Node* r =
          fusion::addDerived(rw, "Reshape", rin, last, {ch.reshape}, ch.reshape, {ch.act->output});
      result = r->output(0);
    }
    fusion::replaceAndErase(rw, last->output(0), result, ch.nodes);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // act(MatMul(A, B) + C + z) -> ai.passlab.FusedGemm(A, B, C, z) <activation>
  fusion::addRule(r, "gemm_bias_residual_activation",
                  "act(Gemm/MatMul(A, B) [+ C] [+ z]) -> ai.passlab.FusedGemm(A, B, C, z)",
                  {"Gemm", "MatMul"}, fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseGemmActivation() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_gemm_activation"), rules());
}

}  // namespace passlab::passes
