// Quantization: QuantizeLinear/DequantizeLinear (element type from the zero
// point, the scale or output_dtype, by opset), DynamicQuantizeLinear, and the
// integer forms of Conv and MatMul, ONNX Runtime's QLinear elementwise ops
// and its quantized averages (QLinearAveragePool, QLinearGlobalAveragePool,
// QLinearReduceMean) and QLinearSoftmax.
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

std::optional<ir::DataType> outputDtypeAttr(InferContext& ctx) {
  auto v = static_cast<int32_t>(ctx.attrInt("output_dtype", 0));
  if (v != 0 && ir::isKnownDtype(v)) return static_cast<ir::DataType>(v);
  return std::nullopt;
}

// channels_last: the perm from [N, spatial..., C] to [N, C, spatial...], and back.
std::vector<size_t> toChannelsFirst(size_t rank) {
  std::vector<size_t> p{0, rank - 1};
  for (size_t i = 1; i + 1 < rank; ++i) p.push_back(i);
  return p;
}
std::vector<size_t> toChannelsLast(size_t rank) {
  std::vector<size_t> p{0};
  for (size_t i = 2; i < rank; ++i) p.push_back(i);
  p.push_back(1);
  return p;
}
ir::Shape permuted(const ir::Shape& s, const std::vector<size_t>& perm) {
  std::vector<ir::Dim> dims;
  for (size_t i : perm) dims.push_back(s[i]);
  return ir::Shape(std::move(dims));
}

// X's rank when it is 3 or more (N, C, spatial...); nullopt, failing on a lower rank.
const ir::Shape* pooledInput(InferContext& ctx) {
  if (ctx.inputElem(0) != ir::DataType::kUndefined) ctx.setOutputElem(0, ctx.inputElem(0));
  const ir::Shape* x = ctx.inputShape(0);
  if (!x || x->rank() >= 3) return x;
  ctx.fail("X has rank " + std::to_string(x->rank()) + ", not 3 or more (N, C, spatial)");
  return nullptr;
}

}  // namespace

void inferQuantizeLinear(InferContext& ctx) {
  ir::DataType elem = ir::DataType::kUInt8;
  if (ctx.hasInput(2) && ctx.inputElem(2) != ir::DataType::kUndefined)
    elem = ctx.inputElem(2);
  else if (auto d = outputDtypeAttr(ctx))
    elem = *d;
  ctx.setOutputElem(0, elem);
  copyShapeFrom(ctx, 0, 0);
}

void inferDequantizeLinear(InferContext& ctx) {
  // Float until opset 19 (contrib: the scale's type); then the scale's type or output_dtype.
  ir::DataType elem = ir::DataType::kFloat;
  bool fromScale = ctx.opset() >= 19 || !ctx.node().domain().empty();
  if (fromScale && ctx.inputElem(1) != ir::DataType::kUndefined) elem = ctx.inputElem(1);
  if (auto d = outputDtypeAttr(ctx)) elem = *d;
  ctx.setOutputElem(0, elem);
  copyShapeFrom(ctx, 0, 0);
}

void inferDynamicQuantizeLinear(InferContext& ctx) {
  ctx.setOutputElem(0, ir::DataType::kUInt8);
  copyShapeFrom(ctx, 0, 0);
  ctx.setOutput(1, ir::DataType::kFloat, ir::Shape());
  ctx.setOutput(2, ir::DataType::kUInt8, ir::Shape());
}

// com.microsoft QLinearConv (W input 3) and ai.passlab FusedConvInteger (W
// input 1) with channels_last = 1: X and Y [N, spatial..., C] (W stays
// [M, C/group, k...]).
void inferChannelsLastConv(InferContext& ctx, size_t wIndex) {
  const ir::Shape* x = ctx.inputShape(0);
  const ir::Shape* w = ctx.inputShape(wIndex);
  if (!x || !w) return;
  if (x->rank() < 3 || w->rank() != x->rank()) {
    ctx.fail("channels-last X " + x->toString() + " and W " + w->toString() +
             " are not [N, spatial..., C] and [M, C/group, k...] of one rank");
    return;
  }
  std::vector<int64_t> kernel;
  for (size_t i = 2; i < w->rank(); ++i) {
    if (!(*w)[i].isStatic()) return;
    kernel.push_back((*w)[i].value());
  }
  WindowAttrs wa;
  if (!readWindowAttrs(ctx, x->rank() - 2, kernel, wa)) return;
  auto s = windowOutputShape(ctx, permuted(*x, toChannelsFirst(x->rank())), (*w)[0], wa);
  if (s) ctx.setOutputShape(0, permuted(*s, toChannelsLast(s->rank())));
}

