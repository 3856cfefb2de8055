// Erf and the erf form of GELU over a float32 row, vectorized for AVX-512
// and AVX2 + FMA (chosen at run time through cpu_isa.h) and std::erf per
// element otherwise. One place for the kernels that need them: the Erf and
// Gelu operators and com.microsoft Gelu / BiasGelu.
//
// The vector form is the rational approximation Eigen and XLA use for float
// erf: x clamped to +-3.8325 (where it reaches +-1), then x p(x^2) / q(x^2)
// with a degree-13 odd numerator and a degree-8 even denominator, and +-1
// from |x| >= 3.92 on, where erf rounds to +-1 in float32. Accuracy
// (tests/core/exec/erf_rows_test.cpp, against double erf on every float in
// [-6, 6]): within 8 ulp, 4e-7 absolute; erf(+-inf) = +-1, NaN stays NaN.
// std::erf per element took 10-20 ns, the rows take well under 1 ns.
#pragma once

#include <cstdint>
#include <string_view>

namespace passlab::exec::cpu {

// y[i] = erf(x[i]) for i in [0, n). y may be x (in place).
void erfRow(const float* x, float* y, int64_t n);

// y[i] = 0.5 v (1 + erf(v / sqrt 2)) with v = x[i] (+ bias[(biasFirst + i) %
// biasN] when bias is not null) for i in [0, n). y may be x.
void geluErfRow(const float* x, const float* bias, int64_t biasN, int64_t biasFirst, float* y,
                int64_t n);

// Test hook: one path ("avx512", "avx2", "scalar"); false when this machine
// lacks that instruction set (or the name is unknown).
bool erfRowOn(std::string_view isa, const float* x, float* y, int64_t n);

}  // namespace passlab::exec::cpu
