#include "core/exec/cpu/erf_rows.h"

#include "core/support/x86_intrinsics.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/exp_lanes.h"
#include "core/exec/cpu/row_isa.h"

namespace passlab::exec::cpu {

namespace {

// The approximation's constants (see erf_rows.h).
constexpr float kClamp = 3.832506856900711f;
// From here on erf(x) rounds to +-1 in float32 (erfc(3.92) < 2^-25), where
// the approximation stays an ulp below.
constexpr float kOne = 3.92f;
constexpr float kP[] = {-2.72614225801306e-10f, 2.77068142495902e-08f,  -2.10102402082508e-06f,
                        -5.69250639462346e-05f, -7.34990630326855e-04f, -2.95459980854025e-03f,
                        -1.60960333262415e-02f};
constexpr float kQ[] = {-1.45660718464996e-05f, -2.13374055278905e-04f, -1.68282697438203e-03f,
                        -7.37332916720468e-03f, -1.42647390514189e-02f};
constexpr float kHalfSqrt2 = 0.70710678118654752f;

// GELU's erfc form (erf_rows.h): erfc(z) = t exp(-z^2 + c(t)), t = 1 / (1 +
// z / 2), c of degree 9 (Numerical Recipes' erfcc, a Chebyshev fit: relative
// error below 1.2e-7 for every z >= 0), highest power first.
constexpr float kErfcC[] = {0.17087277f,  -0.82215223f, 1.48851587f, -1.13520398f, 0.27886807f,
                            -0.18628806f, 0.09678418f,  0.37409196f, 1.00002368f,  -1.26551223f};
// |v| beyond this gives GELU -0 (v < 0: below -14.5 it rounds to -0) or v.
constexpr float kGeluFar = 20.0f;

// ---- AVX-512 ----------------------------------------------------------------

#define PASSLAB_AVX512 __attribute__((target("avx512f")))

// max(lo, x) and min(hi, t) return their second operand for NaN: NaN stays.
PASSLAB_AVX512 inline __m512 erf16(__m512 v) {
  const __m512 x = _mm512_min_ps(_mm512_set1_ps(kClamp), _mm512_max_ps(_mm512_set1_ps(-kClamp), v));
  const __m512 x2 = _mm512_mul_ps(x, x);
  __m512 p = _mm512_set1_ps(kP[0]);
  for (int i = 1; i < 7; ++i) p = _mm512_fmadd_ps(x2, p, _mm512_set1_ps(kP[i]));
  __m512 q = _mm512_set1_ps(kQ[0]);
  for (int i = 1; i < 5; ++i) q = _mm512_fmadd_ps(x2, q, _mm512_set1_ps(kQ[i]));
  // The rational form overshoots +-1 by up to 2 ulps near |x| = 3.7: kept
  // within [-1, 1], so that 1 + erf(x) (GELU's negative tail) never turns
  // negative. NaN stays (max and min return their second operand).
  const __m512 r =
      _mm512_min_ps(_mm512_set1_ps(1.0f),
                    _mm512_max_ps(_mm512_set1_ps(-1.0f), _mm512_div_ps(_mm512_mul_ps(x, p), q)));
  const __m512i sign = _mm512_set1_epi32(static_cast<int>(0x80000000u));
  const __m512 absV = _mm512_castsi512_ps(_mm512_andnot_si512(sign, _mm512_castps_si512(v)));
  const __m512 signedOne = _mm512_castsi512_ps(_mm512_or_si512(
      _mm512_and_si512(sign, _mm512_castps_si512(v)), _mm512_castps_si512(_mm512_set1_ps(1.0f))));
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(absV, _mm512_set1_ps(kOne), _CMP_GE_OQ), r,
                              signedOne);
}

PASSLAB_AVX512 void erfAvx512(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, erf16(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 m = avx512::lanes(n - i);
    _mm512_mask_storeu_ps(y + i, m, erf16(_mm512_maskz_loadu_ps(m, x + i)));
  }
}

// GELU on 16 lanes in the erfc form (erf_rows.h): a = min(|v|, 20), e =
// erfc(a / sqrt 2) = t exp(-h + (c(t) - l)) with a^2 / 2 = h + l split
// exactly (FMA) and h kept out of the rounded sum (expSum16), then 0.5 v e for v < 0 (as -0.5 |v|
// e: NaN from -inf, as the formula's) and v (1 - 0.5 e) otherwise. NaN stays (min returns its
// second operand).
PASSLAB_AVX512 inline __m512 gelu16(__m512 v) {
  const __m512i sign = _mm512_set1_epi32(static_cast<int>(0x80000000u));
  const __m512 absV = _mm512_castsi512_ps(_mm512_andnot_si512(sign, _mm512_castps_si512(v)));
  const __m512 a = _mm512_min_ps(_mm512_set1_ps(kGeluFar), absV);
  const __m512 sq = _mm512_mul_ps(a, a);
  const __m512 sqLo = _mm512_fmsub_ps(a, a, sq);
  const __m512 half = _mm512_set1_ps(0.5f);
  const __m512 z = _mm512_mul_ps(a, _mm512_set1_ps(kHalfSqrt2));
  const __m512 t =
      _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_fmadd_ps(half, z, _mm512_set1_ps(1.0f)));
  __m512 c = _mm512_set1_ps(kErfcC[0]);
  for (int i = 1; i < 10; ++i) c = _mm512_fmadd_ps(c, t, _mm512_set1_ps(kErfcC[i]));
  const __m512 ex = exp_lanes::expSum16(_mm512_mul_ps(_mm512_set1_ps(-0.5f), sq),
                                        _mm512_fnmadd_ps(half, sqLo, c));
  const __m512 e = _mm512_mul_ps(t, ex);
  // -0.5 |v| t first: ex may be subnormal, multiplied once.
  const __m512 negative =
      _mm512_mul_ps(_mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(-0.5f), absV), t), ex);
  const __m512 pos = _mm512_mul_ps(v, _mm512_fnmadd_ps(half, e, _mm512_set1_ps(1.0f)));
  const __mmask16 neg = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ);
  return _mm512_mask_blend_ps(neg, pos, negative);
}

