#include "core/exec/cpu/qlinear_depthwise_nhwc.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/qlinear_depthwise_nhwc_256.h"
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
#define PASSLAB_DW_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

using requant16::Channels;
using requant16::Requant;
using requant16::storeSum16;

using avx512::lanes;

// 16 channels of one pixel as uint8 in int32 lanes (int8 with its top bit
// flipped: x + 128); lanes outside m hold `flip` (their weights are 0).
PASSLAB_DW_TARGET inline __m512i unsignedBytes(const uint8_t* x, __mmask16 m, __m128i flip) {
  return _mm512_cvtepu8_epi32(_mm_xor_si128(_mm_maskz_loadu_epi8(m, x), flip));
}

// 16 channels of an input row, from its first.
struct Row {
  const uint8_t* x;
  int64_t width, channels;
  __mmask16 m;
  __m128i flip;
  __m512i pad;  // the zero point as uint8: what the padding holds
};

// Column iw of the row as uint8, or the zero point in the padding.
PASSLAB_DW_TARGET inline __m512i columnValue(const Row& r, int64_t iw) {
  if (iw < 0 || iw >= r.width) return r.pad;
  return unsignedBytes(r.x + iw * r.channels, r.m, r.flip);
}

// Four bytes per int32 lane, v0 lowest.
PASSLAB_DW_TARGET inline __m512i quadOf(__m512i v0, __m512i v1, __m512i v2, __m512i v3) {
  return _mm512_or_si512(_mm512_or_si512(v0, _mm512_slli_epi32(v1, 8)),
                         _mm512_or_si512(_mm512_slli_epi32(v2, 16), _mm512_slli_epi32(v3, 24)));
}

// Where a block of outputs reads: the quad rows of the kernel rows summed
// (row pointers into the ring, 16 lanes a column) and strides in int32 lanes.
struct Steps {
  const int32_t* const* rows;  // kh of them
  int64_t kh, quads;           // kernel rows summed (those over the input), tap quads per row
  int64_t quadCol;             // 4 dw columns: the next quad of taps
  int64_t out;                 // sw columns: the next output of the row
  int64_t cp;                  // the weights' stride per quad
};

// B outputs of one row, 16 channels, from lane `at` of the quad rows: acc[j]
// = the bias + the sum over tap quads of the uint8 * int8 products
// (vpdpbusd: exact int32 sums).
template <int B>
PASSLAB_DW_TARGET inline void sumBlock(int64_t at, const int32_t* w, const Steps& s, __m512i bias,
                                       __m512i* acc) {
#pragma GCC unroll 16
  for (int j = 0; j < B; ++j) acc[j] = bias;
  for (int64_t a = 0; a < s.kh; ++a) {
    const int32_t* row = s.rows[a] + at;
    const int32_t* wr = w + a * s.quads * s.cp;
    for (int64_t p = 0; p < s.quads; ++p) {
      const __m512i wv = _mm512_loadu_si512(wr + p * s.cp);
      const int32_t* in = row + p * s.quadCol;
#pragma GCC unroll 16
      for (int j = 0; j < B; ++j)
        acc[j] = _mm512_dpbusd_epi32(acc[j], _mm512_loadu_si512(in + j * s.out), wv);
    }
  }
}

// The same for Q tap quads per kernel row where quad p of output j is the
// quad column of output j + S p (quadCol == S * out: a 5-tap row at
// stride 1 or 2, dilation 1; out == SW * 16): each column loaded once for
// all its outputs and quads.
template <int B, int Q, int S, int SW>
PASSLAB_DW_TARGET inline void sumBlockShared(int64_t at, const int32_t* w, const Steps& s,
                                             __m512i bias, __m512i* acc) {
  constexpr int kCols = B + S * (Q - 1);
  constexpr int64_t kOut = SW * kLanes;
#pragma GCC unroll 16
  for (int j = 0; j < B; ++j) acc[j] = bias;
  for (int64_t a = 0; a < s.kh; ++a) {
    const int32_t* row = s.rows[a] + at;
    // One register for the row: the columns at constant offsets from it.
    asm("" : "+r"(row));
    const int32_t* wr = w + a * Q * s.cp;
    // Column i serves output i - S p with quad p.
    __m512i wv[Q];
#pragma GCC unroll 4
    for (int p = 0; p < Q; ++p) wv[p] = _mm512_loadu_si512(wr + p * s.cp);
#pragma GCC unroll 16
    for (int i = 0; i < kCols; ++i) {
      const __m512i v = _mm512_loadu_si512(row + i * kOut);
#pragma GCC unroll 4
      for (int p = 0; p < Q; ++p) {
        const int j = i - S * p;
        if (j >= 0 && j < B) acc[j] = _mm512_dpbusd_epi32(acc[j], v, wv[p]);
      }
    }
  }
}

