// The templates of qlinear_pointwise_nhwc_avx2.h's kernels, included twice by
// qlinear_pointwise_nhwc_avx2.cpp (hence no include guard), inside a namespace
// of its own each time, after defining
//   PASSLAB_PW256_TARGET  the functions' target attribute, and
//   PASSLAB_PW256_VNNI    1: AVX-VNNI's vpdpbusd; 0: AVX2's vpmaddubsw,
//                         vpmaddwd by 1 and vpaddd (weights in [-64, 64]);
//   PASSLAB_PW256_INT16   1 (with VNNI 0): int16 pairs, vpmaddwd and vpaddd
//                         (any weights; Dot::kAvx2Int16's weight layout).
// Each path is compiled for its own instruction set only, so the AVX2 one
// holds no AVX-VNNI instruction whatever the compiler folds (clang turns
// vpmaddwd + vpaddd into vpdpwssd where AVX-VNNI is enabled). The includer
// has included <algorithm>, <cstring>, qlinear_pointwise_nhwc_avx2.h and the
// intrinsics.

// NOLINTBEGIN(misc-definitions-in-headers)
#define PASSLAB_PW256_INLINE PASSLAB_PW256_TARGET inline __attribute__((always_inline))

constexpr int64_t kLanes = 8;  // int32 lanes of a 256-bit register

// acc + the sums of four u8 x s8 products per lane: vpdpbusd (AVX-VNNI),
// exact for any weights; or vpmaddubsw, vpmaddwd by 1 and vpaddd, exact where
// no pair sum saturates int16 (weights in [-64, 64]). The AVX2 one is built
// for AVX2 + FMA alone: with AVX-VNNI in the target clang folds vpmaddwd +
// vpaddd into vpdpwssd, an AVX-VNNI instruction.
PASSLAB_PW256_INLINE __m256i dot(__m256i acc, __m256i x, __m256i w, __m256i ones) {
#if PASSLAB_PW256_VNNI
  (void)ones;
  return _mm256_dpbusd_avx_epi32(acc, x, w);
#else
  return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), ones));
#endif
}

// The output's constants in registers.
struct Consts {
  __m256d zero, lo, hi;
  __m256i magicToZero;  // y_zero_point - the bits of 1.5 * 2^23 (qlinear_requant16.h)
  bool ySigned, fast;
};

// 1.5 * 2^23 and its bits (qlinear_requant16.h's kMagic, kMagicBits).
constexpr float kMagic = 12582912.0f;
constexpr int32_t kMagicBits = 0x4B400000;

PASSLAB_PW256_TARGET Consts constants(const Layer& l) {
  return {_mm256_set1_pd(l.yZero),
          _mm256_set1_pd(l.yLo),
          _mm256_set1_pd(l.yHi),
          _mm256_set1_epi32(l.yZero - kMagicBits),
          l.yLo < 0,
          l.fast};
}

// Four input channels of a pixel in every int32 lane, as uint8 (int8 with
// its top bit flipped: x + 128). Count bytes (1 to 4) are read, the others
// are 0 (their weights are 0).
template <bool Signed, int Count>
PASSLAB_PW256_INLINE __m256i quad(const uint8_t* x, int64_t count) {
  uint32_t v = 0;
  std::memcpy(&v, x, Count == 4 ? 4 : static_cast<size_t>(count));
  if constexpr (Signed) v ^= 0x80808080u;
  return _mm256_set1_epi32(static_cast<int32_t>(v));
}

// One group of four input channels (Count 4, or the last `count` < 4) of R
// pixels into the R x V accumulators.
template <bool Signed, int R, int V, int Count>
PASSLAB_PW256_INLINE void sumQuad(const uint8_t* x, const int32_t* w, int64_t q, int64_t count,
                                  const Layer& l, __m256i ones, __m256i (&acc)[R * V]) {
#if PASSLAB_PW256_INT16
  // The quad's channels 4q, 4q+1 and 4q+2, 4q+3 as two int16 pairs per lane
  // (x zero-extended by vpshufb), times the weights' int16 pairs: vpmaddwd
  // sums each pair exactly in int32 (at most 2 x 255 x 128), any weights.
  (void)ones;
  const __m256i lowPair = _mm256_set1_epi32(static_cast<int32_t>(0x80018000u));
  const __m256i highPair = _mm256_set1_epi32(static_cast<int32_t>(0x80038002u));
  const int32_t* w0 = w + 2 * q * l.mp;
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const __m256i b = quad<Signed, Count>(x + r * l.c + 4 * q, count);
    const __m256i b0 = _mm256_shuffle_epi8(b, lowPair), b1 = _mm256_shuffle_epi8(b, highPair);
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) {
      const __m256i p0 = _mm256_madd_epi16(
          b0, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w0 + v * kLanes)));
      const __m256i p1 = _mm256_madd_epi16(
          b1, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w0 + l.mp + v * kLanes)));
      acc[r * V + v] = _mm256_add_epi32(acc[r * V + v], _mm256_add_epi32(p0, p1));
    }
  }
