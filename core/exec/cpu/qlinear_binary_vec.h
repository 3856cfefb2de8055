// The vectorized com.microsoft QLinearAdd and QLinearMul
// (qlinear_binary_vec.cpp), registered with the other QLinear ops in
// contrib_qlinear.cpp.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<std::unique_ptr<Kernel>> makeQLinearAddVec(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeQLinearMulVec(const KernelBuild& b);

}  // namespace passlab::exec::cpu