// B outputs of one row, 16 channels, requantized and stored; Q > 0: Q quads
// per kernel row read as sumBlockShared, else any (sumBlock).
template <int B, int Q, int S, int SW>
PASSLAB_DW_TARGET inline void outputBlock(int64_t at, const int32_t* w, const Steps& s,
                                          const Channels& ch, const Requant& q, uint8_t* y,
                                          int64_t c, __mmask16 m) {
  __m512i acc[B];
  if constexpr (Q > 0)
    sumBlockShared<B, Q, S, SW>(at, w, s, _mm512_loadu_si512(ch.bias), acc);
  else
    sumBlock<B>(at, w, s, _mm512_loadu_si512(ch.bias), acc);
#pragma GCC unroll 16
  for (int j = 0; j < B; ++j) storeSum16(acc[j], ch, q, y + j * c, m);
}

// One output row's 16-channel block (lane `at` of the quad rows), outputs
// [0, ow): blocks of 12 (8 without shared columns), 4, 2, 1.
template <int Q, int S, int SW>
PASSLAB_DW_TARGET inline void outputRow(int64_t at, const int32_t* w, const Steps& s,
                                        const Channels& ch, const Requant& q, uint8_t* y,
                                        int64_t ow, int64_t c, __mmask16 m) {
  // 12 outputs a block where the columns are shared (fewer loads per output).
  constexpr int64_t kBlock = Q > 0 ? 12 : 8;
  int64_t j = 0;
  for (; j + kBlock <= ow; j += kBlock)
    outputBlock<kBlock, Q, S, SW>(at + j * s.out, w, s, ch, q, y + j * c, c, m);
  for (; j + 4 <= ow; j += 4)
    outputBlock<4, Q, S, SW>(at + j * s.out, w, s, ch, q, y + j * c, c, m);
  for (; j + 2 <= ow; j += 2)
    outputBlock<2, Q, S, SW>(at + j * s.out, w, s, ch, q, y + j * c, c, m);
  for (; j < ow; ++j) outputBlock<1, Q, S, SW>(at + j * s.out, w, s, ch, q, y + j * c, c, m);
}

// Column iw of block b as uint8 in int32 lanes; Plain: all 16 channels in
// the input and uint8 (no mask, no flip).
template <bool Plain>
PASSLAB_DW_TARGET inline __m512i inputColumn(const Row& r, int64_t iw) {
  const uint8_t* x = r.x + iw * r.channels;
  if constexpr (Plain)
    return _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x)));
  return unsignedBytes(x, r.m, r.flip);
}

// Quad columns [colBegin, colEnd) of one input row at dilation 1, NB
// blocks of 16 channels side by side: quad(col) = pair(col) | pair(col + 2)
// << 16 with pair(c) = v(c) | v(c + 1) << 8 (no chain from column to
// column). Inside: the new columns all lie in the input (else all in the
// padding). p0, p1: pair(colBegin), pair(colBegin + 1); v2: v(colBegin + 2).
template <int NB, bool Inside, bool Plain>
PASSLAB_DW_TARGET inline void quadColumns(const Row* r, __m512i* p0, __m512i* p1, __m512i* v2,
                                          int32_t* out, int64_t bs, int64_t colBegin,
                                          int64_t colEnd, int64_t padLeft) {
  for (int64_t col = colBegin; col < colEnd; ++col) {
    const int64_t iw = col + 3 - padLeft;
#pragma GCC unroll 4
    for (int b = 0; b < NB; ++b) {
      const __m512i v3 = Inside ? inputColumn<Plain>(r[b], iw) : r[b].pad;
      const __m512i p2 = _mm512_or_si512(v2[b], _mm512_slli_epi32(v3, 8));
      _mm512_storeu_si512(out + b * bs + col * kLanes,
                          _mm512_or_si512(p0[b], _mm512_slli_epi32(p2, 16)));
      p0[b] = p1[b];
      p1[b] = p2;
      v2[b] = v3;
    }
  }
}

