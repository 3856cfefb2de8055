// Ops that make tensors from a shape or from values: Constant,
// ConstantOfShape, Expand, Tile, Range, EyeLike, random generators, OneHot and
// the signal windows.
#include <algorithm>

#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

bool isIntegerLike(ir::DataType t) {
  return ir::isInteger(t) || t == ir::DataType::kBool;
}

// Tracks a tensor's elements when it is a small integer tensor.
void trackTensor(InferContext& ctx, const ir::Tensor& t) {
  if (!isIntegerLike(t.dtype()) || t.numel() < 0 ||
      static_cast<size_t>(t.numel()) > ctx.session().maxConstantElements() ||
      t.bytes().size() < t.expectedBytes())
    return;
  KnownValue k;
  k.dtype = t.dtype();
  k.dims = t.dims();
  for (int64_t v : t.toInt64Vector()) k.elems.emplace_back(v);
  ctx.setOutputValue(0, std::move(k));
}

// The output shape named by a tracked 1-D input, or a shape of unknown dims when
// only its length is known.
std::optional<ir::Shape> shapeFromInput(InferContext& ctx, size_t input) {
  if (const KnownValue* k = ctx.inputValue(input)) {
    if (k->dims.size() != 1) {
      ctx.fail("shape input must be 1-D, has rank " + std::to_string(k->dims.size()));
      return std::nullopt;
    }
    for (const auto& e : k->elems)
      if (auto c = e.constant(); c && *c < 0) {
        ctx.fail("negative dim " + std::to_string(*c) + " in shape input");
        return std::nullopt;
      }
    return shapeOf(k->elems);
  }
  const ir::Shape* s = ctx.inputShape(input);
  if (s && s->rank() == 1 && (*s)[0].isStatic())
    return unknownShape(static_cast<size_t>((*s)[0].value()));
  return std::nullopt;
}

ir::DataType dtypeAttr(InferContext& ctx, const char* name, ir::DataType fallback) {
  if (!ctx.hasAttr(name)) return fallback;
  auto v = static_cast<int32_t>(ctx.attrInt(name, 0));
  return ir::isKnownDtype(v) ? static_cast<ir::DataType>(v) : fallback;
}

}  // namespace

void inferConstant(InferContext& ctx) {
  const ir::Node& n = ctx.node();
  if (const ir::Attribute* a = n.attr("value"); a && a->type() == ir::AttrType::kTensor) {
    ctx.setOutput(0, a->t.dtype(), a->t.shape());
    trackTensor(ctx, a->t);
  } else if (const ir::Attribute* a = n.attr("sparse_value")) {
    ctx.setOutput(0, a->sparse.values.dtype(), ir::Shape::fromValues(a->sparse.dims));
  } else if (n.hasAttr("value_float")) {
    ctx.setOutput(0, ir::DataType::kFloat, ir::Shape());
  } else if (const ir::Attribute* a = n.attr("value_floats")) {
    ctx.setOutput(0, ir::DataType::kFloat,
                  ir::Shape({ir::Dim(static_cast<int64_t>(a->floats.size()))}));
  } else if (const ir::Attribute* a = n.attr("value_int")) {
    ctx.setOutput(0, ir::DataType::kInt64, ir::Shape());
    ctx.setOutputValue(0, KnownValue::scalar(a->i));
  } else if (const ir::Attribute* a = n.attr("value_ints")) {
    ctx.setOutput(0, ir::DataType::kInt64,
                  ir::Shape({ir::Dim(static_cast<int64_t>(a->ints.size()))}));
    std::vector<SymInt> elems(a->ints.begin(), a->ints.end());
    ctx.setOutputValue(0, KnownValue::vector(std::move(elems)));
  } else if (n.hasAttr("value_string")) {
    ctx.setOutput(0, ir::DataType::kString, ir::Shape());
  } else if (const ir::Attribute* a = n.attr("value_strings")) {
    ctx.setOutput(0, ir::DataType::kString,
                  ir::Shape({ir::Dim(static_cast<int64_t>(a->strings.size()))}));
  } else {
    ctx.fail("no value attribute");
  }
}

void inferConstantOfShape(InferContext& ctx) {
  ir::DataType elem = ir::DataType::kFloat;
  const ir::Tensor* fill = nullptr;
  if (const ir::Attribute* a = ctx.node().attr("value"); a && a->type() == ir::AttrType::kTensor) {
    elem = a->t.dtype();
    fill = &a->t;
  }
  ctx.setOutputElem(0, elem);
  auto shape = shapeFromInput(ctx, 0);
  if (!shape) return;
  ctx.setOutputShape(0, *shape);
  auto dims = shape->staticDims();
  if (!dims || !isIntegerLike(elem)) return;
  auto n = ir::checkedProduct(*dims);
  if (!n || static_cast<size_t>(*n) > ctx.session().maxConstantElements()) return;
  int64_t v = fill && fill->numel() == 1 && fill->bytes().size() >= fill->expectedBytes()
                  ? fill->valueAsInt64(0)
                  : 0;
  KnownValue k;
  k.dtype = elem;
  k.dims = *dims;
  k.elems.assign(static_cast<size_t>(*n), SymInt(v));
  ctx.setOutputValue(0, std::move(k));
}

