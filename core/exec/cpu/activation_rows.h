// Mish, Elu and Softplus over a float32 row, built on expRow (sigmoid_rows.h: AVX-512,
// AVX2 or 4 lanes, chosen at run time); the rest is plain loops the compiler
// vectorizes at the build's baseline.
//
// Mish: x tanh(ln(1 + e^x)) = x p / (p + 2) with p = e^x (e^x + 2), exactly
// tanh(softplus(x)) written without log or tanh; x above 20 gives x (the
// factor rounds to 1); below -87 the result, about x e^x, is formed as
// (x e^(x/2)) e^(x/2) so that it rounds once into the subnormals.
// Elu: alpha (e^x - 1) for x < 0, x otherwise; e^x - 1 is a Taylor
// polynomial for x above ln(1/2), where the subtraction would cancel. On
// AVX-512 in one pass instead: expm1 as 2^n expm1(r) + (2^n - 1) (exp_lanes.h),
// 0.3 ns per element where the blocks took 5 (scripts/dev/rows_bench.cpp).
//
// Softplus: max(x, 0) + log1p(exp(-|x|)), log1p from logRow with the
// (u - 1) correction.
// GELU, tanh form: 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3),
// as x sigmoid(2u) on sigmoidRow (no cancellation in 1 + tanh for x < -3).
// Log: Cephes' logf (no exp) on 16 AVX-512 lanes (getmant/getexp split x,
// subnormals included) or 4 SSE2 lanes (subnormals scaled first), chosen
// at run time (cpu_isa.h).
//
// Accuracy (tests/core/exec/activation_rows_test.cpp, against double over the
// whole float range, on every path): the bounds kMishMaxUlp, kEluMaxUlp,
// kLogMaxUlp and kSoftplusMaxUlp; +-inf, NaN and -0 as the std:: formulas
// give.
#pragma once

#include <cstdint>
#include <string_view>

namespace passlab::exec::cpu {

inline constexpr int64_t kMishMaxUlp = 4;      // 3 measured on every path
inline constexpr int64_t kLogMaxUlp = 4;       // 1 measured on both paths
inline constexpr int64_t kEluMaxUlp = 4;       // 2 measured on every path
inline constexpr int64_t kSoftplusMaxUlp = 4;  // 2 measured on every path
inline constexpr double kGeluTanhMaxAbs = 1e-6;
inline constexpr double kGeluTanhMaxRel = 1e-6;

// y[i] = x[i] tanh(ln(1 + exp(x[i]))) for i in [0, n). y may be x (in place).
void mishRow(const float* x, float* y, int64_t n);

// y[i] = x[i] < 0 ? alpha (exp(x[i]) - 1) : x[i] for i in [0, n). y may be x.
void eluRow(const float* x, float alpha, float* y, int64_t n);

// y[i] = ln(x[i]) for i in [0, n) (AVX-512 or SSE2; Cephes' logf). y may be x.
void logRow(const float* x, float* y, int64_t n);

// y[i] = ln(1 + exp(x[i])) for i in [0, n), on expRow and logRow (within
// kSoftplusMaxUlp of exact). y may be x.
void softplusRow(const float* x, float* y, int64_t n);

// y[i] = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) with x = x[i], for
// i in [0, n) (Gelu approximate="tanh"), within kGeluTanhMaxAbs +
// kGeluTanhMaxRel |y| of the formula in double. Measured (AVX-512, a dense
// sweep of [-10, 10]): 5.2e-7 absolute (1 ulp, at x = 4.7) and 1.3e-6
// relative where |y| >= 1e-3, against 4.3e-7 and 5e-5 for std::tanh's
// formula in float. One pass on AVX-512 and AVX2 (three over 256-element
// blocks otherwise). y may be x.
void geluTanhRow(const float* x, float* y, int64_t n);

// Test hook: geluTanhRow on one path ("avx512", "avx2", "sse2"); false when
// this machine lacks it (or the name is unknown).
bool geluTanhRowOn(std::string_view isa, const float* x, float* y, int64_t n);

}  // namespace passlab::exec::cpu
