// The CPU kernel families: each file under core/exec/cpu/ holds one family's
// kernels and its table of rows. cpu_kernels.cpp lists every family once.
#pragma once

#include <span>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

std::span<const KernelDef> unaryKernels();          // unary_ops.cpp
std::span<const KernelDef> binaryKernels();         // binary_ops.cpp
std::span<const KernelDef> clipKernels();           // clip.cpp
std::span<const KernelDef> matmulRefKernels();      // matmul_ref.cpp
std::span<const KernelDef> matmulOneDnnKernels();   // matmul_onednn.cpp
std::span<const KernelDef> convRefKernels();        // conv_ref.cpp
std::span<const KernelDef> convOneDnnKernels();     // conv_onednn.cpp
std::span<const KernelDef> poolRefKernels();        // pool_ref.cpp
std::span<const KernelDef> poolOneDnnKernels();     // pool_onednn.cpp
std::span<const KernelDef> normalizationKernels();  // normalization.cpp
std::span<const KernelDef> softmaxKernels();        // softmax.cpp
std::span<const KernelDef> shapeKernels();          // shape_ops.cpp
std::span<const KernelDef> generatorKernels();      // generators.cpp
std::span<const KernelDef> indexingKernels();       // indexing.cpp
std::span<const KernelDef> transposeKernels();      // transpose.cpp
std::span<const KernelDef> padKernels();            // pad.cpp
std::span<const KernelDef> upsampleKernels();       // upsample.cpp
std::span<const KernelDef> argMinMaxKernels();      // argminmax.cpp
std::span<const KernelDef> mlKernels();             // ml_ops.cpp
std::span<const KernelDef> controlFlowKernels();    // control_flow.cpp

}  // namespace passlab::exec::cpu
