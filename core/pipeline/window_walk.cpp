#include "core/pipeline/window_walk.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "core/ir/graph.h"
#include "core/ir/passlab_ops.h"
#include "core/pipeline/graph_facts.h"

namespace passlab::pipeline {

namespace {

constexpr std::string_view kMicrosoft = "com.microsoft";

bool isOp(const ir::Node* n, std::string_view op) {
  return n != nullptr && n->opType() == op && standardOp(*n);
}

std::optional<std::vector<int64_t>> constantInts(const ir::Value* v) {
  if (const ir::Tensor* t = constantOf(v)) return t->toInt64Vector();
  return std::nullopt;
}

std::optional<size_t> declaredRank(const ir::Value* v) {
  if (!v || !v->type().isTensor() || !v->type().hasShape()) return std::nullopt;
  return v->type().shape()->rank();
}

std::optional<size_t> rankOf(const ir::Value* v, int depth = 0);
std::optional<int64_t> pieceLength(const ir::Value* v);
std::optional<std::vector<int64_t>> axesOf(const ir::Node& n, size_t index);
std::optional<size_t> spatialRank(const ir::Node& n);

// A Reshape's output rank from its shape: a constant, or a Concat of pieces
// of known length.
std::optional<size_t> reshapeRank(const ir::Node& n) {
  const ir::Value* shape = n.input(1);
  if (auto len = pieceLength(shape)) return static_cast<size_t>(*len);
  const ir::Node* concat = shape ? shape->producer() : nullptr;
  if (!isOp(concat, "Concat")) return std::nullopt;
  size_t rank = 0;
  for (const ir::Value* piece : concat->inputs()) {
    auto len = pieceLength(piece);
    if (!len) return std::nullopt;
    rank += static_cast<size_t>(*len);
  }
  return rank;
}

// The rank of a value: declared, or worked out from the ops the walk follows
// (subgraph values often have no declared shape).
std::optional<size_t> rankOf(const ir::Value* v, int depth) {
  if (auto r = declaredRank(v)) return r;
  const ir::Node* p = v ? v->producer() : nullptr;
  if (!p || depth > 64 || !standardOp(*p)) return std::nullopt;
  const std::string& op = p->opType();
  if (op == "Reshape") return reshapeRank(*p);
  if (op == "Unsqueeze" || op == "Squeeze") {
    auto in = rankOf(p->input(0), depth + 1);
    auto axes = axesOf(*p, 1);
    if (!in || !axes) return std::nullopt;
    if (op == "Unsqueeze") return *in + axes->size();
    return axes->size() <= *in ? std::optional<size_t>(*in - axes->size()) : std::nullopt;
  }
  if (op == "Pad" || op == "Slice" || op == "Split") return rankOf(p->input(0), depth + 1);
  if (op.rfind("Reduce", 0) == 0 && p->attrInt("keepdims", 1))
    if (auto axes = axesOf(*p, 1); axes && !axes->empty()) return rankOf(p->input(0), depth + 1);
  if (isWindowOp(*p))
    if (auto spatial = spatialRank(*p)) return *spatial + 2;
  if (keepsSpatialDims(*p) && op != "Concat") {  // broadcasting: the largest rank
    std::optional<size_t> rank;
    for (const ir::Value* in : p->inputs()) {
      if (!in) continue;
      auto r = rankOf(in, depth + 1);
      if (!r) return std::nullopt;
      rank = std::max(rank.value_or(0), *r);
    }
    return rank;
  }
  if (op == "If")
    for (const ir::Graph* g : p->subgraphs())
      for (size_t k = 0; k < g->outputs().size(); ++k)
        if (p->output(k) == v)
          if (auto r = rankOf(g->outputs()[k], depth + 1)) return r;
  return std::nullopt;
}

// An op's axes from its input `index` (newer opsets) or its `axes` attribute.
std::optional<std::vector<int64_t>> axesOf(const ir::Node& n, size_t index) {
  if (n.inputs().size() > index && n.input(index)) return constantInts(n.input(index));
  if (n.attr("axes")) return n.attrInts("axes");
  return std::nullopt;
}

int64_t normalizedAxis(int64_t a, size_t rank) {
  return a < 0 ? a + static_cast<int64_t>(rank) : a;
}

// True for a scalar: declared rank 0, or a Gather of one element (a scalar
// index) from a 1-D tensor such as a Shape.
bool isScalar(const ir::Value* v) {
  if (auto r = rankOf(v)) return *r == 0;
  const ir::Node* p = v ? v->producer() : nullptr;
  if (!isOp(p, "Gather")) return false;
  const ir::Tensor* index = constantOf(p->input(1));
  return index && index->dims().empty() && p->input(0) && isOp(p->input(0)->producer(), "Shape");
}

// The element count of a 1-D shape piece: a constant, a value of static
// shape, or an unsqueezed scalar.
std::optional<int64_t> pieceLength(const ir::Value* v) {
  if (const ir::Tensor* t = constantOf(v)) return t->numel();
  if (auto dims = staticDims(v); dims && dims->size() <= 1) return dims->empty() ? 1 : (*dims)[0];
  const ir::Node* p = v ? v->producer() : nullptr;
  if (isOp(p, "Unsqueeze") && isScalar(p->input(0)))
    if (auto axes = axesOf(*p, 1); axes && axes->size() == 1) return 1;
  return std::nullopt;
}

// True when `piece` is Shape(data)[axis], possibly unsqueezed to one element.
bool isSizeOf(const ir::Value* piece, const ir::Value& data, size_t axis) {
  const ir::Node* p = piece ? piece->producer() : nullptr;
  if (isOp(p, "Unsqueeze")) p = p->input(0) ? p->input(0)->producer() : nullptr;
  if (!isOp(p, "Gather") || p->attrInt("axis", 0) != 0) return false;
  const ir::Node* shape = p->input(0) ? p->input(0)->producer() : nullptr;
  if (!isOp(shape, "Shape") || shape->input(0) != &data || shape->attrInt("start", 0) != 0 ||
      shape->attr("end"))
    return false;
  auto index = constantInts(p->input(1));
  auto rank = rankOf(&data);
  return index && index->size() == 1 && rank &&
         normalizedAxis((*index)[0], *rank) == static_cast<int64_t>(axis);
}

// Where a Reshape puts axis `axis` of `data`: the position of Shape(data)[axis]
// in a shape built by Concat; nullopt otherwise.
std::optional<size_t> reshapedAxis(const ir::Node& reshape, const ir::Value& data, size_t axis) {
  const ir::Node* concat = reshape.input(1) ? reshape.input(1)->producer() : nullptr;
  if (!isOp(concat, "Concat")) return std::nullopt;
  int64_t offset = 0;
  for (const ir::Value* piece : concat->inputs()) {
    if (isSizeOf(piece, data, axis)) return static_cast<size_t>(offset);
    auto length = pieceLength(piece);
    if (!length) return std::nullopt;
    offset += *length;
  }
  return std::nullopt;
}

bool inDomain(const ir::Node& n, std::string_view domain,
              std::initializer_list<std::string_view> ops) {
  if (n.domain() != domain) return false;
  return std::find(ops.begin(), ops.end(), std::string_view(n.opType())) != ops.end();
}

// Window ops that read N, spatial..., C: com.microsoft's NhwcMaxPool, and
// its QLinearConv and QLinearAveragePool with channels_last = 1.
bool channelsLast(const ir::Node& n) {
  if (inDomain(n, kMicrosoft, {"NhwcMaxPool"})) return true;
  return inDomain(n, kMicrosoft, {"QLinearConv", "QLinearAveragePool"}) &&
         n.attrInt("channels_last", 0) != 0;
}

// The contrib ops (com.microsoft, ai.passlab) whose output has the sizes of
// input `inputIndex` (elementwise, with broadcasting; quantized activations;
// the 8-bit lookup and squeeze-excitation; conversions to and from the blocked
// layout, which keep the spatial axes where they are; a FusedConv's residual Z).
bool keepsSpatialDimsContrib(const ir::Node& n, int inputIndex) {
  if (inDomain(n, kMicrosoft, {"QLinearAdd", "QLinearMul"}))
    return inputIndex == 0 || inputIndex == 3;
  if (inDomain(n, kMicrosoft, {"QLinearConcat"})) return inputIndex >= 2 && inputIndex % 3 == 2;
  if (inDomain(n, kMicrosoft,
               {"QLinearSigmoid", "QLinearLeakyRelu", "QuantizeLinear", "DequantizeLinear", "Gelu",
                "FastGelu", "BiasGelu"}))
    return inputIndex == 0;
  if (inDomain(n, ir::passlab_ops::kDomain, {ir::passlab_ops::kFusedElementwise})) return true;
  if (inDomain(n, ir::passlab_ops::kDomain,
               {ir::passlab_ops::kQLinearLookup, ir::passlab_ops::kQLinearSqueezeExcite,
                ir::passlab_ops::kReorderToBlocked, ir::passlab_ops::kReorderFromBlocked}))
    return inputIndex == 0;
  if (inDomain(n, ir::passlab_ops::kDomain, {ir::passlab_ops::kFusedConv}) ||
      inDomain(n, kMicrosoft, {"FusedConv"}))
    return inputIndex == 3;  // Z, added to the output
  return false;
}

// The number of spatial axes of a window op, from its kernel_shape or weight.
std::optional<size_t> spatialRank(const ir::Node& n) {
  if (n.attr("kernel_shape")) return n.attrInts("kernel_shape").size();
  const ir::Value* w = n.opType() == "QLinearConv" ? n.input(3) : n.input(1);
  if (n.opType().find("Conv") != std::string::npos)
    if (auto dims = staticDims(w); dims && dims->size() >= 3) return dims->size() - 2;
  return std::nullopt;
}

void keepLarger(AxisNeed& out, const AxisNeed& n) {
  if (n.min > out.min || (out.why.empty() && !n.why.empty())) {
    out.min = n.min;
    out.why = n.why;
  }
  out.downsample = std::max(out.downsample, n.downsample);
}

class AxisWalk {
 public:
  AxisNeed need(const ir::Value* v, size_t axis) {
    const auto key = std::make_pair(v, axis);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    memo_[key] = AxisNeed{};  // a cycle (none in a valid graph) reads "no constraint"
    AxisNeed out;
    for (const ir::Use& u : v->uses())
      if (u.node) keepLarger(out, needAt(*u.node, u.inputIndex, *v, axis));
    // A branch output of an If continues as the If's output.
    for (const ir::Graph* g : v->outputOf()) {
      const ir::Node* owner = g->parentNode();
      if (!isOp(owner, "If")) continue;
      const auto& outs = g->outputs();
      for (size_t k = 0; k < outs.size() && k < owner->outputs().size(); ++k)
        if (outs[k] == v && owner->output(k)) keepLarger(out, need(owner->output(k), axis));
    }
    memo_[key] = out;
    return out;
  }