#else
  __m256i wv[V];
#pragma GCC unroll 4
  for (int v = 0; v < V; ++v)
    wv[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + q * l.mp + v * kLanes));
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const __m256i b = quad<Signed, Count>(x + r * l.c + 4 * q, count);
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) acc[r * V + v] = dot(acc[r * V + v], b, wv[v], ones);
  }
#endif
}

// R pixels by V vectors of 8 output channels from channel c0: the bias (less
// the zero-point correction) plus the sums of the products, in int32 (modulo
// 2^32, as the AVX-512 kernel adds them).
template <bool Signed, int R, int V>
PASSLAB_PW256_INLINE void sumBlock(const uint8_t* x, const Layer& l, int64_t c0,
                                   __m256i (&acc)[R * V]) {
  const int32_t* w = l.weights + c0;
#pragma GCC unroll 4
  for (int v = 0; v < V; ++v)
    acc[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(l.bias + c0 + v * kLanes));
#pragma GCC unroll 16
  for (int r = 1; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) acc[r * V + v] = acc[v];
  const __m256i ones = _mm256_set1_epi16(1);
  const int64_t quads = l.c / 4, tail = l.c % 4;
  for (int64_t q = 0; q < quads; ++q) sumQuad<Signed, R, V, 4>(x, w, q, 4, l, ones, acc);
  if (tail) sumQuad<Signed, R, V, 0>(x, w, quads, tail, l, ones, acc);
}

// The requantized sums (bias included) of channels ch..ch+7 as int32 before
// the saturation: (sum * mult) rounded half to even, + y_zero_point. In
// float32 where that is exact (one FMA onto 1.5 * 2^23, qlinear_requant16.h's
// storeSum16), else in double as the reference (clamped to the output's
// range already).
PASSLAB_PW256_INLINE __m256i requantized(__m256i acc, const Layer& l, int64_t ch, const Consts& k) {
  if (k.fast) {
    const __m256 p = _mm256_fmadd_ps(_mm256_cvtepi32_ps(acc), _mm256_loadu_ps(l.multf + ch),
                                     _mm256_set1_ps(kMagic));
    return _mm256_add_epi32(_mm256_castps_si256(p), k.magicToZero);
  }
  __m128i r[2];
#pragma GCC unroll 2
  for (int h = 0; h < 2; ++h) {
    const __m256d v =
        _mm256_cvtepi32_pd(h == 0 ? _mm256_castsi256_si128(acc) : _mm256_extracti128_si256(acc, 1));
    __m256d t = _mm256_mul_pd(v, _mm256_loadu_pd(l.mult + ch + 4 * h));
    t = _mm256_round_pd(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    t = _mm256_min_pd(_mm256_max_pd(_mm256_add_pd(t, k.zero), k.lo), k.hi);
    r[h] = _mm256_cvtpd_epi32(t);
  }
  return _mm256_set_m128i(r[1], r[0]);
}

// Four vectors of 8 requantized int32 as 32 bytes in their order (a's 8,
// then b's, c's, d's), saturated by two packs (int32 -> int16 signed, then
// int16 -> uint8 or int8: the same as one saturation to the output's range).
PASSLAB_PW256_INLINE __m256i pack4(__m256i a, __m256i b, __m256i c, __m256i d, bool ySigned) {
  const __m256i lo = _mm256_packs_epi32(a, b), hi = _mm256_packs_epi32(c, d);
  // Per 128-bit lane L the packs leave a[4L..4L+3], b[4L..], c[4L..], d[4L..].
  const __m256i bytes = ySigned ? _mm256_packs_epi16(lo, hi) : _mm256_packus_epi16(lo, hi);
  return _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

// The first n bytes (0 to 16) of v to y.
PASSLAB_PW256_INLINE void store16(uint8_t* y, __m128i v, int64_t n) {
  if (n >= 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y), v);
    return;
  }
  if (n >= 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y), v);
    v = _mm_srli_si128(v, 8);
    y += 8;
    n -= 8;
  }
  if (n > 0) {
    const uint64_t bits = static_cast<uint64_t>(_mm_cvtsi128_si64(v));
    std::memcpy(y, &bits, static_cast<size_t>(n));
  }
}

// The first n bytes (0 to 32) of v to y.
PASSLAB_PW256_INLINE void store32(uint8_t* y, __m256i v, int64_t n) {
  if (n >= 32) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y), v);
    return;
  }
  __m128i part = _mm256_castsi256_si128(v);
  if (n >= 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y), part);
    part = _mm256_extracti128_si256(v, 1);
    y += 16;
    n -= 16;
  }
  store16(y, part, n);
}

