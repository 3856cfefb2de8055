#include "core/exec/cpu/conv_few_outputs.h"

#include "core/support/x86_intrinsics.h"

#include <algorithm>
#include <cstring>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/transpose16_avx512.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

using avx512::kLanes;

// Where one output row's taps read: the image (padded or as given), its row
// stride, each tap's offset from the tap (0, 0) over every input channel and
// the weights regrouped as [C, KH, KW, M], one entry per tap.
struct RowSource {
  const float* image = nullptr;  // channel 0, row 0, column 0 of the (padded) image
  int64_t rowStride = 0;
  int64_t taps = 0;                  // C * KH * KW
  const int32_t* offsets = nullptr;  // [taps]
  const float* weights = nullptr;    // [taps, M]
  const float* bias = nullptr;
};

// Stores 16 output channels of 16 columns (r[m]: channel m) into a blocked Y
// (nChw16c) at `out`, the first column's 16 channels, through a transpose;
// `mask` says which columns are stored.
__attribute__((target("avx512f"))) inline void storeBlockedColumns(__m512 r[kLanes], float* out,
                                                                   __mmask16 mask) {
  transpose16(r);
  if (mask == 0xFFFF) {
#pragma GCC unroll 16
    for (int j = 0; j < kLanes; ++j) _mm512_storeu_ps(out + j * kLanes, r[j]);
  } else {
    for (int j = 0; j < kLanes; ++j)
      if (mask >> j & 1) _mm512_storeu_ps(out + j * kLanes, r[j]);
  }
}

// Adds every tap of every input channel to M output channels of V vectors of
// 16 columns starting at `in` (the tap (0, 0) of the first column) and stores
// them at out[m]; `mask` limits the last vector (all ones for full vectors).
// One loop over the taps, and the small loops unrolled (all of them: a
// partly unrolled loop over 9 outputs left the sums on the stack) before GCC decides
// where the sums live (the pragmas), so that the M x V sums stay in
// registers instead of going through the stack at every tap.
template <int M, int V, bool BlockedY>
__attribute__((target("avx512f"))) void columnTile(const RowSource& src, const float* in,
                                                   float* const* out, __mmask16 mask) {
  __m512 acc[M][V];
#pragma GCC unroll 16
  for (int m = 0; m < M; ++m)
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v) acc[m][v] = _mm512_set1_ps(src.bias ? src.bias[m] : 0.0f);
  const int32_t* __restrict offsets = src.offsets;
  const float* __restrict w = src.weights;
  const int64_t taps = src.taps;
  for (int64_t t = 0; t < taps; ++t, w += M) {
    const float* p = in + offsets[t];
    __m512 xv[V];
#pragma GCC unroll 16
    for (int v = 0; v < V - 1; ++v) xv[v] = _mm512_loadu_ps(p + v * kLanes);
    xv[V - 1] = _mm512_maskz_loadu_ps(mask, p + (V - 1) * kLanes);
#pragma GCC unroll 16
    for (int m = 0; m < M; ++m) {
      const __m512 wm = _mm512_set1_ps(w[m]);
#pragma GCC unroll 16
      for (int v = 0; v < V; ++v) acc[m][v] = _mm512_fmadd_ps(xv[v], wm, acc[m][v]);
    }
  }
  if constexpr (BlockedY) {
    // Copied out of acc (not passed by reference: acc would live in memory
    // through the tap loop), the padding channels zero.
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) {
      __m512 r[kLanes];
#pragma GCC unroll 16
      for (int m = 0; m < kLanes; ++m) r[m] = m < M ? acc[m < M ? m : 0][v] : _mm512_setzero_ps();
      storeBlockedColumns(r, out[0] + v * kLanes * kLanes, v < V - 1 ? __mmask16{0xFFFF} : mask);
    }
  } else {
#pragma GCC unroll 16
    for (int m = 0; m < M; ++m) {
#pragma GCC unroll 16
      for (int v = 0; v < V - 1; ++v) _mm512_storeu_ps(out[m] + v * kLanes, acc[m][v]);
      _mm512_mask_storeu_ps(out[m] + (V - 1) * kLanes, mask, acc[m][V - 1]);
    }
  }
}

