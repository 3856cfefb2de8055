#include "core/exec/cpu/qlinear_conv_float_sums.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>

#include "core/exec/cpu/avx2_transpose8.h"
#include "core/exec/cpu/conv_integer_zero_point.h"
#include "core/exec/cpu/onednn_conv_dims.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu {

namespace {

using dnnl::memory;
using ir::DataType;
using namespace qlinear;  // NOLINT: the inputs and the requantization
using tag = memory::format_tag;

constexpr int64_t kExactFloatSum = int64_t{1} << 24;
// The integer sums' int32 accumulators (coversIntegerSums) are exact below 2^31.
constexpr int64_t kExactInt32Sum = (int64_t{1} << 31) - 1;

// The largest |X - zx| of an 8-bit activation of type t.
int64_t largestActivation(DataType t, int32_t zx) {
  return t == DataType::kInt8 ? std::max(128 + zx, 127 - zx) : std::max(zx, 255 - zx);
}

// oneDNN's float32 direct convolution of geometry g without bias, the user's
// X and Y plain (or channels-last) float32, the layouts inside oneDNN's
// choice. False where it offers only its reference implementation.
bool buildFloatConv(onednn::ConvPrimitive& p, const ConvGeometry& g, bool channelsLast) {
  try {
    const size_t sp = g.spatial();
    const auto f32 = memory::data_type::f32;
    const onednn::ConvDims cd = onednn::convDims(g);
    Dims in{g.N, g.C};
    in.insert(in.end(), g.in.begin(), g.in.end());
    const memory::dims xDims = onednn::toDims(in);
    const memory::dims yDims = onednn::toDims(g.outDims);
    p.userSrc = memory::desc(xDims, f32, onednn::convDataTag(sp, channelsLast));
    p.userWei = memory::desc(cd.weights, f32, onednn::convWeightsTag(sp, g.group > 1));
    p.userDst = memory::desc(yDims, f32, onednn::convDataTag(sp, channelsLast));
    // A non-reference kernel with X and Y in these layouts, if oneDNN has one.
    const auto make =
        [&](const memory::desc& x,
            const memory::desc& y) -> std::optional<dnnl::convolution_forward::primitive_desc> {
      auto desc = dnnl::convolution_forward::desc(
          dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, x,
          memory::desc(cd.weights, f32, tag::any), y, cd.strides, cd.dilation, cd.padL, cd.padR);
      dnnl::convolution_forward::primitive_desc pd(desc, onednn::engine());
      if (std::string_view(pd.impl_info_str()).starts_with("ref")) return std::nullopt;
      return pd;
    };
    // Channels-last: oneDNN's channels-last float32 kernel reads and writes
    // the user's X and Y as they are; with `any` it picks 8-channel blocks,
    // and X and Y are reordered around every run (a 1x1 128 -> 32 at 56x56:
    // 0.55 against 0.37 ms). Else (or where it has no such kernel) its choice.
    std::optional<dnnl::convolution_forward::primitive_desc> pd;
    if (channelsLast) {
      try {
        pd = make(p.userSrc, p.userDst);
      } catch (const dnnl::error&) {
        pd.reset();
      }
    }
    if (!pd) pd = make(memory::desc(xDims, f32, tag::any), memory::desc(yDims, f32, tag::any));
    if (!pd) return false;
    p.adopt(dnnl::convolution_forward(*pd), pd->src_desc(), pd->weights_desc(), pd->dst_desc());
    return true;
  } catch (const dnnl::error&) {
    return false;
  }
}

// The output's constants: y_zero_point and the saturation bounds.
struct OutputRange {
  double zero, lo, hi;
  bool ySigned;
};

// The reference's requantization of one sum (qlinear.cpp: requantize): sum *
// mult in double, rounded half to even, + y_zero_point, saturated; the byte
// of the uint8 or int8 result.
inline uint8_t requantizeOne(int32_t sum, double mult, const OutputRange& r) {
  const double v = std::clamp(std::nearbyint(static_cast<double>(sum) * mult) + r.zero, r.lo, r.hi);
  return static_cast<uint8_t>(static_cast<int32_t>(v));
}

// int32 addition that wraps, as the reference's int32 sum + bias does on x86.
inline int32_t wrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

void dequantizeScalar(const uint8_t* x, bool xSigned, int32_t zx, float* out, int64_t n) {
  if (xSigned) {
    const auto* s = reinterpret_cast<const int8_t*>(x);
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(int32_t{s[i]} - zx);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(int32_t{x[i]} - zx);
  }
}

// `n` sums of one row (float32 integers: exact), each plus its bias, requantized
// with its multiplier; `perElement`: bias and mult hold one value per element
// (channels-last rows), else one for the row.
// (Acc: float, or int32_t for the integer sums.)
template <class Acc>
void requantizeScalar(const Acc* acc, int64_t n, const int32_t* bias, const double* mult,
                      bool perElement, const OutputRange& r, uint8_t* y) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = perElement ? i : 0;
    y[i] = requantizeOne(wrappingAdd(static_cast<int32_t>(acc[i]), bias[c]), mult[c], r);
  }
}

