// Where's rows: out[i] = c[i] ? x[i] : y[i] over a run of elements of 1, 2,
// 4 or 8 bytes (any element type but strings: a select moves bytes), x and y
// each either a run or one element repeated (broadcast along the run), on
// 32-byte AVX2 vectors or 16-byte SSE2 ones (the build's baseline), chosen at
// run time (row_isa.h; AVX-512 machines take the AVX2 path). The condition
// is one byte per element, true when not 0.
//
// cpu.Where walks the broadcast output in runs (BroadcastWalker) and hands
// each run here; a run whose condition is itself broadcast is a copy of x's
// or y's run. Before, a run with any operand broadcast (the attention-mask
// Where(mask[1,1,S,S], scores[1,H,S,S], -inf) of GPT-2 and BERT) went through
// a scalar loop with strides multiplied in, docs/exec-benchmark.md
// "Session 32".
#pragma once

#include <cstdint>
#include <string_view>

namespace passlab::exec::cpu {

// out[i] = c[i] != 0 ? x[i * xStride] : y[i * yStride] for i in [0, n), each
// element `bytes` wide (1, 2, 4 or 8), xStride and yStride 0 or 1. Returns
// false (nothing written) for another width or stride.
bool whereRow(const bool* c, const void* x, int xStride, const void* y, int yStride, void* out,
              int64_t n, int bytes);

// The instruction set whereRow uses on this machine: "avx2" or "sse2".
const char* whereRowsIsa();

// Test hook: whereRow on one path ("avx2" or "sse2"); false when this machine
// lacks it, the name is unknown, or whereRow would refuse the arguments.
bool whereRowOn(std::string_view isa, const bool* c, const void* x, int xStride, const void* y,
                int yStride, void* out, int64_t n, int bytes);

}  // namespace passlab::exec::cpu
