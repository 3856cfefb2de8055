// y = QuantizeLinear(h * s[c]) of the exact QLinearSqueezeExcite, the bytes
// of quantizeRows on the float32 products p = h * s[c]:
//   d = p / y_scale (IEEE), clamped to [qlo, qhi], rounded half to even,
//   + y_zero_point, clamped to [lo, hi].
// The division-free form (AVX-512, or AVX2 and FMA in
// squeeze_excite_exact_avx2.cpp; ScalePlan::fast). With K = s[c] / y_scale,
// d = RN(RN(h s) / y_scale) lies in h K [1 - 2^-22.9, 1 + 2^-22.9] (two
// roundings of 2^-24, no underflow that matters: below). kLow and kHigh are
// K (1 -+ 2^-20) rounded to float32 (error 2^-23.9 at most), so d lies
// strictly between h kLow and h kHigh (or h = 0 or K = 0, where d = 0 and
// both products are 0). One FMA each, h * k + (1.5 * 2^23 + z), rounds the
// exact product to an integer once (the sum lies in [2^23, 2^24), where
// float32 holds exactly the integers: |h K| < 2^21 by the plan's check).
// Rounding to nearest is monotone, so where the two results are equal every
// value between the products, d included, rounds to that integer, and d is
// no tie (a tie would have the bracket's ends rounding apart): the result
// less 1.5 * 2^23 is RNE(d) + z, which saturated to [lo, hi] is the
// reference's byte also where the clamps act (d beyond qhi = hi - z + 1 gives
// hi in both, d below qlo gives lo). Lanes whose two results differ (a
// rounding boundary near d: about 2^-12 of them) take the division.
// The plan requires y_scale in [2^-60, 2^60], a finite table and each s[c] 0
// or in [2^-60, 1] (so K is a normal float32 and p finite); then an h s that
// underflows is below 2^-126, d below 2^-66, and both forms give z.
#include "core/exec/cpu/squeeze_excite_exact_scale.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/squeeze_excite_exact_avx2.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu::squeeze_excite {

namespace {

constexpr double kBracket = 0x1p-20;
constexpr double kSmallest = 0x1p-60, kLargest = 0x1p60;
constexpr double kLargestQuotient = 0x1p21;
constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23
constexpr int32_t kMagicBits = 0x4B400000;
constexpr int64_t kBlock = 64;  // elements the main loop takes at a time

template <class Q>
void scaleRowsScalar(const float* h, int64_t first, int64_t last, int64_t c, const float* s,
                     const Quant& q, Q* y) {
  for (int64_t i = first * c; i < last * c; ++i)
    y[i] = static_cast<Q>(quantizeOne(h[i] * s[i % c], q));
}

#if defined(__x86_64__)
#define PASSLAB_SEX_SCALE_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))

// channelBounds 8 channels at a time, the same operations in double.
PASSLAB_SEX_SCALE_TARGET bool channelBoundsAvx512(const float* s, int64_t c, double inverse,
                                                  float* kLow, float* kHigh, double& largestK) {
  const __m512d inv = _mm512_set1_pd(inverse), down = _mm512_set1_pd(1 - kBracket),
                up = _mm512_set1_pd(1 + kBracket), smallest = _mm512_set1_pd(kSmallest),
                one = _mm512_set1_pd(1.0), zero = _mm512_setzero_pd();
  __m512d largest = zero;
  for (int64_t k = 0; k < c; k += 8) {
    const auto m = static_cast<__mmask8>(c - k >= 8 ? 0xff : (1u << (c - k)) - 1);
    const __m512d sk = _mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, s + k));
    const __m512d a = _mm512_abs_pd(sk);
    const __mmask8 ok =
        _mm512_cmp_pd_mask(sk, zero, _CMP_EQ_OQ) |
        (_mm512_cmp_pd_mask(a, smallest, _CMP_GE_OQ) & _mm512_cmp_pd_mask(a, one, _CMP_LE_OQ));
    if ((ok & m) != m) return false;  // NaN too
    const __m512d K = _mm512_mul_pd(sk, inv);
    largest = _mm512_max_pd(largest, _mm512_abs_pd(K));
    _mm256_mask_storeu_ps(kLow + k, m, _mm512_cvtpd_ps(_mm512_mul_pd(K, down)));
    _mm256_mask_storeu_ps(kHigh + k, m, _mm512_cvtpd_ps(_mm512_mul_pd(K, up)));
  }
  largestK = _mm512_reduce_max_pd(largest);
  return true;
}
#endif

