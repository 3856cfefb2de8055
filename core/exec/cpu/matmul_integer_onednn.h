// MatMulInteger on oneDNN's int8 matmul with the zero points taken out
// afterwards (matmul_int32.h): exact, for u8/s8 A and B, zero points per
// tensor, per row of A and per column of B, B constant or not. Registered
// with the reference MatMulInteger in qlinear.cpp.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<std::unique_ptr<Kernel>> makeOneDnnMatMulInteger(const KernelBuild& b);

}  // namespace passlab::exec::cpu
