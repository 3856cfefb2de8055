// Without VNNI, whether oneDNN's int8 sums are exact for one QLinearConv or
// QLinearMatMul node anyway (int8_dot_exactness.h): uint8 X times invariant
// int8 W (zero point 0, checked by the caller) with every weight in
// [-64, 64]. The answer rests on W's values, and a plan for another input
// shape may be built after W was freed (held packed): the kernels
// (qlinear_conv_onednn.cpp, qlinear_matmul_onednn.cpp) keep an earlier one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu::qlinear {

// False where X is not uint8 or W not an invariant int8 input; nullopt where
// the answer needs W's values and W's data was freed; else whether every
// weight is in [-64, 64].
inline std::optional<bool> narrowInt8Weights(const KernelContext& ctx) {
  if (ctx.input(kX).dtype() != ir::DataType::kUInt8 || !ctx.invariantInput(kW)) return false;
  const Tensor& w = ctx.input(kW);
  if (w.dtype() != ir::DataType::kInt8) return false;
  if (w.dataFreed()) return std::nullopt;
  return int8DotProductsExactFor({w.data<int8_t>(), static_cast<size_t>(w.numel())},
                                 ir::DataType::kUInt8);
}

}  // namespace passlab::exec::cpu::qlinear