 private:
  AxisNeed needAt(const ir::Node& n, int inputIndex, const ir::Value& v, size_t axis) {
    if (!n.output(0)) return {};
    if (keepsSpatialDims(n) || keepsSpatialDimsContrib(n, inputIndex))
      return elementwise(n, v, axis);
    if (inputIndex != 0) return {};
    if (isWindowOp(n)) return windowed(n, v, axis);
    const std::string& op = n.opType();
    if (!standardOp(n)) return {};
    if (op == "Transpose") return transposed(n, axis);
    if (op == "Unsqueeze") return unsqueezed(n, v, axis);
    if (op == "Squeeze") return squeezed(n, v, axis);
    if (op == "Pad") return padded(n, v, axis);
    if (op == "Slice") return sliced(n, v, axis);
    if (op == "Split") return split(n, v, axis);
    if (op.rfind("Reduce", 0) == 0) return reduced(n, v, axis);
    if (op == "Reshape") {
      if (auto to = reshapedAxis(n, v, axis)) return need(n.output(0), *to);
      return {};
    }
    return {};
  }

  // Broadcasting aligns the trailing axes.
  AxisNeed elementwise(const ir::Node& n, const ir::Value& v, size_t axis) {
    auto in = rankOf(&v), out = rankOf(n.output(0));
    size_t to = axis;
    if (in && out && *out >= *in) to = axis + (*out - *in);
    return need(n.output(0), to);
  }

