#include "core/passes/fusion_utils.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <unordered_set>

#include "core/support/float16.h"

namespace passlab::passes::fusion {

Text whyNotOpset(const rewrite::MatchContext& c, int64_t lo, int64_t hi, std::string_view what) {
  if (c.opset >= lo && c.opset <= hi) return "";
  std::string s(what);
  if (c.opset < lo)
    return Text::of("%1 needs opset >= %2 (model has %3)", s, std::to_string(lo),
                    std::to_string(c.opset));
  return Text::of("%1 is written for opsets up to %2 (model has %3)", s, std::to_string(hi),
                  std::to_string(c.opset));
}

bool isFloatType(ir::DataType t) {
  return t == ir::DataType::kFloat || t == ir::DataType::kDouble || t == ir::DataType::kFloat16 ||
         t == ir::DataType::kBFloat16;
}

std::optional<std::vector<double>> floatValues(const ir::Tensor& t) {
  if (!isFloatType(t.dtype()) || t.bytes().size() < t.expectedBytes()) return std::nullopt;
  return t.toDoubleVector();
}

std::optional<std::vector<double>> floatValues(const ir::Value* v) {
  auto t = rewrite::constantValue(v);
  if (!t) return std::nullopt;
  return floatValues(*t);
}

ir::Tensor floatTensor(ir::DataType dtype, std::vector<int64_t> dims,
                       const std::vector<double>& values) {
  switch (dtype) {
    case ir::DataType::kDouble:
      return ir::Tensor::fromVector(dtype, std::move(dims), values);
    case ir::DataType::kFloat16:
    case ir::DataType::kBFloat16: {
      std::vector<uint16_t> h(values.size());
      for (size_t i = 0; i < values.size(); ++i) {
        float f = static_cast<float>(values[i]);
        h[i] = dtype == ir::DataType::kFloat16 ? floatToHalf(f) : floatToBfloat16(f);
      }
      return ir::Tensor::fromVector(dtype, std::move(dims), h);
    }
    default: {
      std::vector<float> f(values.begin(), values.end());
      return ir::Tensor::fromVector(ir::DataType::kFloat, std::move(dims), f);
    }
  }
}

ir::Tensor floatTensorLike(const ir::Tensor& like, const std::vector<double>& values) {
  return floatTensor(like.dtype(), like.dims(), values);
}

std::optional<std::vector<double>> perChannelValues(const ir::Value* c, int64_t rank, int64_t axis,
                                                    int64_t channels, Text& why) {
  auto t = rewrite::constantValue(c);
  if (!t) {
    why = Text::of("'%1' is not constant", (c ? c->name() : std::string("?")));
    return std::nullopt;
  }
  auto vals = floatValues(*t);
  if (!vals) {
    why = Text::of("'%1' is not a float constant", c->name());
    return std::nullopt;
  }
  const auto& d = t->dims();
  int64_t k = static_cast<int64_t>(d.size());
  if (k > rank) {
    why = Text::of("'%1' has rank %2, above the result's %3 (broadcasting would change the shape)",
                   c->name(), std::to_string(k), std::to_string(rank));
    return std::nullopt;
  }
  int64_t along = 1;
  for (int64_t j = 0; j < k; ++j) {
    int64_t outAxis = rank - k + j;
    if (d[j] == 1) continue;
    if (outAxis == axis && d[j] == channels) {
      along = channels;
      continue;
    }
    why =
        Text::of("'%1' of shape %2 is not per-channel (varies along axis %3, channels are axis %4)",
                 c->name(), intsText(d), std::to_string(outAxis), std::to_string(axis));
    return std::nullopt;
  }
  std::vector<double> out(static_cast<size_t>(channels));
  for (int64_t i = 0; i < channels; ++i) out[i] = (*vals)[along == 1 ? 0 : i];
  return out;
}

ir::DataType constDtype(const ir::Value* v) {
  auto t = rewrite::constantValue(v);
  return t ? t->dtype() : ir::DataType::kUndefined;
}

std::optional<double> scalarValue(const ir::Value* v) {
  auto t = rewrite::constantValue(v);
  if (!t || t->numel() != 1 || t->bytes().size() < t->expectedBytes() ||
      t->dtype() == ir::DataType::kString || ir::isComplex(t->dtype()))
    return std::nullopt;
  return t->valueAsDouble(0);
}

namespace {
const std::set<std::string>& unaryOps() {
  static const std::set<std::string> s = {"Relu",      "Neg",       "Abs",      "Exp",
                                          "Log",       "Sqrt",      "Sigmoid",  "Tanh",
                                          "Erf",       "Sin",       "Cos",      "Tan",
                                          "Floor",     "Ceil",      "Round",    "Reciprocal",
                                          "Sign",      "Softplus",  "Softsign", "HardSigmoid",
                                          "LeakyRelu", "Elu",       "Selu",     "Celu",
                                          "HardSwish", "Mish",      "Not",      "IsNaN",
                                          "IsInf",     "Identity",  "Cast",     "ThresholdedRelu",
                                          "Gelu",      "Asin",      "Acos",     "Atan",
                                          "Sinh",      "Cosh",      "Asinh",    "Acosh",
                                          "Atanh",     "BitwiseNot"};
  return s;
}
const std::set<std::string>& binaryOps() {
  static const std::set<std::string> s = {"Add",      "Sub",        "Mul",         "Div",
                                          "Pow",      "Max",        "Min",         "Equal",
                                          "Less",     "Greater",    "LessOrEqual", "GreaterOrEqual",
                                          "And",      "Or",         "Xor",         "Mod",
                                          "BitShift", "BitwiseAnd", "BitwiseOr",   "BitwiseXor"};
  return s;
}
}  // namespace

bool isElementwiseUnary(const ir::Node& n) {
  if (!n.domain().empty() || n.outputCount() != 1) return false;
  if (n.opType() == "Clip") {
    // the bounds (inputs 1, 2 from opset 11) must be scalars
    for (size_t i = 1; i < n.inputCount(); ++i)
      if (n.input(i) &&
          (!rewrite::constantValue(n.input(i)) || rewrite::constantValue(n.input(i))->numel() != 1))
        return false;
    return true;
  }
  return unaryOps().count(n.opType()) && n.inputCount() == 1;
}

bool isElementwiseBinary(const ir::Node& n) {
  if (!n.domain().empty() || n.outputCount() != 1 || n.inputCount() != 2) return false;
  // Before opset 7, broadcast = 1 aligns B at `axis` (or at the end), not numpy-style:
  // passes that reason about broadcast positions would misplace it.
  if (n.attrInt("broadcast", 0) != 0) return false;
  // Sum/Mean/Max/Min with two inputs broadcast too (Max/Min listed), opset >= 8
  // for broadcasting Sum/Mean is left out: rare.
  return binaryOps().count(n.opType()) > 0;
}

bool isElementwise(const ir::Node& n) {
  return isElementwiseUnary(n) || isElementwiseBinary(n) ||
         (n.domain().empty() && n.opType() == "Where" && n.inputCount() == 3);
}

std::optional<std::vector<int64_t>> dimsOf(const ir::Value* v) {
  return rewrite::staticDims(v);
}

ir::Node* addDerived(rewrite::Rewriter& rw, const std::string& op,
                     const std::vector<ir::Value*>& inputs, ir::Node* before,
                     const std::vector<const ir::Node*>& from, const ir::Node* attrsFrom,
                     const std::vector<const ir::Value*>& typesLike, size_t outputs) {
  ir::Graph& g = *before->owner();
  ir::Node* n = rw.addNode(g, op, "", inputs, outputs, before, "", from);
  if (attrsFrom)
    for (const ir::Attribute& a : attrsFrom->attributes())
      if (auto c = copyAttribute(a)) rw.setAttr(n, std::move(*c));
  for (size_t i = 0; i < typesLike.size() && i < outputs; ++i)
    if (typesLike[i] && !typesLike[i]->type().isUndefined())
      rw.setType(n->output(i), typesLike[i]->type());
  return n;
}

void replaceAndErase(rewrite::Rewriter& rw, ir::Value* oldOut, ir::Value* newOut,
                     const std::vector<ir::Node*>& dead) {
  if (oldOut && newOut) rw.replaceAllUsesWith(oldOut, newOut);
  eraseDead(rw, dead);
}

void eraseDead(rewrite::Rewriter& rw, const std::vector<ir::Node*>& nodes) {
  // A worklist, linear in the nodes and their inputs: the nodes unused now,
  // in the order given, then each producer among `nodes` as its last use
  // goes. A node is queued once (`pending` holds those not yet queued), and
  // a Constant among `nodes` is removed here, never behind our back by
  // removeWithConstants (which would leave a dangling pointer in the list).
  auto unused = [](const ir::Node* n) {
    for (const ir::Value* o : n->outputs())
      if (o && (o->hasUses() || o->isGraphOutput())) return false;
    return true;
  };
  std::unordered_set<const ir::Node*> pending;
  std::vector<ir::Node*> queue;
  for (ir::Node* n : nodes)
    if (n) pending.insert(n);
  for (ir::Node* n : nodes)
    if (n && pending.count(n) && unused(n)) {
      pending.erase(n);
      queue.push_back(n);
    }
  for (size_t next = 0; next < queue.size(); ++next) {
    ir::Node* n = queue[next];
    std::vector<ir::Value*> ins;
    for (ir::Value* v : n->inputs())
      if (v && std::find(ins.begin(), ins.end(), v) == ins.end()) ins.push_back(v);
    rw.removeNode(n);
    for (ir::Value* v : ins) {
      ir::Node* p = v->producer();
      if (p && pending.count(p)) {
        if (unused(p)) {
          pending.erase(p);
          queue.push_back(p);
        }
      } else {
        dropIfUnused(rw, v);  // a constant only `n` read
      }
    }
  }
}

Text whyNotInferenceBatchNorm(const ir::Node& bn, const rewrite::MatchContext& c) {
  if (c.opset < 7 && bn.attrInt("is_test", 0) != 1)
    return "BatchNormalization has is_test = 0 (training mode before opset 7)";
  if (c.opset < 9 && bn.attrInt("spatial", 1) != 1)
    return "BatchNormalization has spatial = 0 (per-element statistics)";
  if (bn.attrInt("training_mode", 0) != 0) return "BatchNormalization is in training mode";
  return whyExtraOutputsUsed(bn);
}

Text whyExtraOutputsUsed(const ir::Node& n, size_t keep) {
  for (size_t i = 0; i < n.outputCount(); ++i) {
    if (i == keep || !n.output(i)) continue;
    if (n.output(i)->hasUses() || n.output(i)->isGraphOutput())
      return Text::of("%1 output %2 '%3' is used", nodeText(n), std::to_string(i),
                      n.output(i)->name());
  }
  return "";
}

ir::Value* otherOperand(const ir::Node& n, const ir::Value* v) {
  if (n.inputCount() != 2) return nullptr;
  if (n.input(0) == v) return n.input(1);
  if (n.input(1) == v) return n.input(0);
  return nullptr;
}

bool isScalarNear(const ir::Value* v, double x) {
  auto s = scalarValue(v);
  return s && std::fabs(*s - x) <= 1e-4 * std::fabs(x);
}

ir::Node* firstInOrder(const ir::Graph& g, const std::vector<ir::Node*>& nodes) {
  std::unordered_set<const ir::Node*> want(nodes.begin(), nodes.end());
  for (const auto& n : g.nodes())
    if (want.count(n.get())) return n.get();
  return nullptr;
}

std::optional<std::vector<int64_t>> transposePerm(const ir::Node& t) {
  if (const ir::Attribute* a = t.attr("perm")) return a->ints;
  auto r = rankOf(t.input(0));
  if (!r) return std::nullopt;
  std::vector<int64_t> p(static_cast<size_t>(*r));
  for (int64_t i = 0; i < *r; ++i) p[i] = *r - 1 - i;
  return p;
}

bool isPowerOfTwo(double x) {
  if (!std::isfinite(x) || x == 0) return false;
  int e = 0;
  double m = std::frexp(std::fabs(x), &e);
  return m == 0.5;
}

}  // namespace passlab::passes::fusion

