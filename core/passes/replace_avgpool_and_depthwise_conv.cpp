// replace_avgpool_and_depthwise_conv — AveragePool and a uniform depthwise Conv, each written as
// the other where that pays.
//
// Rule avgpool_to_depthwise_conv:
//   Before:  t = AveragePool(x, kernel k, strides, pads); y = BatchNormalization(t, ...)
//            (or y = Mul(t, s) / Add(t, b) with s, b per channel)
//   After:   t = Conv(x, W, group = C, kernel k, strides, pads); y = ...   (W[c, 0, :, :] = 1/|k|)
//   Algebra: averaging a window is convolving it with a kernel of 1/|k| per
//   channel (group = C). A Conv can then absorb the BatchNormalization or
//   per-channel Mul/Add into its weights (fuse_conv_batchnorm,
//   fuse_conv_add_mul run after this pass), which a pool cannot: two nodes
//   become one. Only then does it fire.
// Rule depthwise_conv_to_avgpool:
//   Before:  y = Conv(x, W, group = C)   (W[c, 0, :, :] all 1/|k|, no bias or a zero bias)
//   After:   y = AveragePool(x, kernel k, strides, pads, count_include_pad = 1)
//   Algebra: the reverse; the pool sums then divides (one rounding of 1/|k|
//   less), at half the FLOPs of the convolution in the cost model. Not when
//   the Conv feeds what the first rule would fold into it (they would undo
//   each other).
// Conditions: C (x's channels) static; AveragePool with auto_pad NOTSET,
// ceil_mode 0 (Conv has none), no dilations, and count_include_pad = 1 unless
// it has no pads (excluded pads make the divisor vary at the border, which a
// fixed kernel cannot); the Conv with dilations 1 and constant weights of a
// float type; t feeds only the next node (not a graph output, not read in a
// subgraph). changesNumerics: the sum and the weighted sum round differently.
// Opsets: 7-28 (count_include_pad from 7).
#include <cmath>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

// "" when `consumer` is something a Conv producing its input can absorb.
Text whyNotAbsorbable(const ir::Node* consumer, int64_t channels) {
  if (!consumer || !consumer->domain().empty()) return "the result feeds no foldable op";
  const std::string& op = consumer->opType();
  if (op == "BatchNormalization") {
    if (consumer->attrInt("training_mode", 0) != 0) return "the BatchNormalization trains";
    for (size_t i = 1; i < 5; ++i)
      if (!rewrite::isConstant(consumer->input(i)))
        return "the BatchNormalization statistics are not constant";
    return "";
  }
  if (op == "Mul" || op == "Add") {
    for (size_t i = 0; i < 2; ++i) {
      Text w;
      if (fusion::perChannelValues(consumer->input(i), 4, 1, channels, w)) return "";
    }
    return Text::of("%1 is not by a per-channel constant", op);
  }
  return Text::of(
      "the result feeds %1, which a Conv cannot absorb (only BatchNormalization, per-channel "
      "Mul/Add)",
      fusion::nodeText(*consumer));
}

MatchResult poolToConv(ir::Node& pool, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 7, 28, "AveragePool -> Conv"); !why.empty())
    return MatchResult::failure(why);
  auto xd = fusion::dimsOf(pool.input(0));
  if (!xd || xd->size() != 4) return MatchResult::failure("x is not a 4-D tensor of static shape");
  int64_t ch = (*xd)[1];
  Text why;
  ir::Node* next = rewrite::soleConsumer(pool.output(0), &why);
  if (!next) return MatchResult::failure(Text::of("AveragePool output %1", why));
  if (Text w = whyNotAbsorbable(next, ch); !w.empty()) return MatchResult::failure(w);
  if (pool.attrString("auto_pad", "NOTSET") != "NOTSET")
    return MatchResult::failure("AveragePool has auto_pad");
  if (pool.attrInt("ceil_mode", 0) != 0)
    return MatchResult::failure("AveragePool has ceil_mode = 1");
  auto k = pool.attrInts("kernel_shape");
  if (k.size() != 2) return MatchResult::failure("the kernel is not 2-D");
  for (int64_t d : pool.attrInts("dilations", {1, 1}))
    if (d != 1) return MatchResult::failure("AveragePool has dilations");
  auto pads = pool.attrInts("pads", {0, 0, 0, 0});
  bool padded = false;
  for (int64_t p : pads) padded = padded || p != 0;
  if (padded && pool.attrInt("count_include_pad", 0) == 0)
    return MatchResult::failure(
        "AveragePool excludes its pads from the count (the divisor varies)");
  ir::DataType dt = elemTypeOf(pool.input(0));
  if (!fusion::isFloatType(dt)) return MatchResult::failure("x is not a float tensor");
  return MatchResult::success({&pool}, [&pool, ch, k, pads, dt](rewrite::Rewriter& rw) {
    std::vector<double> w(static_cast<size_t>(ch * k[0] * k[1]),
                          1.0 / static_cast<double>(k[0] * k[1]));
    ir::Value* wv = addConstant(rw, *pool.owner(), &pool, "avgpool_weight",
                                fusion::floatTensor(dt, {ch, 1, k[0], k[1]}, w), {&pool});
    ir::Node* conv = fusion::addDerived(rw, "Conv", {pool.input(0), wv}, &pool, {&pool}, nullptr,
                                        {pool.output(0)});
    rw.setAttr(conv, ir::Attribute::makeInt("group", ch));
    rw.setAttr(conv, ir::Attribute::makeInts("kernel_shape", k));
    rw.setAttr(conv, ir::Attribute::makeInts("pads", pads));
    rw.setAttr(conv, ir::Attribute::makeInts("strides", pool.attrInts("strides", {1, 1})));
    fusion::replaceAndErase(rw, pool.output(0), conv->output(0), {&pool});
  });
}

