// ai.passlab QLinearLookup (core/ir/passlab_ops.h): Y[i] = Table[X[i] - lowest(X's type)].
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu::lookup {

Expected<std::unique_ptr<Kernel>> makeQLinearLookup(const KernelBuild& b);

}  // namespace passlab::exec::cpu::lookup