  AxisNeed unsqueezed(const ir::Node& n, const ir::Value& v, size_t axis) {
    auto axes = axesOf(n, 1);
    auto rank = rankOf(&v);
    if (!axes || !rank) return {};
    const size_t outRank = *rank + axes->size();
    std::set<int64_t> inserted;
    for (int64_t a : *axes) inserted.insert(normalizedAxis(a, outRank));
    size_t seen = 0;
    for (size_t pos = 0; pos < outRank; ++pos) {
      if (inserted.count(static_cast<int64_t>(pos))) continue;
      if (seen++ == axis) return need(n.output(0), pos);
    }
    return {};
  }

  AxisNeed squeezed(const ir::Node& n, const ir::Value& v, size_t axis) {
    auto axes = axesOf(n, 1);
    auto rank = rankOf(&v);
    if (!axes || axes->empty() || !rank) return {};
    size_t before = 0;
    for (int64_t a : *axes) {
      const int64_t k = normalizedAxis(a, *rank);
      if (k == static_cast<int64_t>(axis)) return {};
      if (k < static_cast<int64_t>(axis)) ++before;
    }
    return need(n.output(0), axis - before);
  }

  AxisNeed padded(const ir::Node& n, const ir::Value& v, size_t axis) {
    if (n.inputs().size() > 3 && n.input(3)) return {};  // explicit axes: not followed
    auto rank = rankOf(&v);
    std::optional<std::vector<int64_t>> pads =
        n.inputs().size() > 1 && n.input(1) ? constantInts(n.input(1)) : n.attrInts("pads");
    if (!rank || !pads || pads->size() != 2 * *rank) return {};
    AxisNeed after = need(n.output(0), axis);
    const int64_t begin = (*pads)[axis], end = (*pads)[axis + *rank];
    after.min = std::max<int64_t>(1, after.min - begin - end);
    if (!after.why.empty() && begin + end != 0)
      after.why = Text::of("%1, less the %2+%3 of %4,", after.why, std::to_string(begin),
                           std::to_string(end), nodeName(n));
    return after;
  }

