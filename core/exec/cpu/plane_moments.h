// Mean and variance of a float32 plane, and the affine map y = x * a + b
// over it: what InstanceNormalization does per (batch, channel) plane.
// Vectorized for AVX-512 (chosen at run time through cpu_isa.h), 16 float
// lanes otherwise. Sums run in float lanes over blocks of 1024 elements,
// each block's lanes added in double: two passes (mean, then squared
// deviations from it), so the variance does not lose digits to a large mean.
// A scalar double sum per element ran at one add per 4 cycles: 27 ms of
// starry_night's 178 ms run at 1 thread (session 26).
#pragma once

#include <cstdint>
#include <string_view>

namespace passlab::exec::cpu {

struct PlaneMoments {
  double mean = 0;
  double variance = 0;  // population variance (divided by n)
};

// Mean and variance of x[0, n); both 0 when n is 0.
PlaneMoments planeMoments(const float* x, int64_t n);

// y[i] = x[i] * a + b for i in [0, n). y may be x (in place).
void affineRow(const float* x, float* y, int64_t n, float a, float b);

// Test hooks: one path ("avx512", "lanes"); false when this machine lacks
// that instruction set (or the name is unknown).
bool planeMomentsOn(std::string_view isa, const float* x, int64_t n, PlaneMoments& out);
bool affineRowOn(std::string_view isa, const float* x, float* y, int64_t n, float a, float b);

}  // namespace passlab::exec::cpu
