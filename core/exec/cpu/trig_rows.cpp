// Sin and Cos rows (trig_rows.h).
#include "core/exec/cpu/trig_rows.h"

#include "core/support/x86_intrinsics.h"

#include <algorithm>
#include <cmath>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/row_isa.h"

namespace passlab::exec::cpu {

namespace {

constexpr float kTwoOverPi = 0.636619772367581343f;
// pi/2 = kP1 + kP2 + kP3 (+ 1e-22): kP1 has pi/2's first 24 bits, so x - j kP1
// is exact for |j| < 2^24.
constexpr float kP1 = 1.5707963705062866f, kP2 = -4.371138828673793e-08f,
                kP3 = -1.7151245100058819e-15f;
// Cephes' sinf and cosf on [-pi/4, pi/4], highest power first:
// sin r = r + r^3 s(r^2), cos r = 1 - r^2 / 2 + r^4 c(r^2).
constexpr float kS[] = {-1.9515295891E-4f, 8.3321608736E-3f, -1.6666654611E-1f};
constexpr float kC[] = {2.443315711809948E-5f, -1.388731625493765E-3f, 4.166664568298827E-2f};

// The lanes of `far` (|x| > kTrigVectorMax, +-inf) of w lanes again on libm:
// x and y hold the lanes' inputs and results.
template <bool kCos>
void libmFar(unsigned far, const float* x, float* y, int w) {
  for (int l = 0; l < w; ++l)
    if (far >> l & 1u) y[l] = kCos ? std::cos(x[l]) : std::sin(x[l]);
}

// ---- AVX-512 ----------------------------------------------------------------

#define PASSLAB_AVX512 __attribute__((target("avx512f")))

// sin x (kCos false) or cos x = sin(x + pi/2): quadrant j + 1.
template <bool kCos>
PASSLAB_AVX512 inline __m512 sinCos16(__m512 x) {
  const __m512 j = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(kTwoOverPi)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(j, _mm512_set1_ps(kP1), x);
  r = _mm512_fnmadd_ps(j, _mm512_set1_ps(kP2), r);
  r = _mm512_fnmadd_ps(j, _mm512_set1_ps(kP3), r);
  __m512i q = _mm512_cvtps_epi32(j);
  if (kCos) q = _mm512_add_epi32(q, _mm512_set1_epi32(1));
  const __m512 r2 = _mm512_mul_ps(r, r);
  __m512 s = _mm512_set1_ps(kS[0]);
  s = _mm512_fmadd_ps(s, r2, _mm512_set1_ps(kS[1]));
  s = _mm512_fmadd_ps(s, r2, _mm512_set1_ps(kS[2]));
  s = _mm512_fmadd_ps(_mm512_mul_ps(r, r2), s, r);
  __m512 c = _mm512_set1_ps(kC[0]);
  c = _mm512_fmadd_ps(c, r2, _mm512_set1_ps(kC[1]));
  c = _mm512_fmadd_ps(c, r2, _mm512_set1_ps(kC[2]));
  c = _mm512_fmadd_ps(_mm512_mul_ps(r2, r2), c,
                      _mm512_fnmadd_ps(_mm512_set1_ps(0.5f), r2, _mm512_set1_ps(1.0f)));
  const __mmask16 odd = _mm512_test_epi32_mask(q, _mm512_set1_epi32(1));
  const __m512i flip = _mm512_slli_epi32(_mm512_and_si512(q, _mm512_set1_epi32(2)), 30);
  const __m512 v = _mm512_castsi512_ps(
      _mm512_xor_si512(_mm512_castps_si512(_mm512_mask_blend_ps(odd, s, c)), flip));
  if (kCos) return v;
  // sin(-0) = -0 (r loses the sign of zero).
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_EQ_OQ), v, x);
}

// sinCos16 with the far lanes on libm (before y is written: y may be x).
template <bool kCos>
PASSLAB_AVX512 inline __m512 sinCosFar16(__m512 v) {
  const __m512 r = sinCos16<kCos>(v);
  const __m512 absV =
      _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff)));
  const __mmask16 far = _mm512_cmp_ps_mask(absV, _mm512_set1_ps(kTrigVectorMax), _CMP_GT_OQ);
  if (far == 0) return r;
  float xs[16], ys[16];
  _mm512_storeu_ps(xs, v);
  _mm512_storeu_ps(ys, r);
  libmFar<kCos>(far, xs, ys, 16);
  return _mm512_loadu_ps(ys);
}

template <bool kCos>
PASSLAB_AVX512 void sinCosAvx512(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, sinCosFar16<kCos>(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 m = avx512::lanes(n - i);
    _mm512_mask_storeu_ps(y + i, m, sinCosFar16<kCos>(_mm512_maskz_loadu_ps(m, x + i)));
  }
}

