// Mish and Elu rows on expRow (activation_rows.h).
#include "core/exec/cpu/activation_rows.h"

#include <emmintrin.h>

#include <algorithm>

#include "core/exec/cpu/sigmoid_rows.h"

namespace passlab::exec::cpu {

namespace {

constexpr int64_t kBlock = 256;  // elements whose exponentials are kept at once

// True when some x[i] is below `limit`.
bool anyBelow(const float* x, int64_t n, float limit) {
  bool below = false;
  for (int64_t i = 0; i < n; ++i) below |= x[i] < limit;
  return below;
}

// e^x - 1 for x in [ln(1/2), 0] by its Taylor series to x^10 (the next term
// is below 1e-8 of the result there).
inline float expm1Small(float x) {
  float p = 1.0f / 3628800;
  p = p * x + 1.0f / 362880;
  p = p * x + 1.0f / 40320;
  p = p * x + 1.0f / 5040;
  p = p * x + 1.0f / 720;
  p = p * x + 1.0f / 120;
  p = p * x + 1.0f / 24;
  p = p * x + 1.0f / 6;
  p = p * x + 0.5f;
  p = p * x + 1.0f;
  return p * x;
}

}  // namespace

void mishRow(const float* x, float* y, int64_t n) {
  float e[kBlock], h[kBlock];
  for (int64_t i = 0; i < n; i += kBlock) {
    const int64_t m = std::min(kBlock, n - i);
    const float* xs = x + i;
    float* ys = y + i;
    expRow(xs, e, m);
    const bool tiny = anyBelow(xs, m, -87.0f);
    if (tiny) {
      for (int64_t k = 0; k < m; ++k) h[k] = xs[k] * 0.5f;
      expRow(h, h, m);
    }
    for (int64_t k = 0; k < m; ++k) {
      const float v = xs[k];
      const float p = e[k] * (e[k] + 2.0f);
      float r = v * (p / (p + 2.0f));
      if (v > 20.0f) r = v;
      ys[k] = r;
    }
    if (tiny)
      for (int64_t k = 0; k < m; ++k)
        if (xs[k] < -87.0f) ys[k] = (xs[k] * h[k]) * h[k];
  }
}

// a where mask, else b (SSE2: the build's baseline).
inline __m128 blend(__m128 mask, __m128 a, __m128 b) {
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

inline __m128 expm1Small4(__m128 x) {
  __m128 p = _mm_set1_ps(1.0f / 3628800);
  for (float c : {1.0f / 362880, 1.0f / 40320, 1.0f / 5040, 1.0f / 720, 1.0f / 120, 1.0f / 24,
                  1.0f / 6, 0.5f, 1.0f})
    p = _mm_add_ps(_mm_mul_ps(p, x), _mm_set1_ps(c));
  return _mm_mul_ps(p, x);
}

void eluRow(const float* x, float alpha, float* y, int64_t n) {
  constexpr float kLnHalf = -0.693147182f;
  float e[kBlock];
  for (int64_t i = 0; i < n; i += kBlock) {
    const int64_t m = std::min(kBlock, n - i);
    const float* xs = x + i;
    float* ys = y + i;
    expRow(xs, e, m);
    // Both forms of e^x - 1 for every lane, then selected.
    int64_t k = 0;
    for (; k + 4 <= m; k += 4) {
      const __m128 v = _mm_loadu_ps(xs + k);
      const __m128 em1 = blend(_mm_cmpgt_ps(v, _mm_set1_ps(kLnHalf)), expm1Small4(v),
                               _mm_sub_ps(_mm_loadu_ps(e + k), _mm_set1_ps(1.0f)));
      const __m128 neg = _mm_mul_ps(_mm_set1_ps(alpha), em1);
      _mm_storeu_ps(ys + k, blend(_mm_cmplt_ps(v, _mm_setzero_ps()), neg, v));
    }
    for (; k < m; ++k) {
      const float v = xs[k];
      const float em1 = v > kLnHalf ? expm1Small(v) : e[k] - 1.0f;
      ys[k] = v < 0.0f ? alpha * em1 : v;
    }
  }
}

}  // namespace passlab::exec::cpu
