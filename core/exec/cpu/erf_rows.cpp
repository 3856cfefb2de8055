#include "core/exec/cpu/erf_rows.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/support/cpu_isa.h"

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

PASSLAB_AVX512 inline __m512 gelu16(__m512 v) {
  const __m512 e = erf16(_mm512_mul_ps(v, _mm512_set1_ps(kHalfSqrt2)));
  return _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), v),
                       _mm512_add_ps(_mm512_set1_ps(1.0f), e));
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

void erfScalar(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = std::erf(x[i]);
}

enum class Isa { kAvx512, kAvx2, kScalar };

Isa detectedIsa() {
  static const Isa isa = cpu_isa::hasAvx512f()   ? Isa::kAvx512
                         : cpu_isa::hasAvx2Fma() ? Isa::kAvx2
                                                 : Isa::kScalar;
  return isa;
}

void erfOn(Isa isa, const float* x, float* y, int64_t n) {
  switch (isa) {
    case Isa::kAvx512:
      return erfAvx512(x, y, n);
    case Isa::kAvx2:
      return erfAvx2(x, y, n);
    case Isa::kScalar:
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

// The other paths: erf of x / sqrt 2 on the row, then the product.
void geluRows(const float* v, float* y, int64_t n) {
  float t[256];
  for (int64_t i = 0; i < n; i += 256) {
    const int64_t m = std::min<int64_t>(256, n - i);
    for (int64_t j = 0; j < m; ++j) t[j] = v[i + j] * kHalfSqrt2;
    erfOn(detectedIsa(), t, t, m);
    for (int64_t j = 0; j < m; ++j) y[i + j] = 0.5f * v[i + j] * (1.0f + t[j]);
  }
}

}  // namespace

void erfRow(const float* x, float* y, int64_t n) {
  erfOn(detectedIsa(), x, y, n);
}

void geluErfRow(const float* x, const float* bias, int64_t biasN, int64_t biasFirst, float* y,
                int64_t n) {
  constexpr int64_t kBlock = 256;
  float v[kBlock];
  for (int64_t i = 0; i < n; i += kBlock) {
    const int64_t m = std::min(kBlock, n - i);
    const float* in = x + i;
    if (bias) {
      biased(x + i, bias, biasN, biasFirst + i, v, m);
      in = v;
    }
    if (detectedIsa() == Isa::kAvx512)
      geluAvx512(in, y + i, m);
    else
      geluRows(in, y + i, m);
  }
}

bool erfRowOn(std::string_view isa, const float* x, float* y, int64_t n) {
  const Isa have = detectedIsa();
  if (isa == "avx512" && have == Isa::kAvx512) return erfOn(Isa::kAvx512, x, y, n), true;
  if (isa == "avx2" && have != Isa::kScalar) return erfOn(Isa::kAvx2, x, y, n), true;
  if (isa == "scalar") return erfOn(Isa::kScalar, x, y, n), true;
  return false;
}

}  // namespace passlab::exec::cpu