// oneDNN's 8-channel blocks (nChw8c: [N, ceil(C / 8), P, 8], the padded
// channels 0): element (n, c, p) of a plain [N, C, P] tensor at
// ((n * blocks + c / 8) * P + p) * 8 + c % 8.
struct Blocked8 {
  int64_t n, c, p;
  int64_t blocks() const { return (c + 7) / 8; }
};

// X [N, C, P] (8-bit) - zx into the blocked float32 layout, blocks
// [b0, b1) of all images (n * blocks + cb), positions [p0, p1) of each.
void dequantizeBlockedScalar(const uint8_t* x, bool xSigned, int32_t zx, const Blocked8& d,
                             int64_t nb, int64_t p0, int64_t p1, float* out) {
  const int64_t n = nb / d.blocks(), cb = nb % d.blocks();
  for (int64_t j = 0; j < 8; ++j) {
    const int64_t c = cb * 8 + j;
    for (int64_t p = p0; p < p1; ++p) {
      float v = 0;
      if (c < d.c) {
        const uint8_t b = x[(n * d.c + c) * d.p + p];
        v = static_cast<float>((xSigned ? int32_t{static_cast<int8_t>(b)} : int32_t{b}) - zx);
      }
      out[(nb * d.p + p) * 8 + j] = v;
    }
  }
}

// The blocked sums of block nb, positions [p0, p1), requantized into Y [N, M, P].
void requantizeBlockedScalar(const float* acc, const Blocked8& d, int64_t nb, int64_t p0,
                             int64_t p1, const int32_t* bias, const double* mult,
                             const OutputRange& r, uint8_t* y) {
  const int64_t n = nb / d.blocks(), cb = nb % d.blocks();
  for (int64_t j = 0; j < 8 && cb * 8 + j < d.c; ++j) {
    const int64_t c = cb * 8 + j;
    for (int64_t p = p0; p < p1; ++p)
      y[(n * d.c + c) * d.p + p] = requantizeOne(
          wrappingAdd(static_cast<int32_t>(acc[(nb * d.p + p) * 8 + j]), bias[c]), mult[c], r);
  }
}

#if defined(__x86_64__)
#define PASSLAB_FLOAT_SUMS_AVX2 __attribute__((target("avx2,fma")))

PASSLAB_FLOAT_SUMS_AVX2 void dequantizeAvx2(const uint8_t* x, bool xSigned, int32_t zx, float* out,
                                            int64_t n) {
  const __m256i z = _mm256_set1_epi32(zx);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(x + i));
    const __m256i v = xSigned ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
    _mm256_storeu_ps(out + i, _mm256_cvtepi32_ps(_mm256_sub_epi32(v, z)));
  }
  dequantizeScalar(x + i, xSigned, zx, out + i, n - i);
}

