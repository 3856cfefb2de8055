// The factories of ONNX Runtime's com.microsoft QLinearSoftmax: the reference
// (contrib_qlinear_softmax.cpp) and the lookup-table kernel
// (qlinear_softmax_lut.cpp, rows along the last axis), registered with the
// other QLinear ops in contrib_qlinear.cpp.
#pragma once

#include "core/exec/cpu/qlinear_quantization.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

// X's and Y's quantization of a QLinearSoftmax run (X, X_scale, x_zero_point,
// y_scale, y_zero_point), checked as both kernels check them: X int8 or
// uint8, each scale one float, each zero point one value of X's type, Y's
// required (defined in contrib_qlinear_softmax.cpp).
struct QLinearSoftmaxQuantization {
  Quantization x, y;
};
Expected<QLinearSoftmaxQuantization> qlinearSoftmaxQuantization(const KernelContext& ctx);

Expected<std::unique_ptr<Kernel>> makeQLinearSoftmax(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeQLinearSoftmaxLut(const KernelBuild& b);

}  // namespace passlab::exec::cpu