template <int NB, bool Plain>
PASSLAB_DW_TARGET inline void fillQuads(const Row* r, int32_t* out, int64_t bs, int64_t colBegin,
                                        int64_t colEnd, int64_t padLeft) {
  const int64_t at = colBegin - padLeft;
  __m512i p0[NB], p1[NB], v2[NB];
#pragma GCC unroll 4
  for (int b = 0; b < NB; ++b) {
    const __m512i v0 = columnValue(r[b], at), v1 = columnValue(r[b], at + 1);
    v2[b] = columnValue(r[b], at + 2);
    p0[b] = _mm512_or_si512(v0, _mm512_slli_epi32(v1, 8));
    p1[b] = _mm512_or_si512(v1, _mm512_slli_epi32(v2[b], 8));
  }
  // The new column col + 3 - padLeft: before the input, in it, after it.
  const int64_t width = r[0].width;
  const int64_t in0 = std::clamp(padLeft - 3, colBegin, colEnd);
  const int64_t in1 = std::clamp(padLeft - 3 + width, in0, colEnd);
  quadColumns<NB, false, Plain>(r, p0, p1, v2, out, bs, colBegin, in0, padLeft);
  quadColumns<NB, true, Plain>(r, p0, p1, v2, out, bs, in0, in1, padLeft);
  quadColumns<NB, false, Plain>(r, p0, p1, v2, out, bs, in1, colEnd, padLeft);
}

// fillQuads for nb (1 to 4) blocks.
template <bool Plain>
PASSLAB_DW_TARGET inline void fillQuadBlocks(int nb, const Row* r, int32_t* out, int64_t bs,
                                             int64_t colBegin, int64_t colEnd, int64_t padLeft) {
  if (nb == 4) fillQuads<4, Plain>(r, out, bs, colBegin, colEnd, padLeft);
  if (nb == 3) fillQuads<3, Plain>(r, out, bs, colBegin, colEnd, padLeft);
  if (nb == 2) fillQuads<2, Plain>(r, out, bs, colBegin, colEnd, padLeft);
  if (nb == 1) fillQuads<1, Plain>(r, out, bs, colBegin, colEnd, padLeft);
}
#endif

}  // namespace

bool QLinearDepthwiseNhwc::covers(const ConvGeometry& g) {
  const bool cpu = cpu_isa::hasAvx512Vnni() || cpu_isa::hasAvxVnni() || cpu_isa::hasAvx2Fma();
  return cpu && g.group == g.C && g.M == g.C && g.C > 0 && (g.spatial() == 1 || g.spatial() == 2);
}