  // A reduction over other axes keeps this one (shifted when dims are dropped).
  AxisNeed reduced(const ir::Node& n, const ir::Value& v, size_t axis) {
    auto rank = rankOf(&v);
    auto axes = axesOf(n, 1);
    if (!rank || !axes || axes->empty()) return {};
    size_t before = 0;
    for (int64_t a : *axes) {
      const int64_t k = normalizedAxis(a, *rank);
      if (k == static_cast<int64_t>(axis)) return {};
      if (k < static_cast<int64_t>(axis)) ++before;
    }
    return need(n.output(0), n.attrInt("keepdims", 1) ? axis : axis - before);
  }

  AxisNeed sliced(const ir::Node& n, const ir::Value& v, size_t axis) {
    auto rank = rankOf(&v);
    if (!rank) return {};
    std::optional<std::vector<int64_t>> axes;
    if (n.inputs().size() > 3 && n.input(3))
      axes = constantInts(n.input(3));
    else if (n.inputs().size() > 1)
      axes = std::vector<int64_t>();  // every axis from the first: this one too
    if (!axes) return {};
    if (axes->empty()) return {};
    for (int64_t a : *axes)
      if (normalizedAxis(a, *rank) == static_cast<int64_t>(axis)) return {};
    return need(n.output(0), axis);
  }

