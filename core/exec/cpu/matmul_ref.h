// Factories of the reference MatMul and Gemm kernels, for the optimized
// kernels to hand configurations they decline.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<std::unique_ptr<Kernel>> makeMatMulRef(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeGemmRef(const KernelBuild& b);

}  // namespace passlab::exec::cpu