bool QLinearDepthwiseNhwc::prepare(const ConvGeometry& g, const int8_t* w,
                                   const qlinear::Requantization& r, ir::DataType xType) {
  path_ = cpu_isa::hasAvx512Vnni() ? Path::kAvx512Vnni
          : cpu_isa::hasAvxVnni()  ? Path::kAvxVnni
                                   : Path::kAvx2;
  taps_ = path_ == Path::kAvx2 ? dw256::kPairTaps : dw256::kVnniTaps;
  setGeometry(g);
  xSigned_ = xType == ir::DataType::kInt8;
  xZero_ = r.xZeroPoint;

  // Four taps of a kernel row per int32 lane (bytes, zeros past the row's
  // end), the quad rows' columns the same way as uint8; vpdpbusd sums x * w
  // over the padding too, whose value is the zero point, and zx * sum(w) of
  // the rows summed comes off (rowCorrection_): sum (x - zx) * w exactly.
  // AVX2: two taps per lane as int16 (vpmaddwd), the same sums.
  const int32_t xZeroU = xZero_ + (xSigned_ ? 128 : 0);
  const int64_t bits = 32 / taps_;
  const uint32_t tapMask = taps_ == 4 ? 0xffu : 0xffffu;
  quads_ = (kw_ + taps_ - 1) / taps_;
  weights_.assign(static_cast<size_t>(kh_ * quads_ * cp_), 0);
  rowCorrection_.assign(static_cast<size_t>(kh_ * cp_), 0);
  for (int64_t ch = 0; ch < c_; ++ch)
    for (int64_t a = 0; a < kh_; ++a) {
      int32_t rowSum = 0;
      for (int64_t p = 0; p < quads_; ++p) {
        uint32_t quad = 0;
        for (int64_t i = 0; i < taps_ && taps_ * p + i < kw_; ++i) {
          const int8_t v = w[ch * kh_ * kw_ + a * kw_ + taps_ * p + i];
          rowSum += v;
          // The tap as int8 or int16 (sign-extended to the tap's bits).
          quad |= (static_cast<uint32_t>(static_cast<int32_t>(v)) & tapMask) << (bits * i);
        }
        weights_[static_cast<size_t>((a * quads_ + p) * cp_ + ch)] = static_cast<int32_t>(quad);
      }
      rowCorrection_[static_cast<size_t>(a * cp_ + ch)] = xZeroU * rowSum;
    }
  // int32 sums cannot overflow below 2^31 / (255 * 128) = 65793 taps (nor a
  // vpmaddwd pair: 2 * 255 * 128).
  if (kh_ * kw_ > 65536) return false;
  // The largest |sum| without bias, and the largest |multiplier|: whether the float path is exact.
  const int64_t largestX =
      xSigned_ ? std::max(128 + xZero_, 127 - xZero_) : std::max(xZero_, 255 - xZero_);
  sumBound_ = 0;
  for (int64_t ch = 0; ch < c_; ++ch) {
    int64_t bound = 0;
    for (int64_t t = 0; t < kh_ * kw_; ++t) bound += std::abs(int64_t{w[ch * kh_ * kw_ + t]});
    sumBound_ = std::max(sumBound_, bound * largestX);
  }
  requant_.prepare(r, c_, cp_);
  bias_.assign(static_cast<size_t>(cp_), 0);
  return true;
}

const char* QLinearDepthwiseNhwc::pathName() const {
  switch (path_) {
    case Path::kAvx512Vnni:
      return "avx512vnni";
    case Path::kAvxVnni:
      return "avxvnni";
    case Path::kAvx2:
      return "avx2";
  }
  return "?";
}

bool QLinearDepthwiseNhwc::reshape(const ConvGeometry& g) {
  const bool twoD = g.spatial() == 2;
  if (g.C != c_ || (twoD ? g.kernel[0] : 1) != kh_ || g.kernel.back() != kw_ ||
      (twoD ? g.stride[0] : 1) != sh_ || g.stride.back() != sw_ ||
      (twoD ? g.dilation[0] : 1) != dh_ || g.dilation.back() != dw_)
    return false;
  setGeometry(g);
  return true;
}

void QLinearDepthwiseNhwc::setGeometry(const ConvGeometry& g) {
  const bool twoD = g.spatial() == 2;
  n_ = g.N;
  c_ = g.C;
  h_ = twoD ? g.in[0] : 1;
  w_ = g.in.back();
  oh_ = twoD ? g.out[0] : 1;
  ow_ = g.out.back();
  kh_ = twoD ? g.kernel[0] : 1;
  kw_ = g.kernel.back();
  sh_ = twoD ? g.stride[0] : 1;
  sw_ = g.stride.back();
  dh_ = twoD ? g.dilation[0] : 1;
  dw_ = g.dilation.back();
  padTop_ = twoD ? g.padBegin[0] : 0;
  padLeft_ = g.padBegin.back();
  cp_ = roundUp(c_, kLanes);
  hb_ = (oh_ - 1) * sh_ + (kh_ - 1) * dh_ + 1;
  wb_ = (ow_ - 1) * sw_ + (kw_ - 1) * dw_ + 1;
  chooseTiles();
}