namespace passlab::passes::fusion {

namespace {
// Element size in bytes, 0 when elements are not whole bytes or strings.
size_t elemBytes(ir::DataType t) {
  if (t == ir::DataType::kString || t == ir::DataType::kUndefined) return 0;
  int bits = ir::dtypeBits(t);
  return bits % 8 == 0 ? static_cast<size_t>(bits / 8) : 0;
}
std::vector<int64_t> stridesOf(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}
// Copies, for every output index, the element at the source offset computed by `src`.
template <class F>
std::optional<ir::Tensor> gatherElements(const ir::Tensor& x, std::vector<int64_t> outDims, F src) {
  size_t eb = elemBytes(x.dtype());
  if (!eb || x.bytes().size() < x.expectedBytes()) return std::nullopt;
  int64_t n = 1;
  for (int64_t d : outDims) n *= d;
  std::vector<std::byte> out(static_cast<size_t>(n) * eb);
  const std::byte* in = x.bytes().data();
  std::vector<int64_t> idx(outDims.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(out.data() + i * eb, in + src(idx) * eb, eb);
    for (size_t k = idx.size(); k-- > 0;) {
      if (++idx[k] < outDims[k]) break;
      idx[k] = 0;
    }
  }
  return ir::Tensor(x.dtype(), std::move(outDims), ir::makeHeapBuffer(std::move(out)));
}
}  // namespace

std::optional<ir::Tensor> transposeTensor(const ir::Tensor& x, const std::vector<int64_t>& perm) {
  const auto& d = x.dims();
  if (perm.size() != d.size()) return std::nullopt;
  std::vector<int64_t> outDims(d.size());
  for (size_t i = 0; i < perm.size(); ++i) outDims[i] = d[perm[i]];
  auto st = stridesOf(d);
  return gatherElements(x, outDims, [&](const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t i = 0; i < idx.size(); ++i) off += idx[i] * st[perm[i]];
    return off;
  });
}

