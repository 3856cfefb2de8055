// The templates of qlinear_depthwise_nhwc_256.h's kernels, included twice by
// qlinear_depthwise_nhwc_256.cpp (hence no include guard), inside a
// namespace of its own each time, after defining
//   PASSLAB_DW256_TARGET  the functions' target attribute, and
//   PASSLAB_DW256_VNNI    1: uint8 quads and AVX-VNNI's vpdpbusd; 0: int16
//                         pairs and AVX2's vpmaddwd + vpaddd.
// The includer has included <algorithm>, <cstring>, qlinear_depthwise_nhwc_256.h,
// qlinear_requant8.h and the intrinsics. The AVX-512 kernel
// (qlinear_depthwise_nhwc.cpp) is the model: the same ring layout (columns
// of 16 int32 lanes), the same blocks of outputs with columns shared where
// a row's tap groups fall on other outputs' columns.

// NOLINTBEGIN(misc-definitions-in-headers)
constexpr int kTaps = PASSLAB_DW256_VNNI ? kVnniTaps : kPairTaps;
constexpr int kTapBits = 32 / kTaps;  // a tap's bits in its int32 lane
constexpr int64_t kColumn = 16;       // int32 lanes of a ring column (one block of channels)
constexpr int64_t kHalf = 8;          // lanes of a 256-bit register
constexpr int kOutputs = 8;           // outputs summed at once

// acc + the tap products of v (activations as uint8) and w (weights):
// exact int32 sums (qlinear_depthwise_nhwc_256.h).
PASSLAB_DW256_TARGET inline __m256i dot(__m256i acc, __m256i v, __m256i w) {
#if PASSLAB_DW256_VNNI
  return _mm256_dpbusd_avx_epi32(acc, v, w);
#else
  return _mm256_add_epi32(acc, _mm256_madd_epi16(v, w));
#endif
}

// 8 channels of an input row, from its first.
struct Half {
  const uint8_t* x;
  int64_t width, channels;
  int n;         // channels of the 8 in the input (the others: weights 0)
  __m128i flip;  // 0x80 bytes for int8 input (x + 128), else 0
  __m256i pad;   // the zero point as uint8: what the padding holds
};

// Column iw of the row as uint8 in int32 lanes, or the zero point in the padding.
PASSLAB_DW256_TARGET inline __m256i pixel(const Half& h, int64_t iw) {
  if (iw < 0 || iw >= h.width) return h.pad;
  const uint8_t* p = h.x + iw * h.channels;
  __m128i v;
  if (h.n >= kHalf) {
    v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  } else {
    uint64_t bytes = 0;
    std::memcpy(&bytes, p, static_cast<size_t>(h.n));
    v = _mm_cvtsi64_si128(static_cast<long long>(bytes));
  }
  return _mm256_cvtepu8_epi32(_mm_xor_si128(v, h.flip));
}

// The taps' values v[0..kTaps) in one lane each, v[0] lowest.
PASSLAB_DW256_TARGET inline __m256i tapGroup(const __m256i* v) {
  __m256i g = v[0];
#pragma GCC unroll 4
  for (int t = 1; t < kTaps; ++t) g = _mm256_or_si256(g, _mm256_slli_epi32(v[t], t * kTapBits));
  return g;
}

// Columns [colBegin, colEnd) of one half: column col's taps read input
// columns col - padLeft + t dw (a window of the last kTaps columns at dw 1).
PASSLAB_DW256_TARGET inline void fillHalf(const Half& h, int32_t* out, int64_t colBegin,
                                          int64_t colEnd, int64_t padLeft, int64_t dw) {
  __m256i v[kTaps];
  if (dw == 1) {
#pragma GCC unroll 4
    for (int t = 0; t + 1 < kTaps; ++t) v[t] = pixel(h, colBegin - padLeft + t);
    for (int64_t col = colBegin; col < colEnd; ++col) {
      v[kTaps - 1] = pixel(h, col - padLeft + kTaps - 1);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + col * kColumn), tapGroup(v));
#pragma GCC unroll 4
      for (int t = 0; t + 1 < kTaps; ++t) v[t] = v[t + 1];
    }
    return;
  }
  for (int64_t col = colBegin; col < colEnd; ++col) {
#pragma GCC unroll 4
    for (int t = 0; t < kTaps; ++t) v[t] = pixel(h, col - padLeft + t * dw);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + col * kColumn), tapGroup(v));
  }
}

