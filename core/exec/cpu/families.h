// The CPU kernel families: each file under core/exec/cpu/ holds one family's
// kernels and its table of rows. cpu_kernels.cpp lists every family once.
#pragma once

#include <span>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

std::span<const KernelDef> unaryKernels();      // unary_ops.cpp
std::span<const KernelDef> binaryKernels();     // binary_ops.cpp
std::span<const KernelDef> matmulRefKernels();  // matmul_ref.cpp

}  // namespace passlab::exec::cpu