// The ring holds the (kh - 1) dh + 1 rows one output row reads; as many
// channel blocks at a time as keep the rows written (those over the input)
// within kRingBytes (L1), at least one.
void QLinearDepthwiseNhwc::chooseTiles() {
  constexpr int64_t kRingBytes = 24 * 1024;
  ringRows_ = (kh_ - 1) * dh_ + 1;
  const int64_t written = std::max<int64_t>(1, std::min(ringRows_, h_));
  const int64_t perBlock = written * wb_ * kLanes * static_cast<int64_t>(sizeof(int32_t));
  const int64_t blocks = cp_ / kLanes;
  const int64_t fit = std::clamp<int64_t>(kRingBytes / perBlock, 1, std::max<int64_t>(1, blocks));
  const int64_t chunks = (blocks + fit - 1) / fit;
  chunkBlocks_ = std::max<int64_t>(1, (blocks + chunks - 1) / std::max<int64_t>(1, chunks));
  blockStride_ = ringRows_ * wb_ * kLanes;
  ring_.resize(static_cast<size_t>(chunkBlocks_ * blockStride_));
}

#if defined(__x86_64__)

// The quad row of input row ih for channel blocks [block, block + blocks)
// into out (block b's [wb_][16] at b * blockStride_): every column, those
// reading only padding the zero point.
PASSLAB_DW_TARGET void QLinearDepthwiseNhwc::fillRow(const uint8_t* x, int64_t ih, int64_t block,
                                                     int64_t blocks, int32_t* out) const {
  const int32_t xZeroU = xZero_ + (xSigned_ ? 128 : 0);
  const __m512i pad =
      _mm512_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(xZeroU) * 0x01010101u));
  const __m512i padLane = _mm512_set1_epi32(xZeroU);
  const __m128i flip = _mm_set1_epi8(static_cast<char>(xSigned_ ? 0x80 : 0));
  // Columns whose quad reads the input.
  const int64_t colBegin = std::min(wb_, std::max<int64_t>(0, padLeft_ - 3 * dw_));
  const int64_t colEnd = std::max(colBegin, std::min(wb_, padLeft_ + w_));
  for (int64_t b = 0; b < blocks; ++b) {
    for (int64_t col = 0; col < colBegin; ++col)
      _mm512_storeu_si512(out + b * blockStride_ + col * kLanes, pad);
    for (int64_t col = colEnd; col < wb_; ++col)
      _mm512_storeu_si512(out + b * blockStride_ + col * kLanes, pad);
  }
  const uint8_t* row = x + ih * w_ * c_;
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t cb = (block + b) * kLanes;
    int32_t* o = out + b * blockStride_;
    const Row r{row + cb, w_, c_, lanes(c_ - cb), flip, padLane};
    if (dw_ == 1) {
      // Up to 4 blocks at once.
      const int nb = static_cast<int>(std::min<int64_t>(4, blocks - b));
      Row rs[4] = {r, r, r, r};
      for (int i = 1; i < nb; ++i)
        rs[i] = {row + cb + i * kLanes, w_, c_, lanes(c_ - cb - i * kLanes), flip, padLane};
      // Plain: uint8 and every channel of the blocks in the input.
      if (!xSigned_ && cb + nb * kLanes <= c_)
        fillQuadBlocks<true>(nb, rs, o, blockStride_, colBegin, colEnd, padLeft_);
      else
        fillQuadBlocks<false>(nb, rs, o, blockStride_, colBegin, colEnd, padLeft_);
      b += nb - 1;
      continue;
    }
    const int64_t at = colBegin - padLeft_;
    __m512i v0 = columnValue(r, at), v1 = columnValue(r, at + dw_);
    __m512i v2 = columnValue(r, at + 2 * dw_);
    for (int64_t col = colBegin; col < colEnd; ++col) {
      const int64_t iw = col - padLeft_;
      const __m512i v3 = columnValue(r, iw + 3 * dw_);
      _mm512_storeu_si512(o + col * kLanes, quadOf(v0, v1, v2, v3));
      v0 = columnValue(r, iw + 1);
      v1 = columnValue(r, iw + 1 + dw_);
      v2 = columnValue(r, iw + 1 + 2 * dw_);
    }
  }
}