// requantizeScalar, 8 at a time: the same double products, roundings and
// bounds (rounded half to even, as nearbyint in the default rounding mode).
template <bool PerElement, class Acc>
PASSLAB_FLOAT_SUMS_AVX2 void requantizeAvx2(const Acc* acc, int64_t n, const int32_t* bias,
                                            const double* mult, const OutputRange& r, uint8_t* y) {
  const __m256d zero = _mm256_set1_pd(r.zero), lo = _mm256_set1_pd(r.lo), hi = _mm256_set1_pd(r.hi);
  const __m256i bias1 = _mm256_set1_epi32(bias[0]);
  const __m256d mult1 = _mm256_set1_pd(mult[0]);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i a;
    if constexpr (std::is_same_v<Acc, float>)
      a = _mm256_cvtps_epi32(_mm256_loadu_ps(acc + i));
    else
      a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i));
    a = _mm256_add_epi32(
        a, PerElement ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + i)) : bias1);
    __m256d v[2] = {_mm256_cvtepi32_pd(_mm256_castsi256_si128(a)),
                    _mm256_cvtepi32_pd(_mm256_extracti128_si256(a, 1))};
    __m128i q[2];
    for (int h = 0; h < 2; ++h) {
      __m256d t = _mm256_mul_pd(v[h], PerElement ? _mm256_loadu_pd(mult + i + 4 * h) : mult1);
      t = _mm256_round_pd(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      t = _mm256_min_pd(_mm256_max_pd(_mm256_add_pd(t, zero), lo), hi);
      q[h] = _mm256_cvtpd_epi32(t);
    }
    const __m128i w = _mm_packs_epi32(q[0], q[1]);  // within the 8-bit range: no saturation
    const __m128i b = r.ySigned ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), b);
  }
  if (PerElement) {
    requantizeScalar(acc + i, n - i, bias + i, mult + i, true, r, y + i);
  } else {
    requantizeScalar(acc + i, n - i, bias, mult, false, r, y + i);
  }
}

// dequantizeBlockedScalar of one block, 8 positions at a time where all 8
// channels are real (the last block of C % 8 channels and the positions
// past a multiple of 8 scalar).
PASSLAB_FLOAT_SUMS_AVX2 void dequantizeBlockedAvx2(const uint8_t* x, bool xSigned, int32_t zx,
                                                   const Blocked8& d, int64_t nb, float* out) {
  const int64_t n = nb / d.blocks(), cb = nb % d.blocks();
  if (cb * 8 + 8 > d.c) return dequantizeBlockedScalar(x, xSigned, zx, d, nb, 0, d.p, out);
  const __m256i z = _mm256_set1_epi32(zx);
  const uint8_t* rows = x + (n * d.c + cb * 8) * d.p;
  int64_t p = 0;
  for (; p + 8 <= d.p; p += 8) {
    __m256 r[8];
    for (int j = 0; j < 8; ++j) {
      const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(rows + j * d.p + p));
      const __m256i v = xSigned ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
      r[j] = _mm256_cvtepi32_ps(_mm256_sub_epi32(v, z));
    }
    transpose8Avx2(r);
    for (int q = 0; q < 8; ++q) _mm256_storeu_ps(out + (nb * d.p + p + q) * 8, r[q]);
  }
  dequantizeBlockedScalar(x, xSigned, zx, d, nb, p, d.p, out);
}

// requantizeBlockedScalar of one block, 8 positions of 8 channels at a time
// (transposed so that each register holds one channel's positions).
PASSLAB_FLOAT_SUMS_AVX2 void requantizeBlockedAvx2(const float* acc, const Blocked8& d, int64_t nb,
                                                   const int32_t* bias, const double* mult,
                                                   const OutputRange& r, uint8_t* y) {
  const int64_t n = nb / d.blocks(), cb = nb % d.blocks();
  const int64_t channels = std::min<int64_t>(8, d.c - cb * 8);
  const __m256d zero = _mm256_set1_pd(r.zero), lo = _mm256_set1_pd(r.lo), hi = _mm256_set1_pd(r.hi);
  int64_t p = 0;
  for (; p + 8 <= d.p; p += 8) {
    __m256 v[8];
    for (int q = 0; q < 8; ++q) v[q] = _mm256_loadu_ps(acc + (nb * d.p + p + q) * 8);
    transpose8Avx2(v);
    for (int64_t j = 0; j < channels; ++j) {
      const int64_t c = cb * 8 + j;
      const __m256i a = _mm256_add_epi32(_mm256_cvtps_epi32(v[j]), _mm256_set1_epi32(bias[c]));
      const __m256d m = _mm256_set1_pd(mult[c]);
      const __m256d h[2] = {_mm256_cvtepi32_pd(_mm256_castsi256_si128(a)),
                            _mm256_cvtepi32_pd(_mm256_extracti128_si256(a, 1))};
      __m128i q[2];
      for (int k = 0; k < 2; ++k) {
        __m256d t =
            _mm256_round_pd(_mm256_mul_pd(h[k], m), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        t = _mm256_min_pd(_mm256_max_pd(_mm256_add_pd(t, zero), lo), hi);
        q[k] = _mm256_cvtpd_epi32(t);
      }
      const __m128i w = _mm_packs_epi32(q[0], q[1]);
      const __m128i b = r.ySigned ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(y + (n * d.c + c) * d.p + p), b);
    }
  }
  requantizeBlockedScalar(acc, d, nb, p, d.p, bias, mult, r, y);
}
#endif