// Each channel's K = s[k] / y_scale (inverse: 1 / y_scale in double) and
// its bracket K (1 -+ 2^-20) in float32; false where an s[k] is neither 0
// nor in [2^-60, 1].
bool channelBounds(const float* s, int64_t c, double inverse, float* kLow, float* kHigh,
                   double& largestK) {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512BwVl()) return channelBoundsAvx512(s, c, inverse, kLow, kHigh, largestK);
#endif
  largestK = 0;
  for (int64_t k = 0; k < c; ++k) {
    const double sk = s[k];
    if (!(sk == 0 || (std::abs(sk) >= kSmallest && std::abs(sk) <= 1))) return false;
    const double K = sk * inverse;
    largestK = std::max(largestK, std::abs(K));
    kLow[k] = static_cast<float>(K * (1 - kBracket));
    kHigh[k] = static_cast<float>(K * (1 + kBracket));
  }
  return true;
}

// Whether the gate allows the division-free form (largestH: the largest
// |table entry|, infinite where one is not finite); its bounds.
bool planBounds(double largestH, const float* s, int64_t c, const Quant& qy, ScalePlan& plan) {
  const double ys = qy.s;
  if (!(std::abs(ys) >= kSmallest && std::abs(ys) <= kLargest)) return false;  // NaN too
  if (!std::isfinite(largestH)) return false;
  plan.period = std::lcm(c, avx512::kLanes);
  const auto size = static_cast<size_t>(plan.period + kBlock);
  plan.kLow.resize(size);
  plan.kHigh.resize(size);
  double largestK = 0;
  if (!channelBounds(s, c, 1.0 / ys, plan.kLow.data(), plan.kHigh.data(), largestK)) return false;
  if (!(largestH * largestK * (1 + 2 * kBracket) < kLargestQuotient)) return false;
  const auto n = static_cast<size_t>(c);
  for (size_t i = n; i < size; i += n) {  // the period's repeats
    std::copy_n(plan.kLow.begin(), std::min(n, size - i), plan.kLow.begin() + i);
    std::copy_n(plan.kHigh.begin(), std::min(n, size - i), plan.kHigh.begin() + i);
  }
  return true;
}

#if defined(__x86_64__)
// The lanes in `near` of out (16 values from element e on) by the division.
// Plain code (no FMA to contract h * s into).
[[gnu::noinline]] void divideLanes(int32_t* out, unsigned near, const float* h, int64_t e,
                                   int64_t c, const float* s, const Quant& q) {
  for (int i = 0; i < 16; ++i)
    if ((near >> i) & 1u) out[i] = quantizeOne(h[e + i] * s[(e + i) % c], q);
}

// 16 elements from e on (mask m) as int32 RNE(d) + z: division-free where
// the bracket's ends round alike, else by the division.
PASSLAB_SEX_SCALE_TARGET inline __m512i quotients16(const float* h, int64_t e, __mmask16 m,
                                                    const float* kLow, const float* kHigh,
                                                    __m512 magicZ, int64_t c, const float* s,
                                                    const Quant& q) {
  const __m512 hv = _mm512_maskz_loadu_ps(m, h + e);
  const __m512 a = _mm512_fmadd_ps(hv, _mm512_loadu_ps(kLow), magicZ);
  const __m512 b = _mm512_fmadd_ps(hv, _mm512_loadu_ps(kHigh), magicZ);
  __m512i v = _mm512_sub_epi32(_mm512_castps_si512(a), _mm512_set1_epi32(kMagicBits));
  const __mmask16 near = _mm512_mask_cmp_ps_mask(m, a, b, _CMP_NEQ_UQ);
  if (near != 0) [[unlikely]] {
    alignas(64) int32_t out[16];
    _mm512_store_si512(out, v);
    divideLanes(out, near, h, e, c, s, q);
    v = _mm512_load_si512(out);
  }
  return v;
}

