// The exact QLinearSqueezeExcite's 256-bit paths (squeeze_excite_exact_avx2.h).
//   * squeeze: 8 to 32 channels at a time down all the rows, the table
//     lookups by plain loads, each channel's double sum row after row
//     (squeezeRows' order);
//   * gate: integer sums are exact in any order; vpmaddwd on the input bytes
//     and the weights widened to int16 (pair sums below 2^17, no
//     saturation, unlike vpmaddubsw's), or AVX-VNNI's vpdpbusd (4 products
//     into an int32 lane, no saturation); the requantization as
//     requant16::store16Double at 8 lanes: the multiplier x_scale * w_scale
//     / y_scale in float32, the product in double rounded half to even,
//     + y_zero_point, clamped;
//   * scale: the division-free form of squeeze_excite_exact_scale.cpp (the
//     bracket proof at its top) at 8 lanes, lanes near a rounding boundary
//     by the division; 32 results packed to bytes with saturation (packs
//     work per 128-bit lane; one dword permute restores the order).
#include "core/exec/cpu/squeeze_excite_exact_avx2.h"

#if defined(__x86_64__)
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/support/x86_intrinsics.h"

namespace passlab::exec::cpu::squeeze_excite::avx2 {

namespace {

#define PASSLAB_SEX_AVX2 __attribute__((target("avx2,fma")))
#define PASSLAB_SEX_AVXVNNI __attribute__((target("avx2,fma,avxvnni")))

constexpr int64_t kWidth = 8;          // 32-bit lanes of a 256-bit register
constexpr int64_t kGroup = 4;          // inputs a packed weight group holds (GateWeights)
constexpr int64_t kBlock = 32;         // elements the scale loop takes at a time
constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23
constexpr int32_t kMagicBits = 0x4B400000;

// The first n of 8 lanes (all bits set), n in [0, 8].
PASSLAB_SEX_AVX2 inline __m256i firstLanes(int64_t n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int32_t>(n)),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// ---- squeeze ----

// t[x[0 .. 8)] (t: 256 floats) from the 8 bytes b, by plain loads and
// inserts. Measured on Zen 4 (not on Intel): a loop of lookups alone took
// 0.35 ns a lookup by vpgatherdps, 0.17 this way; ppocr's 9 units under the
// avx2 cap 157 us with the gather, 74 with a separate pass of scalar
// lookups, 60 this way (the sums on the values still in registers).
PASSLAB_SEX_AVX2 inline __m256 lookup8(uint64_t b, const float* t) {
  // 16 bits at a time: the compiler takes their two bytes as al and ah.
  const auto b0 = static_cast<uint32_t>(b), b1 = static_cast<uint32_t>(b >> 32);
  const uint32_t b0h = b0 >> 16, b1h = b1 >> 16;
  const __m128 lo = _mm_setr_ps(t[b0 & 0xff], t[(b0 >> 8) & 0xff], t[b0h & 0xff], t[b0h >> 8]);
  const __m128 hi = _mm_setr_ps(t[b1 & 0xff], t[(b1 >> 8) & 0xff], t[b1h & 0xff], t[b1h >> 8]);
  return _mm256_set_m128(hi, lo);
}

// Channels [k, k + 8 G) of every row (all present): h = t[x], and acc +=
// h in double, row after row.
template <int G>
PASSLAB_SEX_AVX2 void squeezeGroups(const uint8_t* x, int64_t rows, int64_t c, int64_t k,
                                    const float* t, float* h, double* acc) {
  __m256d a[2 * G];
  for (int i = 0; i < 2 * G; ++i) a[i] = _mm256_loadu_pd(acc + k + 4 * i);
  for (int64_t r = 0; r < rows; ++r) {
#pragma GCC unroll 4
    for (int g = 0; g < G; ++g) {
      const int64_t at = r * c + k + kWidth * g;
      uint64_t b;
      std::memcpy(&b, x + at, sizeof b);
      const __m256 v = lookup8(b, t);
      _mm256_storeu_ps(h + at, v);
      a[2 * g] = _mm256_add_pd(a[2 * g], _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
      a[2 * g + 1] = _mm256_add_pd(a[2 * g + 1], _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
    }
  }
  for (int i = 0; i < 2 * G; ++i) _mm256_storeu_pd(acc + k + 4 * i, a[i]);
}

// The same for the last n < 8 channels from k on, where c >= 8: the 8
// channels ending at c, whole loads and stores (the first 8 - n again: the
// same h, their sums from 0 and dropped).
PASSLAB_SEX_AVX2 void squeezeLast(const uint8_t* x, int64_t rows, int64_t c, int64_t n,
                                  const float* t, float* h, double* acc) {
  const int64_t k = c - kWidth, skip = kWidth - n;
  alignas(32) double sums[kWidth] = {};
  for (int64_t j = skip; j < kWidth; ++j) sums[j] = acc[k + j];
  __m256d lo = _mm256_load_pd(sums), hi = _mm256_load_pd(sums + 4);
  for (int64_t r = 0; r < rows; ++r) {
    uint64_t b;
    std::memcpy(&b, x + r * c + k, sizeof b);
    const __m256 v = lookup8(b, t);
    _mm256_storeu_ps(h + r * c + k, v);
    lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
    hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
  }
  _mm256_store_pd(sums, lo);
  _mm256_store_pd(sums + 4, hi);
  for (int64_t j = skip; j < kWidth; ++j) acc[k + j] = sums[j];
}

// The same for c < 8 channels: masked stores, the bytes copied one by one.
PASSLAB_SEX_AVX2 void squeezeFew(const uint8_t* x, int64_t rows, int64_t c, const float* t,
                                 float* h, double* acc) {
  const __m256i m = firstLanes(c);
  const __m256i mlo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(m));
  const __m256i mhi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(m, 1));
  __m256d lo = _mm256_maskload_pd(acc, mlo), hi = _mm256_maskload_pd(acc + 4, mhi);
  for (int64_t r = 0; r < rows; ++r) {
    uint64_t b = 0;
    std::memcpy(&b, x + r * c, static_cast<size_t>(c));
    const __m256 v = lookup8(b, t);
    _mm256_maskstore_ps(h + r * c, m, v);
    lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
    hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
  }
  _mm256_maskstore_pd(acc, mlo, lo);
  _mm256_maskstore_pd(acc + 4, mhi, hi);
}

// ---- gate ----

// N blocks of 8 outputs from block v0 on (8-output blocks): their sums over
// all input groups, by vpmaddwd (two int32 pair sums per output, added
// pairwise at the end).
template <int N>
PASSLAB_SEX_AVX2 void sumBlocksWide(const GateWeights& w, const uint8_t* in, int64_t v0,
                                    __m256i (&acc)[4]) {
  const int64_t padded = avx512::roundUp(w.outputs, avx512::kLanes);
  const int64_t groups = gateInputBytes(w.inputs) / kGroup;
  __m256i lo[N], hi[N];  // outputs 0-3, 4-7 of each block
  for (int i = 0; i < N; ++i) lo[i] = hi[i] = _mm256_setzero_si256();
  const int8_t* p = w.packed.data() + v0 * kWidth * kGroup;
  for (int64_t q = 0; q < groups; ++q) {
    int32_t four;
    std::memcpy(&four, in + q * kGroup, sizeof four);
    const __m256i x = _mm256_cvtepu8_epi16(_mm_set1_epi32(four));
    const int8_t* row = p + q * padded * kGroup;
#pragma GCC unroll 4
    for (int i = 0; i < N; ++i) {
      const auto* b = reinterpret_cast<const __m128i*>(row + i * kWidth * kGroup);
      lo[i] =
          _mm256_add_epi32(lo[i], _mm256_madd_epi16(x, _mm256_cvtepi8_epi16(_mm_loadu_si128(b))));
      hi[i] = _mm256_add_epi32(hi[i],
                               _mm256_madd_epi16(x, _mm256_cvtepi8_epi16(_mm_loadu_si128(b + 1))));
    }
  }
  // hadd: [o0 o1 o4 o5 | o2 o3 o6 o7]; the 64-bit permute puts them in order.
  for (int i = 0; i < N; ++i)
    acc[i] = _mm256_permute4x64_epi64(_mm256_hadd_epi32(lo[i], hi[i]), 0xD8);
}

// The same sums by AVX-VNNI.
template <int N>
PASSLAB_SEX_AVXVNNI void sumBlocksVnni(const GateWeights& w, const uint8_t* in, int64_t v0,
                                       __m256i (&acc)[4]) {
  const int64_t padded = avx512::roundUp(w.outputs, avx512::kLanes);
  const int64_t groups = gateInputBytes(w.inputs) / kGroup;
  for (int i = 0; i < N; ++i) acc[i] = _mm256_setzero_si256();
  const int8_t* p = w.packed.data() + v0 * kWidth * kGroup;
  for (int64_t q = 0; q < groups; ++q) {
    int32_t four;
    std::memcpy(&four, in + q * kGroup, sizeof four);
    const __m256i x = _mm256_set1_epi32(four);
    const int8_t* row = p + q * padded * kGroup;
#pragma GCC unroll 4
    for (int i = 0; i < N; ++i)
      acc[i] = _mm256_dpbusd_avx_epi32(
          acc[i], x,
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + i * kWidth * kGroup)));
  }
}

