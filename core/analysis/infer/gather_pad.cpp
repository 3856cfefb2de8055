// Gathering and padding: Gather (with tracked values), GatherElements,
// GatherND, Pad (attribute before opset 11, input after), TopK, CenterCropPad,
// and the data-dependent ops whose sizes are unknown (NonZero, Compress,
// Unique, NonMaxSuppression).
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

void inferGather(InferContext& ctx) {
  const ir::Shape* data = ctx.inputShape(0);
  const ir::Shape* idx = ctx.inputShape(1);
  if (!data) return;
  auto axis = ctx.axis(ctx.attrInt("axis", 0), static_cast<int64_t>(data->rank()));
  if (!axis || !idx) return;
  std::vector<ir::Dim> dims(data->dims().begin(), data->dims().begin() + *axis);
  dims.insert(dims.end(), idx->dims().begin(), idx->dims().end());
  dims.insert(dims.end(), data->dims().begin() + *axis + 1, data->dims().end());
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
  const KnownValue* v = ctx.inputValue(0);
  auto indices = ctx.inputInts(1);
  const KnownValue* iv = ctx.inputValue(1);
  if (!v || !indices || v->dims.size() != 1) return;
  auto n = static_cast<int64_t>(v->elems.size());
  KnownValue out;
  out.dtype = v->dtype;
  out.dims = iv->dims;
  for (int64_t i : *indices) {
    if (i < -n || i >= n) {
      ctx.fail("index " + std::to_string(i) + " is out of range for " + std::to_string(n) +
               " elements");
      return;
    }
    out.elems.push_back(v->elems[static_cast<size_t>(i < 0 ? i + n : i)]);
  }
  ctx.setOutputValue(0, std::move(out));
}

void inferGatherElements(InferContext& ctx) {
  if (const ir::Shape* idx = ctx.inputShape(1)) ctx.setOutputShape(0, *idx);
}

