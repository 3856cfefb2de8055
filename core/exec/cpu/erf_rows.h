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
//
// GELU is not 0.5 v (1 + erf(v / sqrt 2)) on that erf: for v < -2 the sum
// cancels (erf's 4e-7 absolute error was 3e-4 relative in GELU at v = -3.3,
// and more further out). It is the erfc form, with no cancellation: e =
// erfc(|v| / sqrt 2) = t exp(-v^2 / 2 + c(t)), t = 1 / (1 + |v| / (2 sqrt 2))
// (Numerical Recipes' erfcc: a degree-9 c, relative error below 1.2e-7),
// v^2 / 2 split exactly in two (FMA) and its large part kept out of the
// rounded sum (exp_lanes.h, expSum16); GELU = 0.5 v e for v < 0 and
// v (1 - 0.5 e) otherwise. The scalar path is double erfc. GELU(-inf) = NaN
// (the formula's, and ONNX's reference), GELU(+inf) = +inf, NaN stays NaN,
// -0 stays -0. Measured (tests/core/exec/erf_rows_test.cpp: v every 1e-4 in
// [-10, 10], every 1e-3 to -16, subnormal v): 4.0e-7 relative at most (at v =
// -11.7) on AVX-512 and AVX2, 6e-8 on the scalar path, where the 1 + erf form
// was 3e-4 (v in [-3.5, -3]); subnormal results (v < -13.2) within 2.3 units
// of 2^-149. About 2x the 1 + erf form's time (docs/exec-benchmark.md).
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

// Bounds (tests/core/exec/erf_rows_test.cpp) against GELU in double: relative
// where the result is a normal float, absolute (subnormal results, below
// v = -13.2) otherwise.
inline constexpr double kGeluMaxRel = 1e-6;
inline constexpr double kGeluMaxAbsSubnormal = 3 * 1.401298464324817e-45;  // 3 units of 2^-149

// Test hook: one path ("avx512", "avx2", "scalar"); false when this machine
// lacks that instruction set (or the name is unknown).
bool erfRowOn(std::string_view isa, const float* x, float* y, int64_t n);
bool geluErfRowOn(std::string_view isa, const float* x, float* y, int64_t n);

}  // namespace passlab::exec::cpu
