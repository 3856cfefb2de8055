// MaxPool and AveragePool on float32 tensors in the blocked layout
// [N, C/b, H, W, b] (b = 8 or 16; core/ir/passlab_ops.h), both ways blocked:
// what BlockedPool runs for 2-D AveragePool, and for 2-D MaxPool where the
// measured rule picks it (blocked_pool_choice.h) or oneDNN declines.
// Separable, as the NCHW kernels (pool_max_float.h): per output row, the max
// (sum) of the window's input rows into a row padded with the lowest float
// (0), W x b contiguous floats, then along that row with a step of b floats,
// each tap a vector of b channels.
//
// Why not oneDNN's pooling on nChw16c (2.6, AVX-512 JIT): its average pooling
// excluding padding took 0.31 ms for inception_v2's 576x14x14 3x3/1 pools
// (onnxruntime's NCHWc kernel 0.04), 2.1 ms of that model's 29 (issue #26).
#pragma once

#include <cstdint>

#include "core/exec/cpu/pool_geometry.h"

namespace passlab::exec::cpu {

// y = the max of each window of x; `g` is the geometry of the plain dims
// [N, C, H, W] (2 spatial dims), x holds N * ceil(C / b) planes of H x W x b
// floats, y the same of the output. Padding channels are pooled like the
// others. A window wholly in the padding gives the lowest float (as the
// reference kernel). Exact for inputs without NaN.
void blockedMaxPool(const PoolGeometry& g, int64_t b, const float* x, float* y, int threads);

// y = the average of each window, divided by its taps inside the input
// (countIncludePad: inside the padded input, pads ceil_mode adds not
// counted); 0 for a window with none. The sums' order differs from the
// reference kernel's (rounding within a few ulp), as averagePoolFloat's.
void blockedAveragePool(const PoolGeometry& g, bool countIncludePad, int64_t b, const float* x,
                        float* y, int threads);

// Test hook: the same on one thread with one instruction set, "portable"
// (the base path: SSE2 vectors on x86, plain loops elsewhere), "avx2" (AVX2 +
// FMA) or "avx512"; false for another name or where this machine lacks it
// (or PASSLAB_MAX_ISA caps it).
bool blockedPoolWithIsa(const char* isa, bool max, const PoolGeometry& g, bool countIncludePad,
                        int64_t b, const float* x, float* y);

}  // namespace passlab::exec::cpu
