#include "core/passes/calibration_bins.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "core/support/cpu_isa.h"

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::passes::calibration_bins {

namespace {

// How near an integer a quotient by multiplication must come for the
// division to decide the bin: its error is at most ~3 ulps of a quotient
// below 2 * bins (< 1e-12 for bins up to a million), well inside this.
constexpr double kEdge = 1e-9;

// The bin of a = |x| (finite) by the reciprocal, divided where the product
// lies near a bin edge; past the last bin, the last.
inline size_t binOf(double a, double width, double inv, size_t last) {
  const double q = a * inv;
  if (q >= static_cast<double>(last + 1)) return last;
  auto k = static_cast<size_t>(q);
  const double frac = q - static_cast<double>(k);
  // Zero is bin 0 either way (one branch, rarely taken, whatever the data).
  const bool edge = ((frac < kEdge) & (q != 0)) | (frac > 1 - kEdge);
  if (edge) k = static_cast<size_t>(a / width);
  return std::min(k, last);
}

// Where the extreme found is a zero, the first zero's sign (the scan that
// keeps the first of equal values).
float firstZero(const float* x, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (x[i] == 0) return x[i];
  return 0;
}

#if defined(__x86_64__)

#define PASSLAB_BINS_AVX512 __attribute__((target("avx512f,avx2")))

PASSLAB_BINS_AVX512 __mmask16 tailMask(size_t left) {
  return left >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1);
}

// Lanes holding a finite value.
PASSLAB_BINS_AVX512 __mmask16 finiteLanes(__m512 v, __mmask16 valid) {
  const __m512i bits = _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff));
  return _mm512_mask_cmplt_epi32_mask(valid, bits, _mm512_set1_epi32(0x7f800000));
}

PASSLAB_BINS_AVX512 FiniteRange finiteRangeAvx512(const float* x, size_t n) {
  const float inf = std::numeric_limits<float>::infinity();
  __m512 lo = _mm512_set1_ps(inf), hi = _mm512_set1_ps(-inf);
  size_t finite = 0;
  for (size_t i = 0; i < n; i += 16) {
    const __mmask16 valid = tailMask(n - i);
    const __m512 v = _mm512_maskz_loadu_ps(valid, x + i);
    const __mmask16 fin = finiteLanes(v, valid);
    lo = _mm512_mask_min_ps(lo, fin, lo, v);
    hi = _mm512_mask_max_ps(hi, fin, hi, v);
    finite += static_cast<size_t>(std::popcount(static_cast<unsigned>(fin)));
  }
  FiniteRange r;
  r.finite = finite;
  r.lo = _mm512_reduce_min_ps(lo);
  r.hi = _mm512_reduce_max_ps(hi);
  return r;
}