template <int N>
PASSLAB_SEX_AVX2 void sumBlocks(const GateWeights& w, const uint8_t* in, int64_t v0, bool vnni,
                                __m256i (&acc)[4]) {
  if (vnni)
    sumBlocksVnni<N>(w, in, v0, acc);
  else
    sumBlocksWide<N>(w, in, v0, acc);
}

// Outputs m0 .. m0 + 8 (those below w.outputs) from their sums less zin
// times their weight sums: + bias, the reference's requantization.
PASSLAB_SEX_AVX2 void requantize8(__m256i sum, int64_t m0, const GateWeights& w, int32_t zin,
                                  const int32_t* bias, const GateOutput& o, uint8_t* out) {
  const int64_t n = std::min<int64_t>(kWidth, w.outputs - m0);
  alignas(32) int32_t b[kWidth] = {};
  alignas(32) float ws[kWidth] = {};
  for (int64_t i = 0; i < n; ++i) {
    b[i] = bias ? bias[m0 + i] : 0;
    ws[i] = o.wScale[o.wScaleCount == 1 ? 0 : m0 + i];
  }
  const __m256i zs =
      _mm256_mullo_epi32(_mm256_set1_epi32(zin),
                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w.sums.data() + m0)));
  const __m256i acc =
      _mm256_sub_epi32(_mm256_add_epi32(sum, _mm256_load_si256(reinterpret_cast<__m256i*>(b))), zs);
  const __m256 mf = _mm256_div_ps(_mm256_mul_ps(_mm256_set1_ps(o.xScale), _mm256_load_ps(ws)),
                                  _mm256_set1_ps(o.y.s));  // multiplier()
  const __m256d z = _mm256_set1_pd(o.y.z), lo = _mm256_set1_pd(o.y.lo), hi = _mm256_set1_pd(o.y.hi);
  alignas(16) int32_t v[kWidth];
  for (int half = 0; half < 2; ++half) {
    const __m256d a = _mm256_cvtepi32_pd(half == 0 ? _mm256_castsi256_si128(acc)
                                                   : _mm256_extracti128_si256(acc, 1));
    const __m256d m =
        _mm256_cvtps_pd(half == 0 ? _mm256_castps256_ps128(mf) : _mm256_extractf128_ps(mf, 1));
    __m256d t = _mm256_round_pd(_mm256_mul_pd(a, m), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    t = _mm256_min_pd(_mm256_max_pd(_mm256_add_pd(t, z), lo), hi);
    _mm_store_si128(reinterpret_cast<__m128i*>(v + 4 * half), _mm256_cvtpd_epi32(t));
  }
  for (int64_t i = 0; i < n; ++i) out[m0 + i] = static_cast<uint8_t>(v[i]);
}