SliceRange resolveSlice(int64_t start, int64_t end, int64_t step, int64_t dim) {
  SliceRange r{};
  r.step = step;
  if (dim <= 0) {  // nothing to select (and the clamps below need dim >= 1)
    r.start = r.end = r.count = 0;
    return r;
  }
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    r.count = end > start ? (end - start + step - 1) / step : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    r.count = start > end ? (start - end + (-step) - 1) / (-step) : 0;
  }
  r.start = start;
  r.end = end;
  return r;
}

std::optional<ir::Tensor> sliceTensor(const ir::Tensor& x, const std::vector<int64_t>& starts,
                                      const std::vector<int64_t>& ends,
                                      const std::vector<int64_t>& axes,
                                      const std::vector<int64_t>& steps) {
  const auto& d = x.dims();
  std::vector<int64_t> first(d.size(), 0), step(d.size(), 1), outDims = d;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t a = axes[i];
    if (a < 0 || a >= static_cast<int64_t>(d.size()) || steps[i] == 0) return std::nullopt;
    SliceRange r = resolveSlice(starts[i], ends[i], steps[i], d[a]);
    first[a] = r.start;
    step[a] = r.step;
    outDims[a] = r.count;
  }
  auto st = stridesOf(d);
  return gatherElements(x, outDims, [&](const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t i = 0; i < idx.size(); ++i) off += (first[i] + idx[i] * step[i]) * st[i];
    return off;
  });
}