void dequantize(const uint8_t* x, bool xSigned, int32_t zx, float* out, int64_t n) {
#if defined(__x86_64__)
  static const bool avx2 = cpu_isa::hasAvx2Fma();
  if (avx2) return dequantizeAvx2(x, xSigned, zx, out, n);
#endif
  dequantizeScalar(x, xSigned, zx, out, n);
}

template <class Acc>
void requantizeRow(const Acc* acc, int64_t n, const int32_t* bias, const double* mult,
                   bool perElement, const OutputRange& r, uint8_t* y) {
#if defined(__x86_64__)
  static const bool avx2 = cpu_isa::hasAvx2Fma();
  if (avx2) {
    if (perElement) return requantizeAvx2<true, Acc>(acc, n, bias, mult, r, y);
    return requantizeAvx2<false, Acc>(acc, n, bias, mult, r, y);
  }
#endif
  requantizeScalar(acc, n, bias, mult, perElement, r, y);
}

void dequantizeBlocked(const uint8_t* x, bool xSigned, int32_t zx, const Blocked8& d, int64_t nb,
                       float* out) {
#if defined(__x86_64__)
  static const bool avx2 = cpu_isa::hasAvx2Fma();
  if (avx2) return dequantizeBlockedAvx2(x, xSigned, zx, d, nb, out);
#endif
  dequantizeBlockedScalar(x, xSigned, zx, d, nb, 0, d.p, out);
}

void requantizeBlocked(const float* acc, const Blocked8& d, int64_t nb, const int32_t* bias,
                       const double* mult, const OutputRange& r, uint8_t* y) {
#if defined(__x86_64__)
  static const bool avx2 = cpu_isa::hasAvx2Fma();
  if (avx2) return requantizeBlockedAvx2(acc, d, nb, bias, mult, r, y);
#endif
  requantizeBlockedScalar(acc, d, nb, 0, d.p, bias, mult, r, y);
}

// ---- Integer sums on AVX2 (vpmaddwd) ----
// A channels-last 2-D convolution of one group and dilation 1 takes its sums
// from 16-bit products instead of oneDNN's float32 convolution (not 1x1,
// below): X - zx and
// W - zw are integers in [-255, 255] (int16), vpmaddwd multiplies pairs of
// adjacent input channels and adds each pair in int32 (exact), and the int32
// accumulators are exact below 2^31: a bound of sum |W - zw| * max |X - zx|
// up to 2^31 - 1 (the float sums stop at 2^24; past it the reference ran, 80
// ms for 256 -> 256 3x3 on 14 x 14). The same requantization follows, from
// int32: the reference's bytes. Tile:
// 4 output positions x 16 output channels, 8 accumulators (6 positions spill
// them: 2.8 ms against 1.45 for 32 -> 128 3x3 on 56 x 56, Zen 3). Padding is
// written into a padded int16 copy of X as 0 (X - zx of a padded tap).

