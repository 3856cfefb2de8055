// Joining and cutting along axes: Concat (and com.microsoft QLinearConcat),
// Split (sizes as attribute, input from opset 13, num_outputs from 18), Slice
// (attributes before opset 10, inputs after). Tracked 1-D values are carried
// through.
#include <algorithm>
#include <climits>

#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

// Dims of one axis that must agree (Concat's other axes): a number wins over a symbol.
std::optional<ir::Dim> agree(InferContext& ctx, const ir::Dim& a, const ir::Dim& b, size_t axis) {
  if (a.isStatic() && b.isStatic() && a.value() != b.value()) {
    ctx.fail("dim " + std::to_string(axis) + " differs between inputs: " + a.toString() + " vs " +
             b.toString());
    return std::nullopt;
  }
  if (a.isStatic()) return a;
  if (b.isStatic()) return b;
  return a.sameAs(b) ? a : (a.isUnknown() ? b : a);
}

// One sliced axis of length d: the number of elements taken. Bounds that are not
// numbers, or a dim that is symbolic, are assumed to lie within the dim (as the
// model's own shape arithmetic intends); everything else is clamped as ONNX does.
SymInt sliceLength(const SymInt& d, const SymInt& start, const SymInt& end, int64_t step) {
  auto dc = d.constant(), sc = start.constant(), ec = end.constant();
  const int64_t kBig = INT32_MAX;  // exporters write INT32_MAX or INT64_MAX for "to the end"
  if (dc && sc && ec) {
    int64_t n = *dc, s = *sc, e = *ec;
    if (step > 0) {
      s = s < 0 ? std::max<int64_t>(0, s + n) : std::min(s, n);
      e = e < 0 ? std::max<int64_t>(0, e + n) : std::min(e, n);
      return e > s ? SymInt((e - s + step - 1) / step) : SymInt(0);
    }
    s = s < 0 ? std::max<int64_t>(-1, s + n) : std::min(s, n - 1);
    e = e < 0 ? std::max<int64_t>(-1, e + n) : std::min(e, n - 1);
    return s > e ? SymInt((s - e + (-step) - 1) / (-step)) : SymInt(0);
  }
  if (step == -1 && sc && ec && (*sc >= kBig || *sc == -1) && *ec <= -kBig) return d;
  if (step <= 0) return {};
  SymInt s = start, e = end;
  if (sc && *sc < 0) s = d + start;
  if (ec) {
    if (*ec >= kBig)
      e = d;
    else if (*ec < 0)
      e = d + end;
  }
  SymInt len = (e - s).ceilDiv(SymInt(step));
  if (auto c = len.constant(); c && *c < 0) return SymInt(0);
  return len;
}

// Elements of a tracked 1-D value taken by a slice with number bounds.
std::optional<std::vector<SymInt>> sliceElems(const std::vector<SymInt>& in, int64_t s, int64_t e,
                                              int64_t step) {
  auto n = static_cast<int64_t>(in.size());
  std::vector<SymInt> out;
  if (step > 0) {
    s = s < 0 ? std::max<int64_t>(0, s + n) : std::min(s, n);
    e = e < 0 ? std::max<int64_t>(0, e + n) : std::min(e, n);
    for (int64_t i = s; i < e; i += step) out.push_back(in[static_cast<size_t>(i)]);
  } else if (step < 0) {
    s = s < 0 ? std::max<int64_t>(-1, s + n) : std::min(s, n - 1);
    e = e < 0 ? std::max<int64_t>(-1, e + n) : std::min(e, n - 1);
    for (int64_t i = s; i > e; i += step) out.push_back(in[static_cast<size_t>(i)]);
  } else {
    return std::nullopt;
  }
  return out;
}

std::vector<SymInt> paramOrEmpty(InferContext& ctx, size_t input, bool* known) {
  if (!ctx.hasInput(input)) return {};
  const KnownValue* k = ctx.inputValue(input);
  if (!k) {
    *known = false;
    return {};
  }
  return k->elems;
}

// The shape of the inputs `ins` concatenated along `axisAttr`; nullopt
// (after ctx.fail where they disagree) when it is not known.
std::optional<ir::Shape> concatShape(InferContext& ctx, const std::vector<size_t>& ins,
                                     int64_t axisAttr) {
  const ir::Shape* first = nullptr;
  for (size_t i : ins)
    if ((first = ctx.inputShape(i))) break;
  if (!first) return std::nullopt;
  auto rank = static_cast<int64_t>(first->rank());
  auto axis = ctx.axis(axisAttr, rank);
  if (!axis) return std::nullopt;
  std::vector<ir::Dim> dims = first->dims();
  SymInt total(0);
  for (size_t i : ins) {
    const ir::Shape* s = ctx.inputShape(i);
    if (!s) {
      total = SymInt();
      continue;
    }
    if (static_cast<int64_t>(s->rank()) != rank) {
      ctx.fail("input " + std::to_string(i) + " has rank " + std::to_string(s->rank()) +
               ", input " + std::to_string(ins.front()) + " has rank " + std::to_string(rank));
      return std::nullopt;
    }
    for (size_t d = 0; d < s->rank(); ++d) {
      if (static_cast<int64_t>(d) == *axis) continue;
      auto m = agree(ctx, dims[d], (*s)[d], d);
      if (!m) return std::nullopt;
      dims[d] = *m;
    }
    total = total + SymInt::fromDim((*s)[static_cast<size_t>(*axis)]);
  }
  dims[static_cast<size_t>(*axis)] = total.toDim();
  return ir::Shape(std::move(dims));
}

}  // namespace

