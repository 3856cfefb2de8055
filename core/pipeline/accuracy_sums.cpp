#include "core/pipeline/accuracy_sums.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/support/cpu_isa.h"

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::pipeline {

namespace {

float floatAt(const std::byte* p, int64_t i) {
  float v;
  std::memcpy(&v, p + i * static_cast<int64_t>(sizeof(float)), sizeof(float));
  return v;
}

}  // namespace

void addFloatPairsScalar(const std::byte* got, const std::byte* want, int64_t n, AccuracySums& s) {
  // In a local, not through the reference: the values are read through byte
  // pointers, which may alias anything, so sums behind a reference would be
  // stored and reloaded at every value.
  AccuracySums local = s;
  for (int64_t i = 0; i < n; ++i) addPair(floatAt(got, i), floatAt(want, i), local);
  s = local;
}

#if defined(__x86_64__)

namespace {

// AVX2 without FMA: a multiply and an add stay two roundings, as in the
// scalar loop (no contraction into a fused multiply-add).
#define PASSLAB_SUMS_AVX2 __attribute__((target("avx2")))

// Four pairs at a time. The four sums sit in the lanes of `acc` (dot, gotSq,
// wantSq, errSq); the four products of each pair are transposed into one
// vector and added in pair order: lane by lane the additions of the scalar
// loop, one after another. A group of four holding a NaN or an infinity goes
// through addPair, the lanes stored before and loaded after. The maxima are
// kept per lane and combined at the end: a maximum of finite non-negative
// values does not depend on the order (and |x| is never -0).
PASSLAB_SUMS_AVX2 void addFloatPairsAvx2(const std::byte* got, const std::byte* want, int64_t n,
                                         AccuracySums& s) {
  AccuracySums local = s;
  __m256d acc = _mm256_setr_pd(local.dot, local.gotSq, local.wantSq, local.errSq);
  __m256d maxErr = _mm256_setzero_pd(), maxRef = _mm256_setzero_pd();
  const __m256d abs = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
  const __m128i exponent = _mm_set1_epi32(0x7f800000);
  size_t finite = 0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m128 gf = _mm_loadu_ps(reinterpret_cast<const float*>(got) + i);
    const __m128 wf = _mm_loadu_ps(reinterpret_cast<const float*>(want) + i);
    // Not finite: every exponent bit set.
    const __m128i gBad = _mm_cmpeq_epi32(_mm_and_si128(_mm_castps_si128(gf), exponent), exponent);
    const __m128i wBad = _mm_cmpeq_epi32(_mm_and_si128(_mm_castps_si128(wf), exponent), exponent);
    if (_mm_movemask_epi8(_mm_or_si128(gBad, wBad)) != 0) {
      alignas(32) double lanes[4];
      _mm256_store_pd(lanes, acc);
      local.dot = lanes[0], local.gotSq = lanes[1], local.wantSq = lanes[2], local.errSq = lanes[3];
      for (int64_t k = i; k < i + 4; ++k) addPair(floatAt(got, k), floatAt(want, k), local);
      acc = _mm256_setr_pd(local.dot, local.gotSq, local.wantSq, local.errSq);
      continue;
    }
    const __m256d g = _mm256_cvtps_pd(gf), w = _mm256_cvtps_pd(wf);
    const __m256d e = _mm256_sub_pd(g, w);
    const __m256d gw = _mm256_mul_pd(g, w), gg = _mm256_mul_pd(g, g);
    const __m256d ww = _mm256_mul_pd(w, w), ee = _mm256_mul_pd(e, e);
    const __m256d t0 = _mm256_unpacklo_pd(gw, gg);                   // gw0 gg0 gw2 gg2
    const __m256d t1 = _mm256_unpackhi_pd(gw, gg);                   // gw1 gg1 gw3 gg3
    const __m256d t2 = _mm256_unpacklo_pd(ww, ee);                   // ww0 ee0 ww2 ee2
    const __m256d t3 = _mm256_unpackhi_pd(ww, ee);                   // ww1 ee1 ww3 ee3
    acc = _mm256_add_pd(acc, _mm256_permute2f128_pd(t0, t2, 0x20));  // pair 0
    acc = _mm256_add_pd(acc, _mm256_permute2f128_pd(t1, t3, 0x20));  // pair 1
    acc = _mm256_add_pd(acc, _mm256_permute2f128_pd(t0, t2, 0x31));  // pair 2
    acc = _mm256_add_pd(acc, _mm256_permute2f128_pd(t1, t3, 0x31));  // pair 3
    maxErr = _mm256_max_pd(maxErr, _mm256_and_pd(e, abs));
    maxRef = _mm256_max_pd(maxRef, _mm256_and_pd(w, abs));
    finite += 4;
  }
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, acc);
  local.dot = lanes[0], local.gotSq = lanes[1], local.wantSq = lanes[2], local.errSq = lanes[3];
  _mm256_store_pd(lanes, maxErr);
  for (double v : lanes) local.maxErr = std::max(local.maxErr, v);
  _mm256_store_pd(lanes, maxRef);
  for (double v : lanes) local.maxRef = std::max(local.maxRef, v);
  local.finiteCompared += finite;
  for (; i < n; ++i) addPair(floatAt(got, i), floatAt(want, i), local);
  s = local;
}

}  // namespace

#endif

void addFloatPairs(const std::byte* got, const std::byte* want, int64_t n, AccuracySums& s) {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx2Fma()) return addFloatPairsAvx2(got, want, n, s);
#endif
  addFloatPairsScalar(got, want, n, s);
}

}  // namespace passlab::pipeline