// One output row of every output channel: 64 columns at a time (32 for
// more than 4 outputs: M x V sums and V inputs within the 32 registers),
// then 16, then the masked rest.
// With BlockedY, Y is nChw16c (out[0] the row's first column, 16 floats a
// column).
template <int M, bool BlockedY>
__attribute__((target("avx512f"))) void outputRow(const ConvFewOutputsShape& s,
                                                  const RowSource& src, int64_t oy, float* y) {
  constexpr int kWide = M <= 4 ? 4 : 2;
  constexpr int64_t kColumn = BlockedY ? kLanes : 1;  // Y's floats from one column to the next
  const float* in = src.image + oy * src.rowStride;
  const int64_t plane = s.OH * s.OW;
  float* out[M];
  for (int m = 0; m < M; ++m)
    out[m] = BlockedY ? y + oy * s.OW * kLanes : y + m * plane + oy * s.OW;
  const __mmask16 all = 0xFFFF;
  int64_t ox = 0;
  auto shifted = [&](int64_t by) {
    for (int m = 0; m < M; ++m) out[m] += by * kColumn;
    in += by;
  };
  for (; ox + kWide * kLanes <= s.OW; ox += kWide * kLanes, shifted(kWide * kLanes))
    columnTile<M, kWide, BlockedY>(src, in, out, all);
  for (; ox + kLanes <= s.OW; ox += kLanes, shifted(kLanes))
    columnTile<M, 1, BlockedY>(src, in, out, all);
  if (ox < s.OW) columnTile<M, 1, BlockedY>(src, in, out, avx512::lanes(s.OW - ox));
}

using RowFn = void (*)(const ConvFewOutputsShape&, const RowSource&, int64_t, float*);

template <bool BlockedY>
RowFn rowFunction(int64_t M) {
  switch (M) {
    case 1:
      return outputRow<1, BlockedY>;
    case 2:
      return outputRow<2, BlockedY>;
    case 3:
      return outputRow<3, BlockedY>;
    case 4:
      return outputRow<4, BlockedY>;
    case 5:
      return outputRow<5, BlockedY>;
    case 6:
      return outputRow<6, BlockedY>;
    case 7:
      return outputRow<7, BlockedY>;
    case 8:
      return outputRow<8, BlockedY>;
    default:
      return outputRow<9, BlockedY>;
  }
}

bool hasPads(const ConvFewOutputsShape& s) {
  return s.padTop || s.padLeft || s.padBottom || s.padRight;
}
// The loop reads a copy of X: with pads (a zero border) or blocked X (NCHW).
bool readsCopy(const ConvFewOutputsShape& s) {
  return hasPads(s) || s.xBlock != 0;
}
int64_t paddedH(const ConvFewOutputsShape& s) {
  return s.H + s.padTop + s.padBottom;
}
int64_t paddedW(const ConvFewOutputsShape& s) {
  return s.W + s.padLeft + s.padRight;
}

// w [M, C, KH, KW] -> weights [C, KH, KW, M]: the M weights of one tap adjacent.
void regroupWeights(const ConvFewOutputsShape& s, const float* w, float* weights) {
  const int64_t perFilter = s.C * s.KH * s.KW;
  for (int64_t t = 0; t < perFilter; ++t)
    for (int64_t m = 0; m < s.M; ++m) weights[t * s.M + m] = w[m * perFilter + t];
}

// Each tap's offset in an image of these strides, in the order of the weights.
void tapOffsets(const ConvFewOutputsShape& s, int64_t channelStride, int64_t rowStride,
                int32_t* offsets) {
  for (int64_t c = 0; c < s.C; ++c)
    for (int64_t kh = 0; kh < s.KH; ++kh)
      for (int64_t kw = 0; kw < s.KW; ++kw)
        *offsets++ = static_cast<int32_t>(c * channelStride + kh * s.dilationH * rowStride +
                                          kw * s.dilationW);
}

// One image's channels copied inside a zero border of the pads' widths.
void copyWithBorder(const ConvFewOutputsShape& s, const float* x, float* padded, int threads) {
  const int64_t hp = paddedH(s), wp = paddedW(s);
  parallelFor(s.C, threads, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      float* dst = padded + c * hp * wp;
      std::memset(dst, 0, sizeof(float) * static_cast<size_t>(hp * wp));
      for (int64_t r = 0; r < s.H; ++r)
        std::memcpy(dst + (r + s.padTop) * wp + s.padLeft, x + (c * s.H + r) * s.W,
                    sizeof(float) * static_cast<size_t>(s.W));
    }
  });
}

// Row r of the `channels` channels of one group of a blocked X (b floats a
// column, `in` the row's first column) into the channels' rows at dst
// (`plane` floats apart): 16 columns at a time through a 16x16 transpose when
// b is 16, the rest one by one.
__attribute__((target("avx512f"))) void unblockRow(const float* in, int64_t b, int64_t channels,
                                                   int64_t W, float* dst, int64_t plane) {
  int64_t col = 0;
  if (b == kLanes)
    for (; col + kLanes <= W; col += kLanes) {
      __m512 r[kLanes];
      for (int j = 0; j < kLanes; ++j) r[j] = _mm512_loadu_ps(in + (col + j) * kLanes);
      transpose16(r);
      for (int64_t l = 0; l < channels; ++l) _mm512_storeu_ps(dst + l * plane + col, r[l]);
    }
  for (; col < W; ++col)
    for (int64_t l = 0; l < channels; ++l) dst[l * plane + col] = in[col * b + l];
}