PASSLAB_BINS_AVX512 void addToBinsAvx512(const float* x, size_t n, double width, size_t bins,
                                         uint64_t* pos, uint64_t* neg) {
  const double inv = 1 / width;
  const size_t last = bins - 1;
  uint64_t* const table[2] = {pos, neg};
  const __m512d vinv = _mm512_set1_pd(inv), cap = _mm512_set1_pd(static_cast<double>(bins));
  const __m512d edgeLo = _mm512_set1_pd(kEdge), edgeHi = _mm512_set1_pd(1 - kEdge);
  const __m256i vlast = _mm256_set1_epi32(static_cast<int>(last));
  alignas(64) int32_t k[16];
  uint64_t zeros = 0;
  for (size_t i = 0; i < n; i += 16) {
    const __mmask16 valid = tailMask(n - i);
    const __m512 v = _mm512_maskz_loadu_ps(valid, x + i);
    const __m512i bits = _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff));
    const __mmask16 fin = _mm512_mask_cmplt_epi32_mask(valid, bits, _mm512_set1_epi32(0x7f800000));
    const __mmask16 nonzero = _mm512_mask_test_epi32_mask(fin, bits, bits);
    zeros += static_cast<uint64_t>(std::popcount(static_cast<unsigned>(fin & ~nonzero)));
    if (nonzero == 0) continue;
    const __m512d a0 = _mm512_cvtps_pd(_mm512_castps512_ps256(_mm512_castsi512_ps(bits)));
    const __m512d a1 =
        _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castsi512_pd(bits), 1)));
    // Quotients capped at `bins` (so the conversion stays in range).
    const __m512d q0 = _mm512_min_pd(_mm512_mul_pd(a0, vinv), cap);
    const __m512d q1 = _mm512_min_pd(_mm512_mul_pd(a1, vinv), cap);
    const __m256i k0 = _mm512_cvttpd_epi32(q0), k1 = _mm512_cvttpd_epi32(q1);
    const __m512d f0 = _mm512_sub_pd(q0, _mm512_cvtepi32_pd(k0));
    const __m512d f1 = _mm512_sub_pd(q1, _mm512_cvtepi32_pd(k1));
    const unsigned edge0 =
        _mm512_cmp_pd_mask(f0, edgeLo, _CMP_LT_OQ) | _mm512_cmp_pd_mask(f0, edgeHi, _CMP_GT_OQ);
    const unsigned edge1 =
        _mm512_cmp_pd_mask(f1, edgeLo, _CMP_LT_OQ) | _mm512_cmp_pd_mask(f1, edgeHi, _CMP_GT_OQ);
    const unsigned edge = (edge0 | (edge1 << 8)) & nonzero;
    _mm256_store_si256(reinterpret_cast<__m256i*>(k), _mm256_min_epi32(k0, vlast));
    _mm256_store_si256(reinterpret_cast<__m256i*>(k + 8), _mm256_min_epi32(k1, vlast));
    const unsigned negative = _mm512_mask_cmp_ps_mask(nonzero, v, _mm512_setzero_ps(), _CMP_LT_OQ);
    for (unsigned m = nonzero; m != 0; m &= m - 1) {
      const int j = std::countr_zero(m);
      size_t bin = static_cast<size_t>(k[j]);
      if ((edge >> j) & 1u) bin = binOf(std::fabs(static_cast<double>(x[i + j])), width, inv, last);
      ++table[(negative >> j) & 1u][bin];
    }
  }
  pos[0] += zeros;
}

#endif

}  // namespace

FiniteRange finiteRangePortable(const float* x, size_t n) {
  FiniteRange r;
  r.lo = std::numeric_limits<float>::infinity();
  r.hi = -r.lo;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) continue;
    if (x[i] < r.lo) r.lo = x[i];
    if (x[i] > r.hi) r.hi = x[i];
    ++r.finite;
  }
  return r;
}

void addToBinsPortable(const float* x, size_t n, double width, size_t bins, uint64_t* pos,
                       uint64_t* neg) {
  const double inv = width > 0 ? 1 / width : 0;
  const size_t last = bins - 1;
  uint64_t* const table[2] = {pos, neg};  // indexed, not branched on: signs are random
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) continue;
    const size_t k = width > 0 ? binOf(std::fabs(static_cast<double>(x[i])), width, inv, last) : 0;
    ++table[x[i] < 0][k];
  }
}

FiniteRange finiteRange(const float* x, size_t n) {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512f()) {
    FiniteRange r = finiteRangeAvx512(x, n);
    // min/max instructions return either zero of a +0/-0 pair.
    if (r.finite > 0 && r.lo == 0) r.lo = firstZero(x, n);
    if (r.finite > 0 && r.hi == 0) r.hi = firstZero(x, n);
    return r;
  }
#endif
  return finiteRangePortable(x, n);
}

void addToBins(const float* x, size_t n, double width, size_t bins, uint64_t* pos, uint64_t* neg) {
#if defined(__x86_64__)
  if (width > 0 && cpu_isa::hasAvx512f()) return addToBinsAvx512(x, n, width, bins, pos, neg);
#endif
  addToBinsPortable(x, n, width, bins, pos, neg);
}

}  // namespace passlab::passes::calibration_bins
