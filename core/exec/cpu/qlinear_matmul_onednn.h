// The factories of QLinearMatMul and com.microsoft QGemm on oneDNN's int8
// matmul (qlinear_matmul_onednn.cpp), registered with QLinearConv's oneDNN row
// in qlinear_conv_onednn.cpp.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<std::unique_ptr<Kernel>> makeOneDnnQLinearMatMul(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeOneDnnQGemm(const KernelBuild& b);

}  // namespace passlab::exec::cpu
