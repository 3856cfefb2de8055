// The reference QLinearConv's requantization (qlinear.cpp) of int32 sums, 8
// output channels at a time on AVX2 + FMA: qlinear_requant16.h's storeSum16
// in 256-bit registers, for PassLab's own int8 kernels where AVX-512 is
// missing (qlinear_depthwise_nhwc_256.h). The same constants
// (requant16::Multipliers) and the same two ways: float32 with one FMA where
// Multipliers::floatExact says that gives the reference's integers, else
// double, rounded half to even, + y_zero_point, saturated. Bit for bit the
// AVX-512 path (and so the reference).
#pragma once

#include <cstdint>
#include <cstring>

#include "core/exec/cpu/qlinear_requant16.h"

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu::requant8 {

#if defined(__x86_64__)
#define PASSLAB_REQUANT8_TARGET __attribute__((target("avx2,fma")))

// The output's constants in registers (requant16::Requant's, 256-bit).
struct Requant {
  __m256d zero, lo, hi;
  __m256i magicToZero;  // y_zero_point - the bits of 1.5 * 2^23
  bool fast;            // float32 is exact on this run (Multipliers::floatExact)
  bool ySigned;         // int8 out, else uint8
};

PASSLAB_REQUANT8_TARGET inline Requant constants(const requant16::Multipliers& m, bool fast) {
  return {_mm256_set1_pd(m.yZero),
          _mm256_set1_pd(m.yLo),
          _mm256_set1_pd(m.yHi),
          _mm256_set1_epi32(static_cast<int32_t>(m.yZero) - requant16::kMagicBits),
          fast,
          m.yLo < 0};
}

// 8 int32 lanes narrowed with saturation to int8 or uint8 (int16 first:
// both clamps are monotone, so the result is the int32 value clamped) and
// the first n (1 to 8) stored.
PASSLAB_REQUANT8_TARGET inline void narrowStore8(__m256i v, bool ySigned, uint8_t* y, int n) {
  const __m128i s16 = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  const __m128i b = ySigned ? _mm_packs_epi16(s16, s16) : _mm_packus_epi16(s16, s16);
  if (n >= 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y), b);
    return;
  }
  const uint64_t bytes = static_cast<uint64_t>(_mm_cvtsi128_si64(b));
  std::memcpy(y, &bytes, static_cast<size_t>(n));
}

// store16Double's 8 lanes: (sum + bias) * mult in double, rounded half to
// even, + y_zero_point, clamped (a NaN product gives lo as there: max and
// min return their second operand when one is NaN).
PASSLAB_REQUANT8_TARGET inline void store8Double(__m256i acc, const double* mult, const Requant& q,
                                                 uint8_t* y, int n) {
  __m128i r[2];
#pragma GCC unroll 2
  for (int h = 0; h < 2; ++h) {
    const __m128i part = h == 0 ? _mm256_castsi256_si128(acc) : _mm256_extracti128_si256(acc, 1);
    __m256d t = _mm256_mul_pd(_mm256_cvtepi32_pd(part), _mm256_loadu_pd(mult + 4 * h));
    t = _mm256_round_pd(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    t = _mm256_min_pd(_mm256_max_pd(_mm256_add_pd(t, q.zero), q.lo), q.hi);
    r[h] = _mm256_cvtpd_epi32(t);
  }
  narrowStore8(_mm256_set_m128i(r[1], r[0]), q.ySigned, y, n);
}

// storeSum16's 8 lanes: acc holds the bias; the channels' multipliers at
// mult / multf (8 of each readable).
PASSLAB_REQUANT8_TARGET inline void storeSum8(__m256i acc, const double* mult, const float* multf,
                                              const Requant& q, uint8_t* y, int n) {
  if (q.fast) {
    const __m256 p = _mm256_fmadd_ps(_mm256_cvtepi32_ps(acc), _mm256_loadu_ps(multf),
                                     _mm256_set1_ps(requant16::kMagic));
    narrowStore8(_mm256_add_epi32(_mm256_castps_si256(p), q.magicToZero), q.ySigned, y, n);
    return;
  }
  store8Double(acc, mult, q, y, n);
}
#endif

}  // namespace passlab::exec::cpu::requant8
