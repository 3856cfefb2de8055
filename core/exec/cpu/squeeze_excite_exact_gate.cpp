// The exact QLinearSqueezeExcite's excitation (squeeze_excite_exact_gate.h):
// the means quantized, then two 1x1 QLinearConvs on one pixel, integer sums.
// AVX-512 VNNI: vpdpbusd adds 4 products (an input byte, unsigned, times a
// weight, signed) to each of 16 outputs' int32 sums; the input's zero point
// comes off as zin * sum_k W[m, k] (exact: every sum is below 2^24). The
// requantization is requant16's store16Double, the reference's operations
// 16 outputs at a time. With AVX2 (and AVX-VNNI) 8 outputs at a time
// (squeeze_excite_exact_avx2.cpp). Elsewhere the same integers in plain loops.
#include "core/exec/cpu/squeeze_excite_exact_gate.h"

#include <algorithm>
#include <cmath>

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/qlinear_requant16.h"
#include "core/exec/cpu/squeeze_excite_exact_avx2.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu::squeeze_excite {

namespace {

constexpr int64_t kGroup = 4;  // inputs a vpdpbusd lane takes

// The reference QLinearConv's requantization (qlinear.cpp).
int32_t requantize(int32_t acc, float mult, const Quant& y) {
  const double v = std::nearbyint(static_cast<double>(acc) * static_cast<double>(mult)) +
                   static_cast<double>(y.z);
  return static_cast<int32_t>(std::clamp(v, static_cast<double>(y.lo), static_cast<double>(y.hi)));
}

float multiplier(const GateOutput& o, int64_t m) {
  return o.xScale * o.wScale[o.wScaleCount == 1 ? 0 : m] / o.y.s;
}

// W[m, k] from the packed form.
int8_t weight(const GateWeights& w, int64_t m, int64_t k) {
  const int64_t padded = avx512::roundUp(w.outputs, avx512::kLanes);
  return w.packed[static_cast<size_t>(((k / kGroup) * padded + m) * kGroup + k % kGroup)];
}

void gateConvPlain(const GateWeights& w, const uint8_t* in, int32_t zin, const int32_t* bias,
                   const GateOutput& o, uint8_t* out) {
  for (int64_t m = 0; m < w.outputs; ++m) {
    int32_t acc = bias ? bias[m] : 0;
    for (int64_t k = 0; k < w.inputs; ++k)
      acc += (static_cast<int32_t>(in[k]) - zin) * static_cast<int32_t>(weight(w, m, k));
    out[m] = static_cast<uint8_t>(requantize(acc, multiplier(o, m), o.y));
  }
}

#if defined(__x86_64__)
#define PASSLAB_SEX_GATE_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

// N blocks of 16 outputs from block v0 on: their sums over all input groups.
template <int N>
PASSLAB_SEX_GATE_TARGET void sumBlocks(const GateWeights& w, const uint8_t* in, int64_t v0,
                                       __m512i (&acc)[4]) {
  const int64_t padded = avx512::roundUp(w.outputs, avx512::kLanes);
  const int64_t groups = gateInputBytes(w.inputs) / kGroup;
  for (int i = 0; i < N; ++i) acc[i] = _mm512_setzero_si512();
  const int8_t* p = w.packed.data() + v0 * avx512::kLanes * kGroup;
  for (int64_t q = 0; q < groups; ++q) {
    int32_t four;
    __builtin_memcpy(&four, in + q * kGroup, sizeof four);
    const __m512i x = _mm512_set1_epi32(four);
    const int8_t* row = p + q * padded * kGroup;
#pragma GCC unroll 4
    for (int i = 0; i < N; ++i)
      acc[i] = _mm512_dpbusd_epi32(acc[i], x, _mm512_loadu_si512(row + i * 64));
  }
}

PASSLAB_SEX_GATE_TARGET void gateConvVnni(const GateWeights& w, const uint8_t* in, int32_t zin,
                                          const int32_t* bias, const GateOutput& o, uint8_t* out) {
  const int64_t blocks = avx512::roundUp(w.outputs, avx512::kLanes) / avx512::kLanes;
  requant16::Multipliers mq;
  mq.yZero = o.y.z, mq.yLo = o.y.lo, mq.yHi = o.y.hi;
  const requant16::Requant rq = requant16::constants(mq, false);
  const __m512i vzin = _mm512_set1_epi32(zin);
  const __m512 vxs = _mm512_set1_ps(o.xScale), vys = _mm512_set1_ps(o.y.s);
  for (int64_t v0 = 0; v0 < blocks; v0 += 4) {
    __m512i acc[4];
    const int64_t n = std::min<int64_t>(4, blocks - v0);
    if (n == 4)
      sumBlocks<4>(w, in, v0, acc);
    else if (n == 3)
      sumBlocks<3>(w, in, v0, acc);
    else if (n == 2)
      sumBlocks<2>(w, in, v0, acc);
    else
      sumBlocks<1>(w, in, v0, acc);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t m0 = (v0 + i) * avx512::kLanes;
      const __mmask16 m = avx512::lanes(w.outputs - m0);
      const __m512i b = bias ? _mm512_maskz_loadu_epi32(m, bias + m0) : _mm512_setzero_si512();
      const __m512i zs = _mm512_mullo_epi32(vzin, _mm512_loadu_si512(w.sums.data() + m0));
      const __m512 ws = o.wScaleCount == 1 ? _mm512_set1_ps(o.wScale[0])
                                           : _mm512_maskz_loadu_ps(m, o.wScale + m0);
      const __m512 mf = _mm512_div_ps(_mm512_mul_ps(vxs, ws), vys);  // multiplier()
      alignas(64) double mult[16];
      _mm512_store_pd(mult, _mm512_cvtps_pd(_mm512_castps512_ps256(mf)));
      _mm512_store_pd(
          mult + 8,
          _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(mf), 1))));
      requant16::store16Double(_mm512_sub_epi32(_mm512_add_epi32(acc[i], b), zs), mult, rq,
                               out + m0, m);
    }
  }
}

