#include "core/exec/cpu/qlinear_depthwise_nhwc.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

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

// Where a block of outputs reads: strides in int32 lanes of the image.
struct Steps {
  int64_t kh, quads;  // kernel rows summed (those over the input), tap quads per row
  int64_t tapRow;     // dh rows
  int64_t quadCol;    // 4 dw columns: the next quad of taps
  int64_t out;        // sw columns: the next output of the row
  int64_t cp;         // the weights' stride per quad
};

// B outputs of one row, 16 channels: acc[j] = the bias + the sum over tap
// quads of the uint8 * int8 products (vpdpbusd: exact int32 sums).
template <int B>
PASSLAB_DW_TARGET inline void sumBlock(const int32_t* in, const int32_t* w, const Steps& s,
                                       __m512i bias, __m512i* acc) {
#pragma GCC unroll 16
  for (int j = 0; j < B; ++j) acc[j] = bias;
  for (int64_t a = 0; a < s.kh; ++a) {
    const int32_t* row = in + a * s.tapRow;
    const int32_t* wr = w + a * s.quads * s.cp;
    for (int64_t p = 0; p < s.quads; ++p) {
      const __m512i wv = _mm512_loadu_si512(wr + p * s.cp);
      const int32_t* at = row + p * s.quadCol;
#pragma GCC unroll 16
      for (int j = 0; j < B; ++j)
        acc[j] = _mm512_dpbusd_epi32(acc[j], _mm512_loadu_si512(at + j * s.out), wv);
    }
  }
}