  // Every output of a Split has the input's sizes but along the split axis
  // (the fused level's Split of a Conv's output into the Slices it replaced).
  AxisNeed split(const ir::Node& n, const ir::Value& v, size_t axis) {
    auto rank = rankOf(&v);
    if (!rank || normalizedAxis(n.attrInt("axis", 0), *rank) == static_cast<int64_t>(axis))
      return {};
    AxisNeed out;
    for (const ir::Value* o : n.outputs())
      if (o) keepLarger(out, need(o, axis));
    return out;
  }

  // Output axis k is input axis perm[k].
  AxisNeed transposed(const ir::Node& n, size_t axis) {
    const std::vector<int64_t> perm = n.attrInts("perm");
    for (size_t k = 0; k < perm.size(); ++k)
      if (perm[k] == static_cast<int64_t>(axis)) return need(n.output(0), k);
    return {};  // no perm (reversed axes) or not a permutation: not followed
  }

  AxisNeed windowed(const ir::Node& n, const ir::Value& v, size_t axis) {
    // The op's own spatial rank (its kernel), not the value's: an If before it
    // may give branches of different ranks.
    auto spatial = spatialRank(n);
    if (!spatial)
      spatial = rankOf(&v) && *rankOf(&v) >= 3 ? std::optional(*rankOf(&v) - 2) : std::nullopt;
    // N, spatial..., C for channels-last ops; else N, C, spatial...
    const size_t first = channelsLast(n) ? 1 : 2;
    if (!spatial || axis < first || axis - first >= *spatial) return {};
    auto axes = windowAxes(n, *spatial);
    if (!axes) return {};
    const WindowAxis& w = (*axes)[axis - first];
    AxisNeed after = need(n.output(0), axis);
    AxisNeed out;
    out.min = w.smallestInput(after.min);
    out.why = Text::of("%1 (%2)", nodeName(n), w.describe());
    if (after.min > 1)
      out.why = Text::of("%1 with %2 out for the ops after it", out.why, std::to_string(after.min));
    out.downsample =
        w.transpose ? std::max<int64_t>(1, after.downsample / std::max<int64_t>(w.stride, 1))
                    : std::min(kMaxDownsample, after.downsample * std::max<int64_t>(w.stride, 1));
    return out;
  }

