// eliminate_noop_ops — redundancy kind 2: ops made meaningless by their parameters.
//
// Before:  t = Transpose <perm = [0, 1]> (x); u = Mul(t, one); y = Relu(u)   (one = 1.0)
// After:   y = Relu(x)
// Rules (one row each, the rule as its comment). Conditions common to all:
// the node's other outputs are unused, and if its output is a model output
// the forwarded value takes over that name (not possible when it is a model
// input or constant: then the node stays, with that reason). Parameters given
// as inputs must be constants (initializers that are not graph inputs, or
// Constant nodes). Where a rule needs shapes it uses the types inferred before
// the pass; unknown dims are never assumed to match.
// Exactness: every rule returns its input bit for bit, except x+0 where x is
// -0.0 (gives +0.0; compares equal) and Resize with scale 1 in linear/cubic
// mode on non-finite neighbours (0*inf); both are the values ONNX Runtime's own
// eliminations produce.
// Opsets: 1-28; per-rule checks where parameters moved from attributes to
// inputs (Pad 11, Slice 10, Resize/Upsample 9-11, Clip 11, Reduce* 13/18).
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"

namespace passlab::passes {

namespace {

using rewrite::addRule;
using rewrite::Rules;

// The node's output has exactly its input's type and shape (same symbols).
MatchResult forwardIfSameShape(ir::Node& n) {
  if (!rewrite::sameTensorType(n.input(0), n.output(0)))
    return MatchResult::failure(Text::of("the output %1 is not known to equal the input %2",
                                         typeText(n.output(0)), typeText(n.input(0))));
  return forwardValue(n, n.input(0));
}

// x op c -> x, where c is a constant filled with `neutral` and broadcasting
// against it leaves x's shape unchanged. `commutes`: also c op x.
MatchResult neutralElement(ir::Node& n, const MatchContext& ctx, double neutral, bool commutes) {
  if (ctx.opset < 7)
    return MatchResult::failure(
        Text::of("before opset 7 %1 broadcasts by axis attributes; not handled", n.opType()));
  for (size_t c = 1;; c = 0) {
    size_t x = 1 - c;
    if (rewrite::isConstantFilledWith(n.input(c), neutral)) {
      if (!rewrite::broadcastKeepsShape(n.input(x), n.input(c)))
        return MatchResult::failure(
            Text::of("broadcasting %1 with the constant %2 may change its shape",
                     typeText(n.input(x)), typeText(n.input(c))));
      if (elemTypeOf(n.input(x)) != elemTypeOf(n.output(0)))
        return MatchResult::failure("the output type differs from the input's");
      return forwardValue(n, n.input(x));
    }
    if (c == 0 || !commutes) break;
  }
  return MatchResult::failure(Text::of("no operand is a constant filled with %1",
                                       std::to_string(static_cast<int64_t>(neutral))));
}

// Reduce* ops whose value over a single element is that element.
bool reduceKeepsSingleElement(const std::string& op) {
  return op == "ReduceSum" || op == "ReduceMean" || op == "ReduceMax" || op == "ReduceMin" ||
         op == "ReduceProd";
}

// Reduce* axes moved from an attribute to input 1: ReduceSum at 13, the others at 18.
bool reduceAxesIsInput(const std::string& op, int64_t opset) {
  return opset >= (op == "ReduceSum" ? 13 : 18);
}

// A recurrent op's initial state that is 0 everywhere: a constant of zeros,
// or ConstantOfShape whose value is 0 (or absent: the default is 0).
bool isZeroState(const ir::Value* v) {
  if (!v) return false;
  if (rewrite::isConstantFilledWith(v, 0.0)) return true;
  const ir::Node* p = v->producer();
  if (!p || !p->domain().empty() || p->opType() != "ConstantOfShape") return false;
  const ir::Attribute* value = p->attr("value");
  if (!value) return true;
  if (value->type() != ir::AttrType::kTensor) return false;
  const ir::Tensor& t = value->t;
  if (t.numel() != 1 || t.bytes().size() < t.expectedBytes() || ir::dtypeBits(t.dtype()) < 8)
    return false;
  return t.valueAsDouble(0) == 0.0;
}

// Shape and data-movement ops that leave their input as it is.
void addShapeNoops(Rules& r) {
  // Transpose(x, perm = [0, 1, ..., n-1]) -> x   (no perm reverses the axes: identity for rank <=
  // 1)
  addRule(r, "transpose_identity_perm", "Transpose(x, perm=identity) -> x", {"Transpose"},
          [](ir::Node& n, const MatchContext&) {
            if (!n.hasAttr("perm")) {
              auto rank = rankOf(n.input(0));
              if (!rank)
                return MatchResult::failure("no perm, and the rank of the input is unknown");
              if (*rank > 1) return MatchResult::failure("no perm: the axes are reversed");
            } else {
              auto perm = n.attrInts("perm");
              for (size_t i = 0; i < perm.size(); ++i)
                if (perm[i] != static_cast<int64_t>(i))
                  return MatchResult::failure(Text::of("perm %1 moves axes", intsText(perm)));
            }
            return forwardValue(n, n.input(0));
          });
  // Reshape(x, s) -> x when the result has x's shape
  addRule(r, "reshape_to_same_shape", "Reshape(x) to x's shape -> x", {"Reshape"},
          [](ir::Node& n, const MatchContext&) { return forwardIfSameShape(n); });
  // Expand(x, s) -> x when broadcasting leaves x's shape
  addRule(r, "expand_to_same_shape", "Expand(x) to x's shape -> x", {"Expand"},
          [](ir::Node& n, const MatchContext&) { return forwardIfSameShape(n); });
  // Flatten(x) -> x when x is already 2-D as flattened at `axis`
  addRule(r, "flatten_to_same_shape", "Flatten(x) of a matching 2-D x -> x", {"Flatten"},
          [](ir::Node& n, const MatchContext&) { return forwardIfSameShape(n); });
  // Squeeze(x) -> x when no axis is removed (no axes given and no dim is 1)
  addRule(r, "squeeze_to_same_shape", "Squeeze(x) that removes nothing -> x", {"Squeeze"},
          [](ir::Node& n, const MatchContext&) { return forwardIfSameShape(n); });
  // Unsqueeze(x, axes=[]) -> x
  addRule(r, "unsqueeze_to_same_shape", "Unsqueeze(x) that inserts nothing -> x", {"Unsqueeze"},
          [](ir::Node& n, const MatchContext&) { return forwardIfSameShape(n); });
  // Pad(x, pads = 0) -> x   (any mode; pads is an attribute before opset 11: "paddings" in Pad-1)
  addRule(r, "pad_of_zeros", "Pad(x, pads=0) -> x", {"Pad"}, [](ir::Node& n, const MatchContext&) {
    auto pads = n.hasAttr("paddings") ? std::optional(n.attrInts("paddings"))
                                      : rewrite::intsFromAttrOrInput(n, "pads", 1);
    if (!pads) return MatchResult::failure("the pads are not constant");
    for (int64_t p : *pads)
      if (p != 0)
        return MatchResult::failure(Text::of("pads %1 are not all zero", intsText(*pads)));
    return forwardValue(n, n.input(0));
  });
  // Slice(x, starts = 0, ends >= dim, steps = 1) -> x   (attributes before opset 10)
  addRule(r, "slice_whole_tensor", "Slice(x) of all of x -> x", {"Slice"},
          [](ir::Node& n, const MatchContext&) {
            auto starts = rewrite::intsFromAttrOrInput(n, "starts", 1);
            auto ends = rewrite::intsFromAttrOrInput(n, "ends", 2);
            auto axes = rewrite::intsFromAttrOrInput(n, "axes", 3);
            auto steps = rewrite::intsFromAttrOrInput(n, "steps", 4);
            if (!starts || !ends || !axes || !steps)
              return MatchResult::failure("starts, ends, axes or steps are not constant");
            for (int64_t s : *steps)
              if (s != 1)
                return MatchResult::failure(Text::of("steps %1 are not all 1", intsText(*steps)));
            ir::Value* x = n.input(0);
            auto rank = rankOf(x);
            std::vector<int64_t> ax = *axes;
            if (ax.empty())
              for (size_t i = 0; i < starts->size(); ++i) ax.push_back(static_cast<int64_t>(i));
            auto norm = normalizeAxes(ax, rank);
            if (!norm || norm->size() != starts->size() || ends->size() != starts->size())
              return MatchResult::failure("the axes cannot be resolved");
            // Shape inference may know more (symbolic dims); a same-shaped slice with steps 1 is
            // whole.
            bool sameShape = rewrite::sameTensorType(x, n.output(0));
            for (size_t i = 0; i < norm->size() && !sameShape; ++i) {
              int64_t a = (*norm)[i];
              std::optional<int64_t> dim;
              if (x->type().hasShape() && (*x->type().shape())[a].isStatic())
                dim = (*x->type().shape())[a].value();
              int64_t s = (*starts)[i], e = (*ends)[i];
              bool startOk = s == 0 || (s < 0 && dim && s <= -*dim);
              bool endOk = e >= std::numeric_limits<int32_t>::max() || (dim && e >= *dim);
              if (!startOk || !endOk)
                return MatchResult::failure(Text::of(
                    "axis %1 is sliced [%2, %3) of a dim %4", std::to_string(a), std::to_string(s),
                    std::to_string(e), (dim ? std::to_string(*dim) : "unknown")));
            }
            return forwardValue(n, n.input(0));
          });
  // Concat(x) -> x   (a single input)
  addRule(r, "concat_single_input", "Concat(x) -> x", {"Concat"},
          [](ir::Node& n, const MatchContext&) {
            if (n.inputCount() != 1) return MatchResult::failure("it has several inputs");
            return forwardValue(n, n.input(0));
          });
  // Split(x) -> x   (a single output is the whole tensor)
  addRule(r, "split_single_output", "Split(x) into one part -> x", {"Split"},
          [](ir::Node& n, const MatchContext&) {
            if (n.outputCount() != 1) return MatchResult::failure("it has several outputs");
            return forwardValue(n, n.input(0));
          });
}

// Arithmetic, logic and selection with a neutral operand or a single input.
void addArithmeticNoops(Rules& r) {
  // Sum(x), Mean(x), Max(x), Min(x) -> x   (a single input)
  addRule(r, "variadic_single_input", "Sum/Mean/Max/Min(x) -> x", {"Sum", "Mean", "Max", "Min"},
          [](ir::Node& n, const MatchContext&) {
            if (n.inputCount() != 1) return MatchResult::failure("it has several inputs");
            return forwardValue(n, n.input(0));
          });
  // x + 0 -> x, 0 + x -> x   (broadcasting keeps x's shape)
  addRule(r, "add_zero", "x + 0 -> x", {"Add"},
          [](ir::Node& n, const MatchContext& c) { return neutralElement(n, c, 0.0, true); });
  // x - 0 -> x
  addRule(r, "sub_zero", "x - 0 -> x", {"Sub"},
          [](ir::Node& n, const MatchContext& c) { return neutralElement(n, c, 0.0, false); });
  // x * 1 -> x, 1 * x -> x
  addRule(r, "mul_one", "x * 1 -> x", {"Mul"},
          [](ir::Node& n, const MatchContext& c) { return neutralElement(n, c, 1.0, true); });
  // x / 1 -> x
  addRule(r, "div_one", "x / 1 -> x", {"Div"},
          [](ir::Node& n, const MatchContext& c) { return neutralElement(n, c, 1.0, false); });
  // x ^ 1 -> x
  addRule(r, "pow_one", "x ^ 1 -> x", {"Pow"},
          [](ir::Node& n, const MatchContext& c) { return neutralElement(n, c, 1.0, false); });
  // And(x, true) -> x, Or(x, false) -> x, Xor(x, false) -> x
  addRule(r, "logic_neutral", "And(x, true), Or(x, false), Xor(x, false) -> x",
          {"And", "Or", "Xor"}, [](ir::Node& n, const MatchContext& c) {
            return neutralElement(n, c, n.opType() == "And" ? 1.0 : 0.0, true);
          });
  // Where(true, a, b) -> a; Where(false, a, b) -> b   (the chosen operand has the result's shape)
  addRule(r, "where_constant_condition", "Where(const cond, a, b) -> a or b", {"Where"},
          [](ir::Node& n, const MatchContext&) {
            size_t pick = 0;
            if (rewrite::isConstantFilledWith(n.input(0), 1.0))
              pick = 1;
            else if (rewrite::isConstantFilledWith(n.input(0), 0.0))
              pick = 2;
            else
              return MatchResult::failure("the condition is not a constant all true or all false");
            if (!rewrite::sameTensorType(n.input(pick), n.output(0)))
              return MatchResult::failure(
                  Text::of("the chosen operand %1 is not known to have the result's type %2",
                           typeText(n.input(pick)), typeText(n.output(0))));
            return forwardValue(n, n.input(pick));
          });
  // Clip(x) -> x   (no bounds, or -inf/+inf; attributes min/max before opset 11)
  addRule(r, "clip_no_bounds", "Clip(x) without bounds -> x", {"Clip"},
          [](ir::Node& n, const MatchContext&) {
            const double inf = std::numeric_limits<double>::infinity();
            if (const ir::Attribute* a = n.attr("min"); a && !std::isinf(a->f))
              return MatchResult::failure(Text::of("min is %1", std::to_string(a->f)));
            if (const ir::Attribute* a = n.attr("max"); a && !std::isinf(a->f))
              return MatchResult::failure(Text::of("max is %1", std::to_string(a->f)));
            if (n.input(1) && !rewrite::isConstantFilledWith(n.input(1), -inf))
              return MatchResult::failure("it has a lower bound");
            if (n.input(2) && !rewrite::isConstantFilledWith(n.input(2), inf))
              return MatchResult::failure("it has an upper bound");
            return forwardValue(n, n.input(0));
          });
  // Tile(x, repeats = 1) -> x   (opset 6+; Tile-1 took tiles and axis)
  addRule(r, "tile_ones", "Tile(x, repeats=1) -> x", {"Tile"},
          [](ir::Node& n, const MatchContext& c) {
            if (c.opset < 6) return MatchResult::failure("Tile before opset 6 is not handled");
            if (!rewrite::isConstantFilledWith(n.input(1), 1.0))
              return MatchResult::failure("repeats is not a constant of ones");
            return forwardValue(n, n.input(0));
          });
}

// Resizes by 1 and reductions over nothing or over dims of size 1.
void addResizeAndReduceNoops(Rules& r) {
  // Resize/Upsample(x, scales = 1) -> x, or sizes = x's static shape
  // (not in tf_crop_and_resize mode, which samples a region of interest)
  addRule(r, "resize_scale_one", "Resize/Upsample(x, scale 1) -> x", {"Resize", "Upsample"},
          [](ir::Node& n, const MatchContext& c) {
            bool upsample = n.opType() == "Upsample";
            if (upsample && c.opset < 7) return MatchResult::failure("Upsample-1 is not handled");
            if (n.attrString("coordinate_transformation_mode", "") == "tf_crop_and_resize")
              return MatchResult::failure("tf_crop_and_resize samples a region of interest");
            // scales: Upsample-7 attribute; Upsample-9 and Resize-10 input 1; Resize-11+ input 2.
            std::optional<std::vector<double>> scales;
            if (upsample && n.hasAttr("scales")) {
              scales.emplace();
              for (float f : n.attrFloats("scales")) scales->push_back(f);
            } else if (ir::Value* s = n.input(upsample || c.opset < 11 ? 1 : 2)) {
              if (auto t = rewrite::constantValue(s))
                scales = t->toDoubleVector();
              else
                return MatchResult::failure("scales is not constant");
            }
            if (scales && !scales->empty()) {
              for (double s : *scales)
                if (s != 1.0)
                  return MatchResult::failure(Text::of("a scale is %1", std::to_string(s)));
              return forwardValue(n, n.input(0));
            }
            ir::Value* sizesIn = upsample || c.opset < 11 ? nullptr : n.input(3);
            auto sizes = constantInts(sizesIn);
            if (!sizes)
              return MatchResult::failure("neither scales nor sizes is a usable constant");
            auto dims = rewrite::staticDims(n.input(0));
            if (!dims) return MatchResult::failure("the input shape is not static");
            std::vector<int64_t> axes = n.attrInts("axes");
            auto norm = normalizeAxes(axes, static_cast<int64_t>(dims->size()));
            if (!norm) return MatchResult::failure("the axes cannot be resolved");
            if (norm->empty())
              for (size_t i = 0; i < dims->size(); ++i) norm->push_back(static_cast<int64_t>(i));
            if (norm->size() != sizes->size())
              return MatchResult::failure("sizes has the wrong length");
            for (size_t i = 0; i < norm->size(); ++i)
              if ((*dims)[(*norm)[i]] != (*sizes)[i])
                return MatchResult::failure(
                    Text::of("sizes %1 differ from the input shape", intsText(*sizes)));
            return forwardValue(n, n.input(0));
          });
  // ReduceSum/Mean/Max/Min/Prod(x, axes = [], noop_with_empty_axes = 1) -> x
  // (the attribute exists from opset 13 for ReduceSum and 18 for the others; for
  // ReduceL1/L2/LogSum/LogSumExp/SumSquare the reference applies the per-element
  // transform even then, so they are left alone)
  addRule(r, "reduce_noop_empty_axes", "Reduce*(x, axes=[], noop_with_empty_axes=1) -> x",
          {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
           "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"},
          [](ir::Node& n, const MatchContext& c) {
            if (n.attrInt("noop_with_empty_axes", 0) != 1)
              return MatchResult::failure("noop_with_empty_axes is not set");
            if (!reduceKeepsSingleElement(n.opType()))
              return MatchResult::failure(
                  Text::of("with noop_with_empty_axes the reference still applies %1's per-element "
                           "transform (abs, square, log)",
                           n.opType()));
            if (!reduceAxesIsInput(n.opType(), c.opset))
              return MatchResult::failure(
                  Text::of("noop_with_empty_axes does not exist for %1 at opset %2", n.opType(),
                           std::to_string(c.opset)));
            auto axes = rewrite::intsFromAttrOrInput(n, "axes", 1);
            if (!axes || !axes->empty()) return MatchResult::failure("axes are given");
            return forwardValue(n, n.input(0));
          });
  // ReduceSum/Mean/Max/Min/Prod(x, axes, keepdims = 1) -> x when every reduced dim is 1
  addRule(r, "reduce_over_unit_dims", "Reduce*(x) over dims of size 1, keepdims -> x",
          {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"},
          [](ir::Node& n, const MatchContext& c) {
            if (!reduceKeepsSingleElement(n.opType()))
              return MatchResult::failure("not a reduction that keeps a single element");
            if (n.attrInt("keepdims", 1) != 1) return MatchResult::failure("keepdims is 0");
            bool asInput = reduceAxesIsInput(n.opType(), c.opset);
            auto axes = asInput ? rewrite::intsFromAttrOrInput(n, "", 1)
                                : std::optional(n.attrInts("axes"));
            if (!axes) return MatchResult::failure("the axes are not constant");
            ir::Value* x = n.input(0);
            auto rank = rankOf(x);
            if (!rank) return MatchResult::failure("the rank of the input is unknown");
            std::vector<int64_t> ax = *axes;
            if (ax.empty()) {
              if (n.attrInt("noop_with_empty_axes", 0) == 1)
                return MatchResult::failure("empty axes with noop_with_empty_axes");
              for (int64_t i = 0; i < *rank; ++i) ax.push_back(i);
            }
            auto norm = normalizeAxes(ax, rank);
            if (!norm) return MatchResult::failure("the axes cannot be resolved");
            for (int64_t a : *norm) {
              const ir::Dim& d = (*x->type().shape())[static_cast<size_t>(a)];
              if (!d.isStatic() || d.value() != 1)
                return MatchResult::failure(
                    Text::of("reduced axis %1 has size %2", std::to_string(a), d.toString()));
            }
            return forwardValue(n, n.input(0));
          });
}

// Block rearrangements and pools over a single element; zero recurrent initial states.
void addWindowAndStateNoops(Rules& r) {
  // DepthToSpace(x, blocksize = 1), SpaceToDepth(x, blocksize = 1) -> x   (either mode)
  addRule(r, "depth_space_block_one", "DepthToSpace/SpaceToDepth(x, blocksize=1) -> x",
          {"DepthToSpace", "SpaceToDepth"}, [](ir::Node& n, const MatchContext&) {
            if (n.attrInt("blocksize", 0) != 1)
              return MatchResult::failure(
                  Text::of("blocksize is %1", std::to_string(n.attrInt("blocksize", 0))));
            return forwardValue(n, n.input(0));
          });
  // MaxPool/AveragePool(x) with a 1x1 kernel, strides 1 and no padding -> x
  // (the max or mean of one element; MaxPool's Indices output must be unused)
  addRule(r, "pool_unit_kernel", "MaxPool/AveragePool(x) with a 1x1 kernel, stride 1 -> x",
          {"MaxPool", "AveragePool"}, [](ir::Node& n, const MatchContext&) {
            for (int64_t k : n.attrInts("kernel_shape", {0}))
              if (k != 1) return MatchResult::failure("the kernel is not 1x1");
            for (int64_t s : n.attrInts("strides"))
              if (s != 1) return MatchResult::failure("a stride is not 1");
            for (int64_t p : n.attrInts("pads"))
              if (p != 0) return MatchResult::failure("it pads");
            return forwardValue(n, n.input(0));
          });
  // GlobalAveragePool/GlobalMaxPool(x) -> x when every spatial dim is 1
  addRule(r, "global_pool_unit_spatial", "GlobalAveragePool/GlobalMaxPool(x) over 1x1 -> x",
          {"GlobalAveragePool", "GlobalMaxPool"}, [](ir::Node& n, const MatchContext&) {
            auto rank = rankOf(n.input(0));
            if (!rank || *rank < 3) return MatchResult::failure("the spatial dims are unknown");
            for (int64_t i = 2; i < *rank; ++i) {
              const ir::Dim& d = (*n.input(0)->type().shape())[static_cast<size_t>(i)];
              if (!d.isStatic() || d.value() != 1)
                return MatchResult::failure(
                    Text::of("spatial dim %1 is %2", std::to_string(i), d.toString()));
            }
            return forwardValue(n, n.input(0));
          });
  // LSTM/GRU/RNN(..., initial_h = 0, initial_c = 0) -> the same op without them
  // (the spec's default state is 0; exact). The zeros are constants or a
  // ConstantOfShape of value 0; the node stays, the inputs are dropped and
  // their producers go if nothing else reads them.
  addRule(r, "rnn_zero_initial_state", "LSTM/GRU/RNN(initial state = 0) -> without it",
          {"LSTM", "GRU", "RNN"}, [](ir::Node& n, const MatchContext&) {
            std::vector<size_t> zero;
            const size_t last = n.opType() == "LSTM" ? 6 : 5;
            for (size_t i = 5; i <= last; ++i)
              if (isZeroState(n.input(i))) zero.push_back(i);
            if (zero.empty()) return MatchResult::failure("no initial state is a constant 0");
            return MatchResult::success({&n}, [&n, zero](rewrite::Rewriter& rw) {
              std::vector<ir::Node*> producers;
              for (size_t i : zero) {
                // h and c often share one ConstantOfShape: visit it once.
                ir::Node* p = n.input(i)->producer();
                if (p && std::find(producers.begin(), producers.end(), p) == producers.end())
                  producers.push_back(p);
                rw.setInput(&n, i, nullptr);
              }
              for (ir::Node* p : producers)
                if (p->owner() == n.owner()) rw.eraseIfDead(p);  // only if nothing else reads it
            });
          });
}

Rules rules() {
  Rules r;
  addShapeNoops(r);
  addArithmeticNoops(r);
  addResizeAndReduceNoops(r);
  addWindowAndStateNoops(r);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeEliminateNoopOps() {
  return std::make_unique<PatternPass>(catalogInfo("eliminate_noop_ops"), rules());
}

}  // namespace passlab::passes