// One image of a blocked X ([ceil(C/b), H, W, b]) as NCHW inside a zero
// border of the pads' widths.
void copyBlockedWithBorder(const ConvFewOutputsShape& s, const float* x, float* padded,
                           int threads) {
  const int64_t hp = paddedH(s), wp = paddedW(s), b = s.xBlock;
  const int64_t groups = (s.C + b - 1) / b;
  parallelFor(groups, threads, 1, [&](int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
      const int64_t channels = std::min(b, s.C - g * b);
      float* dst = padded + g * b * hp * wp;
      std::memset(dst, 0, sizeof(float) * static_cast<size_t>(channels * hp * wp));
      for (int64_t r = 0; r < s.H; ++r)
        unblockRow(x + (g * s.H + r) * s.W * b, b, channels, s.W,
                   dst + (r + s.padTop) * wp + s.padLeft, hp * wp);
    }
  });
}

}  // namespace

bool runsAsFewOutputs(const ConvGeometry& g) {
  if (!cpu_isa::hasAvx512f() || g.spatial() != 2 || g.group != 1 || g.M < 1 || g.M > kFewOutputsMax)
    return false;
  if (g.stride[0] != 1 || g.stride[1] != 1) return false;
  for (int64_t p : g.padBegin)
    if (p < 0) return false;
  for (int64_t p : g.padEnd)
    if (p < 0) return false;
  // The taps' offsets are int32.
  const int64_t padded =
      (g.in[0] + g.padBegin[0] + g.padEnd[0]) * (g.in[1] + g.padBegin[1] + g.padEnd[1]);
  if (g.C * padded >= (int64_t{1} << 31)) return false;
  return g.out[0] * g.out[1] >= 1024;
}

ConvFewOutputsShape fewOutputsShape(const ConvGeometry& g) {
  ConvFewOutputsShape s;
  s.N = g.N;
  s.C = g.C;
  s.M = g.M;
  s.H = g.in[0];
  s.W = g.in[1];
  s.KH = g.kernel[0];
  s.KW = g.kernel[1];
  s.dilationH = g.dilation[0];
  s.dilationW = g.dilation[1];
  s.padTop = g.padBegin[0];
  s.padLeft = g.padBegin[1];
  s.padBottom = g.padEnd[0];
  s.padRight = g.padEnd[1];
  s.OH = g.out[0];
  s.OW = g.out[1];
  return s;
}

int64_t fewOutputsScratchFloats(const ConvFewOutputsShape& s) {
  const int64_t taps = s.C * s.KH * s.KW;
  // Weights, then the int32 offsets (one float's room each), then the image.
  return taps * s.M + taps + (readsCopy(s) ? s.C * paddedH(s) * paddedW(s) : 0);
}

void convFewOutputs(const ConvFewOutputsShape& s, const float* x, const float* w, const float* bias,
                    float* y, float* scratch, int threads) {
  static_assert(sizeof(int32_t) == sizeof(float));
  const int64_t taps = s.C * s.KH * s.KW;
  float* weights = scratch;
  auto* offsets = reinterpret_cast<int32_t*>(scratch + taps * s.M);
  float* padded = scratch + taps * s.M + taps;
  regroupWeights(s, w, weights);
  const bool copy = readsCopy(s);
  const int64_t rowStride = copy ? paddedW(s) : s.W;
  tapOffsets(s, copy ? paddedH(s) * paddedW(s) : s.H * s.W, rowStride, offsets);
  const RowFn row = s.yBlock ? rowFunction<true>(s.M) : rowFunction<false>(s.M);
  const int64_t macsPerRow = s.OW * taps * s.M;
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 20) / std::max<int64_t>(1, macsPerRow));
  const int64_t xImage =
      s.xBlock ? (s.C + s.xBlock - 1) / s.xBlock * s.xBlock * s.H * s.W : s.C * s.H * s.W;
  const int64_t yImage = (s.yBlock ? s.yBlock : s.M) * s.OH * s.OW;
  for (int64_t n = 0; n < s.N; ++n) {
    const float* image = x + n * xImage;
    if (s.xBlock)
      copyBlockedWithBorder(s, image, padded, threads);
    else if (copy)
      copyWithBorder(s, image, padded, threads);
    const RowSource src{copy ? padded : image, rowStride, taps, offsets, weights, bias};
    float* out = y + n * yImage;
    parallelFor(s.OH, threads, grain, [&](int64_t r0, int64_t r1) {
      for (int64_t oy = r0; oy < r1; ++oy) row(s, src, oy, out);
    });
  }
}

}  // namespace passlab::exec::cpu
