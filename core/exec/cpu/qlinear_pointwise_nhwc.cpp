#include "core/exec/cpu/qlinear_pointwise_nhwc.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/cpu/qlinear_pointwise_nhwc_avx2.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu {

namespace {

using avx512::kLanes;
using avx512::roundUp;

#if defined(__x86_64__)
#define PASSLAB_PW_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

using requant16::Channels;
using requant16::Requant;

using avx512::lanes;

// What a block of pixels and output channels reads and writes.
struct Layout {
  int64_t c, m, mp;  // input channels, output channels and their padded count
  int64_t quads;     // whole groups of 4 input channels
  int64_t tail;      // input channels after them (0 to 3)
};

// Four input channels of a pixel in every int32 lane, as uint8 (int8 with
// its top bit flipped: x + 128). Count bytes (1 to 4) are read, the others
// are 0 (their weights are 0).
template <bool Signed, int Count>
PASSLAB_PW_TARGET inline __m512i quad(const uint8_t* x, int64_t count) {
  uint32_t v = 0;
  std::memcpy(&v, x, Count == 4 ? 4 : static_cast<size_t>(count));
  if constexpr (Signed) v ^= 0x80808080u;
  return _mm512_set1_epi32(static_cast<int32_t>(v));
}

// One group of four input channels (Count 4, or the last `count` < 4) of R
// pixels into the R x V accumulators (vpdpbusd: exact int32 sums).
template <bool Signed, int R, int V, int Count>
PASSLAB_PW_TARGET inline __attribute__((always_inline)) void sumQuad(const uint8_t* x,
                                                                     const int32_t* w, int64_t q,
                                                                     int64_t count, const Layout& l,
                                                                     __m512i (&acc)[R * V]) {
  __m512i wv[V];
#pragma GCC unroll 4
  for (int v = 0; v < V; ++v) wv[v] = _mm512_loadu_si512(w + q * l.mp + v * kLanes);
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const __m512i b = quad<Signed, Count>(x + r * l.c + 4 * q, count);
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) acc[r * V + v] = _mm512_dpbusd_epi32(acc[r * V + v], b, wv[v]);
  }
}

// R pixels by V vectors of 16 output channels: acc[r][v] = the bias (less
// the zero-point correction) plus the sums of the uint8 * int8 products over
// the input channels, in int32 (modulo 2^32, as store16 adds them).
template <bool Signed, int R, int V>
PASSLAB_PW_TARGET inline __attribute__((always_inline)) void sumBlock(const uint8_t* x,
                                                                      const int32_t* w,
                                                                      const int32_t* bias,
                                                                      const Layout& l,
                                                                      __m512i (&acc)[R * V]) {
#pragma GCC unroll 4
  for (int v = 0; v < V; ++v) acc[v] = _mm512_loadu_si512(bias + v * kLanes);
#pragma GCC unroll 16
  for (int r = 1; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) acc[r * V + v] = acc[v];
  for (int64_t q = 0; q < l.quads; ++q) sumQuad<Signed, R, V, 4>(x, w, q, 4, l, acc);
  if (l.tail) sumQuad<Signed, R, V, 0>(x, w, l.quads, l.tail, l, acc);
}

// The requantized sums (bias included) of 16 channels as int32 before the
// saturation: storeSum16's float32 path (exact where Requant::fast).
PASSLAB_PW_TARGET inline __attribute__((always_inline)) __m512i requantized(__m512i acc,
                                                                            const float* multf,
                                                                            const Requant& q) {
  const __m512 p = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc), _mm512_loadu_ps(multf),
                                   _mm512_set1_ps(requant16::kMagic));
  return _mm512_add_epi32(_mm512_castps_si512(p), q.magicToZero);
}