// Elements [begin, end) of rows of c channels, division-free (top of file):
// 64 at a time, the four int32 vectors packed to bytes with saturation
// (packs work per 128-bit lane; one dword permute restores the order), then
// 16 at a time.
template <class Q>
PASSLAB_SEX_SCALE_TARGET void scaleFast(const float* h, int64_t begin, int64_t end, int64_t c,
                                        const float* s, const Quant& q, const ScalePlan& p, Q* y) {
  const __m512 magicZ = _mm512_set1_ps(kMagic + q.z);
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  const float* kLow = p.kLow.data();
  const float* kHigh = p.kHigh.data();
  const int64_t period = p.period;
  int64_t j = begin % period, e = begin;
  for (; e + kBlock <= end; e += kBlock) {
    __m512i v[4];
#pragma GCC unroll 4
    for (int g = 0; g < 4; ++g)
      v[g] = quotients16(h, e + 16 * g, 0xffff, kLow + j + 16 * g, kHigh + j + 16 * g, magicZ, c, s,
                         q);
    const __m512i w01 = _mm512_packs_epi32(v[0], v[1]), w23 = _mm512_packs_epi32(v[2], v[3]);
    const __m512i bytes =
        std::is_same_v<Q, uint8_t> ? _mm512_packus_epi16(w01, w23) : _mm512_packs_epi16(w01, w23);
    _mm512_storeu_si512(y + e, _mm512_permutexvar_epi32(order, bytes));
    j += kBlock;
    while (j >= period) j -= period;
  }
  for (; e < end; e += avx512::kLanes) {
    const __mmask16 m = avx512::lanes(end - e);
    const __m512i v = quotients16(h, e, m, kLow + j, kHigh + j, magicZ, c, s, q);
    if constexpr (std::is_same_v<Q, uint8_t>)
      _mm512_mask_cvtusepi32_storeu_epi8(y + e, m, _mm512_max_epi32(v, _mm512_setzero_si512()));
    else
      _mm512_mask_cvtsepi32_storeu_epi8(y + e, m, v);
    j += avx512::kLanes;
    if (j >= period) j -= period;
  }
}

// The division form, 16 channels at a time with quantizeRows' AVX-512 operations;
// compiled for AVX-512 F, BW and VL (it uses BW's kmovd), so scaleRows asks
// hasAvx512BwVl: a CPU with F alone takes the scalar form.
template <class Q>
PASSLAB_SEX_SCALE_TARGET void scaleRowsDivide(const float* h, int64_t first, int64_t last,
                                              int64_t c, const float* s, const Quant& q, Q* y) {
  const __m512 vs = _mm512_set1_ps(q.s), vqlo = _mm512_set1_ps(q.qlo), vqhi = _mm512_set1_ps(q.qhi),
               vz = _mm512_set1_ps(q.z), vlo = _mm512_set1_ps(q.lo), vhi = _mm512_set1_ps(q.hi),
               magic = _mm512_set1_ps(kMagic);
  for (int64_t r = first; r < last; ++r)
    for (int64_t k = 0; k < c; k += 16) {
      const __mmask16 m = avx512::lanes(c - k);
      const __m512 p =
          _mm512_mul_ps(_mm512_maskz_loadu_ps(m, h + r * c + k), _mm512_maskz_loadu_ps(m, s + k));
      const __m512 d = _mm512_div_ps(p, vs);
      const __m512 cl = _mm512_min_ps(_mm512_max_ps(d, vqlo), vqhi);
      const __m512 rn = _mm512_sub_ps(_mm512_add_ps(cl, magic), magic);
      __m512 v = _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(rn, vz), vlo), vhi);
      v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(d, d, _CMP_UNORD_Q), _mm512_setzero_ps());
      _mm512_mask_cvtepi32_storeu_epi8(y + r * c + k, m, _mm512_cvttps_epi32(v));
    }
}
#endif

}  // namespace

double tableBound(const float* table) {
  double largest = 0;
  for (int i = 0; i < 256; ++i) {
    if (!std::isfinite(table[i])) return std::numeric_limits<double>::infinity();
    largest = std::max(largest, std::abs(static_cast<double>(table[i])));
  }
  return largest;
}

void prepareScale(double largestH, const float* s, int64_t c, const Quant& qy, ScalePlan& plan) {
  plan.fast = false;
#if defined(__x86_64__)
  if (c > 0 && (cpu_isa::hasAvx512BwVl() || cpu_isa::hasAvx2Fma()))
    plan.fast = planBounds(largestH, s, c, qy, plan);
#endif
}

template <class Q>
void scaleRows(const float* h, int64_t first, int64_t last, int64_t c, const float* s,
               const Quant& q, const ScalePlan& plan, Q* y) {
#if defined(__x86_64__)
  if (plan.fast && cpu_isa::hasAvx512BwVl())
    return scaleFast<Q>(h, first * c, last * c, c, s, q, plan, y);
  if (plan.fast) return avx2::scaleFast<Q>(h, first * c, last * c, c, s, q, plan, y);
  if (cpu_isa::hasAvx512BwVl()) return scaleRowsDivide<Q>(h, first, last, c, s, q, y);
#endif
  scaleRowsScalar<Q>(h, first, last, c, s, q, y);
}

template void scaleRows<uint8_t>(const float*, int64_t, int64_t, int64_t, const float*,
                                 const Quant&, const ScalePlan&, uint8_t*);
template void scaleRows<int8_t>(const float*, int64_t, int64_t, int64_t, const float*, const Quant&,
                                const ScalePlan&, int8_t*);

}  // namespace passlab::exec::cpu::squeeze_excite