// Output row o of channel blocks [block, block + blocks) from the quad rows
// of its kernel rows [a0, a1) (rows[a - a0], block 0's; the others read
// only padding).
PASSLAB_DW_TARGET void QLinearDepthwiseNhwc::computeRow(const int32_t* const* rows, uint8_t* y,
                                                        int64_t o, int64_t a0, int64_t a1,
                                                        int64_t block, int64_t blocks) const {
  const Steps s{rows, a1 - a0, quads_, 4 * dw_ * kLanes, sw_ * kLanes, cp_};
  const Requant q = requant16::constants(requant_, fast_);
  alignas(64) int32_t rowBias[kLanes];
  uint8_t* rowOut = y + o * ow_ * c_;
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t cb = (block + b) * kLanes;
    // The bias less zx * sum(w) of the kernel rows summed.
    __m512i v = _mm512_loadu_si512(bias_.data() + cb);
    for (int64_t a = a0; a < a1; ++a)
      v = _mm512_sub_epi32(v, _mm512_loadu_si512(rowCorrection_.data() + a * cp_ + cb));
    _mm512_store_si512(rowBias, v);
    const __mmask16 m = lanes(c_ - cb);
    const int32_t* w = weights_.data() + a0 * quads_ * cp_ + cb;
    const Channels ch{rowBias, requant_.mult.data() + cb, requant_.multf.data() + cb};
    const int64_t at = b * blockStride_;
    uint8_t* out = rowOut + cb;
    if (quads_ == 1 && sw_ == 1)
      outputRow<1, 1, 1>(at, w, s, ch, q, out, ow_, c_, m);
    else if (quads_ == 1 && sw_ == 2)
      outputRow<1, 1, 2>(at, w, s, ch, q, out, ow_, c_, m);
    else if (quads_ == 2 && dw_ == 1 && sw_ == 1)
      outputRow<2, 4, 1>(at, w, s, ch, q, out, ow_, c_, m);
    else if (quads_ == 2 && dw_ == 1 && sw_ == 2)
      outputRow<2, 2, 2>(at, w, s, ch, q, out, ow_, c_, m);
    else
      outputRow<0, 0, 0>(at, w, s, ch, q, out, ow_, c_, m);
  }
}

#else
void QLinearDepthwiseNhwc::fillRow(const uint8_t*, int64_t, int64_t, int64_t, int32_t*) const {}
void QLinearDepthwiseNhwc::computeRow(const int32_t* const*, uint8_t*, int64_t, int64_t, int64_t,
                                      int64_t, int64_t) const {}
#endif

// fillRow on this run's path (the AVX-512 one not entered elsewhere: its
// code may use AVX-512 anywhere).
void QLinearDepthwiseNhwc::fillAny(const uint8_t* x, int64_t ih, int64_t block, int64_t blocks,
                                   int32_t* out) const {
  if (path_ == Path::kAvx512Vnni) {
    fillRow(x, ih, block, blocks, out);
    return;
  }
  const dw256::FillArgs a{x + ih * w_ * c_,
                          w_,
                          c_,
                          padLeft_,
                          dw_,
                          wb_,
                          blockStride_,
                          block,
                          blocks,
                          xSigned_,
                          xZero_ + (xSigned_ ? 128 : 0),
                          out,
                          sw_ % 2 == 0};
  if (path_ == Path::kAvxVnni)
    dw256::fillRowAvxVnni(a);
  else
    dw256::fillRowAvx2(a);
}

// computeRow on this run's path.
void QLinearDepthwiseNhwc::computeAny(const int32_t* const* rows, uint8_t* y, int64_t o, int64_t a0,
                                      int64_t a1, int64_t block, int64_t blocks) const {
  if (path_ == Path::kAvx512Vnni) {
    computeRow(rows, y, o, a0, a1, block, blocks);
    return;
  }
  const dw256::ComputeArgs a{rows,
                             a1 - a0,
                             quads_,
                             dw_,
                             sw_,
                             ow_,
                             c_,
                             cp_,
                             blockStride_,
                             block,
                             blocks,
                             weights_.data() + a0 * quads_ * cp_,
                             rowCorrection_.data() + a0 * cp_,
                             bias_.data(),
                             &requant_,
                             fast_,
                             y + o * ow_ * c_};
  if (path_ == Path::kAvxVnni)
    dw256::computeRowAvxVnni(a);
  else
    dw256::computeRowAvx2(a);
}

