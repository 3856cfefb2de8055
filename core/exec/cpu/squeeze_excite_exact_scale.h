// The last step of the exact QLinearSqueezeExcite (passlab_squeeze_excite_exact.cpp):
// y = QuantizeLinear(h * s[c]) on channels-last rows, the bytes of
// quantize.cpp's quantizeRows applied to the float32 product h * s[c].
// With AVX-512 and sane constants (ScalePlan) without a division: two FMAs
// bracket the quotient and round it, and the few lanes whose bracket holds a
// rounding boundary take the division (squeeze_excite_exact_scale.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace passlab::exec::cpu::squeeze_excite {

// One per-tensor quantization as quantizeRows applies it: x / s clamped to
// [qlo, qhi], rounded half to even, + z, clamped to [lo, hi]; NaN gives 0.
struct Quant {
  float s = 1, z = 0, lo = 0, hi = 255, qlo = 0, qhi = 0;
};

inline Quant quantOf(float s, float z, bool isSigned) {
  Quant q;
  q.s = s, q.z = z;
  q.lo = isSigned ? -128.0f : 0.0f;
  q.hi = isSigned ? 127.0f : 255.0f;
  q.qlo = q.lo - z - 1.0f, q.qhi = q.hi - z + 1.0f;
  return q;
}

// quantizeRows' scalar loop for one value (its AVX-512 and SSE2 loops do the
// same operations per lane).
inline int32_t quantizeOne(float x, const Quant& q) {
  const float d = x / q.s;
  const float c = std::min(std::max(d, q.qlo), q.qhi);
  const float r = (c + 12582912.0f) - 12582912.0f;
  const float v = std::min(std::max(r + q.z, q.lo), q.hi);
  return static_cast<int32_t>(d != d ? 0.0f : v);
}

// What one batch item's scale pass needs besides h and s: whether the
// division-free form applies, and its per-channel bounds of s[c] / y_scale
// repeated with the period lcm(C, 16) (and 64 more, so any 64 from an offset
// below the period can be loaded).
struct ScalePlan {
  bool fast = false;
  int64_t period = 0;
  std::vector<float> kLow, kHigh;
};

// The largest |entry| of a table of 256 floats; infinity where one is not finite.
double tableBound(const float* table);

// Fills plan for a table of bound largestH (tableBound), the gate s (c
// floats) and y's quantization.
void prepareScale(double largestH, const float* s, int64_t c, const Quant& qy, ScalePlan& plan);

// y = QuantizeLinear(h * s[c]) for rows [first, last) of c channels.
template <class Q>
void scaleRows(const float* h, int64_t first, int64_t last, int64_t c, const float* s,
               const Quant& q, const ScalePlan& plan, Q* y);

}  // namespace passlab::exec::cpu::squeeze_excite
