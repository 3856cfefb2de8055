// com.microsoft quantized elementwise ops of ONNX Runtime's QLinear form
// (what its quantizer writes for QOperator models): QLinearAdd and QLinearMul
// (broadcasting), QLinearSigmoid, QLinearLeakyRelu and QLinearConcat (and,
// registered here, QLinearAveragePool, QLinearGlobalAveragePool and
// QLinearReduceMean: contrib_qlinear_pool.cpp; QLinearSoftmax:
// contrib_qlinear_softmax.cpp; the vectorized QLinearAdd and QLinearMul with
// ONNX Runtime's numerics, preferred to the reference ones here:
// qlinear_binary_vec.cpp). Each
// dequantizes its 8-bit operands with their per-tensor scale and zero point,
// computes in float, and quantizes with the output's: round half to even,
// saturated to the type's range, as QuantizeLinear does.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/contrib_qlinear_pool.h"
#include "core/exec/cpu/contrib_qlinear_softmax.h"
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/qlinear_binary_vec.h"
#include "core/exec/cpu/qlinear_quantization.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

constexpr TypeSet kInt8s{DataType::kInt8, DataType::kUInt8};
constexpr int64_t kGrain = 1 << 14;

// QLinearAdd / QLinearMul: A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp.
template <bool kMultiply>
class QLinearBinary final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(QLinearBinaryOperands op, readQLinearBinary(ctx));
    if (op.a->dtype() == DataType::kInt8) {
      compute<int8_t>(ctx, *op.a, *op.b, *op.c, op.qa, op.qb, op.qc);
    } else {
      compute<uint8_t>(ctx, *op.a, *op.b, *op.c, op.qa, op.qb, op.qc);
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

// QLinearConcat: Y_scale, Y_zp, then X_i, X_i_scale, X_i_zp for each input;
// attribute axis. An input quantized as Y is copied; another goes through a
// table of its 256 values requantized.
class QLinearConcat final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    if (!b.node().hasAttr("axis")) return invalidArgument("QLinearConcat has no axis attribute");
    return std::unique_ptr<Kernel>(std::make_unique<QLinearConcat>(b.node().attrInt("axis", 0)));
  }
  explicit QLinearConcat(int64_t axis) : axis_(axis) {}

  Status run(KernelContext& ctx) override {
    const size_t n = ctx.inputCount();
    if (n < 5 || (n - 2) % 3 != 0)
      return invalidArgument(
          "QLinearConcat takes Y_scale, Y_zero_point and (X, X_scale, "
          "X_zero_point) per input; got " +
          std::to_string(n) + " inputs");
    std::vector<const Tensor*> xs;
    for (size_t i = 2; i < n; i += 3) {
      if (!ctx.has(i))
        return invalidArgument("input X" + std::to_string(xs.size()) + " is missing");
      xs.push_back(&ctx.input(i));
    }
    const Tensor& first = *xs[0];
    const DataType dtype = first.dtype();
    const auto rank = static_cast<int64_t>(first.rank());
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axis_, rank));
    PASSLAB_ASSIGN_OR_RETURN(Quantization qy, quantization(ctx, 0, 1, dtype, "Y"));
    std::vector<Quantization> qs;
    Dims out = first.dims();
    out[static_cast<size_t>(axis)] = 0;
    for (size_t k = 0; k < xs.size(); ++k) {
      const Tensor& x = *xs[k];
      std::string name = "X";  // (not "X" + ...: GCC 12's -Wrestrict false positive)
      name += std::to_string(k);
      bool ok = x.dtype() == dtype && x.rank() == first.rank();
      for (int64_t d = 0; ok && d < rank; ++d)
        ok = d == axis || x.dim(static_cast<size_t>(d)) == first.dim(static_cast<size_t>(d));
      if (!ok)
        return invalidArgument("inputs " + first.describe() + " and " + x.describe() +
                               " do not concatenate along axis " + std::to_string(axis));
      PASSLAB_ASSIGN_OR_RETURN(Quantization q,
                               quantization(ctx, 3 + 3 * k, 4 + 3 * k, dtype, name.c_str()));
      qs.push_back(q);
      out[static_cast<size_t>(axis)] += x.dim(static_cast<size_t>(axis));
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dtype, out));
    if (dtype == DataType::kInt8) {
      compute<int8_t>(ctx, xs, qs, qy, axis, *y);
    } else {
      compute<uint8_t>(ctx, xs, qs, qy, axis, *y);
    }
    return Status::ok();
  }

 private:
  template <class T>
  static void compute(const KernelContext& ctx, const std::vector<const Tensor*>& xs,
                      const std::vector<Quantization>& qs, const Quantization& qy, int64_t axis,
                      Tensor& y) {
    const Dims& out = y.dims();
    const auto rank = static_cast<int64_t>(out.size());
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= out[static_cast<size_t>(d)];
    for (int64_t d = axis + 1; d < rank; ++d) inner *= out[static_cast<size_t>(d)];
    const int64_t outBlock = out[static_cast<size_t>(axis)] * inner;
    // Per input: its offset in an output block, and its table (empty: copied).
    std::vector<int64_t> offsets;
    std::vector<std::vector<T>> tables(xs.size());
    int64_t acc = 0;
    for (size_t k = 0; k < xs.size(); ++k) {
      offsets.push_back(acc);
      acc += xs[k]->dim(static_cast<size_t>(axis)) * inner;
      if (qs[k].scale == qy.scale && qs[k].zeroPoint == qy.zeroPoint) continue;
      tables[k].resize(256);
      for (int v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v)
        tables[k][static_cast<uint8_t>(v)] = quantize<T>(dequantize(static_cast<T>(v), qs[k]), qy);
    }
    T* py = y.mutableData<T>();
    const auto parts = static_cast<int64_t>(xs.size());
    parallelFor(outer * parts, ctx.threads(), std::max<int64_t>(1, kGrain / (outBlock + 1)),
                [&](int64_t b, int64_t e) {
                  for (int64_t j = b; j < e; ++j) {
                    const int64_t o = j / parts;
                    const auto k = static_cast<size_t>(j % parts);
                    const int64_t block = xs[k]->dim(static_cast<size_t>(axis)) * inner;
                    const T* src = xs[k]->data<T>() + o * block;
                    T* dst = py + o * outBlock + offsets[k];
                    if (tables[k].empty()) {
                      if (block > 0) std::memcpy(dst, src, static_cast<size_t>(block) * sizeof(T));
                    } else {
                      const T* table = tables[k].data();
                      for (int64_t i = 0; i < block; ++i)
                        dst[i] = table[static_cast<uint8_t>(src[i])];
                    }
                  }
                });
  }

  int64_t axis_;
};