void inferConcat(InferContext& ctx) {
  std::vector<size_t> ins(ctx.inputCount());
  for (size_t i = 0; i < ins.size(); ++i) ins[i] = i;
  auto shape = concatShape(ctx, ins, ctx.attrInt("axis", ctx.opset() < 4 ? 1 : 0));
  if (!shape) return;
  const size_t rank = shape->rank();
  ctx.setOutputShape(0, std::move(*shape));
  if (rank != 1) return;
  std::vector<SymInt> elems;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const KnownValue* k = ctx.inputValue(i);
    if (!k) return;
    elems.insert(elems.end(), k->elems.begin(), k->elems.end());
  }
  ctx.setOutputValue(0, KnownValue::vector(std::move(elems), ctx.outputType(0).elemType()));
}

// com.microsoft QLinearConcat: Y_scale, Y_zp, then (X_i, X_i_scale, X_i_zp);
// X0's type, the data inputs concatenated.
void inferQLinearConcat(InferContext& ctx) {
  if (ctx.inputCount() < 5 || (ctx.inputCount() - 2) % 3 != 0) {
    ctx.fail(
        "QLinearConcat takes Y_scale, Y_zero_point and (X, X_scale, X_zero_point) per "
        "input; got " +
        std::to_string(ctx.inputCount()) + " inputs");
    return;
  }
  if (ctx.inputElem(2) != ir::DataType::kUndefined) ctx.setOutputElem(0, ctx.inputElem(2));
  if (!ctx.hasAttr("axis")) {
    ctx.fail("QLinearConcat has no axis attribute");
    return;
  }
  std::vector<size_t> ins;
  for (size_t i = 2; i < ctx.inputCount(); i += 3) ins.push_back(i);
  if (auto shape = concatShape(ctx, ins, ctx.attrInt("axis", 0)))
    ctx.setOutputShape(0, std::move(*shape));
}

void inferSplit(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  auto axis = ctx.axis(ctx.attrInt("axis", 0), static_cast<int64_t>(x->rank()));
  if (!axis) return;
  size_t n = ctx.outputCount();
  SymInt dim = SymInt::fromDim((*x)[static_cast<size_t>(*axis)]);
  std::vector<SymInt> sizes;
  bool sizesKnown = true;
  if (ctx.opset() < 13 && ctx.hasAttr("split")) {
    for (int64_t v : ctx.attrInts("split")) sizes.emplace_back(v);
  } else if (ctx.opset() >= 13 && ctx.hasInput(1)) {
    sizes = paramOrEmpty(ctx, 1, &sizesKnown);
  }
  if (!sizesKnown) {
    for (size_t i = 0; i < n; ++i) {
      ir::Shape s = *x;
      s[static_cast<size_t>(*axis)] = ir::Dim();
      ctx.setOutputShape(i, s);
    }
    return;
  }
  if (sizes.empty()) {
    // Equal parts; with num_outputs (opset 18) the last part may be smaller.
    int64_t parts = ctx.opset() >= 18 && ctx.hasAttr("num_outputs")
                        ? ctx.attrInt("num_outputs", static_cast<int64_t>(n))
                        : static_cast<int64_t>(n);
    if (parts <= 0 || static_cast<size_t>(parts) != n) {
      ctx.fail("num_outputs " + std::to_string(parts) + " differs from " + std::to_string(n) +
               " outputs");
      return;
    }
    auto dc = dim.constant();
    if (dc && ctx.opset() < 18 && *dc % parts != 0) {
      ctx.fail("dim " + std::to_string(*dc) + " does not split into " + std::to_string(parts) +
               " equal parts");
      return;
    }
    // Equal parts before opset 18 (the dim must divide); from 18 the last may be smaller.
    SymInt chunk = ctx.opset() >= 18 ? dim.ceilDiv(SymInt(parts)) : dim.floorDiv(SymInt(parts));
    for (int64_t i = 0; i < parts; ++i) {
      SymInt size = chunk;
      if (dc && i == parts - 1) size = dim - chunk * SymInt(parts - 1);
      sizes.push_back(size);
    }
  }
  if (sizes.size() != n) {
    ctx.fail("split has " + std::to_string(sizes.size()) + " sizes for " + std::to_string(n) +
             " outputs");
    return;
  }
  SymInt sum(0);
  for (const auto& s : sizes) {
    if (auto c = s.constant(); c && *c < 0) {
      ctx.fail("split size " + std::to_string(*c) + " is negative");
      return;
    }
    sum = sum + s;
  }
  if (auto a = sum.constant(), b = dim.constant(); a && b && *a != *b) {
    ctx.fail("split sizes add up to " + std::to_string(*a) + ", the dim is " + std::to_string(*b));
    return;
  }
  const KnownValue* v = x->rank() == 1 ? ctx.inputValue(0) : nullptr;
  size_t offset = 0;
  for (size_t i = 0; i < n; ++i) {
    ir::Shape s = *x;
    s[static_cast<size_t>(*axis)] = sizes[i].toDim();
    ctx.setOutputShape(i, s);
    auto len = sizes[i].constant();
    if (v && len && offset + static_cast<size_t>(*len) <= v->elems.size()) {
      std::vector<SymInt> part(v->elems.begin() + static_cast<ptrdiff_t>(offset),
                               v->elems.begin() + static_cast<ptrdiff_t>(offset + *len));
      ctx.setOutputValue(i, KnownValue::vector(std::move(part), v->dtype));
      offset += static_cast<size_t>(*len);
    } else {
      v = nullptr;
    }
  }
}

