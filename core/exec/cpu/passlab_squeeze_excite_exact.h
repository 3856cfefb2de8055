// ai.passlab QLinearSqueezeExcite with exact = 1 (core/ir/passlab_ops.h;
// fuse_qdq_squeeze_excite_exact writes it): the channels-last block computed
// with the CPU executor's own arithmetic for each op it replaces, so Y is the
// QDQ form's bytes.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu::squeeze_excite {

Expected<std::unique_ptr<Kernel>> makeQLinearSqueezeExciteExact(const KernelBuild& b);

}  // namespace passlab::exec::cpu::squeeze_excite