// ---- scale ----

// The lanes in `near` of out (8 values from element e on) by the division.
// Plain code (no FMA to contract h * s into).
[[gnu::noinline]] void divideLanes(int32_t* out, unsigned near, const float* h, int64_t e,
                                   int64_t c, const float* s, const Quant& q) {
  for (int i = 0; i < kWidth; ++i)
    if ((near >> i) & 1u) out[i] = quantizeOne(h[e + i] * s[(e + i) % c], q);
}

// 8 elements from e on (hv: their h, `valid` lanes of them) as int32
// RNE(d) + z: division-free where the bracket's ends round alike, else by
// the division.
PASSLAB_SEX_AVX2 inline __m256i quotients8(__m256 hv, unsigned valid, const float* h, int64_t e,
                                           const float* kLow, const float* kHigh, __m256 magicZ,
                                           int64_t c, const float* s, const Quant& q) {
  const __m256 a = _mm256_fmadd_ps(hv, _mm256_loadu_ps(kLow), magicZ);
  const __m256 b = _mm256_fmadd_ps(hv, _mm256_loadu_ps(kHigh), magicZ);
  __m256i v = _mm256_sub_epi32(_mm256_castps_si256(a), _mm256_set1_epi32(kMagicBits));
  const unsigned near =
      static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_NEQ_UQ))) & valid;
  if (near != 0) [[unlikely]] {
    alignas(32) int32_t out[kWidth];
    _mm256_store_si256(reinterpret_cast<__m256i*>(out), v);
    divideLanes(out, near, h, e, c, s, q);
    v = _mm256_load_si256(reinterpret_cast<const __m256i*>(out));
  }
  return v;
}

