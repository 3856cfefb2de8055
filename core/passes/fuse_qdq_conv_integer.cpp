// fuse_qdq_conv_integer — a float Conv of a QDQ model (its input and weights
// DequantizeLinear outputs) runs on the 8-bit values as one ai.passlab
// FusedConvInteger (non-standard):
//
// Before:  x = DequantizeLinear(xq, sx, zx)     w = DequantizeLinear(wq, sw, zw)
//          y = Conv(x, w [, B])
// After:   y = ai.passlab.FusedConvInteger(xq, wq, zx, zw, S [, B]) <the Conv's attributes>
//          S = sx * sw (one value, or one per output channel)
//
// Algebra: Conv(x, w)[m, o] = sum over the taps of ((xq - zx) sx) ((wq[m] - zw[m]) sw[m]) + B[m]
//                           = S[m] * conv(xq - zx, wq - zw)[m, o] + B[m].
// FusedConvInteger sums the integer products exactly in int32, then computes
// float(sum) * S[m] + B[m] in float32; the float Conv rounds every product
// and partial sum instead. The same function in another rounding order; the
// QuantizeLinear after y stays as it is, so this is not ONNX Runtime's
// QLinearConv, which also requantizes in integers (fuse_qdq_into_qlinear).
// Lossy all the same (by name only, checked against the accuracy budget): a
// result re-rounded by an ulp can move the QuantizeLinear after it by a
// whole step, which the exact check rightly reports as a change
// (docs/numeric-check.md). x's DequantizeLinear stays where other nodes
// read it.
// Conditions: non-standard output allowed; xq and wq 8-bit, wq a constant;
// sx one constant value; sw one constant value or one per output channel
// (axis 0); zero points constant, one per scale, or absent; no block_size; B
// (any Conv bias, [M]) passes through.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"
#include "core/passes/qdq_operand.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

namespace ops = ir::passlab_ops;

constexpr const char* kId = "fuse_qdq_conv_integer";

bool isEightBit(const ir::Value* v) {
  const ir::DataType t = elemTypeOf(v);
  return t == ir::DataType::kUInt8 || t == ir::DataType::kInt8;
}

// "" and `d` filled when `v` is an 8-bit DequantizeLinear output with
// constant scales (`channels` values or one) and zero points; else why not.
Text whyNotEightBitOperand(ir::Value* v, const char* what, int64_t channels, Dequantized& d) {
  if (Text why = whyNotDequantized(v, what, d); !why.empty()) return why;
  if (!isEightBit(d.q)) return Text::of("%1 is not dequantized from 8 bits", std::string(what));
  const std::optional<std::vector<double>> s = fusion::floatValues(d.scale);
  if (!s || fusion::constDtype(d.scale) != ir::DataType::kFloat)
    return Text::of("the scale of %1 is not a float32 constant", std::string(what));
  const auto n = static_cast<int64_t>(s->size());
  if (n != 1 && (n != channels || d.node->attrInt("axis", 1) != 0))
    return Text::of("the scale of %1 is not one value or one per output channel (axis 0)",
                    std::string(what));
  if (d.zero) {
    const std::optional<ir::Tensor> z = rewrite::constantValue(d.zero);
    if (!z || z->numel() != n)
      return Text::of("the zero point of %1 is not a constant with one value per scale",
                      std::string(what));
  }
  return "";
}

// S = sx * sw per output channel (or one value), rounded to float32 once.
ir::Tensor combinedScale(const Dequantized& x, const Dequantized& w) {
  const std::vector<double> sx = *fusion::floatValues(x.scale), sw = *fusion::floatValues(w.scale);
  std::vector<double> s(sw.size());
  for (size_t i = 0; i < sw.size(); ++i)
    s[i] = static_cast<double>(static_cast<float>(sx[0]) * static_cast<float>(sw[i]));
  return fusion::floatTensor(ir::DataType::kFloat, {static_cast<int64_t>(s.size())}, s);
}

MatchResult fuse(ir::Node& conv, const MatchContext& c) {
  if (c.standardOnly)
    return MatchResult::failure("standard ONNX only: FusedConvInteger is ai.passlab");
  if (Text why = fusion::whyNotOpset(c, 10, 28, kId); !why.empty())
    return MatchResult::failure(why);
  const auto wDims = fusion::dimsOf(conv.input(1));
  if (!wDims || wDims->size() < 3) return MatchResult::failure("the weight's shape is unknown");
  const int64_t m = (*wDims)[0];
  Dequantized x, w;
  if (Text why = whyNotEightBitOperand(conv.input(0), "the input", 1, x); !why.empty())
    return MatchResult::failure(why);
  if (Text why = whyNotEightBitOperand(conv.input(1), "the weight", m, w); !why.empty())
    return MatchResult::failure(why);
  if (!rewrite::constantValue(w.q)) return MatchResult::failure("the 8-bit weight is not constant");
  if (elemTypeOf(conv.output(0)) != ir::DataType::kFloat)
    return MatchResult::failure("the Conv's output is not float32");
  std::vector<ir::Node*> nodes{&conv, w.node};
  return MatchResult::success(nodes, [&conv, x, w](rewrite::Rewriter& rw) {
    const std::vector<const ir::Node*> from{&conv, x.node, w.node};
    ir::Value* scale = addConstant(rw, *conv.owner(), &conv, conv.name() + "_integer_scale",
                                   combinedScale(x, w), from);
    std::vector<ir::Value*> in{x.q, w.q, x.zero, w.zero, scale};
    if (conv.inputCount() > 2 && conv.input(2)) in.push_back(conv.input(2));
    const std::string name = conv.name();
    ir::Node* fused =
        fusedops::addFused(rw, ops::kFusedConvInteger, in, &conv, from, conv.output(0));
    for (const ir::Attribute& a : conv.attributes())
      if (auto copy = copyAttribute(a)) rw.setAttr(fused, std::move(*copy));
    fusion::replaceAndErase(rw, conv.output(0), fused->output(0), {&conv, w.node, x.node});
    if (!name.empty()) fused->setName(name);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  fusion::addRule(r, "qdq_conv_integer",
                  "Conv(DQ(xq, sx, zx), DQ(wq, sw, zw) [, B]) -> "
                  "ai.passlab.FusedConvInteger(xq, wq, zx, zw, sx * sw [, B])",
                  {"Conv"}, fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseQdqConvInteger() {
  return std::make_unique<PatternPass>(catalogInfo(kId), rules());
}

}  // namespace passlab::passes