// ---- AVX2 + FMA -------------------------------------------------------------

#define PASSLAB_AVX2 __attribute__((target("avx2,fma")))

PASSLAB_AVX2 inline __m256 erf8(__m256 v) {
  const __m256 x = _mm256_min_ps(_mm256_set1_ps(kClamp), _mm256_max_ps(_mm256_set1_ps(-kClamp), v));
  const __m256 x2 = _mm256_mul_ps(x, x);
  __m256 p = _mm256_set1_ps(kP[0]);
  for (int i = 1; i < 7; ++i) p = _mm256_fmadd_ps(x2, p, _mm256_set1_ps(kP[i]));
  __m256 q = _mm256_set1_ps(kQ[0]);
  for (int i = 1; i < 5; ++i) q = _mm256_fmadd_ps(x2, q, _mm256_set1_ps(kQ[i]));
  const __m256 r = _mm256_min_ps(
      _mm256_set1_ps(1.0f),
      _mm256_max_ps(_mm256_set1_ps(-1.0f), _mm256_div_ps(_mm256_mul_ps(x, p), q)));  // as erf16
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 signedOne = _mm256_or_ps(_mm256_and_ps(sign, v), _mm256_set1_ps(1.0f));
  const __m256 big = _mm256_cmp_ps(_mm256_andnot_ps(sign, v), _mm256_set1_ps(kOne), _CMP_GE_OQ);
  return _mm256_blendv_ps(r, signedOne, big);
}

// The tail through a padded copy, so that every lane computes as the others.
PASSLAB_AVX2 void erfAvx2(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, erf8(_mm256_loadu_ps(x + i)));
  if (i < n) {
    float t[8] = {};
    std::copy(x + i, x + n, t);
    _mm256_storeu_ps(t, erf8(_mm256_loadu_ps(t)));
    std::copy(t, t + (n - i), y + i);
  }
}

