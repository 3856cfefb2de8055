// The factories of ONNX Runtime's com.microsoft QLinearSoftmax: the reference
// (contrib_qlinear_softmax.cpp) and the lookup-table kernel
// (qlinear_softmax_lut.cpp, rows along the last axis), registered with the
// other QLinear ops in contrib_qlinear.cpp.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<std::unique_ptr<Kernel>> makeQLinearSoftmax(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeQLinearSoftmaxLut(const KernelBuild& b);

}  // namespace passlab::exec::cpu