// The same for Q tap quads per kernel row where quad p of output j is the
// image column of output j + S p (quadCol == S * out: a 5-tap row at
// stride 1 or 2, dilation 1): each column loaded once for all its outputs
// and quads.
template <int B, int Q, int S>
PASSLAB_DW_TARGET inline void sumBlockShared(const int32_t* in, const int32_t* w, const Steps& s,
                                             __m512i bias, __m512i* acc) {
  constexpr int kCols = B + S * (Q - 1);
#pragma GCC unroll 16
  for (int j = 0; j < B; ++j) acc[j] = bias;
  for (int64_t a = 0; a < s.kh; ++a) {
    const int32_t* row = in + a * s.tapRow;
    const int32_t* wr = w + a * Q * s.cp;
    // Column i serves output i - S p with quad p.
    __m512i wv[Q];
#pragma GCC unroll 4
    for (int p = 0; p < Q; ++p) wv[p] = _mm512_loadu_si512(wr + p * s.cp);
#pragma GCC unroll 16
    for (int i = 0; i < kCols; ++i) {
      const __m512i v = _mm512_loadu_si512(row + i * s.out);
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
template <int B, int Q, int S>
PASSLAB_DW_TARGET inline void outputBlock(const int32_t* in, const int32_t* w, const Steps& s,
                                          const Channels& ch, const Requant& q, uint8_t* y,
                                          int64_t c, __mmask16 m) {
  __m512i acc[B];
  if constexpr (Q > 0)
    sumBlockShared<B, Q, S>(in, w, s, _mm512_loadu_si512(ch.bias), acc);
  else
    sumBlock<B>(in, w, s, _mm512_loadu_si512(ch.bias), acc);
#pragma GCC unroll 16
  for (int j = 0; j < B; ++j) storeSum16(acc[j], ch, q, y + j * c, m);
}

// One output row's 16-channel block, outputs [0, ow): blocks of 8, 2, 1.
template <int Q, int S>
PASSLAB_DW_TARGET inline void outputRow(const int32_t* in, const int32_t* w, const Steps& s,
                                        const Channels& ch, const Requant& q, uint8_t* y,
                                        int64_t ow, int64_t c, __mmask16 m) {
  constexpr int64_t kBlock = 8;
  int64_t j = 0;
  for (; j + kBlock <= ow; j += kBlock)
    outputBlock<kBlock, Q, S>(in + j * s.out, w, s, ch, q, y + j * c, c, m);
  for (; j + 2 <= ow; j += 2) outputBlock<2, Q, S>(in + j * s.out, w, s, ch, q, y + j * c, c, m);
  for (; j < ow; ++j) outputBlock<1, Q, S>(in + j * s.out, w, s, ch, q, y + j * c, c, m);
}

// Image columns [colBegin, colEnd) of one input row at dilation 1, NB
// blocks of 16 channels side by side (independent chains): each quad is the
// one before shifted down a byte, the new column on top. Inside: the new
// columns all lie in the input (else all in the padding).
template <int NB, bool Inside>
PASSLAB_DW_TARGET inline void quadColumns(const Row* r, __m512i* q, int32_t* out, int64_t cp,
                                          int64_t colBegin, int64_t colEnd, int64_t padLeft) {
  for (int64_t col = colBegin; col < colEnd; ++col) {
    const int64_t iw = col + 3 - padLeft;
#pragma GCC unroll 4
    for (int b = 0; b < NB; ++b) {
      const __m512i v =
          Inside ? unsignedBytes(r[b].x + iw * r[b].channels, r[b].m, r[b].flip) : r[b].pad;
      q[b] = _mm512_or_si512(q[b], _mm512_slli_epi32(v, 24));
      _mm512_storeu_si512(out + col * cp + b * kLanes, q[b]);
      q[b] = _mm512_srli_epi32(q[b], 8);
    }
  }
}

template <int NB>
PASSLAB_DW_TARGET inline void fillQuads(const Row* r, int32_t* out, int64_t cp, int64_t colBegin,
                                        int64_t colEnd, int64_t padLeft) {
  const int64_t at = colBegin - padLeft;
  __m512i q[NB];
#pragma GCC unroll 4
  for (int b = 0; b < NB; ++b)
    q[b] = quadOf(columnValue(r[b], at), columnValue(r[b], at + 1), columnValue(r[b], at + 2),
                  _mm512_setzero_si512());
  // The new column col + 3 - padLeft: before the input, in it, after it.
  const int64_t width = r[0].width;
  const int64_t in0 = std::clamp(padLeft - 3, colBegin, colEnd);
  const int64_t in1 = std::clamp(padLeft - 3 + width, in0, colEnd);
  quadColumns<NB, false>(r, q, out, cp, colBegin, in0, padLeft);
  quadColumns<NB, true>(r, q, out, cp, in0, in1, padLeft);
  quadColumns<NB, false>(r, q, out, cp, in1, colEnd, padLeft);
}
#endif

}  // namespace

bool QLinearDepthwiseNhwc::covers(const ConvGeometry& g) {
  return cpu_isa::hasAvx512Vnni() && g.group == g.C && g.M == g.C && g.C > 0 &&
         (g.spatial() == 1 || g.spatial() == 2);
}

bool QLinearDepthwiseNhwc::prepare(const ConvGeometry& g, const int8_t* w,
                                   const qlinear::Requantization& r, ir::DataType xType) {
  setGeometry(g);
  xSigned_ = xType == ir::DataType::kInt8;
  xZero_ = r.xZeroPoint;

  // Four taps of a kernel row per int32 lane (bytes, zeros past the row's
  // end), the image's columns the same way as uint8; vpdpbusd sums x * w
  // over the padding too, whose value is the zero point, and zx * sum(w) of
  // the rows summed comes off (rowCorrection_): sum (x - zx) * w exactly.
  const int32_t xZeroU = xZero_ + (xSigned_ ? 128 : 0);
  quads_ = (kw_ + 3) / 4;
  weights_.assign(static_cast<size_t>(kh_ * quads_ * cp_), 0);
  rowCorrection_.assign(static_cast<size_t>(kh_ * cp_), 0);
  for (int64_t ch = 0; ch < c_; ++ch)
    for (int64_t a = 0; a < kh_; ++a) {
      int32_t rowSum = 0;
      for (int64_t p = 0; p < quads_; ++p) {
        uint32_t quad = 0;
        for (int64_t i = 0; i < 4 && 4 * p + i < kw_; ++i) {
          const int8_t v = w[ch * kh_ * kw_ + a * kw_ + 4 * p + i];
          rowSum += v;
          quad |= static_cast<uint32_t>(static_cast<uint8_t>(v)) << (8 * i);
        }
        weights_[static_cast<size_t>((a * quads_ + p) * cp_ + ch)] = static_cast<int32_t>(quad);
      }
      rowCorrection_[static_cast<size_t>(a * cp_ + ch)] = xZeroU * rowSum;
    }
  // int32 sums cannot overflow below 2^31 / (255 * 128) = 65793 taps.
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
  fillPadding();
  return true;
}

bool QLinearDepthwiseNhwc::reshape(const ConvGeometry& g) {
  const bool twoD = g.spatial() == 2;
  if (g.C != c_ || (twoD ? g.kernel[0] : 1) != kh_ || g.kernel.back() != kw_ ||
      (twoD ? g.stride[0] : 1) != sh_ || g.stride.back() != sw_ ||
      (twoD ? g.dilation[0] : 1) != dh_ || g.dilation.back() != dw_)
    return false;
  setGeometry(g);
  fillPadding();
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
}

// The image's padding holds the zero point (as uint8) in every byte.
void QLinearDepthwiseNhwc::fillPadding() {
  const uint32_t padByte = static_cast<uint8_t>(xZero_ + (xSigned_ ? 128 : 0));
  image_.assign(static_cast<size_t>(hb_ * wb_ * cp_), static_cast<int32_t>(padByte * 0x01010101u));
}

#if defined(__x86_64__)

// Writes the image rows of input rows [first, last): only the columns whose
// quad reads the input (the rest of the image holds the zero point from
// prepare on).
PASSLAB_DW_TARGET void QLinearDepthwiseNhwc::fillImage(const uint8_t* x, int64_t first,
                                                       int64_t last) {
  const int32_t xZeroU = xZero_ + (xSigned_ ? 128 : 0);
  const __m512i pad = _mm512_set1_epi32(xZeroU);
  const __m128i flip = _mm_set1_epi8(static_cast<char>(xSigned_ ? 0x80 : 0));
  const int64_t colBegin = std::max<int64_t>(0, padLeft_ - 3 * dw_);
  const int64_t colEnd = std::min(wb_, padLeft_ + w_);
  for (int64_t ih = first; ih < last; ++ih) {
    int32_t* out = image_.data() + (ih + padTop_) * wb_ * cp_;
    const uint8_t* row = x + ih * w_ * c_;
    for (int64_t k = 0; k < cp_; k += kLanes) {
      const Row r{row + k, w_, c_, lanes(c_ - k), flip, pad};
      if (dw_ == 1) {
        // Up to 4 blocks at once.
        const int nb = static_cast<int>(std::min<int64_t>(4, (cp_ - k) / kLanes));
        Row rs[4] = {r, r, r, r};
        for (int b = 1; b < nb; ++b)
          rs[b] = {row + k + b * kLanes, w_, c_, lanes(c_ - k - b * kLanes), flip, pad};
        int32_t* o = out + k;
        if (nb == 4) fillQuads<4>(rs, o, cp_, colBegin, colEnd, padLeft_);
        if (nb == 3) fillQuads<3>(rs, o, cp_, colBegin, colEnd, padLeft_);
        if (nb == 2) fillQuads<2>(rs, o, cp_, colBegin, colEnd, padLeft_);
        if (nb == 1) fillQuads<1>(rs, o, cp_, colBegin, colEnd, padLeft_);
        k += (nb - 1) * kLanes;
        continue;
      }
      const int64_t at = colBegin - padLeft_;
      __m512i v0 = columnValue(r, at), v1 = columnValue(r, at + dw_);
      __m512i v2 = columnValue(r, at + 2 * dw_);
      for (int64_t col = colBegin; col < colEnd; ++col) {
        const int64_t iw = col - padLeft_;
        const __m512i v3 = columnValue(r, iw + 3 * dw_);
        _mm512_storeu_si512(out + col * cp_ + k, quadOf(v0, v1, v2, v3));
        v0 = columnValue(r, iw + 1);
        v1 = columnValue(r, iw + 1 + dw_);
        v2 = columnValue(r, iw + 1 + 2 * dw_);
      }
    }
  }
}

PASSLAB_DW_TARGET void QLinearDepthwiseNhwc::computeRows(uint8_t* y, int64_t first,
                                                         int64_t last) const {
  Steps s{kh_, quads_, dh_ * wb_ * cp_, 4 * dw_ * cp_, sw_ * cp_, cp_};
  std::vector<int32_t> rowBias(static_cast<size_t>(cp_));
  const Requant q = requant16::constants(requant_, fast_);
  for (int64_t o = first; o < last; ++o) {
    // Kernel rows [a0, a1) read input rows; the others only padding.
    const int64_t a0 = std::min(kh_, std::max<int64_t>(0, (padTop_ - o * sh_ + dh_ - 1) / dh_));
    const int64_t a1 = std::max(a0, std::min(kh_, (padTop_ + h_ - o * sh_ + dh_ - 1) / dh_));
    s.kh = a1 - a0;
    // The bias less zx * sum(w) of those rows.
    for (int64_t cb = 0; cb < cp_; cb += kLanes) {
      __m512i v = _mm512_loadu_si512(bias_.data() + cb);
      for (int64_t a = a0; a < a1; ++a)
        v = _mm512_sub_epi32(v, _mm512_loadu_si512(rowCorrection_.data() + a * cp_ + cb));
      _mm512_storeu_si512(rowBias.data() + cb, v);
    }
    const int32_t* rowIn = image_.data() + (o * sh_ + a0 * dh_) * wb_ * cp_;
    uint8_t* rowOut = y + o * ow_ * c_;
    for (int64_t cb = 0; cb < cp_; cb += kLanes) {
      const __mmask16 m = lanes(c_ - cb);
      const int32_t* w = weights_.data() + a0 * quads_ * cp_ + cb;
      const Channels ch{rowBias.data() + cb, requant_.mult.data() + cb, requant_.multf.data() + cb};
      const int32_t* in = rowIn + cb;
      uint8_t* out = rowOut + cb;
      if (quads_ == 1)
        outputRow<1, 1>(in, w, s, ch, q, out, ow_, c_, m);
      else if (quads_ == 2 && s.quadCol == 4 * s.out)
        outputRow<2, 4>(in, w, s, ch, q, out, ow_, c_, m);
      else if (quads_ == 2 && s.quadCol == 2 * s.out)
        outputRow<2, 2>(in, w, s, ch, q, out, ow_, c_, m);
      else
        outputRow<0, 0>(in, w, s, ch, q, out, ow_, c_, m);
    }
  }
}

#else
void QLinearDepthwiseNhwc::fillImage(const uint8_t*, int64_t, int64_t) {}
void QLinearDepthwiseNhwc::computeRows(uint8_t*, int64_t, int64_t) const {}
#endif

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
  // Work per output row, in multiply-adds: small rows stay on one thread.
  const int64_t perRow = std::max<int64_t>(1, ow_ * cp_ * kh_ * kw_);
  const int64_t minRows = std::max<int64_t>(1, (int64_t{1} << 16) / perRow);
  for (int64_t i = 0; i < n_; ++i) {
    const uint8_t* xi = xb + i * h_ * w_ * c_;
    // Input rows that fall inside the image (stride and dilation may skip the last ones).
    const int64_t rows = std::max<int64_t>(0, std::min(h_, hb_ - padTop_));
    parallelFor(rows, threads, minRows,
                [&](int64_t first, int64_t last) { fillImage(xi, first, last); });
    uint8_t* yi = yb + i * oh_ * ow_ * c_;
    parallelFor(oh_, threads, minRows,
                [&](int64_t first, int64_t last) { computeRows(yi, first, last); });
  }
}

}  // namespace passlab::exec::cpu