// ---- AVX2 + FMA -------------------------------------------------------------

#define PASSLAB_AVX2 __attribute__((target("avx2,fma")))

template <bool kCos>
PASSLAB_AVX2 inline __m256 sinCos8(__m256 x) {
  const __m256 j = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(kTwoOverPi)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(j, _mm256_set1_ps(kP1), x);
  r = _mm256_fnmadd_ps(j, _mm256_set1_ps(kP2), r);
  r = _mm256_fnmadd_ps(j, _mm256_set1_ps(kP3), r);
  __m256i q = _mm256_cvtps_epi32(j);
  if (kCos) q = _mm256_add_epi32(q, _mm256_set1_epi32(1));
  const __m256 r2 = _mm256_mul_ps(r, r);
  __m256 s = _mm256_set1_ps(kS[0]);
  s = _mm256_fmadd_ps(s, r2, _mm256_set1_ps(kS[1]));
  s = _mm256_fmadd_ps(s, r2, _mm256_set1_ps(kS[2]));
  s = _mm256_fmadd_ps(_mm256_mul_ps(r, r2), s, r);
  __m256 c = _mm256_set1_ps(kC[0]);
  c = _mm256_fmadd_ps(c, r2, _mm256_set1_ps(kC[1]));
  c = _mm256_fmadd_ps(c, r2, _mm256_set1_ps(kC[2]));
  c = _mm256_fmadd_ps(_mm256_mul_ps(r2, r2), c,
                      _mm256_fnmadd_ps(_mm256_set1_ps(0.5f), r2, _mm256_set1_ps(1.0f)));
  const __m256 odd = _mm256_castsi256_ps(
      _mm256_cmpeq_epi32(_mm256_and_si256(q, _mm256_set1_epi32(1)), _mm256_set1_epi32(1)));
  const __m256 flip =
      _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(q, _mm256_set1_epi32(2)), 30));
  const __m256 v = _mm256_xor_ps(_mm256_blendv_ps(s, c, odd), flip);
  if (kCos) return v;
  return _mm256_blendv_ps(v, x, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_EQ_OQ));
}

template <bool kCos>
PASSLAB_AVX2 inline __m256 sinCosFar8(__m256 v) {
  const __m256 r = sinCos8<kCos>(v);
  const __m256 absV = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v);
  const int far =
      _mm256_movemask_ps(_mm256_cmp_ps(absV, _mm256_set1_ps(kTrigVectorMax), _CMP_GT_OQ));
  if (far == 0) return r;
  float xs[8], ys[8];
  _mm256_storeu_ps(xs, v);
  _mm256_storeu_ps(ys, r);
  libmFar<kCos>(static_cast<unsigned>(far), xs, ys, 8);
  return _mm256_loadu_ps(ys);
}

// The tail through a padded copy, so that every lane computes as the others.
template <bool kCos>
PASSLAB_AVX2 void sinCosAvx2(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, sinCosFar8<kCos>(_mm256_loadu_ps(x + i)));
  if (i < n) {
    float t[8] = {};
    std::copy(x + i, x + n, t);
    _mm256_storeu_ps(t, sinCosFar8<kCos>(_mm256_loadu_ps(t)));
    std::copy(t, t + (n - i), y + i);
  }
}

template <bool kCos>
void sinCosScalar(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = kCos ? std::cos(x[i]) : std::sin(x[i]);
}

// The scalar path's name (row_isa.h).
constexpr char kBaseIsa[] = "scalar";

template <bool kCos>
void sinCosOn(RowIsa isa, const float* x, float* y, int64_t n) {
  switch (isa) {
    case RowIsa::kAvx512:
      return sinCosAvx512<kCos>(x, y, n);
    case RowIsa::kAvx2:
      return sinCosAvx2<kCos>(x, y, n);
    case RowIsa::kBase:
      return sinCosScalar<kCos>(x, y, n);
  }
}

}  // namespace

void sinRow(const float* x, float* y, int64_t n) {
  sinCosOn<false>(detectedRowIsa(), x, y, n);
}

void cosRow(const float* x, float* y, int64_t n) {
  sinCosOn<true>(detectedRowIsa(), x, y, n);
}

bool sinRowOn(std::string_view isa, const float* x, float* y, int64_t n) {
  RowIsa path;
  if (!parseRowIsa(isa, kBaseIsa, &path)) return false;
  sinCosOn<false>(path, x, y, n);
  return true;
}

bool cosRowOn(std::string_view isa, const float* x, float* y, int64_t n) {
  RowIsa path;
  if (!parseRowIsa(isa, kBaseIsa, &path)) return false;
  sinCosOn<true>(path, x, y, n);
  return true;
}

}  // namespace passlab::exec::cpu