std::optional<ir::Tensor> gatherTensor(const ir::Tensor& x, int64_t axis,
                                       const std::vector<int64_t>& indices, bool dropAxis) {
  const auto& d = x.dims();
  if (axis < 0 || axis >= static_cast<int64_t>(d.size())) return std::nullopt;
  std::vector<int64_t> ix = indices;
  for (int64_t& i : ix) {
    if (i < 0) i += d[axis];
    if (i < 0 || i >= d[axis]) return std::nullopt;
  }
  if (dropAxis && ix.size() != 1) return std::nullopt;
  std::vector<int64_t> outDims = d;
  outDims[axis] = static_cast<int64_t>(ix.size());
  auto st = stridesOf(d);
  auto t = gatherElements(x, outDims, [&](const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t i = 0; i < idx.size(); ++i)
      off += (static_cast<int64_t>(i) == axis ? ix[idx[i]] : idx[i]) * st[i];
    return off;
  });
  if (t && dropAxis) {
    std::vector<int64_t> nd = t->dims();
    nd.erase(nd.begin() + axis);
    return ir::Tensor(t->dtype(), nd, t->buffer());
  }
  return t;
}

ir::Tensor withRank(const ir::Tensor& x, size_t rank) {
  if (x.rank() >= rank) return x;
  std::vector<int64_t> nd(rank - x.rank(), 1);
  nd.insert(nd.end(), x.dims().begin(), x.dims().end());
  if (x.dtype() == ir::DataType::kString) return x;
  return ir::Tensor(x.dtype(), nd, x.buffer());
}

