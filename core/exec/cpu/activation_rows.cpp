// Mish, Elu, Softplus, Log and GELU (tanh form) rows (activation_rows.h).
#include "core/exec/cpu/activation_rows.h"

#include "core/support/x86_intrinsics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/exp_lanes.h"
#include "core/exec/cpu/sigmoid_rows.h"
#include "core/support/cpu_isa.h"

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

#if defined(__x86_64__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // _mm512_undefined_ps in min/max/scalef

// Elu on 16 lanes: expm1(t), t = max(x, -20) below 0, as 2^n em + (2^n - 1)
// with em = expm1(r) (exp_lanes.h; no cancellation near 0, as tanh16's);
// x itself where x < 0 is false (NaN, -0 kept).
__attribute__((target("avx512f"))) inline __m512 elu16(__m512 x, __m512 alpha) {
  const __m512 t = _mm512_max_ps(_mm512_set1_ps(-20.0f), _mm512_min_ps(x, _mm512_setzero_ps()));
  __m512 nf;
  const __m512 em = exp_lanes::expm1Reduced512(t, &nf);
  const __m512 p = _mm512_scalef_ps(_mm512_set1_ps(1.0f), nf);  // 2^n, n in [-29, 0]
  const __m512 m = _mm512_fmadd_ps(p, em, _mm512_sub_ps(p, _mm512_set1_ps(1.0f)));
  const __mmask16 neg = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
  return _mm512_mask_mul_ps(x, neg, alpha, m);
}

__attribute__((target("avx512f"))) static void eluRow512(const float* x, float alpha, float* y,
                                                         int64_t n) {
  const __m512 a = _mm512_set1_ps(alpha);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, elu16(_mm512_loadu_ps(x + i), a));
  if (i < n) {
    const __mmask16 k = avx512::lanes(n - i);
    _mm512_mask_storeu_ps(y + i, k, elu16(_mm512_maskz_loadu_ps(k, x + i), a));
  }
}
#pragma GCC diagnostic pop
#endif

void eluRow(const float* x, float alpha, float* y, int64_t n) {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512f()) return eluRow512(x, alpha, y, n);
#endif
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

// ln(x) on 4 lanes (Cephes' logf): x = m 2^e with m in [sqrt(1/2), sqrt(2)),
// ln(m) a polynomial in f = m - 1, e ln 2 added in two parts. Subnormals are
// scaled by 2^23 first; 0 -> -inf, x < 0 -> NaN, +inf -> +inf, NaN stays.
inline __m128 log4(__m128 x) {
  const __m128 sub = _mm_cmplt_ps(x, _mm_set1_ps(1.17549435e-38f));
  const __m128 xs = blend(sub, _mm_mul_ps(x, _mm_set1_ps(8388608.0f)), x);
  const __m128i bits = _mm_castps_si128(xs);
  const __m128i ei = _mm_sub_epi32(_mm_srli_epi32(bits, 23), _mm_set1_epi32(127));
  __m128 m = _mm_castsi128_ps(
      _mm_or_si128(_mm_and_si128(bits, _mm_set1_epi32(0x007fffff)), _mm_set1_epi32(0x3f800000)));
  __m128 e = _mm_add_ps(_mm_cvtepi32_ps(ei), _mm_and_ps(sub, _mm_set1_ps(-23.0f)));
  const __m128 big = _mm_cmpgt_ps(m, _mm_set1_ps(1.41421356f));
  m = blend(big, _mm_mul_ps(m, _mm_set1_ps(0.5f)), m);
  e = _mm_add_ps(e, _mm_and_ps(big, _mm_set1_ps(1.0f)));
  const __m128 f = _mm_sub_ps(m, _mm_set1_ps(1.0f));
  const __m128 z = _mm_mul_ps(f, f);
  __m128 p = _mm_set1_ps(7.0376836292e-2f);
  for (float c : {-1.1514610310e-1f, 1.1676998740e-1f, -1.2420140846e-1f, 1.4249322787e-1f,
                  -1.6668057665e-1f, 2.0000714765e-1f, -2.4999993993e-1f, 3.3333331174e-1f})
    p = _mm_add_ps(_mm_mul_ps(p, f), _mm_set1_ps(c));
  __m128 y = _mm_mul_ps(_mm_mul_ps(p, f), z);
  y = _mm_add_ps(y, _mm_mul_ps(e, _mm_set1_ps(-2.12194440e-4f)));
  y = _mm_sub_ps(y, _mm_mul_ps(_mm_set1_ps(0.5f), z));
  __m128 r = _mm_add_ps(_mm_add_ps(f, y), _mm_mul_ps(e, _mm_set1_ps(0.693359375f)));
  const float inf = std::numeric_limits<float>::infinity();
  r = blend(_mm_cmpeq_ps(x, _mm_setzero_ps()), _mm_set1_ps(-inf), r);
  r = blend(_mm_cmplt_ps(x, _mm_setzero_ps()), _mm_set1_ps(std::numeric_limits<float>::quiet_NaN()),
            r);
  r = blend(_mm_cmpeq_ps(x, _mm_set1_ps(inf)), x, r);
  return blend(_mm_cmpunord_ps(x, x), x, r);
}

