// fuse_dynamic_quantize_range — a DynamicQuantizeLinear whose input a
// FusedConvInteger writes takes its range from that convolution's epilogue
// instead of scanning the activation again (non-standard).
//
// Before:  y = ai.passlab.FusedConvInteger(xq, W, ...)
//          q, s, z = DynamicQuantizeLinear(y)
// After:   y, r = ai.passlab.FusedConvInteger(xq, W, ...)      (output 1: Range)
//          q, s, z = ai.passlab.RangedDynamicQuantizeLinear(y, r)
// Algebra: r is y's minimum and maximum with 0 ({NaN, NaN} when y holds a
// NaN), taken while the epilogue writes y (core/exec/cpu/
// passlab_fused_conv_integer.cpp); DynamicQuantizeLinear's scale and zero
// point are functions of those two values only (core/exec/cpu/
// value_range.h), so q, s and z are the same bytes. y keeps its other
// readers: the range is the whole tensor's whoever else reads it. A
// FusedConvInteger that already writes r (two DynamicQuantizeLinears on one
// y) is reused.
// Conditions: non-standard output allowed; the DynamicQuantizeLinear reads
// output 0 of an ai.passlab FusedConvInteger of the same graph (anything
// between them, a Concat, a Reshape, changes what the range is of) with
// channels_last = 1 (convert_dynamic_int8_to_channels_last): only its
// channels-last epilogue takes the range in registers; the channels-first
// kernel scans Y as the DynamicQuantizeLinear would.
// Opsets: 11-28 (DynamicQuantizeLinear from 11).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

namespace ops = ir::passlab_ops;

// The FusedConvInteger writing `y` as its output 0 in `graph`; nullptr with `why`.
ir::Node* producingConvInteger(const ir::Value* y, const ir::Graph* graph, Text& why) {
  ir::Node* p = y ? y->producer() : nullptr;
  if (!p || !fusedops::isFused(p, ops::kFusedConvInteger)) {
    why = Text::of("the input of the DynamicQuantizeLinear is not written by a FusedConvInteger");
    return nullptr;
  }
  if (y->producerOutputIndex() != 0 || p->owner() != graph) {
    why = Text::of("the input of the DynamicQuantizeLinear is not the FusedConvInteger's Y");
    return nullptr;
  }
  if (p->attrInt(ops::kChannelsLast, 0) == 0) {
    why = Text::of(
        "the FusedConvInteger is channels-first: its kernel would scan Y for the range as the "
        "DynamicQuantizeLinear does");
    return nullptr;
  }
  return p;
}

// The FusedConvInteger `conv` with its output 1 (Range) added: a copy with
// two outputs takes its place. Returns the node that writes the range.
ir::Node* withRange(rewrite::Rewriter& rw, ir::Node& conv) {
  if (conv.outputCount() > 1 && conv.output(1)) return &conv;
  std::vector<ir::Value*> in(conv.inputs().begin(), conv.inputs().end());
  ir::Node* n =
      rw.addNode(*conv.owner(), ops::kFusedConvInteger, ops::kDomain, in, 2, &conv, "", {&conv});
  for (const ir::Attribute& a : conv.attributes())
    if (auto copy = copyAttribute(a)) rw.setAttr(n, std::move(*copy));
  rw.setType(n->output(0), conv.output(0)->type());
  rw.setType(n->output(1),
             ir::Type::tensor(ir::DataType::kFloat, ir::Shape(std::vector<ir::Dim>{ir::Dim(2)})));
  fusion::replaceAndErase(rw, conv.output(0), n->output(0), {&conv});
  return n;
}

MatchResult fuse(ir::Node& dql, const MatchContext& c) {
  if (c.standardOnly)
    return MatchResult::failure(
        "standard ONNX only: RangedDynamicQuantizeLinear and FusedConvInteger are ai.passlab");
  if (!isDefaultOp(dql, "DynamicQuantizeLinear"))
    return MatchResult::failure("not the standard DynamicQuantizeLinear");
  if (Text why = fusion::whyNotOpset(c, 11, 28, "fuse_dynamic_quantize_range"); !why.empty())
    return MatchResult::failure(why);
  Text why;
  ir::Node* conv = producingConvInteger(dql.input(0), dql.owner(), why);
  if (!conv) return MatchResult::failure(why);
  for (size_t i = 0; i < dql.outputCount(); ++i)
    if (dql.output(i) && dql.output(i)->isGraphOutput())
      return MatchResult::failure(Text::of(
          "the DynamicQuantizeLinear's output '%1' is a graph output", dql.output(i)->name()));
  return MatchResult::success({&dql, conv}, [&dql, conv](rewrite::Rewriter& rw) {
    ir::Node* ranged = withRange(rw, *conv);
    std::vector<const ir::Node*> from{&dql, ranged};
    ir::Node* q =
        rw.addNode(*dql.owner(), ops::kRangedDynamicQuantizeLinear, ops::kDomain,
                   {ranged->output(0), ranged->output(1)}, dql.outputCount(), &dql, "", from);
    for (size_t i = 0; i < dql.outputCount(); ++i) {
      if (!dql.output(i)) continue;
      rw.setType(q->output(i), dql.output(i)->type());
      rw.replaceAllUsesWith(dql.output(i), q->output(i));
    }
    rw.removeNode(&dql);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // DynamicQuantizeLinear(ai.passlab.FusedConvInteger(...)) ->
  // ai.passlab.RangedDynamicQuantizeLinear(y, FusedConvInteger's range)
  fusion::addRule(r, "dynamic_quantize_range",
                  "DynamicQuantizeLinear(y = ai.passlab.FusedConvInteger(...)) -> "
                  "ai.passlab.RangedDynamicQuantizeLinear(y, range of y from the epilogue)",
                  {"DynamicQuantizeLinear"}, fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseDynamicQuantizeRange() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_dynamic_quantize_range"), rules());
}

}  // namespace passlab::passes