bool coversIntegerSums(const ConvGeometry& g, bool channelsLast) {
#if defined(__x86_64__)
  if (!channelsLast || g.spatial() != 2 || g.group != 1 || g.C <= 0 || g.M <= 0) return false;
  for (size_t i = 0; i < 2; ++i)
    if (g.dilation[i] != 1 || g.stride[i] < 1 || g.kernel[i] < 1 || g.out[i] < 1) return false;
  // 1x1: oneDNN's jit_1x1 float32 kernel stays (128 -> 32 on 56 x 56: 0.356 ms
  // against 0.40 here, the int16 copy of X read for only one tap).
  if (g.kernel[0] * g.kernel[1] == 1) return false;
  // Few channels (a first layer's 3): oneDNN's float32 kernel stays (3 -> 32
  // 3x3/2 on 224 x 224: 0.62 ms this way against 0.49; 16 -> 16 on 112 x 112
  // 0.66 against 0.93).
  if (g.C < 8) return false;
  static const bool avx2 = cpu_isa::hasAvx2Fma();
  return avx2;
#else
  (void)g, (void)channelsLast;
  return false;
#endif
}

// W - zw (float32 integers, W's [M, C, KH, KW]) as int16 pairs:
// [M / 16][KH * KW][C / 2][16][2], channels and outputs padded with zeros.
std::vector<int16_t> packInt16Weights(const ConvGeometry& g, const float* wf) {
  const int64_t taps = g.kernel[0] * g.kernel[1], pairs = (g.C + 1) / 2, blocks = (g.M + 15) / 16;
  std::vector<int16_t> w(static_cast<size_t>(blocks * taps * pairs * 32), 0);
  for (int64_t m = 0; m < g.M; ++m)
    for (int64_t c = 0; c < g.C; ++c)
      for (int64_t t = 0; t < taps; ++t) {
        const int64_t mb = m / 16, j = m % 16, p = c / 2, e = c % 2;
        w[static_cast<size_t>((((mb * taps + t) * pairs + p) * 16 + j) * 2 + e)] =
            static_cast<int16_t>(wf[(m * g.C + c) * taps + t]);
      }
  return w;
}

#if defined(__x86_64__)
// One output row (n, oh) of output-channel block mb: acc [N, OH, OW, M].
PASSLAB_FLOAT_SUMS_AVX2 void integerSumsRow(const ConvGeometry& g, const int16_t* xs, int64_t hp,
                                            int64_t wp, const int16_t* w, int64_t n, int64_t mb,
                                            int64_t oh, int32_t* acc) {
  const int64_t kh = g.kernel[0], kw = g.kernel[1], sh = g.stride[0], sw = g.stride[1];
  const int64_t oh_ = g.out[0], ow_ = g.out[1], pairs = (g.C + 1) / 2, cp = 2 * pairs;
  const int64_t taps = kh * kw, step = sw * cp, m = g.M, valid = std::min<int64_t>(16, m - mb * 16);
  for (int64_t ow = 0; ow < ow_; ow += 4) {
    __m256i a00 = _mm256_setzero_si256(), a01 = a00, a10 = a00, a11 = a00, a20 = a00, a21 = a00,
            a30 = a00, a31 = a00;
    for (int64_t r = 0; r < kh; ++r) {
      const int16_t* xrow = xs + ((n * hp + oh * sh + r) * wp + ow * sw) * cp;
      for (int64_t q = 0; q < kw; ++q) {
        const int16_t* xr = xrow + q * cp;
        const int16_t* wt = w + (mb * taps + r * kw + q) * pairs * 32;
        for (int64_t p = 0; p < pairs; ++p) {
          const __m256i w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wt + p * 32));
          const __m256i w1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wt + p * 32 + 16));
          int32_t v;
          std::memcpy(&v, xr + 2 * p, 4);
          __m256i xb = _mm256_set1_epi32(v);
          a00 = _mm256_add_epi32(a00, _mm256_madd_epi16(xb, w0));
          a01 = _mm256_add_epi32(a01, _mm256_madd_epi16(xb, w1));
          std::memcpy(&v, xr + step + 2 * p, 4);
          xb = _mm256_set1_epi32(v);
          a10 = _mm256_add_epi32(a10, _mm256_madd_epi16(xb, w0));
          a11 = _mm256_add_epi32(a11, _mm256_madd_epi16(xb, w1));
          std::memcpy(&v, xr + 2 * step + 2 * p, 4);
          xb = _mm256_set1_epi32(v);
          a20 = _mm256_add_epi32(a20, _mm256_madd_epi16(xb, w0));
          a21 = _mm256_add_epi32(a21, _mm256_madd_epi16(xb, w1));
          std::memcpy(&v, xr + 3 * step + 2 * p, 4);
          xb = _mm256_set1_epi32(v);
          a30 = _mm256_add_epi32(a30, _mm256_madd_epi16(xb, w0));
          a31 = _mm256_add_epi32(a31, _mm256_madd_epi16(xb, w1));
        }
      }
    }
    const __m256i lo[4] = {a00, a10, a20, a30}, hi[4] = {a01, a11, a21, a31};
    for (int64_t i = 0; i < 4 && ow + i < ow_; ++i) {
      int32_t* y = acc + ((n * oh_ + oh) * ow_ + ow + i) * m + mb * 16;
      if (valid == 16) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y), lo[i]);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + 8), hi[i]);
      } else {
        alignas(32) int32_t t[16];
        _mm256_store_si256(reinterpret_cast<__m256i*>(t), lo[i]);
        _mm256_store_si256(reinterpret_cast<__m256i*>(t + 8), hi[i]);
        std::copy_n(t, valid, y);
      }
    }
  }
}
#endif

}  // namespace

