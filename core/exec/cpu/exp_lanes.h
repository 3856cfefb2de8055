// The exp core of sigmoid_rows.cpp on AVX-512 and AVX2 + FMA lanes, for the
// rows that build on exp (sigmoid_rows.cpp, erf_rows.cpp): t = n ln2 + r with
// n = round(t log2 e) and |r| <= ln2 / 2 (ln2 split in two as in Cephes'
// expf), exp(r) - 1 = r + r^2 q(r) with Cephes' degree-5 q. exp16 / exp8 are
// within 4 ulp of exp over the whole float range, subnormal results included
// (tests/core/exec/sigmoid_rows_test.cpp); sigmoid16 / sigmoid8 likewise.
// Callers dispatch at run time (cpu_isa.h); nothing here runs unless the CPU
// has the instruction set.
#pragma once

#include "core/support/x86_intrinsics.h"

namespace passlab::exec::cpu::exp_lanes {

constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f;  // ln 2 = kLn2Hi - kLn2Lo
constexpr float kLn2Lo = 2.12194440e-4f;
constexpr float kQ0 = 1.9875691500E-4f, kQ1 = 1.3981999507E-3f, kQ2 = 8.3334519073E-3f,
                kQ3 = 4.1665795894E-2f, kQ4 = 1.6666665459E-1f, kQ5 = 5.0000001201E-1f;
constexpr float kSigmoidLo = -105.0f;  // exp(-105) < 2^-150: rounds to 0
constexpr float kExpHi = 89.0f;        // exp(89) > FLT_MAX: rounds to +inf

// ---- AVX-512 (16 lanes) -----------------------------------------------------

// GCC 12 warns about the _mm512_undefined_ps() inside the unmasked intrinsics
// (max, roundscale, scalef) once inlined: a false positive.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// expm1(r) for |r| <= ln2 / 2 (about): r + r^2 q(r).
__attribute__((target("avx512f"))) inline __m512 expm1Poly512(__m512 r) {
  __m512 q = _mm512_set1_ps(kQ0);
  q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(kQ1));
  q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(kQ2));
  q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(kQ3));
  q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(kQ4));
  q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(kQ5));
  return _mm512_fmadd_ps(_mm512_mul_ps(r, r), q, r);
}

// exp(t) - 1 = 2^n (1 + em) - 1 with em = expm1(r); returns em and n.
__attribute__((target("avx512f"))) inline __m512 expm1Reduced512(__m512 t, __m512* n) {
  *n = _mm512_roundscale_ps(_mm512_mul_ps(t, _mm512_set1_ps(kLog2e)),
                            _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(*n, _mm512_set1_ps(kLn2Hi), t);
  r = _mm512_fmadd_ps(*n, _mm512_set1_ps(kLn2Lo), r);
  return expm1Poly512(r);
}

__attribute__((target("avx512f"))) inline __m512 absMinus512(__m512 x) {  // -|x|
  return _mm512_castsi512_ps(
      _mm512_or_si512(_mm512_castps_si512(x), _mm512_set1_epi32(static_cast<int>(0x80000000u))));
}

__attribute__((target("avx512f"))) inline __m512 sigmoid16(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 t = _mm512_max_ps(_mm512_set1_ps(kSigmoidLo), absMinus512(x));
  __m512 n;
  const __m512 em = expm1Reduced512(t, &n);
  const __m512 e = _mm512_scalef_ps(_mm512_add_ps(em, one), n);  // exact 2^n, subnormals kept
  const __mmask16 pos = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GE_OQ);
  return _mm512_div_ps(_mm512_mask_blend_ps(pos, e, one), _mm512_add_ps(e, one));
}

// exp(x): x clamped to [-105, 89] (0 and +inf beyond), then 2^n (1 + em).
__attribute__((target("avx512f"))) inline __m512 exp16(__m512 x) {
  const __m512 t =
      _mm512_min_ps(_mm512_set1_ps(kExpHi), _mm512_max_ps(_mm512_set1_ps(kSigmoidLo), x));
  __m512 n;
  const __m512 em = expm1Reduced512(t, &n);
  return _mm512_scalef_ps(_mm512_add_ps(em, _mm512_set1_ps(1.0f)), n);
}