// One pixel's V <= 4 vectors of sums as at most 64 output bytes (the first
// `left` written): storeSum16's results, saturated by two packs (int32 ->
// int16 signed, then int16 -> uint8 or int8: the same as one saturation to
// the output's range) and put back in channel order by one permutation, in
// one store instead of V narrowing stores.
// MultStride: the multipliers' step from one vector to the next (kLanes; 0
// where every vector holds the same 16 channels: pixel pairs).
template <int V, int MultStride = kLanes>
PASSLAB_PW_TARGET inline __attribute__((always_inline)) void storePixel(const __m512i* acc,
                                                                        const float* multf,
                                                                        const Requant& q,
                                                                        uint8_t* y, int64_t left) {
  __m512i v[4];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i)
    v[i] = i < V ? requantized(acc[i], multf + i * MultStride, q) : _mm512_setzero_si512();
  const __m512i lo = _mm512_packs_epi32(v[0], v[1]), hi = _mm512_packs_epi32(v[2], v[3]);
  // Per 128-bit lane L the packs leave v0[4L..4L+3], v1[4L..], v2[4L..], v3[4L..].
  const __m512i bytes = q.ySigned ? _mm512_packs_epi16(lo, hi) : _mm512_packus_epi16(lo, hi);
  const __m512i order = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
  const int64_t n = std::min<int64_t>(left, V * kLanes);
  const __mmask64 mask = n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
  _mm512_mask_storeu_epi8(y, mask, _mm512_permutexvar_epi32(order, bytes));
}

// Two pixels' 2 vectors of sums (acc: pixel p's two, then pixel p + 1's) as
// storePixel's bytes, in one set of packs: pixel p's up to 32 outputs (the
// first `left`) to y, pixel p + 1's to y + stride.
PASSLAB_PW_TARGET inline __attribute__((always_inline)) void storeTwoPixels(
    const __m512i* acc, const float* multf, const Requant& q, uint8_t* y, int64_t stride,
    int64_t left) {
  __m512i v[4];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) v[i] = requantized(acc[i], multf + (i % 2) * kLanes, q);
  const __m512i lo = _mm512_packs_epi32(v[0], v[1]), hi = _mm512_packs_epi32(v[2], v[3]);
  const __m512i bytes = q.ySigned ? _mm512_packs_epi16(lo, hi) : _mm512_packus_epi16(lo, hi);
  const __m512i order = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
  const __m512i rows = _mm512_permutexvar_epi32(order, bytes);
  const int64_t n = std::min<int64_t>(left, 2 * kLanes);
  const __mmask32 mask = n >= 32 ? ~__mmask32{0} : (__mmask32{1} << n) - 1;
  _mm256_mask_storeu_epi8(y, mask, _mm512_castsi512_si256(rows));
  _mm256_mask_storeu_epi8(y + stride, mask, _mm512_extracti64x4_epi64(rows, 1));
}

// The block's requantized outputs; the last vector of the row may be partial.
template <bool Signed, int R, int V>
PASSLAB_PW_TARGET inline void outputBlock(const uint8_t* x, const int32_t* w, const Layout& l,
                                          const Channels& ch, const Requant& q, uint8_t* y,
                                          int64_t firstChannel) {
  __m512i acc[R * V];
  sumBlock<Signed, R, V>(x, w, ch.bias, l, acc);
  if constexpr (V == 1) {
    if constexpr (R % 4 == 0) {
      // Rows of exactly 16 outputs: four pixels' rows are 64 adjacent bytes,
      // one store (ppocr_cls's 5 layers to 16 channels, 2026-12-07: 0.79 ->
      // 0.51 us for 32 -> 16 on 288 pixels in a stand-alone copy).
      if (q.fast && l.m == kLanes) {
#pragma GCC unroll 4
        for (int r = 0; r < R; r += 4)
          storePixel<4, 0>(acc + r, ch.multf, q, y + r * kLanes, 4 * kLanes);
        return;
      }
    }
    // Else one vector's narrowing store costs less than the packs.
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
      requant16::storeSum16(acc[r], ch, q, y + r * l.m, lanes(l.m - firstChannel));
    return;
  }
  if constexpr (V == 2 && R % 2 == 0) {
    // Two vectors: two pixels per set of packs (8 -> 24 on 1152 pixels
    // 3.0 -> 2.0 us in a stand-alone copy, 2026-12-07).
    if (q.fast) {
#pragma GCC unroll 8
      for (int r = 0; r < R; r += 2)
        storeTwoPixels(acc + r * V, ch.multf, q, y + r * l.m, l.m, l.m - firstChannel);
      return;
    }
  }
  if (q.fast) {
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
      storePixel<V>(acc + r * V, ch.multf, q, y + r * l.m, l.m - firstChannel);
    return;
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v)
      requant16::store16Double(acc[r * V + v], ch.mult + v * kLanes, q, y + r * l.m + v * kLanes,
                               lanes(l.m - firstChannel - v * kLanes));
}

