#include "core/analysis/infer/helpers.h"

#include <algorithm>

#include "core/ir/attribute_limits.h"
#include "core/ir/window.h"

namespace passlab::analysis::infer {

ir::Shape unknownShape(size_t rank) {
  return ir::Shape(std::vector<ir::Dim>(rank));
}

std::vector<SymInt> symsOf(const ir::Shape& s) {
  std::vector<SymInt> out;
  out.reserve(s.rank());
  for (const auto& d : s.dims()) out.push_back(SymInt::fromDim(d));
  return out;
}

ir::Shape shapeOf(const std::vector<SymInt>& dims) {
  std::vector<ir::Dim> out;
  out.reserve(dims.size());
  for (const auto& d : dims) out.push_back(d.toDim());
  return ir::Shape(std::move(out));
}

ir::Dim broadcastDims(const std::vector<const ir::Dim*>& dims, bool* error) {
  int64_t value = 1;
  bool haveNumber = false;
  const ir::Dim* other = nullptr;
  bool othersAgree = true;
  for (const ir::Dim* d : dims) {
    if (d->isStatic()) {
      if (d->value() == 1) continue;
      if (haveNumber && value != d->value()) {
        if (error) *error = true;
        return {};
      }
      value = d->value();
      haveNumber = true;
    } else if (!other) {
      other = d;
    } else if (!other->sameAs(*d)) {
      othersAgree = false;
    }
  }
  // A number other than 1 decides (a symbol must then be 1 or that number).
  if (haveNumber) return ir::Dim(value);
  if (!other) return ir::Dim(1);
  if (othersAgree && other->isSymbolic()) {
    ir::Dim d = *other;  // its interned name as is: no second lookup under the table's lock
    d.setDenotation("");
    return d;
  }
  return {};
}

std::optional<ir::Shape> broadcastShapes(const std::vector<const ir::Shape*>& shapes,
                                         std::string* error) {
  size_t rank = 0;
  for (const ir::Shape* s : shapes) {
    if (!s) return std::nullopt;
    rank = std::max(rank, s->rank());
  }
  std::vector<ir::Dim> out(rank);
  std::vector<const ir::Dim*> column;
  for (size_t i = 0; i < rank; ++i) {
    column.clear();
    for (const ir::Shape* s : shapes)
      if (i + s->rank() >= rank) column.push_back(&(*s)[i + s->rank() - rank]);
    bool bad = false;
    out[i] = broadcastDims(column, &bad);
    if (bad) {
      if (error) {
        *error = "cannot broadcast";
        for (const ir::Shape* s : shapes) *error += " " + s->toString();
      }
      return std::nullopt;
    }
  }
  return ir::Shape(std::move(out));
}

ir::Type joinTypes(const ir::Type& a, const ir::Type& b) {
  if (a.isUndefined()) return b;
  if (b.isUndefined()) return a;
  if (a.kind() != b.kind()) return {};
  switch (a.kind()) {
    case ir::Type::Kind::kTensor:
    case ir::Type::Kind::kSparseTensor: {
      ir::DataType elem = a.elemType() == b.elemType() ? a.elemType() : ir::DataType::kUndefined;
      std::optional<ir::Shape> shape;
      if (a.hasShape() && b.hasShape() && a.shape()->rank() == b.shape()->rank()) {
        std::vector<ir::Dim> dims;
        for (size_t i = 0; i < a.shape()->rank(); ++i) {
          const ir::Dim& da = (*a.shape())[i];
          dims.push_back(da.sameAs((*b.shape())[i]) ? da : ir::Dim());
        }
        shape = ir::Shape(std::move(dims));
      }
      return a.kind() == ir::Type::Kind::kTensor ? ir::Type::tensor(elem, std::move(shape))
                                                 : ir::Type::sparseTensor(elem, std::move(shape));
    }
    case ir::Type::Kind::kSequence:
      return ir::Type::sequence(joinTypes(*a.inner(), *b.inner()));
    case ir::Type::Kind::kOptional:
      return ir::Type::optional(joinTypes(*a.inner(), *b.inner()));
    default:
      return a == b ? a : ir::Type();
  }
}

void copyShapeFrom(InferContext& ctx, size_t input, size_t output) {
  const ir::Type& in = ctx.inputType(input);
  if (!in.isTensor()) return;
  if (ctx.outputType(output).elemType() == ir::DataType::kUndefined)
    ctx.setOutputElem(output, in.elemType());
  if (in.hasShape()) ctx.setOutputShape(output, *in.shape());
}

void copyTypeFrom(InferContext& ctx, size_t input, size_t output) {
  const ir::Type& in = ctx.inputType(input);
  if (in.isUndefined()) return;
  if (in.isTensor()) {
    ir::DataType elem = in.elemType();
    if (elem == ir::DataType::kUndefined) elem = ctx.outputType(output).elemType();
    ctx.setOutput(output, elem, in.shape());
    return;
  }
  ctx.setOutputType(output, in);
}

SymInt windowOutput(const SymInt& in, int64_t kernel, int64_t stride, int64_t padBegin,
                    int64_t padEnd, int64_t dilation, bool ceilMode) {
  // A static dim: the rule of ir::Window, which the kernels run on.
  if (auto c = in.constant(); c && *c >= 0 && *c <= ir::kMaxWindowExtent)
    return SymInt(
        ir::forwardGridExtent(*c, (kernel - 1) * dilation + 1, stride, padBegin, padEnd, ceilMode));
  SymInt effective = SymInt(dilation) * SymInt(kernel - 1) + SymInt(1);
  SymInt num = in + SymInt(padBegin) + SymInt(padEnd) - effective;
  SymInt out = (ceilMode ? num.ceilDiv(stride) : num.floorDiv(stride)) + SymInt(1);
  if (ceilMode) {
    // The last window must start inside the input or the left padding.
    SymInt overhang = (out - SymInt(1)) * SymInt(stride) - (in + SymInt(padBegin));
    auto c = overhang.constant();
    if (!c) return {};
    if (*c >= 0) out = out - SymInt(1);
  }
  return out;
}

bool readWindowAttrs(InferContext& ctx, size_t spatial, std::vector<int64_t> kernel,
                     WindowAttrs& out) {
  auto attrOr = [&](const char* name, std::vector<int64_t> fallback) {
    return ctx.hasAttr(name) ? ctx.attrInts(name) : fallback;
  };
  out.kernel = ctx.hasAttr("kernel_shape") ? ctx.attrInts("kernel_shape") : std::move(kernel);
  out.strides = attrOr("strides", std::vector<int64_t>(spatial, 1));
  out.dilations = attrOr("dilations", std::vector<int64_t>(spatial, 1));
  out.pads = attrOr("pads", std::vector<int64_t>(2 * spatial, 0));
  out.autoPad = ctx.attrString("auto_pad", "NOTSET");
  out.ceilMode = ctx.attrInt("ceil_mode", 0) != 0;
  auto check = [&](const std::vector<int64_t>& v, size_t n, const char* what, int64_t min) {
    if (v.size() != n) {
      ctx.fail(std::string(what) + " has " + std::to_string(v.size()) + " values, expected " +
               std::to_string(n));
      return false;
    }
    for (int64_t x : v)
      if (x < min) {
        ctx.fail(std::string(what) + " value " + std::to_string(x) + " is below " +
                 std::to_string(min));
        return false;
      } else if (x > ir::kMaxWindowExtent) {
        ctx.fail(std::string(what) + " value " + std::to_string(x) + " is above " +
                 std::to_string(ir::kMaxWindowExtent));
        return false;
      }
    return true;
  };
  if (out.kernel.empty() && spatial > 0) {
    ctx.fail("kernel shape is unknown");
    return false;
  }
  if (!(check(out.kernel, spatial, "kernel_shape", 1) &&
        check(out.strides, spatial, "strides", 1) &&
        check(out.dilations, spatial, "dilations", 1) && check(out.pads, 2 * spatial, "pads", 0)))
    return false;
  // The window's span and padding in checked arithmetic (the verifier names
  // the attribute; inference just declines to give a shape).
  for (size_t i = 0; i < spatial; ++i)
    if (std::string why = ir::windowAxisProblem(out.kernel[i], out.strides[i], out.dilations[i],
                                                out.pads[i], out.pads[i + spatial]);
        !why.empty()) {
      ctx.fail("spatial axis " + std::to_string(i) + ": " + why);
      return false;
    }
  return true;
}

std::optional<ir::Shape> windowOutputShape(InferContext& ctx, const ir::Shape& x,
                                           const ir::Dim& channels, const WindowAttrs& w) {
  size_t spatial = w.kernel.size();
  if (x.rank() != spatial + 2) {
    ctx.fail("input rank " + std::to_string(x.rank()) + " does not match " +
             std::to_string(spatial) + " spatial dims");
    return std::nullopt;
  }
  std::vector<ir::Dim> dims{x[0], channels};
  for (size_t i = 0; i < spatial; ++i) {
    SymInt in = SymInt::fromDim(x[i + 2]);
    SymInt out;
    if (w.autoPad == "SAME_UPPER" || w.autoPad == "SAME_LOWER") {
      out = in.ceilDiv(w.strides[i]);
    } else if (w.autoPad == "VALID") {
      out = windowOutput(in, w.kernel[i], w.strides[i], 0, 0, w.dilations[i], w.ceilMode);
    } else {
      out = windowOutput(in, w.kernel[i], w.strides[i], w.pads[i], w.pads[i + spatial],
                         w.dilations[i], w.ceilMode);
    }
    if (auto c = out.constant(); c && *c < 0) {
      ctx.fail("window does not fit: output size " + std::to_string(*c) + " along spatial dim " +
               std::to_string(i));
      return std::nullopt;
    }
    dims.push_back(out.toDim());
  }
  return ir::Shape(std::move(dims));
}

std::optional<ir::Shape> matmulShape(InferContext& ctx, const ir::Shape& a, const ir::Shape& b) {
  if (a.rank() == 0 || b.rank() == 0) {
    ctx.fail("MatMul operands must have rank >= 1, got " + a.toString() + " and " + b.toString());
    return std::nullopt;
  }
  std::vector<ir::Dim> da = a.dims(), db = b.dims();
  bool dropRow = da.size() == 1, dropCol = db.size() == 1;
  if (dropRow) da.insert(da.begin(), ir::Dim(1));
  if (dropCol) db.push_back(ir::Dim(1));
  const ir::Dim& ka = da[da.size() - 1];
  const ir::Dim& kb = db[db.size() - 2];
  if (ka.isStatic() && kb.isStatic() && ka.value() != kb.value()) {
    ctx.fail("inner dimensions differ: " + a.toString() + " x " + b.toString());
    return std::nullopt;
  }
  ir::Shape ba(std::vector<ir::Dim>(da.begin(), da.end() - 2));
  ir::Shape bb(std::vector<ir::Dim>(db.begin(), db.end() - 2));
  std::string err;
  auto batch = broadcastShapes({&ba, &bb}, &err);
  if (!batch) {
    ctx.fail(err);
    return std::nullopt;
  }
  std::vector<ir::Dim> out = batch->dims();
  if (!dropRow) out.push_back(da[da.size() - 2]);
  if (!dropCol) out.push_back(db[db.size() - 1]);
  return ir::Shape(std::move(out));
}

std::optional<KnownValue> broadcastValues(
    const std::vector<const KnownValue*>& inputs,
    const std::function<SymInt(const std::vector<SymInt>&)>& op, ir::DataType dtype, size_t limit) {
  size_t rank = 0;
  for (const KnownValue* v : inputs) {
    auto count = ir::checkedProduct(v->dims);
    if (!count || static_cast<size_t>(*count) != v->elems.size()) return std::nullopt;
    rank = std::max(rank, v->dims.size());
  }
  std::vector<int64_t> dims(rank, 1);
  for (const KnownValue* v : inputs) {
    size_t off = rank - v->dims.size();
    for (size_t i = 0; i < v->dims.size(); ++i) {
      int64_t d = v->dims[i];
      if (d == 1) continue;
      if (dims[i + off] != 1 && dims[i + off] != d) return std::nullopt;
      dims[i + off] = d;
    }
  }
  auto n = ir::checkedProduct(dims);
  if (!n || static_cast<uint64_t>(*n) > limit) return std::nullopt;
  KnownValue out;
  out.dtype = dtype;
  out.dims = dims;
  out.elems.reserve(static_cast<size_t>(*n));
  std::vector<int64_t> coord(rank, 0);
  std::vector<SymInt> args(inputs.size());
  for (int64_t flat = 0; flat < *n; ++flat) {
    for (size_t k = 0; k < inputs.size(); ++k) {
      const KnownValue& v = *inputs[k];
      size_t off = rank - v.dims.size();
      int64_t idx = 0;
      for (size_t i = 0; i < v.dims.size(); ++i)
        idx = idx * v.dims[i] + (v.dims[i] == 1 ? 0 : coord[i + off]);
      args[k] = v.elems[static_cast<size_t>(idx)];
    }
    out.elems.push_back(op(args));
    for (size_t i = rank; i-- > 0;) {
      if (++coord[i] < dims[i]) break;
      coord[i] = 0;
    }
  }
  return out;
}

AxesState readAxes(InferContext& ctx, const char* attr, int64_t inputSince, size_t inputIndex,
                   std::vector<int64_t>& axes) {
  if (ctx.opset() < inputSince) {
    if (!ctx.hasAttr(attr)) return AxesState::kAbsent;
    axes = ctx.attrInts(attr);
    return AxesState::kKnown;
  }
  if (!ctx.hasInput(inputIndex)) return AxesState::kAbsent;
  auto v = ctx.inputInts(inputIndex);
  if (!v) return AxesState::kUnknown;
  axes = *v;
  return AxesState::kKnown;
}

bool normalizeAxes(InferContext& ctx, std::vector<int64_t>& axes, int64_t rank) {
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(rank, 0)), false);
  for (int64_t& a : axes) {
    auto n = ctx.axis(a, rank);
    if (!n) return false;
    if (seen[static_cast<size_t>(*n)]) {
      ctx.fail("axis " + std::to_string(a) + " is repeated");
      return false;
    }
    seen[static_cast<size_t>(*n)] = true;
    a = *n;
  }
  return true;
}

}  // namespace passlab::analysis::infer
