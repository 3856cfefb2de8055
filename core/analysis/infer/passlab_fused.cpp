// PassLab's own fused ops (domain ai.passlab; docs/fused-kernels.md), which
// have no ONNX schema: every rule sets the element type (that of input 0,
// float32 as the passes emit them) with the shape.
//
//   FusedConv(X, W, B?, Z?)          Conv's output shape
//   FusedConvInteger(X, W, ...)      Conv's output shape, float32 (whatever X's type);
//                                    channels_last = 1: X and Y [N, spatial..., C];
//                                    Range float32 [2]; quantize_output = 1: uint8
//                                    Y, float32 and uint8 scalars (DynamicQuantizeLinear's)
//   FusedGemm(A, B, C?, Z?)          [..., M, N] (A [..., M, K]; transA only for 2-D A)
//   FusedElementwise(X...)           the broadcast of all inputs
//   FusedAttention(Q, K, V, masks)   [batch..., S, Hv]: batch dims of Q, K, V broadcast
//   FusedLayerNorm(X, Scale, B?, Skip?) -> Y, Sum?   both of X's shape
//   FusedSoftmax(X, M?)              X's shape
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"
#include "core/ir/passlab_ops.h"

namespace passlab::analysis::infer {

namespace {

void setElem(InferContext& ctx) {
  if (ctx.hasInput(0) && ctx.inputElem(0) != ir::DataType::kUndefined)
    ctx.setOutputElem(0, ctx.inputElem(0));
}

}  // namespace

void inferPasslabFusedConv(InferContext& ctx) {
  if (ctx.hasAttr(ir::passlab_ops::kBlock)) return inferPasslabBlockedConv(ctx);
  setElem(ctx);
  inferConvLike(ctx, 0, 1, 0);
}

void inferPasslabFusedConvInteger(InferContext& ctx) {
  if (ctx.attrInt("quantize_output", 0) != 0) {  // DynamicQuantizeLinear's outputs
    ctx.setOutputElem(0, ir::DataType::kUInt8);
    if (ctx.outputCount() > 1) ctx.setOutput(1, ir::DataType::kFloat, ir::Shape());
    if (ctx.outputCount() > 2) ctx.setOutput(2, ir::DataType::kUInt8, ir::Shape());
  } else {
    ctx.setOutputElem(0, ir::DataType::kFloat);
    if (ctx.outputCount() > 1)
      ctx.setOutput(1, ir::DataType::kFloat, ir::Shape(std::vector<ir::Dim>{ir::Dim(2)}));
  }
  if (ctx.attrInt(ir::passlab_ops::kChannelsLast, 0) != 0) return inferChannelsLastConv(ctx, 1);
  inferConvLike(ctx, 0, 1, 0);
}

void inferPasslabFusedGemm(InferContext& ctx) {
  setElem(ctx);
  const ir::Shape* a = ctx.inputShape(0);
  const ir::Shape* b = ctx.inputShape(1);
  if (!a || !b) return;
  const bool ta = ctx.attrInt("transA", 0) != 0, tb = ctx.attrInt("transB", 0) != 0;
  if (a->rank() < 2 || b->rank() != 2 || (ta && a->rank() != 2)) {
    ctx.fail("FusedGemm needs A of rank >= 2 (2 with transA) and a 2-D B, got " + a->toString() +
             " and " + b->toString());
    return;
  }
  const size_t r = a->rank();
  const ir::Dim& ka = ta ? (*a)[0] : (*a)[r - 1];
  const ir::Dim& kb = (*b)[tb ? 1 : 0];
  if (ka.isStatic() && kb.isStatic() && ka.value() != kb.value()) {
    ctx.fail("inner dimensions differ: " + a->toString() + " x " + b->toString());
    return;
  }
  ir::Shape out = *a;
  if (ta) out[0] = (*a)[1];
  out[r - 1] = (*b)[tb ? 0 : 1];
  ctx.setOutputShape(0, std::move(out));
}

void inferPasslabFusedElementwise(InferContext& ctx) {
  setElem(ctx);
  std::vector<const ir::Shape*> shapes;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const ir::Shape* s = ctx.inputShape(i);
    if (!s) return;
    shapes.push_back(s);
  }
  if (shapes.empty()) return;
  std::string error;
  auto out = broadcastShapes(shapes, &error);
  if (!out) {
    if (!error.empty()) ctx.fail(error);
    return;
  }
  ctx.setOutputShape(0, std::move(*out));
}

void inferPasslabFusedAttention(InferContext& ctx) {
  setElem(ctx);
  const ir::Shape* q = ctx.inputShape(0);
  const ir::Shape* k = ctx.inputShape(1);
  const ir::Shape* v = ctx.inputShape(2);
  if (!q || !k || !v) return;
  if (q->rank() < 2 || k->rank() < 2 || v->rank() < 2) {
    ctx.fail("FusedAttention needs Q, K and V of rank >= 2");
    return;
  }
  const bool kt = ctx.attrInt("k_transposed", 0) != 0;
  const ir::Dim& kh = (*k)[k->rank() - (kt ? 2 : 1)];
  const ir::Dim& qh = (*q)[q->rank() - 1];
  if (kh.isStatic() && qh.isStatic() && kh.value() != qh.value()) {
    ctx.fail("the head sizes of Q " + q->toString() + " and K " + k->toString() + " differ");
    return;
  }
  // Batch dims: Q, K and V without their last two, broadcast.
  auto batch = [](const ir::Shape& s) {
    std::vector<ir::Dim> d;
    for (size_t i = 0; i + 2 < s.rank(); ++i) d.push_back(s[i]);
    return ir::Shape(d);
  };
  ir::Shape bq = batch(*q), bk = batch(*k), bv = batch(*v);
  std::string error;
  auto out = broadcastShapes({&bq, &bk, &bv}, &error);
  if (!out) {
    if (!error.empty()) ctx.fail(error);
    return;
  }
  std::vector<ir::Dim> dims;
  for (size_t i = 0; i < out->rank(); ++i) dims.push_back((*out)[i]);
  dims.push_back((*q)[q->rank() - 2]);
  dims.push_back((*v)[v->rank() - 1]);
  ctx.setOutputShape(0, ir::Shape(dims));
}

namespace {

// Outputs [0, n) of input 0's type and shape.
void likeInput0(InferContext& ctx, size_t n) {
  const ir::Shape* x = ctx.inputShape(0);
  for (size_t i = 0; i < ctx.outputCount() && i < n; ++i) {
    if (!ctx.hasOutput(i)) continue;
    if (ctx.hasInput(0) && ctx.inputElem(0) != ir::DataType::kUndefined)
      ctx.setOutputElem(i, ctx.inputElem(0));
    if (x) ctx.setOutputShape(i, *x);
  }
}

}  // namespace

void inferPasslabFusedLayerNorm(InferContext& ctx) {
  likeInput0(ctx, 2);
}

void inferPasslabFusedSoftmax(InferContext& ctx) {
  likeInput0(ctx, 1);
}

}  // namespace passlab::analysis::infer
