// Relu over a float32 row, on 16 AVX-512 lanes where the CPU has them
// (cpu_isa.h), else the loop the compiler vectorizes at the build's SSE2
// baseline (4 lanes: winml_squeezenet's first Relu, 64x113x113, 0.111 ms on
// one thread against onnxruntime's 0.063, docs/exec-benchmark.md "Session 29").
#pragma once

#include <cstdint>

namespace passlab::exec::cpu {

// y[i] = std::max(x[i], 0.0f) for i in [0, n): x[i] where !(x[i] < 0), so
// NaN and -0 stay as they are, 0 otherwise. y may be x (in place).
void reluRow(const float* x, float* y, int64_t n);

}  // namespace passlab::exec::cpu