// exp(hi + lo) with hi a float in [-105, 0] (clamped there: 0 below) and
// |lo| < 2, without rounding hi + lo: n from the sum, r = (hi - n ln2Hi) + lo
// - n ln2Lo, where hi - n ln2Hi is exact (both multiples of hi's ulp or of
// 2^-9, the difference below 2). For a large hi known exactly as a sum (GELU's
// erfc: -v^2 / 2 split by an FMA), where exp(float(hi + lo)) would be off by
// hi's rounding (5e-6 relative at hi = -87).
__attribute__((target("avx512f"))) inline __m512 expSum16(__m512 hi, __m512 lo) {
  hi = _mm512_max_ps(_mm512_set1_ps(kSigmoidLo), hi);
  const __m512 n =
      _mm512_roundscale_ps(_mm512_mul_ps(_mm512_add_ps(hi, lo), _mm512_set1_ps(kLog2e)),
                           _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_add_ps(_mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Hi), hi), lo);
  r = _mm512_fmadd_ps(n, _mm512_set1_ps(kLn2Lo), r);
  return _mm512_scalef_ps(_mm512_add_ps(expm1Poly512(r), _mm512_set1_ps(1.0f)), n);
}

#pragma GCC diagnostic pop

// ---- AVX2 + FMA (8 lanes) ---------------------------------------------------

__attribute__((target("avx2,fma"))) inline __m256 expm1Poly256(__m256 r) {
  __m256 q = _mm256_set1_ps(kQ0);
  q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(kQ1));
  q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(kQ2));
  q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(kQ3));
  q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(kQ4));
  q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(kQ5));
  return _mm256_fmadd_ps(_mm256_mul_ps(r, r), q, r);
}

__attribute__((target("avx2,fma"))) inline __m256 expm1Reduced256(__m256 t, __m256i* n) {
  const __m256 nf = _mm256_round_ps(_mm256_mul_ps(t, _mm256_set1_ps(kLog2e)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  *n = _mm256_cvtps_epi32(nf);
  __m256 r = _mm256_fnmadd_ps(nf, _mm256_set1_ps(kLn2Hi), t);
  r = _mm256_fmadd_ps(nf, _mm256_set1_ps(kLn2Lo), r);
  return expm1Poly256(r);
}

__attribute__((target("avx2,fma"))) inline __m256 pow2i256(__m256i n) {  // 2^n for n in [-126, 127]
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n, _mm256_set1_epi32(127)), 23));
}

__attribute__((target("avx2,fma"))) inline __m256 absMinus256(__m256 x) {
  return _mm256_or_ps(x, _mm256_set1_ps(-0.0f));
}

__attribute__((target("avx2,fma"))) inline __m256 sigmoid8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 t = _mm256_max_ps(_mm256_set1_ps(kSigmoidLo), absMinus256(x));
  __m256i n;
  const __m256 em = expm1Reduced256(t, &n);
  // 2^n in two factors (n >= -152): each is normal, the product rounds once.
  const __m256i half = _mm256_srai_epi32(n, 1);
  const __m256 e = _mm256_mul_ps(_mm256_mul_ps(_mm256_add_ps(em, one), pow2i256(half)),
                                 pow2i256(_mm256_sub_epi32(n, half)));
  const __m256 pos = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GE_OQ);
  return _mm256_div_ps(_mm256_blendv_ps(e, one, pos), _mm256_add_ps(e, one));
}

__attribute__((target("avx2,fma"))) inline __m256 exp8(__m256 x) {
  const __m256 t =
      _mm256_min_ps(_mm256_set1_ps(kExpHi), _mm256_max_ps(_mm256_set1_ps(kSigmoidLo), x));
  __m256i n;
  const __m256 em = expm1Reduced256(t, &n);
  // 2^n in two factors (n in [-152, 128]): each is normal, the product rounds once.
  const __m256i half = _mm256_srai_epi32(n, 1);
  return _mm256_mul_ps(_mm256_mul_ps(_mm256_add_ps(em, _mm256_set1_ps(1.0f)), pow2i256(half)),
                       pow2i256(_mm256_sub_epi32(n, half)));
}

// expSum16 on 8 lanes (2^n in two normal factors, as exp8).
__attribute__((target("avx2,fma"))) inline __m256 expSum8(__m256 hi, __m256 lo) {
  hi = _mm256_max_ps(_mm256_set1_ps(kSigmoidLo), hi);
  const __m256 nf = _mm256_round_ps(_mm256_mul_ps(_mm256_add_ps(hi, lo), _mm256_set1_ps(kLog2e)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256i n = _mm256_cvtps_epi32(nf);
  __m256 r = _mm256_add_ps(_mm256_fnmadd_ps(nf, _mm256_set1_ps(kLn2Hi), hi), lo);
  r = _mm256_fmadd_ps(nf, _mm256_set1_ps(kLn2Lo), r);
  const __m256i half = _mm256_srai_epi32(n, 1);
  return _mm256_mul_ps(
      _mm256_mul_ps(_mm256_add_ps(expm1Poly256(r), _mm256_set1_ps(1.0f)), pow2i256(half)),
      pow2i256(_mm256_sub_epi32(n, half)));
}

}  // namespace passlab::exec::cpu::exp_lanes