std::optional<SliceParams> sliceParams(const ir::Node& slice, int64_t rank, Text& why) {
  SliceParams p;
  if (slice.hasAttr("starts")) {  // Slice-1
    p.starts = slice.attrInts("starts");
    p.ends = slice.attrInts("ends");
    p.axes = slice.attrInts("axes");
    if (p.axes.empty())
      for (size_t i = 0; i < p.starts.size(); ++i) p.axes.push_back(static_cast<int64_t>(i));
    p.steps.assign(p.starts.size(), 1);
  } else {
    auto s = constantInts(slice.input(1));
    auto e = constantInts(slice.input(2));
    if (!s || !e) {
      why = "Slice starts or ends are not constant";
      return std::nullopt;
    }
    p.starts = *s;
    p.ends = *e;
    if (slice.input(3)) {
      auto a = constantInts(slice.input(3));
      if (!a) {
        why = "Slice axes are not constant";
        return std::nullopt;
      }
      p.axes = *a;
    } else {
      for (size_t i = 0; i < p.starts.size(); ++i) p.axes.push_back(static_cast<int64_t>(i));
    }
    if (slice.input(4)) {
      auto st = constantInts(slice.input(4));
      if (!st) {
        why = "Slice steps are not constant";
        return std::nullopt;
      }
      p.steps = *st;
    } else {
      p.steps.assign(p.starts.size(), 1);
    }
  }
  if (p.ends.size() != p.starts.size() || p.axes.size() != p.starts.size() ||
      p.steps.size() != p.starts.size()) {
    why = "Slice parameters have different lengths";
    return std::nullopt;
  }
  auto axes = normalizeAxes(p.axes, rank);
  if (!axes) {
    why = "Slice axes are out of range or repeated";
    return std::nullopt;
  }
  p.axes = *axes;
  for (int64_t s : p.steps)
    if (s == 0) {
      why = "a Slice step is 0";
      return std::nullopt;
    }
  return p;
}

ir::Node* addSliceNode(rewrite::Rewriter& rw, ir::Value* x, ir::Node* before, const SliceParams& p,
                       bool asAttrs, const std::vector<const ir::Node*>& from,
                       const ir::Value* typeLike) {
  ir::Graph& g = *before->owner();
  std::vector<ir::Value*> ins{x};
  if (!asAttrs) {
    ins.push_back(addConstant(rw, g, before, "starts", ir::Tensor::fromInt64s(p.starts), from));
    ins.push_back(addConstant(rw, g, before, "ends", ir::Tensor::fromInt64s(p.ends), from));
    ins.push_back(addConstant(rw, g, before, "axes", ir::Tensor::fromInt64s(p.axes), from));
    ins.push_back(addConstant(rw, g, before, "steps", ir::Tensor::fromInt64s(p.steps), from));
  }
  ir::Node* n = addDerived(rw, "Slice", ins, before, from, nullptr, {typeLike});
  if (asAttrs) {
    rw.setAttr(n, ir::Attribute::makeInts("starts", p.starts));
    rw.setAttr(n, ir::Attribute::makeInts("ends", p.ends));
    rw.setAttr(n, ir::Attribute::makeInts("axes", p.axes));
  }
  return n;
}

ir::Node* defaultOp(const ir::Node* n, std::string_view op) {
  return n && n->domain().empty() && n->opType() == op ? const_cast<ir::Node*>(n) : nullptr;
}

}  // namespace passlab::passes::fusion