#if defined(__x86_64__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // _mm512_undefined_ps in getmant/getexp

// log4's steps on 16 lanes: getmant and getexp split x = m 2^e exactly,
// subnormals included (no scaling); a negative x (-inf too) gives a NaN m
// (_MM_MANT_SIGN_nan) and NaN stays NaN through the arithmetic; +-0 and
// +inf (whose e = +inf would meet -inf in the sum) are set at the end.
__attribute__((target("avx512f"))) inline __m512 log16(__m512 x) {
  __m512 m = _mm512_getmant_ps(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_nan);
  __m512 e = _mm512_getexp_ps(x);
  const __mmask16 big = _mm512_cmp_ps_mask(m, _mm512_set1_ps(1.41421356f), _CMP_GT_OQ);
  m = _mm512_mask_mul_ps(m, big, m, _mm512_set1_ps(0.5f));
  e = _mm512_mask_add_ps(e, big, e, _mm512_set1_ps(1.0f));
  const __m512 f = _mm512_sub_ps(m, _mm512_set1_ps(1.0f));
  const __m512 z = _mm512_mul_ps(f, f);
  __m512 p = _mm512_set1_ps(7.0376836292e-2f);
  for (float c : {-1.1514610310e-1f, 1.1676998740e-1f, -1.2420140846e-1f, 1.4249322787e-1f,
                  -1.6668057665e-1f, 2.0000714765e-1f, -2.4999993993e-1f, 3.3333331174e-1f})
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(c));
  __m512 y = _mm512_mul_ps(_mm512_mul_ps(p, f), z);
  y = _mm512_fnmadd_ps(e, _mm512_set1_ps(2.12194440e-4f), y);
  y = _mm512_fnmadd_ps(_mm512_set1_ps(0.5f), z, y);
  const __m512 r = _mm512_fmadd_ps(e, _mm512_set1_ps(0.693359375f), _mm512_add_ps(f, y));
  const __m512 inf = _mm512_set1_ps(std::numeric_limits<float>::infinity());
  const __mmask16 zero = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_EQ_OQ);
  const __mmask16 top = _mm512_cmp_ps_mask(x, inf, _CMP_EQ_OQ);
  return _mm512_mask_mov_ps(_mm512_mask_mov_ps(r, zero, _mm512_sub_ps(_mm512_setzero_ps(), inf)),
                            top, inf);
}

__attribute__((target("avx512f"))) void logRow512(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, log16(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 k = avx512::lanes(n - i);
    _mm512_mask_storeu_ps(y + i, k, log16(_mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), k, x + i)));
  }
}
#pragma GCC diagnostic pop
#endif

void logRow(const float* x, float* y, int64_t n) {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512f()) return logRow512(x, y, n);
#endif
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) _mm_storeu_ps(y + i, log4(_mm_loadu_ps(x + i)));
  if (i < n) {
    float in[4] = {1, 1, 1, 1}, out[4];
    for (int64_t k = i; k < n; ++k) in[k - i] = x[k];
    _mm_storeu_ps(out, log4(_mm_loadu_ps(in)));
    for (int64_t k = i; k < n; ++k) y[k] = out[k - i];
  }
}