PASSLAB_DW256_TARGET void fillRow(const FillArgs& a) {
  const uint32_t repeat = kTaps == 4 ? 0x01010101u : 0x00010001u;
  const __m256i padAll =
      _mm256_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(a.xZeroU) * repeat));
  const __m256i padLane = _mm256_set1_epi32(a.xZeroU);
  const __m128i flip = _mm_set1_epi8(static_cast<char>(a.xSigned ? 0x80 : 0));
  // Columns whose taps read the input (the others: only padding).
  const int64_t colBegin = std::min(a.wb, std::max<int64_t>(0, a.padLeft - (kTaps - 1) * a.dw));
  const int64_t colEnd = std::max(colBegin, std::min(a.wb, a.padLeft + a.width));
  for (int64_t b = 0; b < a.blocks; ++b) {
    for (int64_t half = 0; half < 2; ++half) {
      const int64_t cb = (a.block + b) * kColumn + half * kHalf;
      if (cb >= a.channels) break;  // padding channels: never read
      int32_t* o = a.out + b * a.blockStride + half * kHalf;
      for (int64_t col = 0; col < colBegin; ++col)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + col * kColumn), padAll);
      for (int64_t col = colEnd; col < a.wb; ++col)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + col * kColumn), padAll);
      const Half h{a.row + cb, a.width,
                   a.channels, static_cast<int>(std::min<int64_t>(kHalf, a.channels - cb)),
                   flip,       padLane};
      fillHalf(h, o, colBegin, colEnd, a.padLeft, a.dw);
    }
  }
}

// Where a block of outputs reads (int32 lanes): the kernel rows' ring rows,
// the next tap group of a row, the next output, the weights' group stride.
struct Steps {
  const int32_t* const* rows;
  int64_t kh, groups, groupCol, out, cp;
};

// B outputs of 8 channels from lane `at` of the ring rows: the bias + the
// sums over every tap group of every kernel row.
template <int B>
PASSLAB_DW256_TARGET inline void sumBlock(int64_t at, const int32_t* w, const Steps& s,
                                          __m256i bias, __m256i* acc) {
#pragma GCC unroll 8
  for (int j = 0; j < B; ++j) acc[j] = bias;
  for (int64_t a = 0; a < s.kh; ++a) {
    const int32_t* row = s.rows[a] + at;
    const int32_t* wr = w + a * s.groups * s.cp;
    for (int64_t p = 0; p < s.groups; ++p) {
      const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wr + p * s.cp));
      const int32_t* in = row + p * s.groupCol;
#pragma GCC unroll 8
      for (int j = 0; j < B; ++j)
        acc[j] =
            dot(acc[j], _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + j * s.out)), wv);
    }
  }
}

// The same for Q tap groups per kernel row where group p of output j is
// the column of output j + S p (groupCol == S * out, out == SW * 16): each
// column loaded once for all its outputs and groups.
template <int B, int Q, int S, int SW>
PASSLAB_DW256_TARGET inline void sumBlockShared(int64_t at, const int32_t* w, const Steps& s,
                                                __m256i bias, __m256i* acc) {
  constexpr int kCols = B + S * (Q - 1);
  constexpr int64_t kOut = SW * kColumn;
#pragma GCC unroll 8
  for (int j = 0; j < B; ++j) acc[j] = bias;
  for (int64_t a = 0; a < s.kh; ++a) {
    const int32_t* row = s.rows[a] + at;
    asm("" : "+r"(row));
    const int32_t* wr = w + a * Q * s.cp;
    __m256i wv[Q];
#pragma GCC unroll 4
    for (int p = 0; p < Q; ++p)
      wv[p] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wr + p * s.cp));
#pragma GCC unroll 16
    for (int i = 0; i < kCols; ++i) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + i * kOut));
#pragma GCC unroll 4
      for (int p = 0; p < Q; ++p) {
        const int j = i - S * p;
        if (j >= 0 && j < B) acc[j] = dot(acc[j], v, wv[p]);
      }
    }
  }
}