// The block's requantized outputs to y (pixel r's row at y + r m); `left`
// output channels from the block's first on (its last vector may be partial).
template <int R, int V>
PASSLAB_PW256_INLINE void storeBlock(const __m256i (&acc)[R * V], const Layer& l, int64_t c0,
                                     const Consts& k, uint8_t* y) {
  const int64_t left = l.m - c0;
  const __m256i zero = _mm256_setzero_si256();
  if constexpr (V >= 3) {
    // One pixel's 24 or 32 outputs per set of packs.
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      __m256i v[4];
#pragma GCC unroll 4
      for (int i = 0; i < 4; ++i)
        v[i] = i < V ? requantized(acc[r * V + i], l, c0 + i * kLanes, k) : zero;
      store32(y + r * l.m, pack4(v[0], v[1], v[2], v[3], k.ySigned),
              std::min<int64_t>(left, V * kLanes));
    }
  } else if constexpr (V == 2) {
    // Two pixels' 16 outputs per set of packs.
    const int64_t n = std::min<int64_t>(left, 16);
#pragma GCC unroll 8
    for (int r = 0; r < R; r += 2) {
      const __m256i a = requantized(acc[r * 2], l, c0, k);
      const __m256i b = requantized(acc[r * 2 + 1], l, c0 + kLanes, k);
      const bool two = r + 1 < R;
      const __m256i c = two ? requantized(acc[r * 2 + 2], l, c0, k) : zero;
      const __m256i d = two ? requantized(acc[r * 2 + 3], l, c0 + kLanes, k) : zero;
      const __m256i bytes = pack4(a, b, c, d, k.ySigned);
      store16(y + r * l.m, _mm256_castsi256_si128(bytes), n);
      if (two) store16(y + (r + 1) * l.m, _mm256_extracti128_si256(bytes, 1), n);
    }
  } else {
    // Four pixels' 8 outputs per set of packs: rows of exactly 8 (m == 8)
    // are 32 adjacent bytes, one store.
    const int64_t n = std::min<int64_t>(left, kLanes);
#pragma GCC unroll 4
    for (int r = 0; r < R; r += 4) {
      __m256i v[4];
#pragma GCC unroll 4
      for (int i = 0; i < 4; ++i) v[i] = r + i < R ? requantized(acc[r + i], l, c0, k) : zero;
      const __m256i bytes = pack4(v[0], v[1], v[2], v[3], k.ySigned);
      if (R - r >= 4 && l.m == kLanes) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + r * kLanes), bytes);
        continue;
      }
      alignas(32) uint64_t rows[4];
      _mm256_store_si256(reinterpret_cast<__m256i*>(rows), bytes);
#pragma GCC unroll 4
      for (int i = 0; i < 4; ++i)
        if (r + i < R) std::memcpy(y + (r + i) * l.m, &rows[i], static_cast<size_t>(n));
    }
  }
}

template <bool Signed, int R, int V>
PASSLAB_PW256_INLINE void outputBlock(const uint8_t* x, const Layer& l, int64_t c0, const Consts& k,
                                      uint8_t* y) {
  __m256i acc[R * V];
  sumBlock<Signed, R, V>(x, l, c0, acc);
  storeBlock<R, V>(acc, l, c0, k, y);
}

// Pixels [first, last) of output channels [8 v0, 8 (v0 + V)): blocks of R
// pixels, then one at a time. R x V accumulators of at most 12 of the 16
// registers (the weights, a broadcast pixel and the AVX2 step's 1s besides).
template <bool Signed, int V>
PASSLAB_PW256_TARGET void channelColumns(const uint8_t* x, const Layer& l, const Consts& k,
                                         uint8_t* y, int64_t first, int64_t last, int64_t v0) {
  constexpr int R = V == 4 ? 2 : V == 3 ? 3 : V == 2 ? 4 : 8;
  const int64_t c0 = v0 * kLanes;
  int64_t p = first;
  for (; p + R <= last; p += R) outputBlock<Signed, R, V>(x + p * l.c, l, c0, k, y + p * l.m + c0);
  for (; p < last; ++p) outputBlock<Signed, 1, V>(x + p * l.c, l, c0, k, y + p * l.m + c0);
}

// The output channels in columns of 1 to 4 vectors, as even as they go.
template <bool Signed>
PASSLAB_PW256_TARGET void pixelRange(const uint8_t* x, const Layer& l, uint8_t* y, int64_t first,
                                     int64_t last) {
  const Consts k = constants(l);
  const int64_t vectors = (l.m + kLanes - 1) / kLanes;
  const int64_t columns = (vectors + 3) / 4;
  int64_t v0 = 0;
  for (int64_t c = 0; c < columns; ++c) {
    const int64_t width = vectors / columns + (c < vectors % columns ? 1 : 0);
    switch (width) {
      case 4:
        channelColumns<Signed, 4>(x, l, k, y, first, last, v0);
        break;
      case 3:
        channelColumns<Signed, 3>(x, l, k, y, first, last, v0);
        break;
      case 2:
        channelColumns<Signed, 2>(x, l, k, y, first, last, v0);
        break;
      default:
        channelColumns<Signed, 1>(x, l, k, y, first, last, v0);
        break;
    }
    v0 += width;
  }
}

#undef PASSLAB_PW256_INLINE
// NOLINTEND(misc-definitions-in-headers)
