// Factories of the reference convolution kernels, for optimized kernels that
// hand them configurations they decline at run time.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<std::unique_ptr<Kernel>> makeConvRef(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeConvTransposeRef(const KernelBuild& b);

}  // namespace passlab::exec::cpu
