// float16 / bfloat16 nodes computed by a float32 kernel: the node's half-type
// inputs widened to float32 (exact), the float32 kernel run on them, each
// float32 output rounded once to the half type (to nearest even). The result
// is the float32 kernel's rounded once, as the reference kernels compute the
// half types in float32 (ComputeT) and round once, up to the order of float32
// sums. Inputs that are the same on every run (weights) are widened once and
// kept (float32 copies next to the half-type originals). For ops whose
// float32 kernel is fast and whose half-type kernel would be the reference
// loop: MatMul and Gemm (matmul_onednn.cpp).
#pragma once

#include <memory>

#include "core/exec/kernel.h"
#include "core/exec/tensor.h"

namespace passlab::exec::cpu {

// The kernel for a node whose float32 computation is `inner`.
std::unique_ptr<Kernel> makeHalfAsFloat(std::unique_ptr<Kernel> inner);

// Bulk conversions between a float16 or bfloat16 tensor and a float32 one of
// the same size (`threads` for large ones).
void widenToFloat(const Tensor& half, Tensor& wide, int threads);
void narrowFromFloat(const Tensor& wide, Tensor& half, int threads);

}  // namespace passlab::exec::cpu
