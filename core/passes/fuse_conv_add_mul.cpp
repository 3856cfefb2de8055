// fuse_conv_add_mul — fold a per-channel Add/Sub (bias) or Mul/Div (scale) into the Conv before it.
//
// Before:  t = Conv(x, W, b); y = Add(t, c)      or  y = Mul(t, s)
// After:   y = Conv(x, W, b + c)                 or  y = Conv(x, W * s, b * s)
// Algebra (per output channel m; b = 0 when the Conv has no bias):
//   Conv(x, W, b)[m] + c[m] = Conv(x, W, b + c)[m]
//   Conv(x, W, b)[m] - c[m] = Conv(x, W, b - c)[m]
//   Conv(x, W, b)[m] * s[m] = Conv(x, W * s[m], b * s[m])[m]     (convolution is linear)
//   Conv(x, W, b)[m] / s[m] = Conv(x, W / s[m], b / s[m])[m]
// folded in float64 and rounded once (changesNumerics: the last bits move).
// Conditions: t feeds only this node (not a graph output, not read in a
// subgraph); c (either operand of Add/Mul, the second of Sub/Div) is a float
// constant that varies only along the channel axis 1 (scalar, [M], [M,1,1],
// [1,M,1,1]) and does not widen the result (rank at most the Conv's); b is a
// constant; W is a constant, or (opset 7 on) a value computed from constants
// only by a few deterministic ops (ConstantOfShape, Expand, Reshape, Cast,
// arithmetic...: the onnx_light_* models compute their weights with
// ConstantOfShape, which fold_constants' size budget keeps unfolded) with
// static dims: then W' = Mul(W, s) (or Div) is a new node over [M,1,1,..]
// constants, which the executor computes once, not per run. Sub(c, t) and Div(c, t) are not linear
// in t the same way and stay. Opsets: 1-28 (Add/Sub/Mul/Div broadcast from opset 7; before that the
// `broadcast`/`axis` attributes are required, handled: any `axis` other than 1
// with a 1-D constant is rejected).
#include "core/passes/conv_weight_fold.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

MatchResult fuse(ir::Node& op, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 1, 28, "fuse_conv_add_mul"); !why.empty())
    return MatchResult::failure(why);
  const std::string& kind = op.opType();
  bool commutes = kind == "Add" || kind == "Mul";
  size_t convSide = 0;
  ir::Node* conv = producerOp(op.input(0), "Conv");
  if (!conv && commutes) {
    conv = producerOp(op.input(1), "Conv");
    convSide = 1;
  }
  if (!conv) {
    if (producerOp(op.input(1), "Conv"))
      return MatchResult::failure(Text::of("%1(c, Conv(x)) is not a per-channel %2 of the Conv",
                                           kind, (kind == "Sub" ? "bias" : "scale")));
    return MatchResult::failure("no input is produced by a Conv");
  }
  ir::Value* t = op.input(convSide);
  ir::Value* cst = op.input(1 - convSide);
  if (Text why = rewrite::whyNotSoleConsumer(t); !why.empty())
    return MatchResult::failure(Text::of("Conv output %1", why));
  if (c.opset < 7 && op.attrInt("broadcast", 0) != 0) {
    auto cd = fusion::dimsOf(cst);
    if (op.attrInt("axis", -1) != 1 || !cd || cd->size() != 1)
      return MatchResult::failure("legacy broadcast other than along axis 1 is not handled");
  }
  // W as values, or (computed) only its dims and type: W' is then a new node.
  Text whyNotW;
  auto w = foldableConvWeight(*conv, c.opset, whyNotW);
  if (!w) return MatchResult::failure(whyNotW);
  const std::vector<int64_t>& wDims = w->dims;
  const ir::DataType wType = w->type;
  int64_t m = wDims[0];
  int64_t rank = static_cast<int64_t>(wDims.size());
  Text why;
  std::optional<std::vector<double>> per;
  if (c.opset < 7 && op.attrInt("broadcast", 0) != 0) {
    per = fusion::floatValues(cst);
    if (!per || static_cast<int64_t>(per->size()) != m)
      return MatchResult::failure("the legacy-broadcast operand is not one value per channel");
  } else {
    per = fusion::perChannelValues(cst, rank, 1, m, why);
    if (!per) return MatchResult::failure(why);
  }
  if (fusion::constDtype(cst) != wType)
    return MatchResult::failure("the constant's type differs from the weights'");
  std::optional<std::vector<double>> bias;
  if (conv->input(2)) {
    bias = fusion::floatValues(conv->input(2));
    if (!bias) return MatchResult::failure("Conv bias is not constant");
  }
  bool scales = kind == "Mul" || kind == "Div";
  if (scales) {
    for (double v : *per)
      if (kind == "Div" && v == 0) return MatchResult::failure("divides by zero");
  }
  return MatchResult::success(
      {&op, conv}, [&op, conv, w = *w, bias, per = *per, m, kind, scales](rewrite::Rewriter& rw) {
        std::vector<double> nb(m, 0.0);
        for (int64_t k = 0; k < m; ++k) nb[k] = bias ? (*bias)[k] : 0.0;
        ir::Value* nW = conv->input(1);
        ir::Graph& g = *conv->owner();
        if (scales) {
          // W' = W * s (or W / s); for a computed W a node over s as [M, 1, 1, ...], computed once.
          nW = scaledConvWeight(rw, conv, w, per, kind == "Div", "_scaled", "_scale", {conv, &op});
          for (int64_t k = 0; k < m; ++k) nb[k] = kind == "Mul" ? nb[k] * per[k] : nb[k] / per[k];
        } else {
          for (int64_t k = 0; k < m; ++k) nb[k] += kind == "Add" ? per[k] : -per[k];
        }
        ir::Value* nB = addConstant(
            rw, g, conv, "bias_" + std::string(kind == "Add" || kind == "Sub" ? "added" : "scaled"),
            fusion::floatTensor(w.type, {m}, nb), {conv, &op});
        ir::Node* fused = fusion::addDerived(rw, "Conv", {conv->input(0), nW, nB}, conv,
                                             {conv, &op}, conv, {op.output(0)});
        fusion::replaceAndErase(rw, op.output(0), fused->output(0), {&op, conv});
      });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Conv(x, W, b) + c -> Conv(x, W, b + c); Conv(x, W, b) - c -> Conv(x, W, b - c)   (c per
  // channel)
  fusion::addRule(r, "conv_add", "Conv(x, W, b) +/- c -> Conv(x, W, b +/- c), c per channel",
                  {"Add", "Sub"}, fuse);
  // Conv(x, W, b) * s -> Conv(x, W*s, b*s); Conv(x, W, b) / s -> Conv(x, W/s, b/s)   (s per
  // channel)
  fusion::addRule(r, "conv_mul", "Conv(x, W, b) * or / s -> Conv(x, W*s, b*s), s per channel",
                  {"Mul", "Div"}, fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseConvAddMul() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_conv_add_mul"), rules());
}

}  // namespace passlab::passes
