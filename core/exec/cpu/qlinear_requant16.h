// The reference QLinearConv's requantization (qlinear.cpp) of int32 sums, 16
// output channels at a time on AVX-512, for PassLab's own int8 convolution
// kernels (qlinear_depthwise_nhwc.cpp, qlinear_pointwise_nhwc.cpp,
// qlinear_conv_int32.cpp): (sum + bias) * the float32 multiplier x_scale *
// w_scale[c] / y_scale in double, rounded half to even, + y_zero_point,
// saturated to uint8 or int8. Bit for bit the reference; in float32 (one
// FMA) where that provably gives the same integers (storeSum16), which is
// nearly always.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/exec/cpu/qlinear_onednn_requantization.h"

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu::requant16 {

// The output's constants per channel, padded with zeros to a multiple of 16.
struct Multipliers {
  std::vector<double> mult;
  std::vector<float> multf;  // the same values
  float bound = 0;           // the largest |multiplier| (NaN if one is)
  double yZero = 0, yLo = 0, yHi = 255;

  void prepare(const qlinear::Requantization& r, int64_t channels, int64_t padded) {
    mult.assign(static_cast<size_t>(padded), 0.0);
    multf.assign(static_cast<size_t>(padded), 0.0f);
    bound = 0;
    for (int64_t ch = 0; ch < channels; ++ch) {
      const float m =
          r.outputScales.size() == 1 ? r.outputScales[0] : r.outputScales[static_cast<size_t>(ch)];
      mult[static_cast<size_t>(ch)] = m;
      multf[static_cast<size_t>(ch)] = m;
      // NaN stays (no float path then).
      bound = std::isnan(m) || std::isnan(bound) ? NAN : std::max(bound, std::abs(m));
    }
    const bool ySigned = r.yType == ir::DataType::kInt8;
    yZero = r.yZeroPoint;
    yLo = ySigned ? -128 : 0;
    yHi = ySigned ? 127 : 255;
  }

  // Whether float32 is exact (store16) for sums (bias included) of
  // magnitude at most largestSum: below 2^24, and products below 2^22.
  bool floatExact(int64_t largestSum) const {
    return largestSum < (int64_t{1} << 24) &&
           static_cast<double>(largestSum) * bound < double(1 << 22);
  }
};

#if defined(__x86_64__)
#define PASSLAB_REQUANT16_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

// The output's constants in registers, and whether the float32 path is
// exact on this run (Multipliers::floatExact).
struct Requant {
  __m512d zero, lo, hi;
  __m512i zeroI, loI, hiI;
  __m512i magicToZero;  // y_zero_point - the bits of 1.5 * 2^23 (storeSum16)
  bool fast;
  bool ySigned;  // the output is int8 ([-128, 127]), else uint8 ([0, 255])
};

// 1.5 * 2^23 and its bits: C + x for |x| < 2^22 lies in [2^23, 2^24), where
// float32 holds exactly the integers, and C + n has the bits kMagicBits + n.
constexpr float kMagic = 12582912.0f;
constexpr int32_t kMagicBits = 0x4B400000;

PASSLAB_REQUANT16_TARGET inline Requant constants(const Multipliers& m, bool fast) {
  return {_mm512_set1_pd(m.yZero),
          _mm512_set1_pd(m.yLo),
          _mm512_set1_pd(m.yHi),
          _mm512_set1_epi32(static_cast<int32_t>(m.yZero)),
          _mm512_set1_epi32(static_cast<int32_t>(m.yLo)),
          _mm512_set1_epi32(static_cast<int32_t>(m.yHi)),
          _mm512_set1_epi32(static_cast<int32_t>(m.yZero) - kMagicBits),
          fast,
          m.yLo < 0};
}

// The channels of a 16-lane block.
struct Channels {
  const int32_t* bias;
  const double* mult;
  const float* multf;
};

// The reference's requantization of 16 sums, stored as bytes: (sum + bias)
// * mult in double, rounded half to even, + y_zero_point, saturated.
PASSLAB_REQUANT16_TARGET inline void store16Double(__m512i acc, const double* mult,
                                                   const Requant& q, uint8_t* y, __mmask16 m) {
  const __m512d v[2] = {_mm512_cvtepi32_pd(_mm512_castsi512_si256(acc)),
                        _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(acc, 1))};
  __m256i r[2];
#pragma GCC unroll 2
  for (int h = 0; h < 2; ++h) {
    __m512d t = _mm512_mul_pd(v[h], _mm512_loadu_pd(mult + 8 * h));
    t = _mm512_roundscale_pd(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    t = _mm512_min_pd(_mm512_max_pd(_mm512_add_pd(t, q.zero), q.lo), q.hi);
    r[h] = _mm512_cvtpd_epi32(t);
  }
  const __m512i all = _mm512_inserti64x4(_mm512_castsi256_si512(r[0]), r[1], 1);
  _mm512_mask_cvtepi32_storeu_epi8(y, m, all);
}

// The same result from float32 where that is exact (Requant::fast: the sums,
// bias included, below 2^24 and the products below 2^22): float(acc) is
// exact, and one FMA acc * multf + 1.5 * 2^23 rounds the exact product
// (which the reference's double holds exactly: 24 + 24 bits) once, to the
// nearest integer, half to even (the result lies in [2^23, 2^24), where the
// float32 spacing is 1, and 1.5 * 2^23 is even): the result's bits less
// those of 1.5 * 2^23 are the reference's integer. Then + y_zero_point and
// saturated by the narrowing store (int8: signed saturation; uint8: at least
// 0, then unsigned saturation). acc already holds the bias.
PASSLAB_REQUANT16_TARGET inline void storeSum16(__m512i acc, const Channels& ch, const Requant& q,
                                                uint8_t* y, __mmask16 m) {
  if (q.fast) {
    const __m512 p =
        _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc), _mm512_loadu_ps(ch.multf), _mm512_set1_ps(kMagic));
    const __m512i v = _mm512_add_epi32(_mm512_castps_si512(p), q.magicToZero);
    if (q.ySigned)
      _mm512_mask_cvtsepi32_storeu_epi8(y, m, v);
    else
      _mm512_mask_cvtusepi32_storeu_epi8(y, m, _mm512_max_epi32(v, _mm512_setzero_si512()));
    return;
  }
  store16Double(acc, ch.mult, q, y, m);
}

// storeSum16 of sum + the channels' bias.
PASSLAB_REQUANT16_TARGET inline void store16(__m512i sum, const Channels& ch, const Requant& q,
                                             uint8_t* y, __mmask16 m) {
  storeSum16(_mm512_add_epi32(sum, _mm512_loadu_si512(ch.bias)), ch, q, y, m);
}
#endif

}  // namespace passlab::exec::cpu::requant16
