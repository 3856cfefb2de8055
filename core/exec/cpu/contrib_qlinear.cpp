// com.microsoft quantized elementwise ops of ONNX Runtime's QLinear form
// (what its quantizer writes for QOperator models): QLinearAdd and QLinearMul
// (broadcasting), QLinearSigmoid and QLinearLeakyRelu. Each dequantizes its
// 8-bit operands with their per-tensor scale and zero point, computes in
// float, and quantizes with the output's: round half to even, saturated to
// the type's range, as QuantizeLinear does.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

constexpr TypeSet kInt8s{DataType::kInt8, DataType::kUInt8};
constexpr int64_t kGrain = 1 << 14;

// A per-tensor scale and zero point.
struct Quantization {
  float scale = 1;
  int32_t zeroPoint = 0;
};

// The scale at input `scaleAt` (a float scalar) and the zero point at
// `zeroAt` (optional; a scalar of the data's type `dataType`).
Expected<Quantization> quantization(const KernelContext& ctx, size_t scaleAt, size_t zeroAt,
                                    DataType dataType, const char* what) {
  if (!ctx.has(scaleAt)) return invalidArgument(std::string(what) + " scale is missing");
  const Tensor& s = ctx.input(scaleAt);
  if (s.dtype() != DataType::kFloat || s.numel() != 1)
    return invalidArgument(std::string(what) + " scale " + s.describe() +
                           " must be one float (per tensor)");
  Quantization q;
  q.scale = s.data<float>()[0];
  if (!ctx.has(zeroAt)) return q;
  const Tensor& z = ctx.input(zeroAt);
  if (z.dtype() != dataType || z.numel() != 1)
    return invalidArgument(std::string(what) + " zero point " + z.describe() + " must be one " +
                           std::string(ir::dtypeName(dataType)));
  q.zeroPoint =
      dataType == DataType::kInt8 ? int32_t{z.data<int8_t>()[0]} : int32_t{z.data<uint8_t>()[0]};
  return q;
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

// QLinearAdd / QLinearMul: A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp.
template <bool kMultiply>
class QLinearBinary final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    if (!ctx.has(3)) return invalidArgument("B is missing");
    const Tensor& b = ctx.input(3);
    if (b.dtype() != a.dtype())
      return invalidArgument("A " + a.describe() + " and B " + b.describe() + " differ in type");
    PASSLAB_ASSIGN_OR_RETURN(Quantization qa, quantization(ctx, 1, 2, a.dtype(), "A"));
    PASSLAB_ASSIGN_OR_RETURN(Quantization qb, quantization(ctx, 4, 5, a.dtype(), "B"));
    PASSLAB_ASSIGN_OR_RETURN(Quantization qc, quantization(ctx, 6, 7, a.dtype(), "C"));
    PASSLAB_ASSIGN_OR_RETURN(Dims dims, broadcastShapes(a.dims(), b.dims()));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * c, ctx.allocate(0, a.dtype(), dims));
    if (a.dtype() == DataType::kInt8) {
      compute<int8_t>(ctx, a, b, *c, qa, qb, qc);
    } else {
      compute<uint8_t>(ctx, a, b, *c, qa, qb, qc);
    }
    return Status::ok();
  }

 private:
  template <class T>
  static void compute(const KernelContext& ctx, const Tensor& a, const Tensor& b, Tensor& c,
                      const Quantization& qa, const Quantization& qb, const Quantization& qc) {
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* pc = c.mutableData<T>();
    BroadcastWalker<2> walker(c.dims(), {&a.dims(), &b.dims()});
    parallelFor(walker.total(), ctx.threads(), kGrain, [&](int64_t begin, int64_t end) {
      walker.walk(begin, end,
                  [&](int64_t o, const std::array<int64_t, 2>& off, int64_t n,
                      const std::array<int64_t, 2>& st) {
                    for (int64_t i = 0; i < n; ++i) {
                      const float x = dequantize(pa[off[0] + i * st[0]], qa);
                      const float y = dequantize(pb[off[1] + i * st[1]], qb);
                      pc[o + i] = quantize<T>(kMultiply ? x * y : x + y, qc);
                    }
                  });
    });
  }
};

// QLinearSigmoid / QLinearLeakyRelu: X, X_scale, X_zp, Y_scale, Y_zp. An
// 8-bit input has 256 values: the op is a table of them.
template <bool kLeaky>
class QLinearUnary final : public Kernel {
 public:
  explicit QLinearUnary(const KernelBuild& b) : alpha_(b.node().attrFloat("alpha", 0.01f)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(Quantization qx, quantization(ctx, 1, 2, x.dtype(), "X"));
    PASSLAB_ASSIGN_OR_RETURN(Quantization qy, quantization(ctx, 3, 4, x.dtype(), "Y"));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
    if (x.dtype() == DataType::kInt8) {
      compute<int8_t>(x, *y, qx, qy);
    } else {
      compute<uint8_t>(x, *y, qx, qy);
    }
    return Status::ok();
  }

 private:
  float op(float v) const {
    if constexpr (kLeaky) return v >= 0 ? v : alpha_ * v;
    return 1.0f / (1.0f + std::exp(-v));
  }

  template <class T>
  void compute(const Tensor& x, Tensor& y, const Quantization& qx, const Quantization& qy) const {
    T table[256];
    for (int v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v)
      table[static_cast<uint8_t>(v)] = quantize<T>(op(dequantize(static_cast<T>(v), qx)), qy);
    const T* px = x.data<T>();
    T* py = y.mutableData<T>();
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = table[static_cast<uint8_t>(px[i])];
  }

  float alpha_;
};

const KernelDef kRows[] = {
    {"com.microsoft", "QLinearAdd", 1, kOpsetMax, kInt8s, 0, Tier::kReference, "cpu.ms.QLinearAdd",
     makeKernel<QLinearBinary<false>>},
    {"com.microsoft", "QLinearMul", 1, kOpsetMax, kInt8s, 0, Tier::kReference, "cpu.ms.QLinearMul",
     makeKernel<QLinearBinary<true>>},
    {"com.microsoft", "QLinearSigmoid", 1, kOpsetMax, kInt8s, 0, Tier::kReference,
     "cpu.ms.QLinearSigmoid", makeKernel<QLinearUnary<false>>},
    {"com.microsoft", "QLinearLeakyRelu", 1, kOpsetMax, kInt8s, 0, Tier::kReference,
     "cpu.ms.QLinearLeakyRelu", makeKernel<QLinearUnary<true>>},
};

}  // namespace

std::span<const KernelDef> contribQLinearKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
