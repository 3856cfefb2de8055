// The per-tensor quantization of ONNX Runtime's com.microsoft QLinear ops
// (contrib_qlinear.cpp, contrib_qlinear_pool.cpp): a float scale and an
// optional zero point of the data's type, read from a kernel's inputs;
// dequantize, and quantize as QuantizeLinear does (round half to even,
// saturated to the type's range).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/exec/broadcast.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

struct Quantization {
  float scale = 1;
  int32_t zeroPoint = 0;
};

// The scale at input `scaleAt` (a float scalar) and the zero point at
// `zeroAt` (optional; a scalar of the data's type `dataType`); errors name `what`.
inline Expected<Quantization> quantization(const KernelContext& ctx, size_t scaleAt, size_t zeroAt,
                                           ir::DataType dataType, const char* what) {
  if (!ctx.has(scaleAt)) return invalidArgument(std::string(what) + " scale is missing");
  const Tensor& s = ctx.input(scaleAt);
  if (s.dtype() != ir::DataType::kFloat || s.numel() != 1)
    return invalidArgument(std::string(what) + " scale " + s.describe() +
                           " must be one float (per tensor)");
  Quantization q;
  q.scale = s.data<float>()[0];
  if (!ctx.has(zeroAt)) return q;
  const Tensor& z = ctx.input(zeroAt);
  if (z.dtype() != dataType || z.numel() != 1)
    return invalidArgument(std::string(what) + " zero point " + z.describe() + " must be one " +
                           std::string(ir::dtypeName(dataType)));
  q.zeroPoint = dataType == ir::DataType::kInt8 ? int32_t{z.data<int8_t>()[0]}
                                                : int32_t{z.data<uint8_t>()[0]};
  return q;
}

// The operands of com.microsoft QLinearAdd / QLinearMul (A, A_scale, A_zp,
// B, B_scale, B_zp, C_scale, C_zp) and their output C, allocated at the
// broadcast shape with A's type.
struct QLinearBinaryOperands {
  const Tensor* a = nullptr;
  const Tensor* b = nullptr;
  Quantization qa, qb, qc;
  Tensor* c = nullptr;
};
inline Expected<QLinearBinaryOperands> readQLinearBinary(KernelContext& ctx) {
  QLinearBinaryOperands op;
  op.a = &ctx.input(0);
  if (!ctx.has(3)) return invalidArgument("B is missing");
  op.b = &ctx.input(3);
  const ir::DataType type = op.a->dtype();
  if (op.b->dtype() != type)
    return invalidArgument("A " + op.a->describe() + " and B " + op.b->describe() +
                           " differ in type");
  PASSLAB_ASSIGN_OR_RETURN(op.qa, quantization(ctx, 1, 2, type, "A"));
  PASSLAB_ASSIGN_OR_RETURN(op.qb, quantization(ctx, 4, 5, type, "B"));
  PASSLAB_ASSIGN_OR_RETURN(op.qc, quantization(ctx, 6, 7, type, "C"));
  PASSLAB_ASSIGN_OR_RETURN(Dims dims, broadcastShapes(op.a->dims(), op.b->dims()));
  PASSLAB_ASSIGN_OR_RETURN(op.c, ctx.allocate(0, type, std::move(dims)));
  return op;
}

template <class T>
float dequantize(T v, const Quantization& q) {
  return static_cast<float>(static_cast<int32_t>(v) - q.zeroPoint) * q.scale;
}

template <class T>
T quantize(float v, const Quantization& q) {
  const float r = std::nearbyint(v / q.scale) + static_cast<float>(q.zeroPoint);
  const float lo = static_cast<float>(std::numeric_limits<T>::min());
  const float hi = static_cast<float>(std::numeric_limits<T>::max());
  return static_cast<T>(std::clamp(std::isnan(r) ? 0.0f : r, lo, hi));
}

}  // namespace passlab::exec::cpu