// Pixels [first, last) of output channels [16 v0, 16 (v0 + V)): blocks of R
// pixels, then one at a time. R = 4 (V 3 or 4) or 8 (V 1 or 2): 8 to 16
// accumulators, and the sums at the VNNI unit's rate (R = 2 by V = 4 ran at
// half of it, 2026-12-07).
template <bool Signed, int V>
PASSLAB_PW_TARGET void channelColumns(const uint8_t* x, const int32_t* weights, const Layout& l,
                                      const Channels& ch, const Requant& q, uint8_t* y,
                                      int64_t first, int64_t last, int64_t v0) {
  constexpr int R = V >= 3 ? 4 : 8;
  const int64_t c0 = v0 * kLanes;
  const int32_t* w = weights + c0;
  const Channels cv{ch.bias + c0, ch.mult + c0, ch.multf + c0};
  int64_t p = first;
  for (; p + R <= last; p += R)
    outputBlock<Signed, R, V>(x + p * l.c, w, l, cv, q, y + p * l.m + c0, c0);
  for (; p < last; ++p) outputBlock<Signed, 1, V>(x + p * l.c, w, l, cv, q, y + p * l.m + c0, c0);
}

// Eight output channels (m == 8): two pixels per vector, the first in lanes
// 0-7 and the next in lanes 8-15, whose weights, bias and multipliers repeat
// lanes 0-7 (prepare, run), so no lane idles; their 16 outputs are the two
// pixels' adjacent rows of Y. Four input channels of pixels p and p + 1:
template <bool Signed, int Count>
PASSLAB_PW_TARGET inline __attribute__((always_inline)) __m512i pairQuad(const uint8_t* x,
                                                                         int64_t c, int64_t count) {
  uint32_t a = 0, b = 0;
  std::memcpy(&a, x, Count == 4 ? 4 : static_cast<size_t>(count));
  std::memcpy(&b, x + c, Count == 4 ? 4 : static_cast<size_t>(count));
  if constexpr (Signed) {
    a ^= 0x80808080u;
    b ^= 0x80808080u;
  }
  return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set1_epi32(static_cast<int32_t>(a))),
                            _mm256_set1_epi32(static_cast<int32_t>(b)), 1);
}

template <bool Signed, int R, int Count>
PASSLAB_PW_TARGET inline __attribute__((always_inline)) void sumPairQuad(const uint8_t* x,
                                                                         const int32_t* w,
                                                                         int64_t q, int64_t count,
                                                                         const Layout& l,
                                                                         __m512i (&acc)[R]) {
  const __m512i wv = _mm512_loadu_si512(w + q * l.mp);
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
    acc[r] = _mm512_dpbusd_epi32(acc[r],
                                 pairQuad<Signed, Count>(x + 2 * r * l.c + 4 * q, l.c, count), wv);
}