template <class Q>
PASSLAB_SEX_AVX2 void scaleFastAvx2(const float* h, int64_t begin, int64_t end, int64_t c,
                                    const float* s, const Quant& q, const ScalePlan& p, Q* y) {
  constexpr bool kUnsigned = std::is_same_v<Q, uint8_t>;
  const __m256 magicZ = _mm256_set1_ps(kMagic + q.z);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const float* kLow = p.kLow.data();
  const float* kHigh = p.kHigh.data();
  const int64_t period = p.period;
  int64_t j = begin % period, e = begin;
  for (; e + kBlock <= end; e += kBlock) {
    __m256i v[4];
#pragma GCC unroll 4
    for (int g = 0; g < 4; ++g) {
      const int64_t at = e + kWidth * g;
      v[g] = quotients8(_mm256_loadu_ps(h + at), 0xffu, h, at, kLow + j + kWidth * g,
                        kHigh + j + kWidth * g, magicZ, c, s, q);
    }
    const __m256i w01 = _mm256_packs_epi32(v[0], v[1]), w23 = _mm256_packs_epi32(v[2], v[3]);
    const __m256i bytes = kUnsigned ? _mm256_packus_epi16(w01, w23) : _mm256_packs_epi16(w01, w23);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + e),
                        _mm256_permutevar8x32_epi32(bytes, order));
    j += kBlock;
    while (j >= period) j -= period;
  }
  for (; e < end; e += kWidth) {
    const int64_t n = std::min<int64_t>(kWidth, end - e);
    const __m256 hv =
        n == kWidth ? _mm256_loadu_ps(h + e) : _mm256_maskload_ps(h + e, firstLanes(n));
    const __m256i v = quotients8(hv, (1u << n) - 1, h, e, kLow + j, kHigh + j, magicZ, c, s, q);
    const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    const __m128i bytes = kUnsigned ? _mm_packus_epi16(w, w) : _mm_packs_epi16(w, w);
    alignas(16) uint8_t out[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(out), bytes);
    std::memcpy(y + e, out, static_cast<size_t>(n));
    j += kWidth;
    if (j >= period) j -= period;
  }
}

}  // namespace

void squeezeRows(const uint8_t* x, int64_t rows, int64_t c, uint8_t flip, const float* table,
                 float* h, double* acc) {
  float t[256];  // table[v ^ flip]
  for (int v = 0; v < 256; ++v) t[v] = table[v ^ flip];
  int64_t k = 0;
  for (; k + 4 * kWidth <= c; k += 4 * kWidth) squeezeGroups<4>(x, rows, c, k, t, h, acc);
  for (; k + 2 * kWidth <= c; k += 2 * kWidth) squeezeGroups<2>(x, rows, c, k, t, h, acc);
  for (; k + kWidth <= c; k += kWidth) squeezeGroups<1>(x, rows, c, k, t, h, acc);
  if (c < kWidth)
    squeezeFew(x, rows, c, t, h, acc);
  else if (k < c)
    squeezeLast(x, rows, c, c - k, t, h, acc);
}

PASSLAB_SEX_AVX2 void gateConv(const GateWeights& w, const uint8_t* in, int32_t zin,
                               const int32_t* bias, const GateOutput& o, bool vnni, uint8_t* out) {
  const int64_t blocks = avx512::roundUp(w.outputs, kWidth) / kWidth;
  for (int64_t v0 = 0; v0 < blocks; v0 += 4) {
    __m256i acc[4];
    const int64_t n = std::min<int64_t>(4, blocks - v0);
    if (n == 4)
      sumBlocks<4>(w, in, v0, vnni, acc);
    else if (n == 3)
      sumBlocks<3>(w, in, v0, vnni, acc);
    else if (n == 2)
      sumBlocks<2>(w, in, v0, vnni, acc);
    else
      sumBlocks<1>(w, in, v0, vnni, acc);
    for (int64_t i = 0; i < n; ++i) requantize8(acc[i], (v0 + i) * kWidth, w, zin, bias, o, out);
  }
}

template <class Q>
void scaleFast(const float* h, int64_t begin, int64_t end, int64_t c, const float* s,
               const Quant& q, const ScalePlan& p, Q* y) {
  scaleFastAvx2<Q>(h, begin, end, c, s, q, p, y);
}

template void scaleFast<uint8_t>(const float*, int64_t, int64_t, int64_t, const float*,
                                 const Quant&, const ScalePlan&, uint8_t*);
template void scaleFast<int8_t>(const float*, int64_t, int64_t, int64_t, const float*, const Quant&,
                                const ScalePlan&, int8_t*);

}  // namespace passlab::exec::cpu::squeeze_excite::avx2
#endif
