// A com.microsoft QLinear op that computes with a float kernel
// (QLinearAveragePool: the reference AveragePool; QLinearSoftmax: Softmax):
// its 8-bit input dequantized to float, the float kernel run on it in a
// context of its own (one input, its output in scratch memory), and the
// float result quantized (qlinear_quantization.h: round half to even,
// saturated).
#pragma once

#include <cstdint>
#include <utility>

#include "core/exec/cpu/qlinear_quantization.h"
#include "core/exec/cpu/scratch_output_context.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

// What the float kernel sees: one input, its output in scratch memory.
class FloatRun final : public ScratchOutputContext {
 public:
  FloatRun(KernelContext& outer, Tensor x) : ScratchOutputContext(outer), x_(std::move(x)) {}

  size_t inputCount() const override { return 1; }
  const Value* value(size_t i) const override { return i == 0 ? &x_ : nullptr; }
  bool invariantInput(size_t i) const override { return false; }
  size_t outputCount() const override { return 1; }
  bool wantsOutput(size_t i) const override { return i == 0; }

 private:
  Value x_;
};

template <class T>
void dequantizeInto(const Tensor& x, const Quantization& q, Tensor& f) {
  const T* px = x.data<T>();
  float* pf = f.mutableData<float>();
  for (int64_t i = 0; i < x.numel(); ++i) pf[i] = dequantize(px[i], q);
}

template <class T>
void quantizeInto(const Tensor& f, const Quantization& q, Tensor& y) {
  const float* pf = f.data<float>();
  T* py = y.mutableData<T>();
  for (int64_t i = 0; i < f.numel(); ++i) py[i] = quantize<T>(pf[i], q);
}

// The int8 or uint8 `x` dequantized with `q`, in scratch memory.
inline Expected<Tensor> dequantizedToFloat(KernelContext& ctx, const Tensor& x,
                                           const Quantization& q) {
  PASSLAB_ASSIGN_OR_RETURN(Tensor f, ctx.scratch(ir::DataType::kFloat, x.dims()));
  if (x.dtype() == ir::DataType::kInt8) {
    dequantizeInto<int8_t>(x, q, f);
  } else {
    dequantizeInto<uint8_t>(x, q, f);
  }
  return f;
}

// Output 0, of the int8 or uint8 type `dtype`: the float `f` quantized with `q`.
inline Status quantizedOutput(KernelContext& ctx, const Tensor& f, ir::DataType dtype,
                              const Quantization& q) {
  PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dtype, f.dims()));
  if (dtype == ir::DataType::kInt8) {
    quantizeInto<int8_t>(f, q, *y);
  } else {
    quantizeInto<uint8_t>(f, q, *y);
  }
  return Status::ok();
}

}  // namespace passlab::exec::cpu