void inferSlice(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  auto rank = static_cast<int64_t>(x->rank());
  std::vector<SymInt> starts, ends, axesV, steps;
  bool known = true, axesKnown = true;
  // Attributes before opset 10; inputs from 10 on, and in the experimental DynamicSlice.
  const bool attrForm = ctx.opset() < 10 && ctx.node().opType() != "DynamicSlice";
  if (attrForm) {
    for (int64_t v : ctx.attrInts("starts")) starts.emplace_back(v);
    for (int64_t v : ctx.attrInts("ends")) ends.emplace_back(v);
    for (int64_t v : ctx.attrInts("axes")) axesV.emplace_back(v);
  } else {
    starts = paramOrEmpty(ctx, 1, &known);
    ends = paramOrEmpty(ctx, 2, &known);
    axesV = paramOrEmpty(ctx, 3, &axesKnown);
    steps = paramOrEmpty(ctx, 4, &known);
  }
  std::vector<int64_t> axes;
  for (const auto& a : axesV) {
    auto c = a.constant();
    if (!c) {
      axesKnown = false;
      break;
    }
    axes.push_back(*c);
  }
  if (!axesKnown) {
    ctx.setOutputShape(0, unknownShape(x->rank()));
    return;
  }
  if (known && starts.size() != ends.size()) {
    ctx.fail("starts and ends have different lengths");
    return;
  }
  if (axes.empty() && (attrForm || !ctx.hasInput(3))) {
    // Default axes: one per start, counted from the starts' length when their values are unknown.
    size_t count = starts.size();
    if (!known) {
      const ir::Shape* s = ctx.inputShape(1);
      count = s && s->rank() == 1 && (*s)[0].isStatic() ? static_cast<size_t>((*s)[0].value())
                                                        : x->rank();
    }
    for (size_t i = 0; i < count; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (!normalizeAxes(ctx, axes, rank)) return;
  if (known && (axes.size() != starts.size() || (!steps.empty() && steps.size() != axes.size()))) {
    ctx.fail("starts, ends, axes and steps have different lengths");
    return;
  }
  std::vector<ir::Dim> dims = x->dims();
  if (!known) {
    for (int64_t a : axes) dims[static_cast<size_t>(a)] = ir::Dim();
    ctx.setOutputShape(0, ir::Shape(std::move(dims)));
    return;
  }
  const KnownValue* v = rank == 1 ? ctx.inputValue(0) : nullptr;
  std::optional<std::vector<SymInt>> elems;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t step = 1;
    if (!steps.empty()) {
      auto c = steps[i].constant();
      if (!c) {
        dims[static_cast<size_t>(axes[i])] = ir::Dim();
        v = nullptr;
        continue;
      }
      step = *c;
    }
    if (step == 0) {
      ctx.fail("step is 0");
      return;
    }
    size_t a = static_cast<size_t>(axes[i]);
    dims[a] = sliceLength(SymInt::fromDim((*x)[a]), starts[i], ends[i], step).toDim();
    auto s = starts[i].constant(), e = ends[i].constant();
    if (v && s && e) elems = sliceElems(v->elems, *s, *e, step);
  }
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
  if (v && elems) ctx.setOutputValue(0, KnownValue::vector(std::move(*elems), v->dtype));
}

}  // namespace passlab::analysis::infer
