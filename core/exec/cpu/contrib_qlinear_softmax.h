// The factory of ONNX Runtime's com.microsoft QLinearSoftmax
// (contrib_qlinear_softmax.cpp), registered with the other QLinear ops in
// contrib_qlinear.cpp.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<std::unique_ptr<Kernel>> makeQLinearSoftmax(const KernelBuild& b);

}  // namespace passlab::exec::cpu