  std::map<std::pair<const ir::Value*, size_t>, AxisNeed> memo_;
};

}  // namespace

bool keepsSpatialDims(const ir::Node& n) {
  static const std::set<std::string_view> kOps{"Relu",
                                               "LeakyRelu",
                                               "PRelu",
                                               "Sigmoid",
                                               "Tanh",
                                               "Clip",
                                               "Elu",
                                               "Selu",
                                               "HardSigmoid",
                                               "HardSwish",
                                               "Softplus",
                                               "Mish",
                                               "Gelu",
                                               "Exp",
                                               "Log",
                                               "Abs",
                                               "Neg",
                                               "Sqrt",
                                               "Reciprocal",
                                               "Floor",
                                               "Ceil",
                                               "Round",
                                               "Identity",
                                               "Dropout",
                                               "Cast",
                                               "Add",
                                               "Sub",
                                               "Mul",
                                               "Div",
                                               "Pow",
                                               "Max",
                                               "Min",
                                               "Sum",
                                               "Mean",
                                               "Concat",
                                               "BatchNormalization",
                                               "InstanceNormalization",
                                               "LRN",
                                               "Sign",
                                               "Erf",
                                               "QuantizeLinear",
                                               "DequantizeLinear",
                                               "Softsign",
                                               "ThresholdedRelu",
                                               "Not"};
  return standardOp(n) && kOps.count(n.opType());
}

bool isWindowOp(const ir::Node& n) {
  static const std::set<std::string_view> kOps{
      "Conv", "ConvTranspose", "MaxPool", "AveragePool", "LpPool", "ConvInteger", "QLinearConv"};
  if (standardOp(n)) return kOps.count(n.opType()) != 0;
  return inDomain(n, kMicrosoft,
                  {"QLinearConv", "NhwcMaxPool", "QLinearAveragePool", "FusedConv"}) ||
         inDomain(n, ir::passlab_ops::kDomain,
                  {ir::passlab_ops::kFusedConv, ir::passlab_ops::kFusedConvInteger,
                   ir::passlab_ops::kBlockedPool});
}

int64_t WindowAxis::smallestInput(int64_t outNeed) const {
  const int64_t k = dilation * (kernel - 1) + 1;
  const int64_t s = std::max<int64_t>(stride, 1);
  const int64_t padSum = padBegin + padEnd;
  const bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  int64_t m;
  if (transpose) {
    // out = s (in - 1) + outputPadding + k - pads >= outNeed
    const int64_t rest = outNeed - outputPadding - k + padSum;
    m = rest <= 0 ? 1 : (rest + s - 1) / s + 1;
  } else if (same) {
    m = (outNeed - 1) * s + 1;
  } else {
    m = (outNeed - 1) * s + k - padSum;
  }
  return std::max<int64_t>(m, 1);
}

Text WindowAxis::describe() const {
  Text text = Text::of("kernel %1", std::to_string(kernel));
  if (stride != 1) text = Text::of("%1, stride %2", text, std::to_string(stride));
  if (dilation != 1) text = Text::of("%1, dilation %2", text, std::to_string(dilation));
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")
    text = Text::of("%1, auto_pad %2", text, autoPad);
  else if (padBegin + padEnd)
    text = Text::of("%1, pads %2+%3", text, std::to_string(padBegin), std::to_string(padEnd));
  return text;
}

std::optional<std::vector<WindowAxis>> windowAxes(const ir::Node& n, size_t spatial) {
  const std::string& op = n.opType();
  std::vector<int64_t> kernel = n.attrInts("kernel_shape");
  if (kernel.empty() && (op == "Conv" || op == "ConvTranspose" || op == "ConvInteger" ||
                         op == "FusedConv" || op == "FusedConvInteger"))
    if (auto w = staticDims(n.input(1)); w && w->size() >= 2)
      kernel.assign(w->begin() + 2, w->end());
  if (kernel.empty() && op == "QLinearConv")
    if (auto w = staticDims(n.input(3)); w && w->size() >= 2)
      kernel.assign(w->begin() + 2, w->end());
  if (kernel.size() != spatial) return std::nullopt;
  const std::vector<int64_t> strides = n.attrInts("strides", std::vector<int64_t>(spatial, 1));
  const std::vector<int64_t> dilations = n.attrInts("dilations", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> pads = n.attrInts("pads", std::vector<int64_t>(2 * spatial, 0));
  const std::vector<int64_t> outPad =
      n.attrInts("output_padding", std::vector<int64_t>(spatial, 0));
  const std::string autoPad = n.attrString("auto_pad", "NOTSET");
  if (strides.size() != spatial || dilations.size() != spatial || pads.size() != 2 * spatial ||
      outPad.size() != spatial)
    return std::nullopt;
  if (autoPad != "NOTSET") std::fill(pads.begin(), pads.end(), 0);
  std::vector<WindowAxis> axes(spatial);
  for (size_t i = 0; i < spatial; ++i)
    axes[i] = {.kernel = kernel[i],
               .stride = strides[i],
               .dilation = dilations[i],
               .padBegin = pads[i],
               .padEnd = pads[i + spatial],
               .outputPadding = outPad[i],
               .autoPad = autoPad,
               .transpose = op == "ConvTranspose"};
  return axes;
}

AxisNeed needAlongAxis(const ir::Value& v, size_t axis) {
  return AxisWalk().need(&v, axis);
}

}  // namespace passlab::pipeline