MatchResult convToPool(ir::Node& conv, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 7, 28, "Conv -> AveragePool"); !why.empty())
    return MatchResult::failure(why);
  auto w = rewrite::constantValue(conv.input(1));
  auto wv = w ? fusion::floatValues(*w) : std::nullopt;
  if (!wv || w->rank() != 4 || w->dims()[1] != 1)
    return MatchResult::failure("the weight is not a depthwise 4-D float constant");
  int64_t ch = w->dims()[0];
  if (conv.attrInt("group", 1) != ch || rankOf(conv.input(0)) != 4)
    return MatchResult::failure("the Conv is not depthwise (group = channels)");
  auto xd = fusion::dimsOf(conv.input(0));
  if (!xd || (*xd)[1] != ch) return MatchResult::failure("the Conv multiplies channels");
  int64_t kvol = w->dims()[2] * w->dims()[3];
  ir::Tensor unit = fusion::floatTensor(w->dtype(), {1}, {1.0 / static_cast<double>(kvol)});
  double u = unit.valueAsDouble(0);
  for (double v : *wv)
    if (v != u)
      return MatchResult::failure(Text::of("the weights are not all 1/%1", std::to_string(kvol)));
  if (conv.input(2) && !rewrite::isConstantFilledWith(conv.input(2), 0.0))
    return MatchResult::failure("the Conv has a nonzero bias");
  for (int64_t d : conv.attrInts("dilations", {1, 1}))
    if (d != 1) return MatchResult::failure("the Conv has dilations");
  if (conv.attrString("auto_pad", "NOTSET") != "NOTSET")
    return MatchResult::failure("the Conv has auto_pad");
  Text why;
  ir::Node* next = rewrite::soleConsumer(conv.output(0), &why);
  if (next && whyNotAbsorbable(next, ch).empty())
    return MatchResult::failure(
        Text::of("the Conv can absorb the %1 after it (fuse_conv_batchnorm / fuse_conv_add_mul)",
                 next->opType()));
  std::vector<int64_t> k{w->dims()[2], w->dims()[3]};
  return MatchResult::success({&conv}, [&conv, k](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> ins{conv.input(0)};
    ir::Node* p =
        fusion::addDerived(rw, "AveragePool", ins, &conv, {&conv}, nullptr, {conv.output(0)});
    rw.setAttr(p, ir::Attribute::makeInts("kernel_shape", k));
    rw.setAttr(p, ir::Attribute::makeInts("pads", conv.attrInts("pads", {0, 0, 0, 0})));
    rw.setAttr(p, ir::Attribute::makeInts("strides", conv.attrInts("strides", {1, 1})));
    rw.setAttr(p, ir::Attribute::makeInt("count_include_pad", 1));
    fusion::replaceAndErase(rw, conv.output(0), p->output(0), {&conv});
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // BN(AveragePool(x)) -> BN(Conv(x, 1/|k|, group = C))   (then folded by fuse_conv_batchnorm)
  fusion::addRule(
      r, "avgpool_to_depthwise_conv",
      "AveragePool(x) before a BatchNormalization/per-channel Mul/Add -> depthwise Conv",
      {"AveragePool"}, poolToConv);
  // Conv(x, all 1/|k|, group = C) -> AveragePool(x, count_include_pad = 1)
  fusion::addRule(r, "depthwise_conv_to_avgpool",
                  "Conv(x, W = 1/|k|, group = C) -> AveragePool(x, count_include_pad=1)", {"Conv"},
                  convToPool);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeReplaceAvgpoolAndDepthwiseConv() {
  return std::make_unique<PatternPass>(catalogInfo("replace_avgpool_and_depthwise_conv"), rules());
}

}  // namespace passlab::passes