// R pairs of pixels (2R pixels from x, 16R outputs to y).
template <bool Signed, int R>
PASSLAB_PW_TARGET inline void outputPairs(const uint8_t* x, const int32_t* w, const Layout& l,
                                          const Channels& ch, const Requant& q, uint8_t* y) {
  __m512i acc[R];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) acc[r] = _mm512_loadu_si512(ch.bias);
  for (int64_t qd = 0; qd < l.quads; ++qd) sumPairQuad<Signed, R, 4>(x, w, qd, 4, l, acc);
  if (l.tail) sumPairQuad<Signed, R, 0>(x, w, l.quads, l.tail, l, acc);
  if constexpr (R % 4 == 0) {
    if (q.fast) {
#pragma GCC unroll 4
      for (int r = 0; r < R; r += 4) storePixel<4, 0>(acc + r, ch.multf, q, y + r * 16, 64);
      return;
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
    requant16::storeSum16(acc[r], ch, q, y + r * 16, static_cast<__mmask16>(0xffff));
}

// Pixels [first, last) of eight output channels: blocks of 8 pairs, single
// pairs, then an odd last pixel alone (lanes 0-7).
template <bool Signed>
PASSLAB_PW_TARGET void pixelPairs(const uint8_t* x, const int32_t* w, const Layout& l,
                                  const Channels& ch, const Requant& q, uint8_t* y, int64_t first,
                                  int64_t last) {
  constexpr int R = 8;
  int64_t p = first;
  for (; p + 2 * R <= last; p += 2 * R) outputPairs<Signed, R>(x + p * l.c, w, l, ch, q, y + p * 8);
  for (; p + 2 <= last; p += 2) outputPairs<Signed, 1>(x + p * l.c, w, l, ch, q, y + p * 8);
  if (p < last) outputBlock<Signed, 1, 1>(x + p * l.c, w, l, ch, q, y + p * 8, 0);
}

// The output channels in columns of 1 to 4 vectors, as even as they go (13
// vectors: 4 + 3 + 3 + 3, not 4 + 4 + 4 + 1, whose single vector runs at half
// the rate).
template <bool Signed>
PASSLAB_PW_TARGET void pixelRange(const uint8_t* x, const int32_t* weights, const Layout& l,
                                  const Channels& ch, const Requant& q, uint8_t* y, int64_t first,
                                  int64_t last) {
  const int64_t vectors = l.mp / kLanes;
  const int64_t columns = (vectors + 3) / 4;
  int64_t v0 = 0;
  for (int64_t c = 0; c < columns; ++c) {
    const int64_t width = vectors / columns + (c < vectors % columns ? 1 : 0);
    switch (width) {
      case 4:
        channelColumns<Signed, 4>(x, weights, l, ch, q, y, first, last, v0);
        break;
      case 3:
        channelColumns<Signed, 3>(x, weights, l, ch, q, y, first, last, v0);
        break;
      case 2:
        channelColumns<Signed, 2>(x, weights, l, ch, q, y, first, last, v0);
        break;
      default:
        channelColumns<Signed, 1>(x, weights, l, ch, q, y, first, last, v0);
        break;
    }
    v0 += width;
  }
}
#endif

}  // namespace

QLinearPointwiseNhwc::Path QLinearPointwiseNhwc::bestPath() {
  for (Path p : {Path::kAvx512Vnni, Path::kAvxVnni, Path::kAvx2})
    if (supports(p)) return p;
  return Path::kNone;
}

bool QLinearPointwiseNhwc::supports(Path path) {
  switch (path) {
    case Path::kAvx512Vnni:
      return cpu_isa::hasAvx512Vnni();
    case Path::kAvxVnni:
      return cpu_isa::hasAvxVnni();
    case Path::kAvx2:
      return cpu_isa::hasAvx2Fma();
    case Path::kNone:
      break;
  }
  return false;
}

bool QLinearPointwiseNhwc::covers(const ConvGeometry& g) {
  if (bestPath() == Path::kNone || g.group != 1 || g.C <= 0 || g.M <= 0) return false;
  for (size_t i = 0; i < g.spatial(); ++i)
    if (g.kernel[i] != 1 || g.stride[i] != 1 || g.padBegin[i] != 0 || g.padEnd[i] != 0)
      return false;
  return true;
}