void inferGatherND(InferContext& ctx) {
  const ir::Shape* data = ctx.inputShape(0);
  const ir::Shape* idx = ctx.inputShape(1);
  if (!data || !idx) return;
  if (idx->rank() == 0) {
    ctx.fail("indices must have rank >= 1");
    return;
  }
  const ir::Dim& last = (*idx)[idx->rank() - 1];
  if (!last.isStatic()) return;
  int64_t batchDims = ctx.attrInt("batch_dims", 0);
  if (batchDims < 0 || batchDims >= static_cast<int64_t>(idx->rank())) {
    ctx.fail("batch_dims " + std::to_string(batchDims) + " does not fit indices of rank " +
             std::to_string(idx->rank()));
    return;
  }
  auto b = static_cast<size_t>(batchDims);
  auto k = static_cast<size_t>(last.value());
  if (k > data->rank() || b + k > data->rank()) {
    ctx.fail("indices address " + std::to_string(b + k) + " dims of a rank " +
             std::to_string(data->rank()) + " tensor");
    return;
  }
  std::vector<ir::Dim> dims(idx->dims().begin(), idx->dims().end() - 1);
  dims.insert(dims.end(), data->dims().begin() + static_cast<ptrdiff_t>(b + k), data->dims().end());
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferPad(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  auto rank = static_cast<int64_t>(x->rank());
  std::vector<int64_t> pads;
  std::vector<int64_t> axes;
  if (ctx.opset() < 11) {
    pads = ctx.attrInts(ctx.opset() < 2 ? "paddings" : "pads");
  } else {
    auto p = ctx.inputInts(1);
    if (!p) {
      ctx.setOutputShape(0, unknownShape(x->rank()));
      return;
    }
    pads = *p;
    if (ctx.hasInput(3)) {
      auto a = ctx.inputInts(3);
      if (!a) {
        ctx.setOutputShape(0, unknownShape(x->rank()));
        return;
      }
      axes = *a;
    }
  }
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  if (!normalizeAxes(ctx, axes, rank)) return;
  if (pads.size() != 2 * axes.size()) {
    ctx.fail("pads has " + std::to_string(pads.size()) + " values for " +
             std::to_string(axes.size()) + " axes");
    return;
  }
  std::vector<ir::Dim> dims = x->dims();
  for (size_t i = 0; i < axes.size(); ++i) {
    auto a = static_cast<size_t>(axes[i]);
    SymInt d = SymInt::fromDim(dims[a]) + SymInt(pads[i]) + SymInt(pads[i + axes.size()]);
    if (auto c = d.constant(); c && *c < 0) {
      ctx.fail("padding makes dim " + std::to_string(a) + " negative");
      return;
    }
    dims[a] = d.toDim();
  }
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferTopK(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  auto axis = ctx.axis(ctx.attrInt("axis", -1), static_cast<int64_t>(x->rank()));
  if (!axis) return;
  SymInt k;
  if (ctx.opset() < 10) {
    k = SymInt(ctx.attrInt("k", -1));
  } else if (const KnownValue* kv = ctx.inputValue(1); kv && kv->elems.size() == 1) {
    k = kv->elems[0];
  }
  ir::Shape s = *x;
  s[static_cast<size_t>(*axis)] = k.toDim();
  ctx.setOutputShape(0, s);
  if (ctx.outputCount() > 1) ctx.setOutput(1, ir::DataType::kInt64, s);
}

void inferNonZero(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  ctx.setOutputShape(
      0, ir::Shape({x ? ir::Dim(static_cast<int64_t>(x->rank())) : ir::Dim(), ir::Dim()}));
}

void inferCompress(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!ctx.hasAttr("axis")) {
    ctx.setOutputShape(0, unknownShape(1));
    return;
  }
  if (!x) return;
  auto axis = ctx.axis(ctx.attrInt("axis", 0), static_cast<int64_t>(x->rank()));
  if (!axis) return;
  ir::Shape s = *x;
  s[static_cast<size_t>(*axis)] = ir::Dim();
  ctx.setOutputShape(0, s);
}

void inferUnique(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!ctx.hasAttr("axis")) {
    ctx.setOutputShape(0, unknownShape(1));
  } else if (x) {
    auto axis = ctx.axis(ctx.attrInt("axis", 0), static_cast<int64_t>(x->rank()));
    if (!axis) return;
    ir::Shape s = *x;
    s[static_cast<size_t>(*axis)] = ir::Dim();
    ctx.setOutputShape(0, s);
  }
  for (size_t i = 1; i < ctx.outputCount(); ++i)
    ctx.setOutput(i, ir::DataType::kInt64, unknownShape(1));
  // inverse_indices has one entry per input element (or per slice along axis).
  if (ctx.outputCount() > 2 && x) {
    ir::Dim n = dimProduct(x->dims()).toDim();
    if (ctx.hasAttr("axis")) {
      auto axis = ctx.axis(ctx.attrInt("axis", 0), static_cast<int64_t>(x->rank()));
      if (!axis) return;
      n = (*x)[static_cast<size_t>(*axis)];
    }
    ctx.setOutput(2, ir::DataType::kInt64, ir::Shape({n}));
  }
}

void inferNonMaxSuppression(InferContext& ctx) {
  ctx.setOutput(0, ir::DataType::kInt64, ir::Shape({ir::Dim(), ir::Dim(3)}));
}

void inferCenterCropPad(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  auto rank = static_cast<int64_t>(x->rank());
  std::vector<int64_t> axes = ctx.attrInts("axes");
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  if (!normalizeAxes(ctx, axes, rank)) return;
  const KnownValue* shape = ctx.inputValue(1);
  ir::Shape out = *x;
  if (!shape) {
    for (int64_t a : axes) out[static_cast<size_t>(a)] = ir::Dim();
  } else {
    if (shape->elems.size() != axes.size()) {
      ctx.fail("shape has " + std::to_string(shape->elems.size()) + " values for " +
               std::to_string(axes.size()) + " axes");
      return;
    }
    for (size_t i = 0; i < axes.size(); ++i)
      out[static_cast<size_t>(axes[i])] = shape->elems[i].toDim();
  }
  ctx.setOutputShape(0, out);
}

}  // namespace passlab::analysis::infer
