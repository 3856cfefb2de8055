// Math shared by PassLab's fused kernels (ai.passlab): a float exp and the
// softmax row loops, written on GCC/Clang vector types (4 floats) so that
// they vectorize whatever the flags: the scalar forms' compares keep GCC from
// if-converting them under the default -ftrapping-math (bench_fused_kernels:
// 3x on a row of 64).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

namespace passlab::exec::cpu::fused {

// exp(x) for x <= 0 (a shifted softmax row), 0 below -87: Cephes' expf
// polynomial after the reduction by ln 2, no calls; within 2 ulp of expf.
// Rounds to nearest (even) by adding and subtracting 1.5 * 2^23 (the same n
// as nearbyint for |x log2 e| < 2^22; nearbyint is a libm call on baseline
// x86-64).
inline float expNeg(float x) {
  const float lo = -87.0f;
  const bool under = x < lo;
  x = x < lo ? lo : x;
  const float magic = 12582912.0f;
  const float n = (x * 1.44269504088896341f + magic) - magic;
  float r = x - n * 0.693359375f;
  r = r + n * 2.12194440e-4f;
  float p = 1.9875691500E-4f;
  p = p * r + 1.3981999507E-3f;
  p = p * r + 8.3334519073E-3f;
  p = p * r + 4.1665795894E-2f;
  p = p * r + 1.6666665459E-1f;
  p = p * r + 5.0000001201E-1f;
  p = p * r * r + r + 1.0f;
  int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  float pow2;
  std::memcpy(&pow2, &bits, sizeof pow2);
  return under ? 0.0f : p * pow2;
}

using F4 = float __attribute__((vector_size(16)));
using I4 = int32_t __attribute__((vector_size(16)));

// expNeg on 4 lanes: the same operations, so the same results lane by lane.
inline F4 expNeg4(F4 x) {
  const F4 lo = F4{} - 87.0f;
  const I4 under = x < lo;
  x = under ? lo : x;
  const float magic = 12582912.0f;
  const F4 n = (x * 1.44269504088896341f + magic) - magic;
  F4 r = x - n * 0.693359375f;
  r = r + n * 2.12194440e-4f;
  F4 p = F4{} + 1.9875691500E-4f;
  p = p * r + 1.3981999507E-3f;
  p = p * r + 8.3334519073E-3f;
  p = p * r + 4.1665795894E-2f;
  p = p * r + 1.6666665459E-1f;
  p = p * r + 5.0000001201E-1f;
  p = p * r * r + r + 1.0f;
  const I4 bits = (__builtin_convertvector(n, I4) + 127) << 23;
  F4 pow2;
  std::memcpy(&pow2, &bits, sizeof pow2);
  const F4 y = p * pow2;
  I4 yb;
  std::memcpy(&yb, &y, sizeof yb);
  yb &= ~under;
  F4 out;
  std::memcpy(&out, &yb, sizeof out);
  return out;
}

// The largest of s[0, n) (-inf when n = 0).
inline float rowMax(const float* s, int64_t n) {
  F4 m = F4{} - std::numeric_limits<float>::infinity();
  const int64_t n4 = n & ~int64_t{3};
  for (int64_t i = 0; i < n4; i += 4) {
    F4 v;
    std::memcpy(&v, s + i, sizeof v);
    m = v > m ? v : m;
  }
  float r = std::max(std::max(m[0], m[1]), std::max(m[2], m[3]));
  for (int64_t i = n4; i < n; ++i) r = s[i] > r ? s[i] : r;
  return r;
}

// s[i] = exp(s[i] - mx) for i in [0, n) (mx the row's maximum); returns their sum.
inline float expShiftSum(float* s, int64_t n, float mx) {
  F4 acc = {};
  const int64_t n4 = n & ~int64_t{3};
  for (int64_t i = 0; i < n4; i += 4) {
    F4 v;
    std::memcpy(&v, s + i, sizeof v);
    v = expNeg4(v - mx);
    std::memcpy(s + i, &v, sizeof v);
    acc += v;
  }
  float sum = (acc[0] + acc[2]) + (acc[1] + acc[3]);
  for (int64_t i = n4; i < n; ++i) {
    const float e = expNeg(s[i] - mx);
    s[i] = e;
    sum += e;
  }
  return sum;
}

}  // namespace passlab::exec::cpu::fused
