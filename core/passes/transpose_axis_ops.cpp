#include "core/passes/transpose_axis_ops.h"

#include <cstring>
#include <string_view>

#include "core/passes/fusion_utils.h"
#include "core/passes/rule_helpers.h"
#include "core/rewrite/match_utils.h"

namespace passlab::passes {

namespace {

bool isOneOf(const ir::Node& n, std::initializer_list<std::string_view> ops) {
  for (std::string_view op : ops)
    if (isDefaultOp(n, op)) return true;
  return false;
}

// One of ONNX Runtime's com.microsoft ops `ops`.
bool isMsOneOf(const ir::Node& n, std::initializer_list<std::string_view> ops) {
  if (n.domain() != "com.microsoft") return false;
  for (std::string_view op : ops)
    if (n.opType() == op) return true;
  return false;
}

// Axis `a` of t (negative counts from the end) as an axis of x; nullopt out of range.
std::optional<int64_t> axisOfX(int64_t a, const std::vector<int64_t>& perm) {
  const auto r = static_cast<int64_t>(perm.size());
  if (a < -r || a >= r) return std::nullopt;
  return perm[static_cast<size_t>(a < 0 ? a + r : a)];
}

// Element i of `t` moved to position perm[i] (in each of `halves` halves:
// the begins and the ends of pads or roi). Any fixed-size element type.
std::optional<ir::Tensor> permutedElements(const ir::Tensor& t, const std::vector<int64_t>& perm,
                                           size_t halves = 1) {
  const size_t r = perm.size();
  if (t.rank() != 1 || t.numel() != static_cast<int64_t>(r * halves) || t.numel() == 0)
    return std::nullopt;
  const uint64_t bytes = t.expectedBytes();
  if (bytes == 0 || bytes % static_cast<uint64_t>(t.numel()) != 0) return std::nullopt;
  const size_t size = bytes / static_cast<uint64_t>(t.numel());
  auto from = t.bytes();
  if (from.size() != bytes) return std::nullopt;
  ir::Tensor out(t.dtype(), t.dims());
  auto to = out.mutableBytes();
  for (size_t h = 0; h < halves; ++h)
    for (size_t i = 0; i < r; ++i)
      std::memcpy(to.data() + (h * r + static_cast<size_t>(perm[i])) * size,
                  from.data() + (h * r + i) * size, size);
  return out;
}

// `values` as a 1-D tensor of the integer type of `like` (int32, or else int64).
ir::Tensor intsLike(const std::vector<int64_t>& values, const ir::Value* like) {
  if (like && like->type().isTensor() && like->type().elemType() == ir::DataType::kInt32) {
    std::vector<int32_t> v(values.begin(), values.end());
    return ir::Tensor::fromVector<int32_t>(ir::DataType::kInt32, {static_cast<int64_t>(v.size())},
                                           v);
  }
  return ir::Tensor::fromInt64s(values);
}

// The node with only its "axis" attribute mapped (default `fallback`).
std::optional<AxisRemap> axisAttribute(const ir::Node& n, const std::vector<int64_t>& perm,
                                       int64_t fallback, Text& why) {
  auto a = axisOfX(n.attrInt("axis", fallback), perm);
  if (!a) {
    why = "its axis is out of range";
    return std::nullopt;
  }
  AxisRemap out;
  out.attrs.push_back({"axis", {*a}, false});
  return out;
}

std::optional<AxisRemap> quantization(const ir::Node& n, const std::vector<int64_t>& perm,
                                      Text& why) {
  if (n.attrInt("block_size", 0) != 0) {
    why = "blocked quantization (block_size) ties the scale's shape to the axes";
    return std::nullopt;
  }
  auto scaleRank = rankOf(n.input(1));
  if (!scaleRank) {
    why = "the scale's rank is unknown";
    return std::nullopt;
  }
  if (*scaleRank == 0) return AxisRemap{};  // per tensor: elementwise
  return axisAttribute(n, perm, 1, why);
}

// Softmax, LogSoftmax, Hardmax (`flattened`: before opset 13, over the
// input seen as 2-D [prod(dims[:k]), prod(dims[k:])] at its axis k; default
// `defaultAxis`). From opset 13 the axis is mapped. Before, a perm that keeps
// the axes before k before k permutes the rows and, in each row, the
// elements; the op is the same on x, axis unchanged (ONNX Runtime's rule).
std::optional<AxisRemap> softmaxLike(const ir::Node& n, const std::vector<int64_t>& perm,
                                     bool flattened, int64_t defaultAxis, Text& why) {
  if (!flattened) return axisAttribute(n, perm, -1, why);
  const auto r = static_cast<int64_t>(perm.size());
  int64_t k = n.attrInt("axis", defaultAxis);
  if (k < -r || k >= r) {
    why = "its axis is out of range";
    return std::nullopt;
  }
  if (k < 0) k += r;
  for (int64_t i = 0; i < k; ++i)
    if (perm[static_cast<size_t>(i)] >= k) {
      why = Text::of(
          "before opset 13 it works on the input flattened to 2-D at axis %1, and the perm "
          "%2 moves an axis across it",
          std::to_string(k), intsText(perm));
      return std::nullopt;
    }
  return AxisRemap{};
}

// ONNX Runtime's com.microsoft QLinearSoftmax: Softmax of the opset its opset
// attribute names; a missing axis is -1 at every opset (the schema's default,
// which ONNX Runtime fills in).
std::optional<AxisRemap> qlinearSoftmax(const ir::Node& n, const std::vector<int64_t>& perm,
                                        Text& why) {
  if (!n.hasAttr("opset")) {
    why = "it has no opset attribute (the Softmax opset whose semantics it follows)";
    return std::nullopt;
  }
  return softmaxLike(n, perm, n.attrInt("opset", 13) < 13, -1, why);
}

// The default axes of a Slice: every axis from 0, as many as starts has.
std::vector<int64_t> leadingAxes(size_t count) {
  std::vector<int64_t> axes(count);
  for (size_t i = 0; i < count; ++i) axes[i] = static_cast<int64_t>(i);
  return axes;
}

std::optional<std::vector<int64_t>> axesOfX(const std::vector<int64_t>& axes,
                                            const std::vector<int64_t>& perm, Text& why) {
  std::vector<int64_t> out;
  for (int64_t a : axes) {
    auto x = axisOfX(a, perm);
    if (!x) {
      why = Text::of("axis %1 is out of range", std::to_string(a));
      return std::nullopt;
    }
    out.push_back(*x);
  }
  return out;
}

std::optional<AxisRemap> slice(const ir::Node& n, const std::vector<int64_t>& perm, int64_t opset,
                               Text& why) {
  AxisRemap out;
  if (opset < 10) {  // starts, ends and axes are attributes
    auto axes =
        axesOfX(n.hasAttr("axes") ? n.attrInts("axes") : leadingAxes(n.attrInts("starts").size()),
                perm, why);
    if (!axes) return std::nullopt;
    out.attrs.push_back({"axes", *axes, true});
    return out;
  }
  std::optional<std::vector<int64_t>> axes;
  if (n.inputCount() > 3 && n.input(3)) {
    axes = constantInts(n.input(3));
    if (!axes) why = "the axes are not constant";
  } else if (auto starts = fusion::dimsOf(n.input(1)); starts && starts->size() == 1) {
    axes = leadingAxes(static_cast<size_t>((*starts)[0]));
  } else {
    why = "the axes are left out and the length of starts is unknown";
  }
  if (!axes) return std::nullopt;
  auto mapped = axesOfX(*axes, perm, why);
  if (!mapped) return std::nullopt;
  out.inputs.assign(std::max<size_t>(n.inputCount(), 4), std::nullopt);
  // Slice's starts, ends, axes and steps share one integer type.
  out.inputs[3] = intsLike(*mapped, n.input(1));
  return out;
}

std::optional<AxisRemap> pad(const ir::Node& n, const std::vector<int64_t>& perm, int64_t opset,
                             Text& why) {
  AxisRemap out;
  if (opset < 11) {  // pads is an attribute (opset 1: paddings)
    if (!n.hasAttr("pads")) {
      why = "it has no pads attribute";
      return std::nullopt;
    }
    auto t = permutedElements(ir::Tensor::fromInt64s(n.attrInts("pads")), perm, 2);
    if (!t) {
      why = "pads does not have two values per axis";
      return std::nullopt;
    }
    out.attrs.push_back({"pads", t->toInt64Vector(), true});
    return out;
  }
  out.inputs.assign(n.inputCount(), std::nullopt);
  if (n.inputCount() > 3 && n.input(3)) {  // explicit axes: map them, pads stay
    auto axes = constantInts(n.input(3));
    auto mapped = axes ? axesOfX(*axes, perm, why) : std::nullopt;
    if (!axes) why = "the axes are not constant";
    if (!mapped) return std::nullopt;
    out.inputs[3] = intsLike(*mapped, n.input(3));
    return out;
  }
  auto pads = rewrite::constantValue(n.input(1));
  if (!pads) {
    why = "the pads are not constant";
    return std::nullopt;
  }
  out.inputs[1] = permutedElements(*pads, perm, 2);
  if (!out.inputs[1]) {
    why = "pads does not have two values per axis";
    return std::nullopt;
  }
  return out;
}

// An op whose input `index` holds one value per axis (Tile's repeats,
// Expand's shape padded with leading 1s to the rank).
std::optional<AxisRemap> perAxisInput(const ir::Node& n, size_t index,
                                      const std::vector<int64_t>& perm, bool padToRank, Text& why) {
  auto values = constantInts(n.input(index));
  if (!values) {
    why = Text::of("its input %1 is not constant", std::to_string(index));
    return std::nullopt;
  }
  if (padToRank && values->size() < perm.size())
    values->insert(values->begin(), perm.size() - values->size(), 1);
  if (values->size() != perm.size()) {
    why = Text::of("it has %1 values for %2 axes (the rank would change)",
                   std::to_string(values->size()), std::to_string(perm.size()));
    return std::nullopt;
  }
  AxisRemap out;
  out.inputs.assign(n.inputCount(), std::nullopt);
  out.inputs[index] = permutedElements(ir::Tensor::fromInt64s(*values), perm);
  return out;
}

std::optional<AxisRemap> resize(const ir::Node& n, const std::vector<int64_t>& perm, int64_t opset,
                                Text& why) {
  if (n.hasAttr("axes")) {
    why = "it has an axes attribute";
    return std::nullopt;
  }
  AxisRemap out;
  out.inputs.assign(n.inputCount(), std::nullopt);
  // opset 10: (X, scales); 11+: (X, roi, scales, sizes). roi holds begins and ends.
  const std::vector<std::pair<size_t, size_t>> perAxis =
      opset < 11 ? std::vector<std::pair<size_t, size_t>>{{1, 1}}
                 : std::vector<std::pair<size_t, size_t>>{{1, 2}, {2, 1}, {3, 1}};
  for (auto [index, halves] : perAxis) {
    if (index >= n.inputCount() || !n.input(index)) continue;
    auto c = rewrite::constantValue(n.input(index));
    if (!c) {
      why = Text::of("its input %1 is not constant", std::to_string(index));
      return std::nullopt;
    }
    if (c->numel() == 0) continue;  // an empty roi, scales or sizes: not given
    out.inputs[index] = permutedElements(*c, perm, halves);
    if (!out.inputs[index]) {
      why = Text::of("its input %1 does not have %2 values per axis", std::to_string(index),
                     std::to_string(halves));
      return std::nullopt;
    }
  }
  return out;
}

std::optional<AxisRemap> cumSum(const ir::Node& n, const std::vector<int64_t>& perm, Text& why) {
  auto axis = rewrite::constantValue(n.input(1));
  if (!axis || axis->numel() != 1) {
    why = "the axis is not a constant";
    return std::nullopt;
  }
  auto a = axisOfX(axis->valueAsInt64(0), perm);
  if (!a) {
    why = "its axis is out of range";
    return std::nullopt;
  }
  AxisRemap out;
  out.inputs.assign(n.inputCount(), std::nullopt);
  ir::Tensor t = intsLike({*a}, n.input(1));
  out.inputs[1] = axis->rank() == 0 ? ir::Tensor(t.dtype(), {}, t.buffer()) : t;
  return out;
}

}  // namespace

bool hasAxisParameters(const ir::Node& n) {
  return isOneOf(n, {"Softmax", "LogSoftmax", "Hardmax", "ArgMax", "ArgMin", "LpNormalization",
                     "Gather", "QuantizeLinear", "DequantizeLinear", "CumSum", "Slice", "Pad",
                     "Tile", "Expand", "Resize"}) ||
         isMsOneOf(n, {"QLinearSoftmax", "QuantizeLinear", "DequantizeLinear"});
}

std::optional<AxisRemap> remapAxesThroughTranspose(const ir::Node& n, const ir::Value* chain,
                                                   const std::vector<int64_t>& perm, int64_t opset,
                                                   Text& why) {
  if (n.inputCount() == 0 || n.input(0) != chain) {
    why = "it reads the transposed value as a parameter, not as its data";
    return std::nullopt;
  }
  for (size_t i = 1; i < n.inputCount(); ++i)
    if (n.input(i) == chain) {
      why = "it reads the transposed value as a parameter too";
      return std::nullopt;
    }
  if (isOneOf(n, {"Softmax", "LogSoftmax", "Hardmax"}))
    return softmaxLike(n, perm, opset < 13, 1, why);
  if (isMsOneOf(n, {"QLinearSoftmax"})) return qlinearSoftmax(n, perm, why);
  if (isOneOf(n, {"ArgMax", "ArgMin"})) {
    if (n.attrInt("keepdims", 1) != 1) {
      why = "keepdims = 0 drops the axis (the rank would change)";
      return std::nullopt;
    }
    return axisAttribute(n, perm, 0, why);
  }
  if (isDefaultOp(n, "LpNormalization")) return axisAttribute(n, perm, -1, why);
  if (isDefaultOp(n, "Gather")) {
    if (rankOf(n.input(1)) != 1) {
      why = "its indices are not of rank 1 (the rank would change)";
      return std::nullopt;
    }
    return axisAttribute(n, perm, 0, why);
  }
  if (isOneOf(n, {"QuantizeLinear", "DequantizeLinear"}) ||
      isMsOneOf(n, {"QuantizeLinear", "DequantizeLinear"}))
    return quantization(n, perm, why);
  if (isDefaultOp(n, "CumSum")) return cumSum(n, perm, why);
  if (isDefaultOp(n, "Slice")) return slice(n, perm, opset, why);
  if (isDefaultOp(n, "Pad")) return pad(n, perm, opset, why);
  if (isDefaultOp(n, "Tile")) {
    if (opset < 6) {
      why = "before opset 6 Tile takes tiles and axis";
      return std::nullopt;
    }
    return perAxisInput(n, 1, perm, false, why);
  }
  if (isDefaultOp(n, "Expand")) return perAxisInput(n, 1, perm, true, why);
  if (isDefaultOp(n, "Resize")) return resize(n, perm, opset, why);
  why = "it has no axis parameters a Transpose passes through";
  return std::nullopt;
}

}  // namespace passlab::passes
