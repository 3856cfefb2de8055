// QLinearMatMul with uint8 B or B zero points other than 0 (asymmetric
// weights: onnxruntime.quantization's QUInt8 weights, TFLite-style models,
// an attention's uint8 activations as B) on Int32MatMul's exact int32 sums
// (matmul_int32.h), then the reference's requantization (qlinear.cpp):
// sum * (a_scale * b_scale[n] / y_scale, in float32) in double, rounded half
// to even, + y_zero_point, saturated; 16 columns at a time on AVX-512
// (qlinear_requant16.h). Bit for bit the reference. Scales and zero points
// are read on every run (they need not be constant), B may be constant or
// fed at run time. Per-row scales or zero points, non-float32 scales and
// whatever Int32MatMul declines run the reference. A constant B held packed
// (Int32MatMul::holdsB) lets the kernel say holdsOwnCopy; a case that would
// then need B's data is an error, not a read.
#pragma once

#include "core/exec/cpu/matmul_int32.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

class ExactQLinearMatMul {
 public:
  // The cases qlinear_matmul_onednn.cpp gives this: B uint8, or B's zero
  // points not all 0.
  static bool wanted(const KernelContext& ctx);

  // The node on this path, or on `reference` where it declines.
  Status run(KernelContext& ctx, Kernel& reference);

 private:
  // The reference kernel, unless B's data was freed after packing.
  static Status referenceOrFreed(KernelContext& ctx, const Tensor& b, Kernel& reference);

  Int32MatMul product_;
};

}  // namespace passlab::exec::cpu
