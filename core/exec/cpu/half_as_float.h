// float16 / bfloat16 nodes computed by a float32 kernel: the node's half-type
// inputs widened to float32 (exact), the float32 kernel run on them, each
// float32 output rounded once to the half type (to nearest even). The result
// is the float32 kernel's rounded once, as the reference kernels compute the
// half types in float32 (ComputeT) and round once, up to the order of float32
// sums. Inputs that are the same on every run (weights) are widened once and
// kept (float32 copies next to the half-type originals). An output is
// rounded when the node declares it of the half type (LayerNormalization's
// float32 Mean stays float32). For ops whose float32 kernel is fast and whose
// half-type kernel would be the reference loop: MatMul and Gemm
// (matmul_onednn.cpp), and the rows of halfOnFloat32Kernels() below, which
// run the node on its float32 row of the kernel table.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/tensor.h"

namespace passlab::exec::cpu {

// The kernel for a node whose float32 computation is `inner`; output i is
// rounded to the half type where `narrowed[i]` (all outputs when empty).
std::unique_ptr<Kernel> makeHalfAsFloat(std::unique_ptr<Kernel> inner,
                                        std::vector<bool> narrowed = {});

// The outputs of `b`'s node declared of its half type, and output 0 when its
// type is not declared (an intermediate value next to a declared float32 Mean
// or int64 Indices output).
std::vector<bool> halfOutputs(const KernelBuild& b);

// float16/bfloat16 rows of ops whose float32 row is fast (Sigmoid, Tanh, Erf,
// Exp, Softmax, LogSoftmax, LayerNormalization, BatchNormalization, pools,
// ReduceMean/Sum/Max):
// the node runs on the first float32 row that takes it.
std::span<const KernelDef> halfOnFloat32Kernels();

// Bulk conversions between a float16 or bfloat16 tensor and a float32 one of
// the same size (`threads` for large ones).
void widenToFloat(const Tensor& half, Tensor& wide, int threads);
void narrowFromFloat(const Tensor& wide, Tensor& half, int threads);

}  // namespace passlab::exec::cpu