// softplus(x) = max(x, 0) + log1p(t), t = exp(-|x|) in [0, 1] (nothing
// overflows); log1p(t) = log(u) t / (u - 1) with u = 1 + t rounded (the
// quotient undoes u's rounding), and t itself where u rounds to 1.
void softplusRow(const float* x, float* y, int64_t n) {
  constexpr int64_t kBlock = 256;
  float t[kBlock], l[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = std::min(kBlock, n - i0);
    for (int64_t j = 0; j < m; ++j) t[j] = -std::fabs(x[i0 + j]);
    expRow(t, t, m);
    for (int64_t j = 0; j < m; ++j) l[j] = 1.0f + t[j];
    logRow(l, l, m);
    int64_t j = 0;
    const __m128 one = _mm_set1_ps(1.0f);
    for (; j + 4 <= m; j += 4) {
      const __m128 v = _mm_loadu_ps(x + i0 + j), tt = _mm_loadu_ps(t + j);
      const __m128 u = _mm_add_ps(one, tt);
      const __m128 isOne = _mm_cmpeq_ps(u, one);
      const __m128 d = blend(isOne, one, _mm_sub_ps(u, one));  // never 0
      const __m128 q = _mm_mul_ps(_mm_loadu_ps(l + j), _mm_div_ps(tt, d));
      const __m128 pos = _mm_and_ps(_mm_cmpgt_ps(v, _mm_setzero_ps()), v);  // NaN: 0
      _mm_storeu_ps(y + i0 + j, _mm_add_ps(pos, blend(isOne, tt, q)));
    }
    for (; j < m; ++j) {
      const float v = x[i0 + j], u = 1.0f + t[j];
      const float lp = u == 1.0f ? t[j] : l[j] * (t[j] / (u - 1.0f));
      y[i0 + j] = (v > 0.0f ? v : 0.0f) + lp;
    }
  }
}

// GELU, tanh form: 0.5 x (1 + tanh(u)) = x sigmoid(2u), no 1 + tanh to
// cancel below x = -3 (sigmoid keeps its relative accuracy down to the
// subnormals). On AVX-512 and AVX2 in one pass, 2u and the sigmoid in
// registers (exp_lanes.h); otherwise 2u for a block, sigmoidRow in place,
// then the product. x is read before y is written, so y may be x.
namespace {

constexpr float kTwoSqrt2OverPi = 2 * 0.7978845608028654f;
constexpr float kGeluTanhCubic = 0.044715f;

#if defined(__x86_64__)
__attribute__((target("avx512f"))) inline __m512 geluTanh16(__m512 x) {
  const __m512 c = _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(kGeluTanhCubic), x), x);
  const __m512 u2 = _mm512_mul_ps(_mm512_set1_ps(kTwoSqrt2OverPi), _mm512_fmadd_ps(c, x, x));
  return _mm512_mul_ps(x, exp_lanes::sigmoid16(u2));
}

__attribute__((target("avx512f"))) void geluTanhRow512(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, geluTanh16(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 k = avx512::lanes(n - i);
    _mm512_mask_storeu_ps(y + i, k, geluTanh16(_mm512_maskz_loadu_ps(k, x + i)));
  }
}

__attribute__((target("avx2,fma"))) inline __m256 geluTanh8(__m256 x) {
  const __m256 c = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(kGeluTanhCubic), x), x);
  const __m256 u2 = _mm256_mul_ps(_mm256_set1_ps(kTwoSqrt2OverPi), _mm256_fmadd_ps(c, x, x));
  return _mm256_mul_ps(x, exp_lanes::sigmoid8(u2));
}

__attribute__((target("avx2,fma"))) void geluTanhRow256(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, geluTanh8(_mm256_loadu_ps(x + i)));
  if (i < n) {
    float t[8] = {};
    std::copy(x + i, x + n, t);
    _mm256_storeu_ps(t, geluTanh8(_mm256_loadu_ps(t)));
    std::copy(t, t + (n - i), y + i);
  }
}
#endif

void geluTanhRowBlocks(const float* x, float* y, int64_t n) {
  float u[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = std::min(kBlock, n - i0);
    const float* xs = x + i0;
    for (int64_t j = 0; j < m; ++j) {
      const float v = xs[j];
      u[j] = kTwoSqrt2OverPi * (v + kGeluTanhCubic * v * v * v);
    }
    sigmoidRow(u, u, m);
    float* ys = y + i0;
    for (int64_t j = 0; j < m; ++j) ys[j] = xs[j] * u[j];
  }
}

}  // namespace

void geluTanhRow(const float* x, float* y, int64_t n) {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512f()) return geluTanhRow512(x, y, n);
  if (cpu_isa::hasAvx2Fma()) return geluTanhRow256(x, y, n);
#endif
  geluTanhRowBlocks(x, y, n);
}

bool geluTanhRowOn(std::string_view isa, const float* x, float* y, int64_t n) {
#if defined(__x86_64__)
  if (isa == "avx512" && cpu_isa::hasAvx512f()) return geluTanhRow512(x, y, n), true;
  if (isa == "avx2" && cpu_isa::hasAvx2Fma()) return geluTanhRow256(x, y, n), true;
#endif
  if (isa == "sse2") return geluTanhRowBlocks(x, y, n), true;
  return false;
}

}  // namespace passlab::exec::cpu
