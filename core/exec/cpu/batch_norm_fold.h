// BatchNormalization's inference fold, one contract for the CPU kernel
// (normalization.cpp) and the CUDA one (core/exec/cuda/pool_cudnn.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/exec/tensor.h"

namespace passlab::exec::cpu {

// Element i of a float-typed tensor (float, double, float16, bfloat16) as
// double; 0 for other types.
double floatAt(const Tensor& t, int64_t i);

// BatchNormalization folded per channel, in double: a = scale / sqrt(var +
// epsilon), b = bias - mean * a, stored as float. The four tensors hold P
// values of float types (checked by the caller).
void foldBatchNorm(const Tensor& scale, const Tensor& bias, const Tensor& mean, const Tensor& var,
                   double epsilon, std::vector<float>& a, std::vector<float>& b);

}  // namespace passlab::exec::cpu