void inferExpand(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  auto target = shapeFromInput(ctx, 1);
  if (!x || !target) return;
  std::string err;
  auto out = broadcastShapes({x, &*target}, &err);
  if (!out) {
    if (!err.empty()) ctx.fail(err);
    return;
  }
  ctx.setOutputShape(0, *out);
  const KnownValue* v = ctx.inputValue(0);
  auto dims = out->staticDims();
  if (!v || !dims) return;
  KnownValue shapeOnly;
  shapeOnly.dims = *dims;
  auto n = ir::checkedProduct(*dims);
  if (!n || static_cast<size_t>(*n) > ctx.session().maxConstantElements()) return;
  shapeOnly.elems.assign(static_cast<size_t>(*n), SymInt(0));
  auto expanded = broadcastValues(
      {v, &shapeOnly}, [](const std::vector<SymInt>& e) { return e[0]; }, v->dtype,
      ctx.session().maxConstantElements());
  if (expanded) ctx.setOutputValue(0, std::move(*expanded));
}

void inferTile(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  const KnownValue* reps = ctx.inputValue(1);
  if (!reps) {
    ctx.setOutputShape(0, unknownShape(x->rank()));
    return;
  }
  if (reps->elems.size() != x->rank()) {
    ctx.fail("repeats has " + std::to_string(reps->elems.size()) + " values for rank " +
             std::to_string(x->rank()));
    return;
  }
  std::vector<ir::Dim> dims;
  for (size_t i = 0; i < x->rank(); ++i)
    dims.push_back((SymInt::fromDim((*x)[i]) * reps->elems[i]).toDim());
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferRange(InferContext& ctx) {
  const KnownValue* start = ctx.inputValue(0);
  const KnownValue* limit = ctx.inputValue(1);
  const KnownValue* delta = ctx.inputValue(2);
  if (!start || !limit || !delta || start->elems.size() != 1 || limit->elems.size() != 1 ||
      delta->elems.size() != 1) {
    ctx.setOutputShape(0, unknownShape(1));
    return;
  }
  const SymInt& s = start->elems[0];
  const SymInt& l = limit->elems[0];
  auto d = delta->elems[0].constant();
  if (d && *d == 0) {
    ctx.fail("delta is 0");
    return;
  }
  SymInt count;
  if (d) {
    count = (l - s).ceilDiv(SymInt(*d));
    if (auto c = count.constant(); c && *c < 0) count = SymInt(0);
  }
  ctx.setOutputShape(0, ir::Shape({count.toDim()}));
  auto c = count.constant();
  auto s0 = s.constant();
  if (c && s0 && d && static_cast<size_t>(*c) <= ctx.session().maxConstantElements()) {
    std::vector<SymInt> elems;
    for (int64_t i = 0; i < *c; ++i) elems.emplace_back(*s0 + i * *d);
    ctx.setOutputValue(0, KnownValue::vector(std::move(elems), ctx.outputType(0).elemType()));
  }
}

void inferEyeLike(InferContext& ctx) {
  ctx.setOutputElem(0, dtypeAttr(ctx, "dtype", ctx.inputElem(0)));
  copyShapeFrom(ctx, 0, 0);
  if (const ir::Shape* x = ctx.inputShape(0); x && x->rank() != 2)
    ctx.fail("input must be 2-D, got " + x->toString());
}

void inferRandom(InferContext& ctx) {
  ctx.setOutput(0, dtypeAttr(ctx, "dtype", ir::DataType::kFloat),
                ir::Shape::fromValues(ctx.attrInts("shape")));
}

void inferRandomLike(InferContext& ctx) {
  ir::DataType elem = dtypeAttr(ctx, "dtype", ctx.inputElem(0));
  if (elem != ir::DataType::kUndefined) ctx.setOutputElem(0, elem);
  copyShapeFrom(ctx, 0, 0);
}

void inferOneHot(InferContext& ctx) {
  const ir::Shape* indices = ctx.inputShape(0);
  if (ctx.inputElem(2) != ir::DataType::kUndefined) ctx.setOutputElem(0, ctx.inputElem(2));
  if (!indices) return;
  auto rank = static_cast<int64_t>(indices->rank()) + 1;
  auto a = ctx.axis(ctx.attrInt("axis", -1), rank);
  if (!a) return;
  SymInt depth;
  if (const KnownValue* d = ctx.inputValue(1); d && d->elems.size() == 1) depth = d->elems[0];
  std::vector<ir::Dim> dims = indices->dims();
  dims.insert(dims.begin() + *a, depth.toDim());
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferWindow(InferContext& ctx) {
  ctx.setOutputElem(0, dtypeAttr(ctx, "output_datatype", ir::DataType::kFloat));
  SymInt size;
  if (const KnownValue* s = ctx.inputValue(0); s && s->elems.size() == 1) size = s->elems[0];
  ctx.setOutputShape(0, ir::Shape({size.toDim()}));
}

}  // namespace passlab::analysis::infer