Status QLinearConvFloatSums::integerSums(KernelContext& ctx, const Tensor& x, int32_t* acc) const {
#if defined(__x86_64__)
  const ConvGeometry& g = g_;
  const int64_t pairs = (g.C + 1) / 2, cp = 2 * pairs;
  const int64_t owRound = (g.out[1] + 3) / 4 * 4;
  const int64_t hp = (g.out[0] - 1) * g.stride[0] + g.kernel[0];
  const int64_t wp = (owRound - 1) * g.stride[1] + g.kernel[1];
  const int64_t h = g.in[0], wd = g.in[1], pt = g.padBegin[0], pl = g.padBegin[1];
  PASSLAB_ASSIGN_OR_RETURN(Tensor padded, ctx.scratch(DataType::kInt16, {g.N * hp * wp * cp}));
  auto* xs = static_cast<int16_t*>(padded.mutableRaw());
  const auto* px = static_cast<const uint8_t*>(x.raw());
  const int32_t zx = xZero_;
  const bool xSigned = xSigned_;
  const int threads = ctx.threads();
  // X - zx into the padded copy (zeros around and in the padded channel).
  parallelFor(g.N * hp, threads, 64, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t n = row / hp, ih = row % hp - pt;
      int16_t* out = xs + row * wp * cp;
      std::fill_n(out, wp * cp, int16_t{0});
      if (ih < 0 || ih >= h) continue;
      for (int64_t q = 0; q < wp; ++q) {
        const int64_t iw = q - pl;
        if (iw < 0 || iw >= wd) continue;
        const uint8_t* in = px + ((n * h + ih) * wd + iw) * g.C;
        int16_t* o = out + q * cp;
        if (xSigned)
          for (int64_t c = 0; c < g.C; ++c)
            o[c] = static_cast<int16_t>(static_cast<int8_t>(in[c]) - zx);
        else
          for (int64_t c = 0; c < g.C; ++c) o[c] = static_cast<int16_t>(in[c] - zx);
      }
    }
  });
  const int64_t blocks = (g.M + 15) / 16, rows = g.N * blocks * g.out[0];
  const int16_t* w = w16_->data();
  parallelFor(rows, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t oh = i % g.out[0], mb = (i / g.out[0]) % blocks, n = i / (g.out[0] * blocks);
      integerSumsRow(g, xs, hp, wp, w, n, mb, oh, acc);
    }
  });
  return Status::ok();
#else
  (void)ctx, (void)x, (void)acc;
  return Status::ok();
#endif
}