// gelu16 on 8 lanes.
PASSLAB_AVX2 inline __m256 gelu8(__m256 v) {
  const __m256 absV = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v);
  const __m256 a = _mm256_min_ps(_mm256_set1_ps(kGeluFar), absV);
  const __m256 sq = _mm256_mul_ps(a, a);
  const __m256 sqLo = _mm256_fmsub_ps(a, a, sq);
  const __m256 half = _mm256_set1_ps(0.5f);
  const __m256 z = _mm256_mul_ps(a, _mm256_set1_ps(kHalfSqrt2));
  const __m256 t =
      _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(half, z, _mm256_set1_ps(1.0f)));
  __m256 c = _mm256_set1_ps(kErfcC[0]);
  for (int i = 1; i < 10; ++i) c = _mm256_fmadd_ps(c, t, _mm256_set1_ps(kErfcC[i]));
  const __m256 ex =
      exp_lanes::expSum8(_mm256_mul_ps(_mm256_set1_ps(-0.5f), sq), _mm256_fnmadd_ps(half, sqLo, c));
  const __m256 e = _mm256_mul_ps(t, ex);
  // -0.5 |v| t first: ex may be subnormal, multiplied once.
  const __m256 negative =
      _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(-0.5f), absV), t), ex);
  const __m256 pos = _mm256_mul_ps(v, _mm256_fnmadd_ps(half, e, _mm256_set1_ps(1.0f)));
  return _mm256_blendv_ps(pos, negative, _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ));
}

PASSLAB_AVX2 void geluAvx2(const float* v, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, gelu8(_mm256_loadu_ps(v + i)));
  if (i < n) {
    float t[8] = {};
    std::copy(v + i, v + n, t);
    _mm256_storeu_ps(t, gelu8(_mm256_loadu_ps(t)));
    std::copy(t, t + (n - i), y + i);
  }
}

void erfScalar(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = std::erf(x[i]);
}

// GELU through double erfc (no cancellation in the negative tail).
void geluScalar(const float* v, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double u = v[i];
    y[i] = static_cast<float>(0.5 * u * std::erfc(-u * std::numbers::sqrt2 / 2));
  }
}

// The scalar path's name (row_isa.h).
constexpr char kBaseIsa[] = "scalar";

void erfOn(RowIsa isa, const float* x, float* y, int64_t n) {
  switch (isa) {
    case RowIsa::kAvx512:
      return erfAvx512(x, y, n);
    case RowIsa::kAvx2:
      return erfAvx2(x, y, n);
    case RowIsa::kBase:
      return erfScalar(x, y, n);
  }
}

// x (+ bias) into v, a block at a time.
void biased(const float* x, const float* bias, int64_t biasN, int64_t first, float* v, int64_t n) {
  for (int64_t j = 0; j < n; ++j) v[j] = x[j] + bias[(first + j) % biasN];
}

PASSLAB_AVX512 void geluAvx512(const float* v, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, gelu16(_mm512_loadu_ps(v + i)));
  if (i < n) {
    const __mmask16 m = avx512::lanes(n - i);
    _mm512_mask_storeu_ps(y + i, m, gelu16(_mm512_maskz_loadu_ps(m, v + i)));
  }
}

void geluOn(RowIsa isa, const float* v, float* y, int64_t n) {
  switch (isa) {
    case RowIsa::kAvx512:
      return geluAvx512(v, y, n);
    case RowIsa::kAvx2:
      return geluAvx2(v, y, n);
    case RowIsa::kBase:
      return geluScalar(v, y, n);
  }
}

}  // namespace

void erfRow(const float* x, float* y, int64_t n) {
  erfOn(detectedRowIsa(), x, y, n);
}

void geluErfRow(const float* x, const float* bias, int64_t biasN, int64_t biasFirst, float* y,
                int64_t n) {
  if (!bias) return geluOn(detectedRowIsa(), x, y, n);
  constexpr int64_t kBlock = 256;
  float v[kBlock];
  for (int64_t i = 0; i < n; i += kBlock) {
    const int64_t m = std::min(kBlock, n - i);
    biased(x + i, bias, biasN, biasFirst + i, v, m);
    geluOn(detectedRowIsa(), v, y + i, m);
  }
}

bool erfRowOn(std::string_view isa, const float* x, float* y, int64_t n) {
  RowIsa path;
  if (!parseRowIsa(isa, kBaseIsa, &path)) return false;
  erfOn(path, x, y, n);
  return true;
}

bool geluErfRowOn(std::string_view isa, const float* x, float* y, int64_t n) {
  RowIsa path;
  if (!parseRowIsa(isa, kBaseIsa, &path)) return false;
  geluOn(path, x, y, n);
  return true;
}

}  // namespace passlab::exec::cpu
