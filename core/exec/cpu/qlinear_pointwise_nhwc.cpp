#include "core/exec/cpu/qlinear_pointwise_nhwc.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

#if defined(__x86_64__)
#include "core/exec/cpu/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu {

namespace {

using avx512::kLanes;
using avx512::roundUp;

#if defined(__x86_64__)
#define PASSLAB_PW_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

using requant16::Channels;
using requant16::Requant;
using requant16::store16;

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
PASSLAB_PW_TARGET inline void sumQuad(const uint8_t* x, const int32_t* w, int64_t q, int64_t count,
                                      const Layout& l, __m512i (&acc)[R * V]) {
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

// R pixels by V vectors of 16 output channels: acc[r][v] = the sums of the
// uint8 * int8 products over the input channels.
template <bool Signed, int R, int V>
PASSLAB_PW_TARGET inline void sumBlock(const uint8_t* x, const int32_t* w, const Layout& l,
                                       __m512i (&acc)[R * V]) {
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) acc[r * V + v] = _mm512_setzero_si512();
  for (int64_t q = 0; q < l.quads; ++q) sumQuad<Signed, R, V, 4>(x, w, q, 4, l, acc);
  if (l.tail) sumQuad<Signed, R, V, 0>(x, w, l.quads, l.tail, l, acc);
}

// The block's requantized outputs; the last vector of the row may be partial.
template <bool Signed, int R, int V>
PASSLAB_PW_TARGET inline void outputBlock(const uint8_t* x, const int32_t* w, const Layout& l,
                                          const Channels& ch, const Requant& q, uint8_t* y,
                                          int64_t firstChannel) {
  __m512i acc[R * V];
  sumBlock<Signed, R, V>(x, w, l, acc);
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) {
      const Channels c{ch.bias + v * kLanes, ch.mult + v * kLanes, ch.multf + v * kLanes};
      store16(acc[r * V + v], c, q, y + r * l.m + v * kLanes,
              lanes(l.m - firstChannel - v * kLanes));
    }
}

// Pixels [first, last) of output channels [16 v0, 16 (v0 + V)): blocks of R
// pixels, then one at a time. The R * V <= 8 accumulators stay in registers
// (GCC keeps larger arrays of them in memory).
template <bool Signed, int V>
PASSLAB_PW_TARGET void channelColumns(const uint8_t* x, const int32_t* weights, const Layout& l,
                                      const Channels& ch, const Requant& q, uint8_t* y,
                                      int64_t first, int64_t last, int64_t v0) {
  constexpr int R = V == 3 ? 2 : 8 / V;
  const int64_t c0 = v0 * kLanes;
  const int32_t* w = weights + c0;
  const Channels cv{ch.bias + c0, ch.mult + c0, ch.multf + c0};
  int64_t p = first;
  for (; p + R <= last; p += R)
    outputBlock<Signed, R, V>(x + p * l.c, w, l, cv, q, y + p * l.m + c0, c0);
  for (; p < last; ++p) outputBlock<Signed, 1, V>(x + p * l.c, w, l, cv, q, y + p * l.m + c0, c0);
}

template <bool Signed>
PASSLAB_PW_TARGET void pixelRange(const uint8_t* x, const int32_t* weights, const Layout& l,
                                  const Channels& ch, const Requant& q, uint8_t* y, int64_t first,
                                  int64_t last) {
  const int64_t vectors = l.mp / kLanes;
  for (int64_t v0 = 0; v0 < vectors; v0 += 4) {
    switch (std::min<int64_t>(4, vectors - v0)) {
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
  }
}
#endif

}  // namespace

bool QLinearPointwiseNhwc::covers(const ConvGeometry& g) {
  if (!cpu_isa::hasAvx512Vnni() || g.group != 1 || g.C <= 0 || g.M <= 0) return false;
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
                                   const qlinear::Requantization& r, ir::DataType xType) {
  // int32 sums cannot overflow below 2^31 / (255 * 128) = 65793 channels.
  if (g.C > 65536) return false;
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
  weights_.assign(static_cast<size_t>(quads_ * mp_), 0);
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
      auto& lane = weights_[static_cast<size_t>((k / 4) * mp_ + o)];
      lane = static_cast<int32_t>(static_cast<uint32_t>(lane) |
                                  static_cast<uint32_t>(static_cast<uint8_t>(v)) << (8 * (k % 4)));
    }
    correction_[static_cast<size_t>(o)] = xZeroU * sum;
    sumBound_ = std::max(sumBound_, magnitude * largestX);
  }
  requant_.prepare(r, m_, mp_);
  bias_.assign(static_cast<size_t>(mp_), 0);
  return true;
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
  const Layout l{c_, m_, mp_, c_ / 4, c_ % 4};
  const Channels ch{bias_.data(), requant_.mult.data(), requant_.multf.data()};
  const Requant q = requant16::constants(requant_, fast_);
  if (xSigned_)
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