std::unique_ptr<QLinearConvFloatSums> QLinearConvFloatSums::create(
    const KernelContext& ctx, const ConvGeometry& g, bool channelsLast,
    const QLinearConvFloatSums* previous) {
  if (!ctx.invariantInput(kW) || g.spatial() == 0 || g.spatial() > 3) return nullptr;
  std::optional<Requantization> r = readRequantization(ctx, g.M, {}, WeightForm::kAny8Bit);
  if (!r || r->yType == DataType::kFloat) return nullptr;
  // zw' against W' = W - 128 for uint8 weights (W' - zw' = W - zw).
  std::optional<std::vector<int32_t>> zw =
      conv_integer::weightZeroPoints(ctx, kW, kWZeroPoint, g.M);
  if (!zw) return nullptr;

  auto k = std::unique_ptr<QLinearConvFloatSums>(new QLinearConvFloatSums());
  k->g_ = g;
  k->channelsLast_ = channelsLast;
  const DataType xType = ctx.input(kX).dtype();
  k->xSigned_ = xType == DataType::kInt8;
  k->ySigned_ = r->yType == DataType::kInt8;
  k->xZero_ = r->xZeroPoint;
  k->yZero_ = r->yZeroPoint;
  const Tensor& w = ctx.input(kW);
  if (previous && previous->wf_ && previous->wf_->dims() == w.dims()) {
    k->wf_ = previous->wf_;
    k->largestWeightSum_ = previous->largestWeightSum_;
  } else {
    if (w.dataFreed() || g.M <= 0) return nullptr;
    const Tensor signedW = conv_integer::signedWeights(w);
    const int8_t* v = signedW.data<int8_t>();
    auto wf = std::make_shared<Tensor>(Tensor::zeros(DataType::kFloat, w.dims()));
    float* out = wf->mutableData<float>();
    const int64_t perChannel = w.numel() / g.M;
    for (int64_t m = 0; m < g.M; ++m) {
      int64_t sum = 0;
      for (int64_t i = m * perChannel; i < (m + 1) * perChannel; ++i) {
        const int32_t d = int32_t{v[i]} - (*zw)[static_cast<size_t>(m)];
        out[i] = static_cast<float>(d);
        sum += std::abs(d);
      }
      k->largestWeightSum_ = std::max(k->largestWeightSum_, sum);
    }
    k->wf_ = std::move(wf);
  }
  k->sumBound_ = k->largestWeightSum_ * largestActivation(xType, k->xZero_);
  const bool integer = coversIntegerSums(g, channelsLast);
  if (k->sumBound_ > (integer ? kExactInt32Sum : kExactFloatSum)) return nullptr;
  for (int64_t m = 0; m < g.M; ++m) {
    const float s = r->outputScales[r->outputScales.size() == 1 ? 0 : static_cast<size_t>(m)];
    if (!std::isfinite(s)) return nullptr;
    k->mult_.push_back(static_cast<double>(s));
  }
  k->positions_ = 1;
  for (int64_t o : g.out) k->positions_ *= o;
  if (integer) {
    if (previous && previous->w16_ && previous->wf_ == k->wf_)
      k->w16_ = previous->w16_;
    else
      k->w16_ =
          std::make_shared<const std::vector<int16_t>>(packInt16Weights(g, k->wf_->data<float>()));
    return k;
  }
  if (!buildFloatConv(k->conv_, g, channelsLast)) return nullptr;
  // Where oneDNN computes in 8-channel blocks (2-D NCHW), X goes into them and
  // Y comes out of them directly: no float32 reorder on either side.
  if (!channelsLast && g.spatial() == 2) {
    onednn::ConvPrimitive& p = k->conv_;
    const auto blocked = [](const memory::desc& d) {
      return d == memory::desc(d.dims(), memory::data_type::f32, tag::nChw8c);
    };
    k->blockedSrc_ = p.reorderSrc && blocked(p.srcDesc);
    k->blockedDst_ = p.reorderDst && blocked(p.dstDesc);
    if (k->blockedSrc_) p.userSrc = p.srcDesc;
    if (k->blockedDst_) p.userDst = p.dstDesc;
    if (k->blockedSrc_ || k->blockedDst_) p.adopt(p.prim, p.srcDesc, p.weiDesc, p.dstDesc);
  }
  return k;
}

