// Factories of the reference pooling kernels, for the oneDNN kernels to hand
// configurations they decline (Indices wanted, other types).
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<std::unique_ptr<Kernel>> makeMaxPoolRef(const KernelBuild& b);
Expected<std::unique_ptr<Kernel>> makeAveragePoolRef(const KernelBuild& b);

}  // namespace passlab::exec::cpu
