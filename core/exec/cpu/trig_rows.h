// Sin and Cos over a float32 row, vectorized for AVX-512 and AVX2 + FMA
// (chosen at run time through cpu_isa.h), std::sin / std::cos per element
// otherwise. The Sin and Cos operators and FusedElementwise's Sin and Cos.
//
// x = j pi/2 + r with j = round(x 2/pi) and |r| <= pi/4 (about), pi/2 split
// in three floats and each product taken off with an FMA (the first one is
// exact), then Cephes' sinf / cosf polynomials on r and j's quadrant. Lanes
// with |x| > kTrigVectorMax (+-inf too) go through std::sin / std::cos.
// Accuracy (tests/core/exec/trig_rows_test.cpp, against double on every path,
// |x| up to 1e5): kTrigMaxAbs absolute; sin(-0) = -0, NaN stays NaN, +-inf
// gives NaN.
#pragma once

#include <cstdint>
#include <string_view>

namespace passlab::exec::cpu {

inline constexpr float kTrigVectorMax = 1e5f;
inline constexpr double kTrigMaxAbs = 1.5e-7;  // 9.2e-8 measured (AVX-512, AVX2)

// y[i] = sin(x[i]) for i in [0, n). y may be x (in place).
void sinRow(const float* x, float* y, int64_t n);

// y[i] = cos(x[i]) for i in [0, n). y may be x (in place).
void cosRow(const float* x, float* y, int64_t n);

// Test hook: one path ("avx512", "avx2", "scalar"); false when this machine
// lacks that instruction set (or the name is unknown).
bool sinRowOn(std::string_view isa, const float* x, float* y, int64_t n);
bool cosRowOn(std::string_view isa, const float* x, float* y, int64_t n);

}  // namespace passlab::exec::cpu