Status QLinearConvFloatSums::run(KernelContext& ctx, const Tensor& x, const Tensor* bias,
                                 Tensor& y) {
  const int threads = ctx.threads();
  const auto* px = static_cast<const uint8_t*>(x.raw());
  int64_t inPositions = 1;
  for (int64_t i : g_.in) inPositions *= i;
  const Blocked8 in{g_.N, g_.C, inPositions}, out{g_.N, g_.M, positions_};
  std::vector<int32_t> b(static_cast<size_t>(g_.M), 0);
  if (bias) std::copy_n(bias->data<int32_t>(), g_.M, b.begin());
  const OutputRange range{static_cast<double>(yZero_), ySigned_ ? -128.0 : 0.0,
                          ySigned_ ? 127.0 : 255.0, ySigned_};
  if (w16_) {  // the integer sums (channels-last, AVX2): rows [N * P] of M channels
    PASSLAB_ASSIGN_OR_RETURN(Tensor sums, ctx.scratch(DataType::kInt32, g_.outDims));
    int32_t* ps = sums.mutableData<int32_t>();
    PASSLAB_RETURN_IF_ERROR(integerSums(ctx, x, ps));
    auto* py = static_cast<uint8_t*>(y.mutableRaw());
    const int64_t m = g_.M;
    parallelFor(g_.N * positions_, threads, std::max<int64_t>(1, kElementwiseGrain / m),
                [&](int64_t begin, int64_t end) {
                  for (int64_t row = begin; row < end; ++row)
                    requantizeRow(ps + row * m, m, b.data(), mult_.data(), true, range,
                                  py + row * m);
                });
    return Status::ok();
  }
  Tensor xf, acc;
  if (blockedSrc_) {
    PASSLAB_ASSIGN_OR_RETURN(
        xf, ctx.scratch(DataType::kFloat, {static_cast<int64_t>(conv_.srcDesc.get_size() / 4)}));
    float* pf = xf.mutableData<float>();
    parallelFor(g_.N * in.blocks(), threads, std::max<int64_t>(1, kElementwiseGrain / (8 * in.p)),
                [&](int64_t begin, int64_t end) {
                  for (int64_t nb = begin; nb < end; ++nb)
                    dequantizeBlocked(px, xSigned_, xZero_, in, nb, pf);
                });
  } else {
    PASSLAB_ASSIGN_OR_RETURN(xf, ctx.scratch(DataType::kFloat, x.dims()));
    float* pf = xf.mutableData<float>();
    parallelFor(x.numel(), threads, kElementwiseGrain, [&](int64_t begin, int64_t end) {
      dequantize(px + begin, xSigned_, xZero_, pf + begin, end - begin);
    });
  }
  if (blockedDst_) {
    PASSLAB_ASSIGN_OR_RETURN(
        acc, ctx.scratch(DataType::kFloat, {static_cast<int64_t>(conv_.dstDesc.get_size() / 4)}));
  } else {
    PASSLAB_ASSIGN_OR_RETURN(acc, ctx.scratch(DataType::kFloat, g_.outDims));
  }
  PASSLAB_RETURN_IF_ERROR(conv_.execute(ctx, xf, *wf_, nullptr, acc, true));
  const float* pa = acc.data<float>();
  auto* py = static_cast<uint8_t*>(y.mutableRaw());
  const int64_t p = positions_, m = g_.M;
  if (blockedDst_) {
    parallelFor(g_.N * out.blocks(), threads,
                std::max<int64_t>(1, kElementwiseGrain / (8 * std::max<int64_t>(p, 1))),
                [&](int64_t begin, int64_t end) {
                  for (int64_t nb = begin; nb < end; ++nb)
                    requantizeBlocked(pa, out, nb, b.data(), mult_.data(), range, py);
                });
    return Status::ok();
  }
  if (channelsLast_) {  // rows [N * P] of M channels
    parallelFor(g_.N * p, threads, std::max<int64_t>(1, kElementwiseGrain / m),
                [&](int64_t begin, int64_t end) {
                  for (int64_t row = begin; row < end; ++row)
                    requantizeRow(pa + row * m, m, b.data(), mult_.data(), true, range,
                                  py + row * m);
                });
    return Status::ok();
  }
  // rows [N * M] of P positions
  parallelFor(g_.N * m, threads, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(p, 1)),
              [&](int64_t begin, int64_t end) {
                for (int64_t row = begin; row < end; ++row) {
                  const size_t c = static_cast<size_t>(row % m);
                  requantizeRow(pa + row * p, p, b.data() + c, mult_.data() + c, false, range,
                                py + row * p);
                }
              });
  return Status::ok();
}

}  // namespace passlab::exec::cpu