// Output rows [first, last), channel blocks [block, block + blocks): each
// input row the rows read is written into the ring once (padded row r into
// ring row r % ringRows_), before the first output row that reads it.
void QLinearDepthwiseNhwc::runTile(const uint8_t* x, uint8_t* y, int64_t first, int64_t last,
                                   int64_t block, int64_t blocks, int32_t* ring) const {
  const int64_t rowLanes = wb_ * kLanes;
  std::vector<const int32_t*> rows(static_cast<size_t>(kh_));
  int64_t filled = first * sh_;  // padded rows below are in the ring (or not needed)
  for (int64_t o = first; o < last; ++o) {
    const int64_t top = o * sh_;
    for (int64_t r = std::max(filled, top); r < top + ringRows_; ++r) {
      const int64_t ih = r - padTop_;
      if (ih >= 0 && ih < h_) fillAny(x, ih, block, blocks, ring + (r % ringRows_) * rowLanes);
    }
    filled = std::max(filled, top + ringRows_);
    // Kernel rows [a0, a1) read input rows; the others only padding.
    const int64_t a0 = std::min(kh_, std::max<int64_t>(0, (padTop_ - top + dh_ - 1) / dh_));
    const int64_t a1 = std::max(a0, std::min(kh_, (padTop_ + h_ - top + dh_ - 1) / dh_));
    for (int64_t a = a0; a < a1; ++a)
      rows[static_cast<size_t>(a - a0)] = ring + ((top + a * dh_) % ringRows_) * rowLanes;
    computeAny(rows.data(), y, o, a0, a1, block, blocks);
  }
}

void QLinearDepthwiseNhwc::run(const void* x, const int32_t* bias, void* y, int threads) {
  int64_t largestBias = 0;
  if (bias) {
    std::copy(bias, bias + c_, bias_.begin());
    for (int64_t ch = 0; ch < c_; ++ch)
      largestBias = std::max(largestBias, std::abs(int64_t{bias[ch]}));
  } else {
    std::fill(bias_.begin(), bias_.end(), 0);
  }
  fast_ = requant_.floatExact(sumBound_ + largestBias);
  const auto* xb = static_cast<const uint8_t*>(x);
  auto* yb = static_cast<uint8_t*>(y);
  // Work units: images x channel chunks x bands of output rows (more than
  // one band only where the chunks alone do not give each thread one).
  const int64_t blocks = cp_ / kLanes;
  const int64_t chunks = (blocks + chunkBlocks_ - 1) / chunkBlocks_;
  const int64_t bands =
      threads > 1 && n_ * chunks < threads ? std::min<int64_t>(oh_, threads) : int64_t{1};
  const int64_t units = n_ * chunks * bands;
  // Multiply-adds per unit: small work stays on one thread.
  const int64_t perUnit =
      std::max<int64_t>(1, ow_ * chunkBlocks_ * kLanes * kh_ * kw_ * ((oh_ + bands - 1) / bands));
  const int64_t minUnits = std::max<int64_t>(1, (int64_t{1} << 16) / perUnit);
  const size_t ringSize = static_cast<size_t>(chunkBlocks_ * blockStride_);
  parallelFor(units, threads, minUnits, [&](int64_t first, int64_t last) {
    // One call covering all units runs alone: the kernel's own ring.
    std::vector<int32_t> own;
    int32_t* ring = ring_.data();
    if (first != 0 || last != units) {
      own.resize(ringSize);
      ring = own.data();
    }
    for (int64_t u = first; u < last; ++u) {
      const int64_t i = u / (chunks * bands);
      const int64_t chunk = u / bands % chunks;
      const int64_t band = u % bands;
      const int64_t block = chunk * chunkBlocks_;
      const int64_t o0 = band * oh_ / bands, o1 = (band + 1) * oh_ / bands;
      runTile(xb + i * h_ * w_ * c_, yb + i * oh_ * ow_ * c_, o0, o1, block,
              std::min(chunkBlocks_, blocks - block), ring);
    }
  });
}

}  // namespace passlab::exec::cpu
