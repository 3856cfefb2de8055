// fuse_dynamic_quantize_into_conv — a RangedDynamicQuantizeLinear that is the
// only reader of a FusedConvInteger's Y becomes that convolution's own
// output: the epilogue quantizes Y as it computes it, and no float Y is
// written or read back (non-standard).
//
// Before:  y, r = ai.passlab.FusedConvInteger(xq, W, ...)
//          q, s, z = ai.passlab.RangedDynamicQuantizeLinear(y, r)
// After:   q, s, z = ai.passlab.FusedConvInteger<quantize_output = 1>(xq, W, ...)
// Algebra: none; the same operations. The kernel writes float Y over its own
// int32 sums, taking Y's range as it stores, then runs DynamicQuantizeLinear's
// own loop (quantizeInRangeFast) on that buffer with its scale, zero point and
// rounding (core/exec/cpu/passlab_fused_conv_integer.cpp, dynamic_quantize.h),
// so q, s and z are the same bytes; no float Y leaves the kernel.
// Conditions: non-standard output allowed; y and r read by this quantization
// alone (another reader needs the float Y) and not graph outputs; the
// FusedConvInteger channels-last (convert_dynamic_int8_to_channels_last)
// with an activation its epilogue computes in registers (none, Relu,
// LeakyRelu, Clip): elsewhere the kernel computes Y into scratch first,
// which would buy nothing. Runs after fuse_dynamic_quantize_range (fused
// level), which writes the form it matches.
// Opsets: 11-28 (DynamicQuantizeLinear from 11).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

namespace ops = ir::passlab_ops;

constexpr const char* kQuantizeOutput = "quantize_output";

// "" when `v` is read by `reader` alone (once) and is no graph output.
Text whyNotOnlyReader(const ir::Value* v, const ir::Node* reader) {
  if (v->isGraphOutput())
    return Text::of("the FusedConvInteger's output '%1' is a graph output", v->name());
  for (const ir::Use& u : v->uses())
    if (u.node != reader)
      return Text::of(
          "the FusedConvInteger's output '%1' has other readers (they need it in float)",
          v->name());
  if (v->uses().size() != 1)
    return Text::of("the FusedConvInteger's output '%1' is read twice", v->name());
  return Text();
}

MatchResult fuse(ir::Node& rq, const MatchContext& c) {
  if (c.standardOnly)
    return MatchResult::failure(
        "standard ONNX only: FusedConvInteger and RangedDynamicQuantizeLinear are ai.passlab");
  if (!fusedops::isFused(&rq, ops::kRangedDynamicQuantizeLinear))
    return MatchResult::failure("not ai.passlab RangedDynamicQuantizeLinear");
  if (Text why = fusion::whyNotOpset(c, 11, 28, "fuse_dynamic_quantize_into_conv"); !why.empty())
    return MatchResult::failure(why);
  if (rq.inputCount() != 2 || !rq.input(0) || !rq.input(1))
    return MatchResult::failure("the RangedDynamicQuantizeLinear lacks an input");
  ir::Value* y = rq.input(0);
  ir::Node* conv = y->producer();
  if (!fusedops::isFused(conv, ops::kFusedConvInteger) || y->producerOutputIndex() != 0 ||
      conv->owner() != rq.owner() || rq.input(1)->producer() != conv ||
      rq.input(1)->producerOutputIndex() != 1)
    return MatchResult::failure(
        "the RangedDynamicQuantizeLinear does not read a FusedConvInteger's Y and range");
  if (conv->attrInt(ops::kChannelsLast, 0) == 0)
    return MatchResult::failure(
        "the FusedConvInteger is channels-first: its kernel would write Y before quantizing it");
  const std::string act = conv->attrString(ops::kActivation, "");
  if (!act.empty() && act != "Relu" && act != "LeakyRelu" && act != "Clip")
    return MatchResult::failure(Text::of(
        "the FusedConvInteger's activation %1 is not computed in its epilogue's registers", act));
  for (ir::Value* v : {y, rq.input(1)})
    if (Text why = whyNotOnlyReader(v, &rq); !why.empty()) return MatchResult::failure(why);
  return MatchResult::success({&rq, conv}, [&rq, conv](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> in(conv->inputs().begin(), conv->inputs().end());
    ir::Node* n = rw.addNode(*conv->owner(), ops::kFusedConvInteger, ops::kDomain, in, 3, conv, "",
                             {conv, &rq});
    for (const ir::Attribute& a : conv->attributes())
      if (auto copy = copyAttribute(a)) rw.setAttr(n, std::move(*copy));
    rw.setAttr(n, ir::Attribute::makeInt(kQuantizeOutput, 1));
    for (size_t i = 0; i < rq.outputCount() && i < 3; ++i) {
      if (!rq.output(i)) continue;
      rw.setType(n->output(i), rq.output(i)->type());
      rw.replaceAllUsesWith(rq.output(i), n->output(i));
    }
    rw.removeNode(&rq);
    rw.removeNode(conv);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // ai.passlab.RangedDynamicQuantizeLinear(ai.passlab.FusedConvInteger(...)) ->
  // ai.passlab.FusedConvInteger<quantize_output = 1>(...)
  // (rooted at the ai.passlab op: addRule roots rules at default-domain ops)
  r.push_back(std::make_unique<rewrite::RulePattern>(
      "dynamic_quantize_into_conv",
      "ai.passlab.RangedDynamicQuantizeLinear(y, r = ai.passlab.FusedConvInteger(...)) -> "
      "ai.passlab.FusedConvInteger<quantize_output = 1>(...)",
      std::vector<rewrite::OpKey>{{ops::kDomain, ops::kRangedDynamicQuantizeLinear}}, fuse));
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseDynamicQuantizeIntoConv() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_dynamic_quantize_into_conv"), rules());
}

}  // namespace passlab::passes