bool QLinearPointwiseNhwc::fewPixels(const ConvGeometry& g) {
  int64_t pixels = g.N;
  for (int64_t d : g.in) pixels *= d;
  return pixels <= kFewPixels;
}

bool QLinearPointwiseNhwc::prepare(const ConvGeometry& g, const int8_t* w,
                                   const qlinear::Requantization& r, ir::DataType xType,
                                   Path path) {
  // int32 sums cannot overflow below 2^31 / (255 * 128) = 65793 channels.
  if (g.C > 65536 || path == Path::kNone || !supports(path)) return false;
  // vpmaddubsw's int16 pair sums saturate beyond |w| = 64 (int8_dot_exactness.h):
  // other weights take int16 pairs on AVX2.
  int16Steps_ = path == Path::kAvx2 && !std::all_of(w, w + g.M * g.C, [](int8_t v) {
                  return v >= -qlinear::kNarrowInt8Weight && v <= qlinear::kNarrowInt8Weight;
                });
  path_ = path;
  pixels_ = g.N;
  for (int64_t d : g.in) pixels_ *= d;
  c_ = g.C;
  m_ = g.M;
  mp_ = roundUp(m_, kLanes);
  quads_ = (c_ + 3) / 4;
  xSigned_ = xType == ir::DataType::kInt8;
  const int32_t xZero = r.xZeroPoint;
  const int32_t xZeroU = xZero + (xSigned_ ? 128 : 0);

  // vpdpbusd sums x * w with x as uint8; zx (as uint8) * sum(w) comes off
  // with the bias: sum (x - zx) * w exactly.
  // (int16 pairs: two vectors per quad, channels 4q, 4q+1 then 4q+2, 4q+3.)
  weights_.assign(static_cast<size_t>(quads_ * mp_ * (int16Steps_ ? 2 : 1)), 0);
  correction_.assign(static_cast<size_t>(mp_), 0);
  const int64_t largestX =
      xSigned_ ? std::max(128 + xZero, 127 - xZero) : std::max(xZero, 255 - xZero);
  sumBound_ = 0;
  for (int64_t o = 0; o < m_; ++o) {
    int32_t sum = 0;
    int64_t magnitude = 0;
    for (int64_t k = 0; k < c_; ++k) {
      const int8_t v = w[o * c_ + k];
      sum += v;
      magnitude += std::abs(int64_t{v});
      if (int16Steps_) {
        auto& lane = weights_[static_cast<size_t>((k / 2) * mp_ + o)];
        lane = static_cast<int32_t>(static_cast<uint32_t>(lane) |
                                    static_cast<uint32_t>(static_cast<uint16_t>(int16_t{v}))
                                        << (16 * (k % 2)));
        continue;
      }
      auto& lane = weights_[static_cast<size_t>((k / 4) * mp_ + o)];
      lane = static_cast<int32_t>(static_cast<uint32_t>(lane) |
                                  static_cast<uint32_t>(static_cast<uint8_t>(v)) << (8 * (k % 4)));
    }
    correction_[static_cast<size_t>(o)] = xZeroU * sum;
    sumBound_ = std::max(sumBound_, magnitude * largestX);
  }
  requant_.prepare(r, m_, mp_);
  bias_.assign(static_cast<size_t>(mp_), 0);
  pairs_ = m_ == kPairChannels && path_ == Path::kAvx512Vnni;
  if (pairs_) repeatPairLanes();
  return true;
}

// Lanes 8-15 of every vector of weights and multipliers as lanes 0-7.
void QLinearPointwiseNhwc::repeatPairLanes() {
  for (int64_t q = 0; q < quads_; ++q)
    std::copy_n(weights_.begin() + q * mp_, kPairChannels,
                weights_.begin() + q * mp_ + kPairChannels);
  std::copy_n(requant_.mult.begin(), kPairChannels, requant_.mult.begin() + kPairChannels);
  std::copy_n(requant_.multf.begin(), kPairChannels, requant_.multf.begin() + kPairChannels);
}

