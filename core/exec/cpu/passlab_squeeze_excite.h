// ai.passlab QLinearSqueezeExcite (core/ir/passlab_ops.h): a squeeze-excitation
// block on an 8-bit tensor, its float values through a 256-entry table.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu::squeeze_excite {

Expected<std::unique_ptr<Kernel>> makeQLinearSqueezeExcite(const KernelBuild& b);

}  // namespace passlab::exec::cpu::squeeze_excite