// 16 means: float32(sum / positions), quantized as quantizeRows' AVX-512 loop.
PASSLAB_SEX_GATE_TARGET void quantizeMeansAvx512(const double* sum, int64_t c, int64_t positions,
                                                 const Quant& q, bool gSigned, uint8_t* g) {
  const __m512d n = _mm512_set1_pd(static_cast<double>(positions));
  const __m512 vs = _mm512_set1_ps(q.s), vqlo = _mm512_set1_ps(q.qlo), vqhi = _mm512_set1_ps(q.qhi),
               vz = _mm512_set1_ps(q.z), vlo = _mm512_set1_ps(q.lo), vhi = _mm512_set1_ps(q.hi),
               magic = _mm512_set1_ps(12582912.0f);
  const __m512i offset = _mm512_set1_epi32(gSigned ? 128 : 0);
  for (int64_t k = 0; k < c; k += 16) {
    const __mmask16 m = avx512::lanes(c - k);
    const __m256 lo =
        _mm512_cvtpd_ps(_mm512_div_pd(_mm512_maskz_loadu_pd(static_cast<__mmask8>(m), sum + k), n));
    const __m256 hi = _mm512_cvtpd_ps(
        _mm512_div_pd(_mm512_maskz_loadu_pd(static_cast<__mmask8>(m >> 8), sum + k + 8), n));
    const __m512 x = _mm512_castpd_ps(
        _mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(lo)), _mm256_castps_pd(hi), 1));
    const __m512 d = _mm512_div_ps(x, vs);
    const __m512 cl = _mm512_min_ps(_mm512_max_ps(d, vqlo), vqhi);
    const __m512 rn = _mm512_sub_ps(_mm512_add_ps(cl, magic), magic);
    __m512 v = _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(rn, vz), vlo), vhi);
    v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(d, d, _CMP_UNORD_Q), _mm512_setzero_ps());
    _mm512_mask_cvtepi32_storeu_epi8(g + k, m, _mm512_add_epi32(_mm512_cvttps_epi32(v), offset));
  }
}
#endif

bool vnni() {
#if defined(__x86_64__)
  return cpu_isa::hasAvx512Vnni();
#else
  return false;
#endif
}

}  // namespace

void GateWeights::pack(const int8_t* w, int64_t m, int64_t k) {
  outputs = m, inputs = k;
  const int64_t padded = avx512::roundUp(m, avx512::kLanes);
  packed.assign(static_cast<size_t>(gateInputBytes(k) * padded), 0);
  sums.assign(static_cast<size_t>(padded), 0);
  for (int64_t o = 0; o < m; ++o)
    for (int64_t i = 0; i < k; ++i) {
      const int8_t v = w[o * k + i];
      packed[static_cast<size_t>(((i / kGroup) * padded + o) * kGroup + i % kGroup)] = v;
      sums[static_cast<size_t>(o)] += v;
    }
}

int64_t gateInputBytes(int64_t k) {
  return avx512::roundUp(k, kGroup);
}

void quantizeMeans(const double* sum, int64_t c, int64_t positions, const Quant& qg, bool gSigned,
                   uint8_t* g) {
  std::fill(g + c, g + gateInputBytes(c), uint8_t{0});
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512BwVl()) return quantizeMeansAvx512(sum, c, positions, qg, gSigned, g);
#endif
  for (int64_t k = 0; k < c; ++k)
    g[k] = static_cast<uint8_t>(
        quantizeOne(static_cast<float>(sum[k] / static_cast<double>(positions)), qg) +
        (gSigned ? 128 : 0));
}

void gateConv(const GateWeights& w, const uint8_t* in, int32_t zin, const int32_t* bias,
              const GateOutput& o, uint8_t* out) {
#if defined(__x86_64__)
  if (vnni()) return gateConvVnni(w, in, zin, bias, o, out);
  if (cpu_isa::hasAvx2Fma()) return avx2::gateConv(w, in, zin, bias, o, cpu_isa::hasAvxVnni(), out);
#endif
  gateConvPlain(w, in, zin, bias, o, out);
}

}  // namespace passlab::exec::cpu::squeeze_excite