bool QLinearPointwiseNhwc::reshape(const ConvGeometry& g) {
  if (g.C != c_ || g.M != m_) return false;
  pixels_ = g.N;
  for (int64_t d : g.in) pixels_ *= d;
  return true;
}

#if defined(__x86_64__)
void QLinearPointwiseNhwc::computePixels(const uint8_t* x, uint8_t* y, int64_t first,
                                         int64_t last) const {
  if (path_ != Path::kAvx512Vnni) {
    pointwise256::Layer l;
    l.c = c_, l.m = m_, l.mp = mp_;
    l.weights = weights_.data(), l.bias = bias_.data();
    l.mult = requant_.mult.data(), l.multf = requant_.multf.data();
    l.yZero = static_cast<int32_t>(requant_.yZero);
    l.yLo = static_cast<int32_t>(requant_.yLo), l.yHi = static_cast<int32_t>(requant_.yHi);
    l.xSigned = xSigned_, l.fast = fast_;
    pointwise256::computePixels(path_ == Path::kAvxVnni ? pointwise256::Dot::kAvxVnni
                                : int16Steps_           ? pointwise256::Dot::kAvx2Int16
                                                        : pointwise256::Dot::kAvx2,
                                l, x, y, first, last);
    return;
  }
  const Layout l{c_, m_, mp_, c_ / 4, c_ % 4};
  const Channels ch{bias_.data(), requant_.mult.data(), requant_.multf.data()};
  const Requant q = requant16::constants(requant_, fast_);
  if (pairs_ && xSigned_)
    pixelPairs<true>(x, weights_.data(), l, ch, q, y, first, last);
  else if (pairs_)
    pixelPairs<false>(x, weights_.data(), l, ch, q, y, first, last);
  else if (xSigned_)
    pixelRange<true>(x, weights_.data(), l, ch, q, y, first, last);
  else
    pixelRange<false>(x, weights_.data(), l, ch, q, y, first, last);
}
#else
void QLinearPointwiseNhwc::computePixels(const uint8_t*, uint8_t*, int64_t, int64_t) const {}
#endif

void QLinearPointwiseNhwc::run(const void* x, const int32_t* bias, void* y, int threads) {
  int64_t largestBias = 0;
  for (int64_t o = 0; o < m_; ++o) {
    const int32_t b = bias ? bias[o] : 0;
    largestBias = std::max(largestBias, std::abs(int64_t{b}));
    // b - zx sum(w) leaves int32 where |b| + |zx sum(w)| passes 2^31 (up to
    // 255 * 128 * 65536 = 2139095040 at 65536 input channels): taken modulo
    // 2^32, as the lanes' int32 additions take it, so that sum(x w) - zx sum(w)
    // + b is exact wherever it fits in int32 (the reference's int32 sum),
    // without a signed overflow.
    bias_[static_cast<size_t>(o)] = static_cast<int32_t>(
        static_cast<uint32_t>(b) - static_cast<uint32_t>(correction_[static_cast<size_t>(o)]));
  }
  if (pairs_) std::copy_n(bias_.begin(), kPairChannels, bias_.begin() + kPairChannels);
  // The correction is inside the sums' bound (sum (x - zx) * w), the bias is not.
  fast_ = requant_.floatExact(sumBound_ + largestBias);
  // Work per pixel in multiply-adds: small convolutions stay on one thread.
  const int64_t minPixels =
      std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(1, c_ * m_));
  const auto* xb = static_cast<const uint8_t*>(x);
  auto* yb = static_cast<uint8_t*>(y);
  parallelFor(pixels_, threads, minPixels,
              [&](int64_t first, int64_t last) { computePixels(xb, yb, first, last); });
}

}  // namespace passlab::exec::cpu
