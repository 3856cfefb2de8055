// One row times a matrix stored row per output (float32): y[n] = dot(x, W[n, :])
// for W of shape [N, K], row-major. This is Gemm's batch-1 case with transB = 1
// (a classifier's [1, K] x [K, N] with its weight stored [N, K]): a GEMV
// bound by reading W once, which oneDNN's matmul at M = 1 does about 25%
// slower (it reads a packed copy in 16x64 blocks; measured in
// docs/exec-benchmark.md). Vectorized for AVX-512 and AVX2 + FMA, chosen at
// run time; scalar otherwise.
#pragma once

#include <cstdint>
#include <string_view>

namespace passlab::exec::cpu {

// y[n] = sum_k x[k] * W[n * K + k] for n in [0, N). `threads` splits the rows.
void gemvRows(const float* x, const float* W, int64_t N, int64_t K, float* y, int threads);

// The instruction set gemvRows uses on this machine: "avx512", "avx2" or "scalar".
const char* gemvRowsIsa();

// Test hook: one path ("avx512", "avx2", "scalar") on one thread; false when
// this machine lacks that instruction set (or the name is unknown).
bool gemvRowsOn(std::string_view isa, const float* x, const float* W, int64_t N, int64_t K,
                float* y);

}  // namespace passlab::exec::cpu
