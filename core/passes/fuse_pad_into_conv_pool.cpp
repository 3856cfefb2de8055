// fuse_pad_into_conv_pool — a constant-mode Pad before a Conv or pooling op becomes the op's own
// pads.
//
// Before:  t = Pad(x, pads = [0, 0, a, b, 0, 0, c, d], mode = "constant", value = 0)
//          y = Conv(t, W, B, pads = [p0, p1, p2, p3])
// After:   y = Conv(x, W, B, pads = [p0 + a, p1 + b, p2 + c, p3 + d])
// Algebra: a Conv (and an AveragePool counting pads) treats its implicit
// padding as zeros, so explicit zero padding of the spatial axes adds to it.
// MaxPool ignores its implicit padding, which equals padding with -inf: a Pad
// with value -inf fuses; a Pad with value 0 fuses when x is the output of a
// Relu (x >= 0, so a 0 never exceeds the window's maximum), and one with the
// lowest float32 (-3.4028235e38, what converters write for Caffe's ceil-mode
// pooling: winml_squeezenet) of a float32 x, when every window still holds a
// real element (each pad below the kernel size, dilation 1).
// Conditions: the Pad result feeds only the op's data input (not a graph
// output, not read in a subgraph); mode "constant"; pads constant, not
// negative, zero on the batch and channel axes; the op has auto_pad NOTSET
// or VALID (no padding of its own; the result has NOTSET);
// pooling ops have ceil_mode = 0 (with ceil_mode a last window that starts in
// the padding is dropped by the op but not by an explicit Pad); an
// AveragePool either has no pads of its own or counts them
// (count_include_pad = 1), and becomes count_include_pad = 1.
// Exact. Opsets: 1-28 (Pad: paddings attribute in 1, pads attribute 2-10,
// inputs from 11, axes input from 18; AveragePool's count_include_pad from 7,
// so an AveragePool before opset 7 is left alone).
#include <cmath>
#include <limits>

#include "core/ir/window.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

