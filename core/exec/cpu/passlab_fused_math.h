// Math shared by PassLab's fused kernels (ai.passlab): a float exp that
// vectorizes, for the softmax rows of FusedAttention and FusedSoftmax.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace passlab::exec::cpu::fused {

// exp(x) for x <= 0 (a shifted softmax row), 0 below -87: Cephes' expf
// polynomial after the reduction by ln 2, loop-friendly (no calls, no branches);
// within 2 ulp of expf.
inline float expNeg(float x) {
  const float lo = -87.0f;
  const bool under = x < lo;
  x = x < lo ? lo : x;
  const float n = std::nearbyint(x * 1.44269504088896341f);
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

}  // namespace passlab::exec::cpu::fused
