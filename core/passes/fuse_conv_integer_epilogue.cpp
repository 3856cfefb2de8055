// fuse_conv_integer_epilogue — the dynamic INT8 convolution quantize_dynamic
// writes, from its ConvInteger to the float result, becomes one ai.passlab
// FusedConvInteger (non-standard).
//
// Before:  xq, xs, xz = DynamicQuantizeLinear(x)
//          t = ConvInteger(xq, Wq, xz, wz); f = Cast<to = float>(t)
//          u = Mul(f, s)                     (s: e.g. Mul(xs, w_scale), 1 or M values per channel)
//          v = Add(u, B); y = Relu(v)        (the Add and the activation may be missing)
// After:   y = ai.passlab.FusedConvInteger(xq, Wq, xz, wz, s, B) <ConvInteger's attributes,
//                                                                  activation = "Relu">
// Algebra: FusedConvInteger computes act(Cast(ConvInteger(...)) * s + B) with
// the same float32 operations in the same order (core/exec/cpu/
// passlab_fused_conv_integer.cpp), so the result is the unfused form's bit
// for bit on PassLab's executor; its gain is that the int32 sums are read
// once (oneDNN's channels-last result, the zero point's term, the scale, the
// bias and the activation in one pass) instead of reordered, corrected, cast,
// scaled and biased in four. The DynamicQuantizeLinear stays (Convs that read
// the same activation share it).
// Conditions: non-standard output allowed; Cast to float32; s and B float32
// with one value, or one per output channel shaped to broadcast over the
// channel axis ([M, 1, ...] or [1, M, 1, ...]); B a constant; every value the
// fused node swallows feeds only the next node of the chain. Activations:
// Relu, LeakyRelu and Clip with constant bounds (computed exactly as their
// ONNX kernels do); any other stays after the fused node.
// Opsets: 10-28 (ConvInteger from 10).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

namespace ops = ir::passlab_ops;

// The sole consumer of `v` when it is the default-domain `op`; nullptr with `why`.
ir::Node* consumerOp(ir::Value* v, std::string_view op, Text& why) {
  ir::Node* n = rewrite::soleConsumer(v, &why);
  if (!n) return nullptr;
  if (!isDefaultOp(*n, op)) {
    why = Text::of("the consumer of '%1' is not a %2", v->name(), std::string(op));
    return nullptr;
  }
  return n;
}

// True when `v` is float32 with one value, or M values that broadcast over the
// channel axis of an output of rank `rank` ([M, 1, ...] or [1, M, 1, ...]).
bool perChannelOperand(const ir::Value* v, int64_t m, int64_t rank) {
  if (!v || elemTypeOf(v) != ir::DataType::kFloat) return false;
  auto d = fusion::dimsOf(v);
  if (!d || static_cast<int64_t>(d->size()) > rank) return false;
  int64_t numel = 1;
  for (int64_t x : *d) numel *= x;
  if (numel == 1) return true;
  // Aligned from the right: output axis 1 (the channels) is d[1 - (rank - d.size())].
  const int64_t channelAt = 1 - (rank - static_cast<int64_t>(d->size()));
  if (channelAt < 0) return false;
  for (int64_t i = 0; i < static_cast<int64_t>(d->size()); ++i)
    if ((*d)[static_cast<size_t>(i)] != (i == channelAt ? m : 1)) return false;
  return true;
}

// The exact single-node activations after `v`: Relu, LeakyRelu, Clip.
std::optional<fusedops::Activation> exactActivationAfter(ir::Value* v, const MatchContext& c) {
  Text why;
  auto act = fusedops::activationAfter(v, c, why);
  if (!act || act->nodes.size() != 1) return std::nullopt;
  if (act->name != "Relu" && act->name != "LeakyRelu" && act->name != "Clip") return std::nullopt;
  return act;
}

MatchResult fuse(ir::Node& conv, const MatchContext& c) {
  if (c.standardOnly)
    return MatchResult::failure("standard ONNX only: FusedConvInteger is ai.passlab");
  if (Text why = fusion::whyNotOpset(c, 10, 28, "fuse_conv_integer_epilogue"); !why.empty())
    return MatchResult::failure(why);
  auto wDims = fusion::dimsOf(conv.input(1));
  auto rank = rankOf(conv.input(0));
  if (!wDims || wDims->size() < 3 || !rank || *rank != static_cast<int64_t>(wDims->size()))
    return MatchResult::failure("the ConvInteger's weight or input shape is unknown");
  const int64_t m = (*wDims)[0];
  Text why;
  ir::Node* cast = consumerOp(conv.output(0), "Cast", why);
  if (!cast) return MatchResult::failure(why);
  if (cast->attrInt("to", 0) != static_cast<int64_t>(ir::DataType::kFloat))
    return MatchResult::failure("the Cast after the ConvInteger is not to float32");
  ir::Node* mul = consumerOp(cast->output(0), "Mul", why);
  if (!mul) return MatchResult::failure(why);
  ir::Value* scale = fusion::otherOperand(*mul, cast->output(0));
  if (!perChannelOperand(scale, m, *rank))
    return MatchResult::failure(
        Text::of("the Mul's scale '%1' is not float32 with one value or one per output channel",
                 scale ? scale->name() : std::string()));
  std::vector<ir::Node*> nodes{&conv, cast, mul};
  ir::Value* out = mul->output(0);
  ir::Value* bias = nullptr;
  if (ir::Node* add = rewrite::soleConsumer(out); add && isDefaultOp(*add, "Add")) {
    ir::Value* b = fusion::otherOperand(*add, out);
    if (b && b->isInitializer() && perChannelOperand(b, m, *rank)) {
      bias = b;
      nodes.push_back(add);
      out = add->output(0);
    }
  }
  auto act = exactActivationAfter(out, c);
  if (act) {
    nodes.push_back(act->nodes.front());
    out = act->output;
  }
  if (Text w = rewrite::whyNotClosed(nodes, nodes.back()); !w.empty())
    return MatchResult::failure(w);
  std::string name = act ? act->name : "";
  std::vector<float> params = act ? act->params : std::vector<float>{};
  return MatchResult::success(nodes, [&conv, nodes, scale, bias, out, name,
                                      params](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> in = {conv.input(0), conv.input(1),
                                  conv.inputCount() > 2 ? conv.input(2) : nullptr,
                                  conv.inputCount() > 3 ? conv.input(3) : nullptr, scale};
    if (bias) in.push_back(bias);
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    ir::Node* fused = fusedops::addFused(rw, ops::kFusedConvInteger, in, nodes.back(), from, out);
    for (const ir::Attribute& a : conv.attributes())
      if (auto copy = copyAttribute(a)) rw.setAttr(fused, std::move(*copy));
    if (!name.empty()) rw.setAttr(fused, ir::Attribute::makeString(ops::kActivation, name));
    if (!params.empty())
      rw.setAttr(fused, ir::Attribute::makeFloats(ops::kActivationParams, params));
    fusion::replaceAndErase(rw, out, fused->output(0), nodes);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // act(Cast(ConvInteger(xq, W, xz, wz)) * s [+ B]) -> ai.passlab.FusedConvInteger(xq, W, xz, wz,
  // s [, B])
  fusion::addRule(r, "conv_integer_epilogue",
                  "act(Cast(ConvInteger(xq, W, xz, wz)) * s [+ B]) -> "
                  "ai.passlab.FusedConvInteger(xq, W, xz, wz, s [, B])",
                  {"ConvInteger"}, fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseConvIntegerEpilogue() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_conv_integer_epilogue"), rules());
}

}  // namespace passlab::passes
