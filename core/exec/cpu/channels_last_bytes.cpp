#include "core/exec/cpu/channels_last_bytes.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

constexpr int64_t kTile = 16;  // positions per task (and per register block)

// The scalar form, for the channels and positions outside whole 16x16 blocks.
void transposeScalar(const uint8_t* src, uint8_t* dst, int64_t channels, int64_t positions,
                     int64_t c0, int64_t c1, int64_t p0, int64_t p1) {
  for (int64_t p = p0; p < p1; ++p)
    for (int64_t c = c0; c < c1; ++c) dst[p * channels + c] = src[c * positions + p];
}

#if defined(__SSE2__)
// 16 channels x 16 positions: rows read at src (stride `positions`), written
// at dst (stride `channels`). Four rounds of unpacks (8, 16, 32, 64 bits).
void transpose16x16(const uint8_t* src, int64_t positions, uint8_t* dst, int64_t channels) {
  __m128i a[16], b[16];
  for (int i = 0; i < 16; ++i)
    a[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i * positions));
  // b[i]: rows 2i, 2i+1 interleaved, positions 0-7; b[8 + i]: positions 8-15.
  for (int i = 0; i < 8; ++i) {
    b[i] = _mm_unpacklo_epi8(a[2 * i], a[2 * i + 1]);
    b[8 + i] = _mm_unpackhi_epi8(a[2 * i], a[2 * i + 1]);
  }
  // a[h + i] (h = 0, 8): rows 4i..4i+3 at positions h..h+3; a[h + 4 + i]: at h+4..h+7.
  for (int h = 0; h < 16; h += 8)
    for (int i = 0; i < 4; ++i) {
      a[h + i] = _mm_unpacklo_epi16(b[h + 2 * i], b[h + 2 * i + 1]);
      a[h + 4 + i] = _mm_unpackhi_epi16(b[h + 2 * i], b[h + 2 * i + 1]);
    }
  // Each a[k..k+3] (k = 0, 4, 8, 12) holds positions k..k+3, rows 0-3, 4-7, 8-11, 12-15.
  for (int k = 0; k < 16; k += 4) {
    const __m128i lo01 = _mm_unpacklo_epi32(a[k], a[k + 1]);      // rows 0-7, positions k, k+1
    const __m128i hi01 = _mm_unpackhi_epi32(a[k], a[k + 1]);      // rows 0-7, positions k+2, k+3
    const __m128i lo23 = _mm_unpacklo_epi32(a[k + 2], a[k + 3]);  // rows 8-15, k, k+1
    const __m128i hi23 = _mm_unpackhi_epi32(a[k + 2], a[k + 3]);  // rows 8-15, k+2, k+3
    const __m128i out[4] = {_mm_unpacklo_epi64(lo01, lo23), _mm_unpackhi_epi64(lo01, lo23),
                            _mm_unpacklo_epi64(hi01, hi23), _mm_unpackhi_epi64(hi01, hi23)};
    for (int j = 0; j < 4; ++j)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + (k + j) * channels), out[j]);
  }
}
#endif

// Positions [p0, p1) of one image.
void transposeTile(const uint8_t* src, uint8_t* dst, int64_t channels, int64_t positions,
                   int64_t p0, int64_t p1) {
  int64_t whole = 0;  // channels done in 16x16 blocks
#if defined(__SSE2__)
  if (p1 - p0 == kTile) {
    whole = channels / 16 * 16;
    for (int64_t c = 0; c < whole; c += 16)
      transpose16x16(src + c * positions + p0, positions, dst + p0 * channels + c, channels);
  }
#endif
  transposeScalar(src, dst, channels, positions, whole, channels, p0, p1);
}

}  // namespace

void toChannelsLastBytes(const uint8_t* src, uint8_t* dst, int64_t n, int64_t channels,
                         int64_t positions, int threads) {
  const int64_t tiles = (positions + kTile - 1) / kTile;
  const int64_t image = channels * positions;
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, kTile * channels));
  parallelFor(n * tiles, threads, grain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t b = i / tiles, p0 = (i % tiles) * kTile;
      transposeTile(src + b * image, dst + b * image, channels, positions, p0,
                    std::min(p0 + kTile, positions));
    }
  });
}

}  // namespace passlab::exec::cpu