// The requantization's inputs for 8 channels.
struct Out8 {
  const double* mult;
  const float* multf;
  const requant8::Requant* q;
  int64_t c;  // the output's pixel stride
  int n;      // channels stored (1 to 8)
};

template <int B, int Q, int S, int SW>
PASSLAB_DW256_TARGET inline void outputBlock(int64_t at, const int32_t* w, const Steps& s,
                                             __m256i bias, const Out8& o, uint8_t* y) {
  __m256i acc[B];
  if constexpr (Q > 0)
    sumBlockShared<B, Q, S, SW>(at, w, s, bias, acc);
  else
    sumBlock<B>(at, w, s, bias, acc);
#pragma GCC unroll 8
  for (int j = 0; j < B; ++j) requant8::storeSum8(acc[j], o.mult, o.multf, *o.q, y + j * o.c, o.n);
}

// One output row of 8 channels, outputs [0, ow): blocks of 8, 4, 2, 1.
template <int Q, int S, int SW>
PASSLAB_DW256_TARGET inline void outputRow(int64_t at, const int32_t* w, const Steps& s,
                                           __m256i bias, const Out8& o, uint8_t* y, int64_t ow) {
  int64_t j = 0;
  for (; j + kOutputs <= ow; j += kOutputs)
    outputBlock<kOutputs, Q, S, SW>(at + j * s.out, w, s, bias, o, y + j * o.c);
  for (; j + 4 <= ow; j += 4) outputBlock<4, Q, S, SW>(at + j * s.out, w, s, bias, o, y + j * o.c);
  for (; j + 2 <= ow; j += 2) outputBlock<2, Q, S, SW>(at + j * s.out, w, s, bias, o, y + j * o.c);
  for (; j < ow; ++j) outputBlock<1, Q, S, SW>(at + j * s.out, w, s, bias, o, y + j * o.c);
}

PASSLAB_DW256_TARGET void computeRow(const ComputeArgs& a) {
  const Steps s{a.rows, a.kh, a.groups, kTaps * a.dw * kColumn, a.sw * kColumn, a.cp};
  const requant8::Requant q = requant8::constants(*a.requant, a.fast);
  const int64_t g = a.groups;
  const bool d1 = a.dw == 1;
  for (int64_t b = 0; b < a.blocks; ++b) {
    for (int64_t half = 0; half < 2; ++half) {
      const int64_t cb = (a.block + b) * kColumn + half * kHalf;
      if (cb >= a.channels) break;
      // The bias less zx * sum(w) of the kernel rows summed.
      __m256i bias = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.bias + cb));
      for (int64_t r = 0; r < a.kh; ++r)
        bias = _mm256_sub_epi32(
            bias,
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.rowCorrection + r * a.cp + cb)));
      const Out8 o{a.requant->mult.data() + cb, a.requant->multf.data() + cb, &q, a.channels,
                   static_cast<int>(std::min<int64_t>(kHalf, a.channels - cb))};
      const int64_t at = b * a.blockStride + half * kHalf;
      const int32_t* w = a.weights + cb;
      uint8_t* y = a.y + cb;
      if (g == 1 && a.sw == 1)
        outputRow<1, 1, 1>(at, w, s, bias, o, y, a.ow);
      else if (g == 1 && a.sw == 2)
        outputRow<1, 1, 2>(at, w, s, bias, o, y, a.ow);
      else if (g == 2 && d1 && a.sw == 1)
        outputRow<2, kTaps, 1>(at, w, s, bias, o, y, a.ow);
      else if (g == 2 && d1 && a.sw == 2)
        outputRow<2, kTaps / 2, 2>(at, w, s, bias, o, y, a.ow);
      else if (g == 3 && d1 && a.sw == 1)
        outputRow<3, kTaps, 1>(at, w, s, bias, o, y, a.ow);
      else if (g == 3 && d1 && a.sw == 2)
        outputRow<3, kTaps / 2, 2>(at, w, s, bias, o, y, a.ow);
      else
        outputRow<0, 0, 0>(at, w, s, bias, o, y, a.ow);
    }
  }
}
// NOLINTEND(misc-definitions-in-headers)
