// MaxPool on float32 NCHW tensors without the Indices output, and
// AveragePool, vectorized: separable, the max over the window's rows first (contiguous), then along
// the row (strides 1 and 2 in vectors). The kernel row cpu.MaxPool. oneDNN 2.6
// pools plain NCHW with a JIT kernel only on AVX-512 machines; elsewhere it
// takes `simple_nchw`, a scalar loop: picodet's 3x3/2 stem MaxPool
// (24x160x160) took 6.7 ms there, 0.40 ms on AVX-512, and 0.16 ms here.
// onednn.AveragePool runs averagePoolFloat where oneDNN has no JIT kernel, and
// on every machine where the row stride is 1 or 2 and the output row is longer than 1.
#pragma once

#include <memory>

#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

// y[N, C, out...] = the max of each window of x[N, C, in...], 1 to 3 spatial
// dims, any pads, strides, dilations and ceil_mode; a window wholly in the
// padding gives the lowest float, as the reference kernel does. Exact for
// inputs without NaN.
void maxPoolFloat(const PoolGeometry& g, const float* x, float* y, int threads);

// y = the average of each window of x, the same way: the sum of the window's
// rows, then along the row, divided by the taps inside the input
// (countIncludePad: inside the padded input, pads ceil_mode adds not
// counted), 0 for a window with none. The sums' order differs from the
// reference kernel's (rounding within a few ulp).
void averagePoolFloat(const PoolGeometry& g, bool countIncludePad, const float* x, float* y,
                      int threads);

// Test hook: maxPoolFloat (max) or averagePoolFloat on one thread with the
// row steps of one instruction set: "base" (SSE2 on x86, plain loops
// elsewhere) or "avx2" (8 lanes; the default where the machine has AVX2 +
// FMA, as PASSLAB_MAX_ISA caps it); false for another name or where it lacks it.
bool separablePoolWithIsa(const char* isa, bool max, const PoolGeometry& g, bool countIncludePad,
                          const float* x, float* y);

// The MaxPool kernel on maxPoolFloat; the Indices output, storage_order,
// other element types and more than 3 spatial dims go to the reference kernel.
Expected<std::unique_ptr<Kernel>> makeMaxPoolFloat(const KernelBuild& b);

}  // namespace passlab::exec::cpu