void inferQLinearConv(InferContext& ctx) {
  if (ctx.inputElem(7) != ir::DataType::kUndefined) ctx.setOutputElem(0, ctx.inputElem(7));
  if (!ctx.node().domain().empty() && ctx.attrInt("channels_last", 0) != 0)
    return inferChannelsLastConv(ctx, 3);
  inferConvLike(ctx, 0, 3, 0);
}

void inferQLinearMatMul(InferContext& ctx) {
  if (ctx.inputElem(7) != ir::DataType::kUndefined) ctx.setOutputElem(0, ctx.inputElem(7));
  const ir::Shape* a = ctx.inputShape(0);
  const ir::Shape* b = ctx.inputShape(3);
  if (!a || !b) return;
  if (auto s = matmulShape(ctx, *a, *b)) ctx.setOutputShape(0, std::move(*s));
}

void inferQLinearBinary(InferContext& ctx) {
  if (ctx.inputElem(0) != ir::DataType::kUndefined) ctx.setOutputElem(0, ctx.inputElem(0));
  const ir::Shape* a = ctx.inputShape(0);
  const ir::Shape* b = ctx.inputShape(3);
  if (!a || !b) return;
  std::string err;
  if (auto out = broadcastShapes({a, b}, &err))
    ctx.setOutputShape(0, std::move(*out));
  else if (!err.empty())
    ctx.fail(err);
}

namespace {

// A window pool on X, channels first or (last) [N, spatial..., C].
void inferPoolOfLayout(InferContext& ctx, bool last) {
  const ir::Shape* x = pooledInput(ctx);
  if (!x) return;
  const ir::Shape first = last ? permuted(*x, toChannelsFirst(x->rank())) : *x;
  WindowAttrs wa;
  if (!readWindowAttrs(ctx, first.rank() - 2, {}, wa)) return;
  auto s = windowOutputShape(ctx, first, first[1], wa);
  if (!s) return;
  ctx.setOutputShape(0, last ? permuted(*s, toChannelsLast(s->rank())) : *s);
}

}  // namespace

void inferQLinearAveragePool(InferContext& ctx) {
  inferPoolOfLayout(ctx, ctx.attrInt("channels_last", 0) != 0);
}

void inferNhwcMaxPool(InferContext& ctx) {
  inferPoolOfLayout(ctx, true);
}

void inferQLinearGlobalAveragePool(InferContext& ctx) {
  const ir::Shape* x = pooledInput(ctx);
  if (!x) return;
  const size_t channels = ctx.attrInt("channels_last", 0) != 0 ? x->rank() - 1 : 1;
  std::vector<ir::Dim> dims(x->rank(), ir::Dim(1));
  dims[0] = (*x)[0];
  dims[channels] = (*x)[channels];
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferQLinearReduceMean(InferContext& ctx) {
  if (ctx.inputElem(0) != ir::DataType::kUndefined) ctx.setOutputElem(0, ctx.inputElem(0));
  for (const char* name : {"axes", "keepdims"})
    if (!ctx.hasAttr(name)) {
      ctx.fail(std::string("QLinearReduceMean has no ") + name + " attribute");
      return;
    }
  if (ctx.attrInts("axes").empty()) {
    ctx.fail("QLinearReduceMean has an empty axes attribute");
    return;
  }
  inferReduce(ctx);  // the axes attribute (opset 1 of its domain), keepdims
}

void inferQLinearSoftmax(InferContext& ctx) {
  inferSameShape(ctx);
  if (!ctx.hasAttr("opset")) {
    ctx.fail(
        "QLinearSoftmax has no opset attribute (the Softmax opset whose semantics it follows)");
    return;
  }
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  const auto rank = static_cast<int64_t>(x->rank());
  const int64_t axis = ctx.attrInt("axis", -1);
  if (axis < -rank || axis >= rank)
    ctx.fail("axis " + std::to_string(axis) + " is out of range for X of rank " +
             std::to_string(rank));
}

void inferMatMulInteger(InferContext& ctx) {
  ctx.setOutputElem(0, ir::DataType::kInt32);
  inferMatMul(ctx);
}

}  // namespace passlab::analysis::infer
