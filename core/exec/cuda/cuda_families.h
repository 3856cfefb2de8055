// The CUDA kernel families: each .cpp file here that registers kernels holds
// one family's table. cuda_kernels.cpp lists every family once.
#pragma once

#include <span>

#include "core/exec/cuda/cuda_kernel.h"

namespace passlab::exec::cuda {

std::span<const CudaKernelDef> elementwiseKernels();       // elementwise.cpp
std::span<const CudaKernelDef> dataMovementKernels();      // data_movement.cpp
std::span<const CudaKernelDef> convKernels();              // conv_cudnn.cpp
std::span<const CudaKernelDef> poolKernels();              // pool_cudnn.cpp
std::span<const CudaKernelDef> matmulKernels();            // matmul_cublaslt.cpp
std::span<const CudaKernelDef> normalizationKernels();     // normalization.cpp
std::span<const CudaKernelDef> reduceKernels();            // reduce.cpp
std::span<const CudaKernelDef> fusedElementwiseKernels();  // fused_elementwise.cpp
std::span<const CudaKernelDef> attentionKernels();         // attention.cpp

}  // namespace passlab::exec::cuda
