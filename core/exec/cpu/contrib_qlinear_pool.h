// Factories of ONNX Runtime's com.microsoft quantized averaging ops
// (contrib_qlinear_pool.cpp), registered with the other QLinear ops in
// contrib_qlinear.cpp.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<std::unique_ptr<Kernel>> makeQLinearAveragePool(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeQLinearGlobalAveragePool(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeQLinearReduceMean(const KernelBuild& b);

}  // namespace passlab::exec::cpu
