// Quantization: QuantizeLinear/DequantizeLinear (element type from the zero
// point, the scale or output_dtype, by opset), DynamicQuantizeLinear, and the
// integer forms of Conv and MatMul, ONNX Runtime's QLinear elementwise ops.
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

std::optional<ir::DataType> outputDtypeAttr(InferContext& ctx) {
  auto v = static_cast<int32_t>(ctx.attrInt("output_dtype", 0));
  if (v != 0 && ir::isKnownDtype(v)) return static_cast<ir::DataType>(v);
  return std::nullopt;
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

void inferQLinearConv(InferContext& ctx) {
  if (ctx.inputElem(7) != ir::DataType::kUndefined) ctx.setOutputElem(0, ctx.inputElem(7));
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

void inferMatMulInteger(InferContext& ctx) {
  ctx.setOutputElem(0, ir::DataType::kInt32);
  inferMatMul(ctx);
}

}  // namespace passlab::analysis::infer