// Pads per axis (begin, end) of a Pad node over a tensor of rank `rank`.
std::optional<std::vector<int64_t>> padAmounts(const ir::Node& pad, int64_t rank, Text& why) {
  std::vector<int64_t> raw;
  if (pad.hasAttr("pads") || pad.hasAttr("paddings")) {
    raw = pad.attrInts(pad.hasAttr("pads") ? "pads" : "paddings");
  } else {
    auto p = constantInts(pad.input(1));
    if (!p) {
      why = "Pad pads are not constant";
      return std::nullopt;
    }
    raw = *p;
  }
  std::vector<int64_t> axes;
  if (pad.input(3)) {
    auto a = constantInts(pad.input(3));
    auto n = a ? normalizeAxes(*a, rank) : std::nullopt;
    if (!n) {
      why = "Pad axes are not constant";
      return std::nullopt;
    }
    axes = *n;
  } else {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  if (raw.size() != 2 * axes.size()) {
    why = "Pad pads do not match its axes";
    return std::nullopt;
  }
  std::vector<int64_t> out(2 * rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    out[axes[i]] = raw[i];
    out[rank + axes[i]] = raw[axes.size() + i];
  }
  return out;
}

// The pad value, or nullopt when it is not a constant.
std::optional<double> padValue(const ir::Node& pad) {
  if (pad.hasAttr("value")) return pad.attrFloat("value", 0.0f);
  if (!pad.input(2)) return 0.0;
  return fusion::scalarValue(pad.input(2));
}

MatchResult fuse(ir::Node& op, const MatchContext& c) {
  const std::string& kind = op.opType();
  ir::Node* pad = producerOp(op.input(0), "Pad");
  if (!pad) return MatchResult::failure("the input is not produced by a Pad");
  if (Text why = rewrite::whyNotSoleConsumer(op.input(0)); !why.empty())
    return MatchResult::failure(Text::of("Pad output %1", why));
  if (pad->attrString("mode", "constant") != "constant")
    return MatchResult::failure(
        Text::of("Pad mode is '%1', not constant", pad->attrString("mode", "")));
  if (kind == "AveragePool" && c.opset < 7)
    return MatchResult::failure("AveragePool before opset 7 never counts pads");
  auto rank = rankOf(op.input(0));
  if (!rank || *rank < 3) return MatchResult::failure("the rank of the Pad result is unknown");
  Text why;
  auto pads = padAmounts(*pad, *rank, why);
  if (!pads) return MatchResult::failure(why);
  for (int64_t p : *pads)
    if (p < 0) return MatchResult::failure("Pad has negative pads (a crop)");
  int64_t r = *rank;
  if ((*pads)[0] || (*pads)[1] || (*pads)[r] || (*pads)[r + 1])
    return MatchResult::failure("Pad pads the batch or channel axis");
  auto value = padValue(*pad);
  if (!value) return MatchResult::failure("Pad value is not constant");
  const std::string autoPad = op.attrString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID")
    return MatchResult::failure(Text::of("%1 has auto_pad %2", kind, autoPad));
  size_t spatial = static_cast<size_t>(r - 2);
  std::vector<int64_t> own = autoPad == "VALID"
                                 ? std::vector<int64_t>(2 * spatial, 0)
                                 : op.attrInts("pads", std::vector<int64_t>(2 * spatial, 0));
  if (own.size() != 2 * spatial)
    return MatchResult::failure(Text::of("%1 pads have the wrong length", kind));
  bool ownPads = false;
  for (int64_t p : own) ownPads = ownPads || p != 0;
  if (kind != "Conv") {
    if (op.attrInt("ceil_mode", 0) != 0)
      return MatchResult::failure(Text::of(
          "%1 has ceil_mode = 1 (a window starting in the padding would be dropped)", kind));
  }
  if (kind == "Conv" || kind == "AveragePool") {
    if (*value != 0)
      return MatchResult::failure(Text::of("Pad value is %1, not 0", std::to_string(*value)));
    if (kind == "AveragePool" && ownPads && op.attrInt("count_include_pad", 0) == 0)
      return MatchResult::failure(
          "AveragePool has its own pads that it does not count (count_include_pad = 0)");
  } else {  // MaxPool
    bool negInf = std::isinf(*value) && *value < 0;
    if (!negInf) {
      const bool lowestFloat = elemTypeOf(pad->input(0)) == ir::DataType::kFloat &&
                               *value == static_cast<double>(std::numeric_limits<float>::lowest());
      if (!lowestFloat && (*value != 0 || !producerOp(pad->input(0), "Relu")))
        return MatchResult::failure(
            "MaxPool ignores padding: the Pad value must be -inf, the lowest float32 of a "
            "float32 input, or 0 after a Relu");
      auto k = op.attrInts("kernel_shape");
      auto dil = op.attrInts("dilations", std::vector<int64_t>(spatial, 1));
      for (int64_t d : dil)
        if (d != 1) return MatchResult::failure("MaxPool has dilations (a window could miss x)");
      for (size_t i = 0; i < spatial && i < k.size(); ++i) {
        const ir::WindowAxis axis{.kernel = k[i],
                                  .padBegin = own[i] + (*pads)[2 + i],
                                  .padEnd = own[spatial + i] + (*pads)[r + 2 + i]};
        if (axis.mayReadOnlyPadding())
          return MatchResult::failure("a pad reaches the kernel size (a window could be all pad)");
      }
    }
    if (op.outputCount() > 1 && op.output(1) &&
        (op.output(1)->hasUses() || op.output(1)->isGraphOutput()))
      return MatchResult::failure("MaxPool Indices output is used (indices count the padding)");
  }
  std::vector<int64_t> merged(2 * spatial);
  for (size_t i = 0; i < spatial; ++i) {
    merged[i] = own[i] + (*pads)[2 + i];
    merged[spatial + i] = own[spatial + i] + (*pads)[r + 2 + i];
  }
  bool setCount = kind == "AveragePool";
  return MatchResult::success({&op, pad}, [&op, pad, merged, setCount](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> ins = op.inputs();
    ins[0] = pad->input(0);
    std::vector<const ir::Value*> types;
    for (ir::Value* o : op.outputs()) types.push_back(o);
    ir::Node* n =
        fusion::addDerived(rw, op.opType(), ins, &op, {pad, &op}, &op, types, op.outputCount());
    rw.setAttr(n, ir::Attribute::makeInts("pads", merged));
    if (n->hasAttr("auto_pad")) rw.setAttr(n, ir::Attribute::makeString("auto_pad", "NOTSET"));
    if (setCount) rw.setAttr(n, ir::Attribute::makeInt("count_include_pad", 1));
    for (size_t i = 1; i < op.outputCount(); ++i)
      if (op.output(i) && n->output(i)) rw.replaceAllUsesWith(op.output(i), n->output(i));
    fusion::replaceAndErase(rw, op.output(0), n->output(0), {&op, pad});
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Conv(Pad(x, zeros on spatial axes)) -> Conv(x, pads += those)
  fusion::addRule(r, "pad_conv", "Conv(Pad(x, 0)) -> Conv(x) with the pads added", {"Conv"}, fuse);
  // AveragePool(Pad(x, 0)) -> AveragePool(x, pads +=, count_include_pad = 1)
  fusion::addRule(r, "pad_average_pool",
                  "AveragePool(Pad(x, 0)) -> AveragePool(x, count_include_pad=1) with the pads",
                  {"AveragePool"}, fuse);
  // MaxPool(Pad(x, -inf)) or MaxPool(Pad(Relu(x), 0)) -> MaxPool(x, pads +=)
  fusion::addRule(r, "pad_max_pool", "MaxPool(Pad(x, -inf or 0 after Relu)) -> MaxPool(x)",
                  {"MaxPool"}, fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFusePadIntoConvPool() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_pad_into_conv_pool"), rules());
}

}  // namespace passlab::passes
