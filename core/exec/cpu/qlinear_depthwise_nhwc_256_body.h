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

// 16 channels (one block) of an input row, from its first.
struct Block {
  const uint8_t* x;
  int64_t width, channels;
  int n;          // channels of the 16 in the input (the others: weights 0)
  __m128i flip;   // 0x80 bytes for int8 input (x + 128), else 0
  __m128i pad;    // the zero point as uint8 in every byte: what the padding holds
  __m128i shift;  // bits the 8 bytes ending at channel n move down (n not 16 or 8)
};

// Column iw of the block as 16 uint8, or the zero point in the padding;
// N: the channels in the input, 16 or 8 (one load); 9: 9 to 15 (the first
// 8, and the 8 ending at n moved down to follow them); 1: 1 to 7 (the 8
// ending at n moved down: the row has 8 channels or more, so they lie in
// the input); else 0 (k.n of them copied). Bytes past n: any value (their
// weights are 0).
template <int N>
PASSLAB_DW256_TARGET inline __m128i column(const Block& k, int64_t iw) {
  if (iw < 0 || iw >= k.width) return k.pad;
  const uint8_t* p = k.x + iw * k.channels;
  if constexpr (N == 16) {
    return _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), k.flip);
  } else if constexpr (N == 8) {
    return _mm_xor_si128(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)), k.flip);
  } else if constexpr (N == 9) {
    const __m128i lo = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    const __m128i end = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + k.n - 8));
    return _mm_xor_si128(_mm_unpacklo_epi64(lo, _mm_srl_epi64(end, k.shift)), k.flip);
  } else if constexpr (N == 1) {
    const __m128i end = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + k.n - 8));
    return _mm_xor_si128(_mm_srl_epi64(end, k.shift), k.flip);
  } else {
    alignas(16) uint8_t bytes[16] = {};
    std::memcpy(bytes, p, static_cast<size_t>(k.n));
    return _mm_xor_si128(_mm_load_si128(reinterpret_cast<const __m128i*>(bytes)), k.flip);
  }
}

// One ring column of the block (16 int32 lanes) from the bytes of its taps'
// input columns v[0..kTaps), v[0] lowest in each lane. Pairs: bytes
// interleaved (v0 c, v1 c, ...) and widened to int16 (v0 c | v1 c << 16).
// Quads: pairs of bytes interleaved again in 16 bits (v0 v1 v2 v3 of c).
PASSLAB_DW256_TARGET inline void storeColumn(const __m128i* v, int32_t* out) {
  const __m128i lo = _mm_unpacklo_epi8(v[0], v[1]), hi = _mm_unpackhi_epi8(v[0], v[1]);
#if PASSLAB_DW256_VNNI
  const __m128i lo2 = _mm_unpacklo_epi8(v[2], v[3]), hi2 = _mm_unpackhi_epi8(v[2], v[3]);
  auto* o = reinterpret_cast<__m128i*>(out);
  _mm_storeu_si128(o, _mm_unpacklo_epi16(lo, lo2));
  _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(lo, lo2));
  _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(hi, hi2));
  _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(hi, hi2));
#else
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_cvtepu8_epi16(lo));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + kHalf), _mm256_cvtepu8_epi16(hi));
#endif
}

// Columns [colBegin, colEnd) of one block: column col's taps read input
// columns col - padLeft + t dw (at dw 1 a window of the last kTaps columns);
// step 2: only the even columns (FillArgs::evenColumns).
template <int N>
PASSLAB_DW256_TARGET inline void fillBlock(const Block& k, int32_t* out, int64_t colBegin,
                                           int64_t colEnd, int64_t padLeft, int64_t dw,
                                           int64_t step) {
  __m128i v[kTaps];
  if (step == 2) {
    for (int64_t col = colBegin + colBegin % 2; col < colEnd; col += 2) {
#pragma GCC unroll 4
      for (int t = 0; t < kTaps; ++t) v[t] = column<N>(k, col - padLeft + t * dw);
      storeColumn(v, out + col * kColumn);
    }
    return;
  }
  if (dw == 1) {
#pragma GCC unroll 4
    for (int t = 0; t + 1 < kTaps; ++t) v[t] = column<N>(k, colBegin - padLeft + t);
    for (int64_t col = colBegin; col < colEnd; ++col) {
      v[kTaps - 1] = column<N>(k, col - padLeft + kTaps - 1);
      storeColumn(v, out + col * kColumn);
#pragma GCC unroll 4
      for (int t = 0; t + 1 < kTaps; ++t) v[t] = v[t + 1];
    }
    return;
  }
  for (int64_t col = colBegin; col < colEnd; ++col) {
#pragma GCC unroll 4
    for (int t = 0; t < kTaps; ++t) v[t] = column<N>(k, col - padLeft + t * dw);
    storeColumn(v, out + col * kColumn);
  }
}

PASSLAB_DW256_TARGET void fillRow(const FillArgs& a) {
  const uint32_t repeat = kTaps == 4 ? 0x01010101u : 0x00010001u;
  const __m256i padAll =
      _mm256_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(a.xZeroU) * repeat));
  const __m128i padBytes = _mm_set1_epi8(static_cast<char>(a.xZeroU));
  const __m128i flip = _mm_set1_epi8(static_cast<char>(a.xSigned ? 0x80 : 0));
  // Columns whose taps read the input (the others: only padding).
  const int64_t colBegin = std::min(a.wb, std::max<int64_t>(0, a.padLeft - (kTaps - 1) * a.dw));
  const int64_t colEnd = std::max(colBegin, std::min(a.wb, a.padLeft + a.width));
  for (int64_t b = 0; b < a.blocks; ++b) {
    const int64_t cb = (a.block + b) * kColumn;
    int32_t* o = a.out + b * a.blockStride;
    for (int64_t col = 0; col < colBegin; ++col)
      for (int64_t half = 0; half < 2; ++half)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + col * kColumn + half * kHalf), padAll);
    for (int64_t col = colEnd; col < a.wb; ++col)
      for (int64_t half = 0; half < 2; ++half)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + col * kColumn + half * kHalf), padAll);
    const int n = static_cast<int>(std::min<int64_t>(kColumn, a.channels - cb));
    const int64_t step = a.evenColumns ? 2 : 1;
    // The 8 bytes ending at channel n hold n - 8 (or n) of the block's: the others go.
    const int drop = n > 8 ? 16 - n : 8 - n;
    const Block k{a.row + cb, a.width, a.channels, n, flip, padBytes, _mm_cvtsi32_si128(8 * drop)};
    if (n == 16)
      fillBlock<16>(k, o, colBegin, colEnd, a.padLeft, a.dw, step);
    else if (n == 8)
      fillBlock<8>(k, o, colBegin, colEnd, a.padLeft, a.dw, step);
    else if (n > 8)
      fillBlock<9>(k, o, colBegin, colEnd, a.padLeft, a.dw, step);
    else if (a.channels >= 8)
      fillBlock<1>(k, o, colBegin, colEnd, a.padLeft, a.dw, step);
    else
      fillBlock<0>(k, o, colBegin, colEnd, a.padLeft, a.dw, step);
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