const KernelDef kRows[] = {
    {"com.microsoft", "QLinearAdd", 1, kOpsetMax, kInt8s, 0, Tier::kReference, "cpu.ms.QLinearAdd",
     makeKernel<QLinearBinary<false>>},
    {"com.microsoft", "QLinearMul", 1, kOpsetMax, kInt8s, 0, Tier::kReference, "cpu.ms.QLinearMul",
     makeKernel<QLinearBinary<true>>},
    {"com.microsoft", "QLinearAdd", 1, kOpsetMax, kInt8s, 0, Tier::kOptimized,
     "cpu.ms.QLinearAdd.vec", makeQLinearAddVec},
    {"com.microsoft", "QLinearMul", 1, kOpsetMax, kInt8s, 0, Tier::kOptimized,
     "cpu.ms.QLinearMul.vec", makeQLinearMulVec},
    {"com.microsoft", "QLinearSigmoid", 1, kOpsetMax, kInt8s, 0, Tier::kReference,
     "cpu.ms.QLinearSigmoid", makeKernel<QLinearUnary<false>>},
    {"com.microsoft", "QLinearLeakyRelu", 1, kOpsetMax, kInt8s, 0, Tier::kReference,
     "cpu.ms.QLinearLeakyRelu", makeKernel<QLinearUnary<true>>},
    {"com.microsoft", "QLinearConcat", 1, kOpsetMax, kInt8s, 2, Tier::kReference,
     "cpu.ms.QLinearConcat", makeKernel<QLinearConcat>},
    {"com.microsoft", "QLinearAveragePool", 1, kOpsetMax, kInt8s, 0, Tier::kReference,
     "cpu.ms.QLinearAveragePool", makeQLinearAveragePool},
    {"com.microsoft", "QLinearGlobalAveragePool", 1, kOpsetMax, kInt8s, 0, Tier::kReference,
     "cpu.ms.QLinearGlobalAveragePool", makeQLinearGlobalAveragePool},
    {"com.microsoft", "QLinearReduceMean", 1, kOpsetMax, kInt8s, 0, Tier::kReference,
     "cpu.ms.QLinearReduceMean", makeQLinearReduceMean},
    {"com.microsoft", "QLinearSoftmax", 1, kOpsetMax, kInt8s, 0, Tier::kReference,
     "cpu.ms.QLinearSoftmax", makeQLinearSoftmax},
    {"com.microsoft", "QLinearSoftmax", 1, kOpsetMax, kInt8s, 0, Tier::kOptimized,
     "cpu.ms.QLinearSoftmax.lut", makeQLinearSoftmaxLut},
};

}  // namespace

std::span<const KernelDef> contribQLinearKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
