// Transpose and DepthToSpace / SpaceToDepth (a reshape, a permutation, a reshape).
// A copy whose innermost two collapsed dims swap (NCHW <-> NHWC, the borders
// of convert_int8_to_channels_last's chains) moves 16x16 tiles of 1-byte
// elements through SSE2 registers, and 8x8 tiles of 4-byte ones through AVX
// registers (4x4 SSE2 tiles without AVX2); everything else walks the output
// in order. Float NCHW -> NHWC of [1, 64, 112, 112] element by element:
// 0.79 ms, 4x onnxruntime; 4x4 tiles 0.28, 8x8 0.20 (session 26). Rows of
// 4-byte elements at stride 2 (SpaceToDepth with blocksize 2, Slice with
// step 2) go through vector shuffles (evenOf32): SpaceToDepth of
// [1, 64, 112, 112] 0.53 -> 0.22 ms (session 27). A 3-channel 8-bit image
// to channels-last goes through AVX-512 VBMI byte permutes (interleave3),
// or AVX2 byte shuffles: ultraface's [1, 3, 240, 320] on Zen 3 0.079 ->
// 0.0065 ms (session 33).
#include "core/exec/cpu/transpose.h"

#include <emmintrin.h>
#include <xmmintrin.h>
#include "core/support/x86_intrinsics.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/exec/cpu/copy_rules.h"
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

// One row of 4-byte elements at stride 2: y[i] = x[2 i] for i < n. A vector
// of outputs reads one element past its last even one, so the vectors stop
// before the row's last output (no read past x[2 (n - 1)]). AVX-512 (16
// outputs from 32 through a two-source permute) when the CPU has it, SSE2
// (4 from 8 through a shuffle) otherwise; a copy, so exact on every path.
__attribute__((target("avx512f"))) int64_t evenOf32Avx512(const uint32_t* x, uint32_t* y,
                                                          int64_t n) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  int64_t i = 0;
  for (; i + 16 < n; i += 16) {
    const __m512i a = _mm512_loadu_si512(x + 2 * i);
    const __m512i b = _mm512_loadu_si512(x + 2 * i + 16);
    _mm512_storeu_si512(y + i, _mm512_permutex2var_epi32(a, even, b));
  }
  return i;
}

void evenOf32(const uint32_t* x, uint32_t* y, int64_t n) {
  int64_t i = cpu_isa::hasAvx512f() ? evenOf32Avx512(x, y, n) : 0;
  for (; i + 4 < n; i += 4) {
    const __m128 a = _mm_loadu_ps(reinterpret_cast<const float*>(x + 2 * i));
    const __m128 b = _mm_loadu_ps(reinterpret_cast<const float*>(x + 2 * i + 4));
    _mm_storeu_ps(reinterpret_cast<float*>(y + i), _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
  }
  for (; i < n; ++i) y[i] = x[2 * i];
}

// y[r * inner + i] = x[r * rowStride + i * innerStride] for r < rows, i < inner.
template <class E>
void copyRows(const E* x, int64_t rowStride, int64_t innerStride, E* y, int64_t inner,
              int64_t rows) {
  constexpr bool kBytes = !std::is_same_v<E, std::string>;
  if constexpr (std::is_same_v<E, uint32_t>) {
    if (innerStride == 2) {  // SpaceToDepth, Slice with step 2
      for (int64_t r = 0; r < rows; ++r) evenOf32(x + r * rowStride, y + r * inner, inner);
      return;
    }
  }
  if (kBytes && innerStride == 1 && inner * static_cast<int64_t>(sizeof(E)) >= 64) {
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(static_cast<void*>(y + r * inner), static_cast<const void*>(x + r * rowStride),
                  static_cast<size_t>(inner) * sizeof(E));
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    const E* xr = x + r * rowStride;
    E* yr = y + r * inner;
    for (int64_t i = 0; i < inner; ++i) yr[i] = xr[i * innerStride];
  }
}

template <class E>
void permute(const E* x, E* y, const Dims& outDims, const std::vector<int64_t>& srcStrides,
             int64_t base, int64_t begin, int64_t end) {
  const size_t rank = outDims.size();
  std::vector<int64_t> idx(rank, 0);
  int64_t rest = begin, off = base;
  for (size_t i = rank; i-- > 0;) {
    idx[i] = rest % outDims[i];
    rest /= outDims[i];
    off += idx[i] * srcStrides[i];
  }
  const int64_t inner = outDims[rank - 1], innerStride = srcStrides[rank - 1];
  int64_t pos = begin;
  while (pos < end) {
    if (rank >= 2 && idx[rank - 1] == 0 && end - pos >= 2 * inner) {
      // Whole rows of the two innermost dims in one tight loop (a Slice of a
      // few values off each row: no index carry per row).
      const int64_t rows = std::min(outDims[rank - 2] - idx[rank - 2], (end - pos) / inner);
      copyRows<E>(x + off, srcStrides[rank - 2], innerStride, y + pos, inner, rows);
      pos += rows * inner;
      idx[rank - 2] += rows;
      off += rows * srcStrides[rank - 2];
      for (size_t i = rank - 2; i > 0 && idx[i] == outDims[i]; --i) {
        off -= outDims[i] * srcStrides[i];
        idx[i] = 0;
        ++idx[i - 1];
        off += srcStrides[i - 1];
      }
      continue;
    }
    int64_t n = std::min(inner - idx[rank - 1], end - pos);
    if (innerStride == 1 && !std::is_same_v<E, std::string>) {
      std::memcpy(static_cast<void*>(y + pos), static_cast<const void*>(x + off),
                  static_cast<size_t>(n) * sizeof(E));
    } else {
      for (int64_t i = 0; i < n; ++i) y[pos + i] = x[off + i * innerStride];
    }
    pos += n;
    idx[rank - 1] += n;
    off += n * innerStride;
    for (size_t i = rank - 1; i > 0 && idx[i] == outDims[i]; --i) {
      off -= outDims[i] * srcStrides[i];
      idx[i] = 0;
      ++idx[i - 1];
      off += srcStrides[i - 1];
    }
  }
}

}  // namespace

namespace {

// Four rounds of byte interleaving between row k and row k + 8 transpose the
// 16x16 bytes in r (each round rotates the 8 bits "row, byte" left by one, so
// four of them swap the two nibbles: row and column trade places).
inline void transpose16(__m128i (&r)[16]) {
  for (int round = 0; round < 4; ++round) {
    __m128i t[16];
    for (int k = 0; k < 8; ++k) {
      t[2 * k] = _mm_unpacklo_epi8(r[k], r[k + 8]);
      t[2 * k + 1] = _mm_unpackhi_epi8(r[k], r[k + 8]);
    }
    for (int k = 0; k < 16; ++k) r[k] = t[k];
  }
}

// dst[i * ldd + j] = src[i + j * ld] for the 16x16 tile at src / dst.
inline void transposeTile16(const uint8_t* src, int64_t ld, uint8_t* dst, int64_t ldd) {
  __m128i r[16];
  for (int k = 0; k < 16; ++k)
    r[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k * ld));
  transpose16(r);
  for (int k = 0; k < 16; ++k) _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + k * ldd), r[k]);
}

// The same for 16 output rows of Q < 16 bytes (Q source rows; a 3-channel
// image): each row stored as 16 bytes, in order, so that the next row's store
// overwrites the surplus; the last one writes 16 - Q bytes past the 16 rows,
// which the caller allows only where its next 16 rows follow in this thread.
inline void transposeNarrow16(const uint8_t* src, int64_t ld, uint8_t* dst, int64_t Q) {
  __m128i r[16];
  for (int k = 0; k < 16; ++k)
    r[k] = k < Q ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k * ld))
                 : _mm_setzero_si128();
  transpose16(r);
  for (int k = 0; k < 16; ++k) _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + k * Q), r[k]);
}

// Output rows [i0, i1) of one P x Q matrix: dst[i * Q + j] = src[i + j * ld].
// `spill`: up to 16 bytes past row i1 may be written (the caller writes them
// again later, in the same thread).
void transposeRows8(const uint8_t* src, int64_t ld, uint8_t* dst, int64_t Q, int64_t i0, int64_t i1,
                    bool spill) {
  int64_t i = i0;
  if (Q < 16 && spill && i1 - i0 == 16) {
    transposeNarrow16(src + i, ld, dst + i * Q, Q);
    return;
  }
  for (; i + 16 <= i1; i += 16) {
    int64_t j = 0;
    for (; j + 16 <= Q; j += 16) transposeTile16(src + i + j * ld, ld, dst + i * Q + j, Q);
    for (; j < Q; ++j)
      for (int64_t k = 0; k < 16; ++k) dst[(i + k) * Q + j] = src[i + k + j * ld];
  }
  for (; i < i1; ++i)
    for (int64_t j = 0; j < Q; ++j) dst[i * Q + j] = src[i + j * ld];
}

// dst[i * ldd + j] = src[i + j * ld] for the 4x4 tile of 4-byte elements.
inline void transposeTile4(const uint32_t* src, int64_t ld, uint32_t* dst, int64_t ldd) {
  __m128 r0 = _mm_loadu_ps(reinterpret_cast<const float*>(src));
  __m128 r1 = _mm_loadu_ps(reinterpret_cast<const float*>(src + ld));
  __m128 r2 = _mm_loadu_ps(reinterpret_cast<const float*>(src + 2 * ld));
  __m128 r3 = _mm_loadu_ps(reinterpret_cast<const float*>(src + 3 * ld));
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  _mm_storeu_ps(reinterpret_cast<float*>(dst), r0);
  _mm_storeu_ps(reinterpret_cast<float*>(dst + ldd), r1);
  _mm_storeu_ps(reinterpret_cast<float*>(dst + 2 * ldd), r2);
  _mm_storeu_ps(reinterpret_cast<float*>(dst + 3 * ldd), r3);
}

// Output rows [i0, i1) (at most 16) of one P x Q matrix of 4-byte elements.
void transposeRows32(const uint32_t* src, int64_t ld, uint32_t* dst, int64_t Q, int64_t i0,
                     int64_t i1, bool /*spill*/) {
  int64_t i = i0;
  for (; i + 4 <= i1; i += 4) {
    int64_t j = 0;
    for (; j + 4 <= Q; j += 4) transposeTile4(src + i + j * ld, ld, dst + i * Q + j, Q);
    for (; j < Q; ++j)
      for (int64_t k = 0; k < 4; ++k) dst[(i + k) * Q + j] = src[i + k + j * ld];
  }
  for (; i < i1; ++i)
    for (int64_t j = 0; j < Q; ++j) dst[i * Q + j] = src[i + j * ld];
}

// The same on 8x8 tiles in AVX registers (the 4x4 loop finishes the rows
// and columns past the last whole 8x8 tile).
__attribute__((target("avx2"))) void transposeRows32Avx2(const uint32_t* src, int64_t ld,
                                                         uint32_t* dst, int64_t Q, int64_t i0,
                                                         int64_t i1, bool spill) {
  const auto* s = reinterpret_cast<const float*>(src);
  auto* d = reinterpret_cast<float*>(dst);
  int64_t i = i0;
  const int64_t q8 = Q / 8 * 8;
  for (; i + 8 <= i1; i += 8) {
    for (int64_t j = 0; j < q8; j += 8) {
      __m256 r[8], t[8];
      for (int k = 0; k < 8; ++k) r[k] = _mm256_loadu_ps(s + i + (j + k) * ld);
      for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
        t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
      }
      for (int k = 0; k < 8; k += 4) {
        r[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
        r[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xee);
        r[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
        r[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xee);
      }
      for (int k = 0; k < 4; ++k) {
        _mm256_storeu_ps(d + (i + k) * Q + j, _mm256_permute2f128_ps(r[k], r[k + 4], 0x20));
        _mm256_storeu_ps(d + (i + k + 4) * Q + j, _mm256_permute2f128_ps(r[k], r[k + 4], 0x31));
      }
    }
    if (q8 < Q)
      for (int64_t k = 0; k < 8; ++k)
        for (int64_t j = q8; j < Q; ++j) dst[(i + k) * Q + j] = src[i + k + j * ld];
  }
  if (i < i1) transposeRows32(src, ld, dst, Q, i, i1, spill);
}

// 1- or 4-byte copies (E) whose last two collapsed dims [P, Q] read the
// source with strides 1 and ld (a batch of 2-D transposes): 16 output rows
// at a time by `rows` (tiles; rows and columns past the last whole tile, and
// matrices narrower than a tile such as a 3-channel image, element by
// element in two plain loops). False otherwise.
template <class E, class Rows>
bool transposeTiled(const Tensor& x, int64_t base, const Dims& outDims,
                    const std::vector<int64_t>& srcStrides, Tensor& y, int threads, Rows rows) {
  const size_t rank = outDims.size();
  if (rank < 2 || srcStrides[rank - 2] != 1) return false;
  const int64_t P = outDims[rank - 2], Q = outDims[rank - 1], ld = srcStrides[rank - 1];
  int64_t batches = 1;
  for (size_t i = 0; i + 2 < rank; ++i) batches *= outDims[i];
  const E* src = static_cast<const E*>(x.raw()) + base;
  E* dst = static_cast<E*>(y.mutableRaw());
  const int64_t blocks = (P + 15) / 16;  // of 16 output rows
  parallelFor(batches * blocks, threads,
              std::max<int64_t>(1, 16384 / static_cast<int64_t>(16 * Q * sizeof(E))),
              [&](int64_t b, int64_t e) {
                for (int64_t w = b; w < e; ++w) {
                  int64_t batch = w / blocks, off = 0;
                  for (size_t i = rank - 2; i-- > 0;) {
                    off += (batch % outDims[i]) * srcStrides[i];
                    batch /= outDims[i];
                  }
                  const int64_t i0 = (w % blocks) * 16;
                  // A whole next block of this matrix follows in this thread.
                  const bool spill = w + 1 < e && i0 + 32 <= P;
                  rows(src + off, ld, dst + (w / blocks) * P * Q, Q, i0, std::min(i0 + 16, P),
                       spill);
                }
              });
  return true;
}

// The byte permutes of interleave3Vbmi: output vector t (bytes 64 t to
// 64 t + 63 of 192) takes byte o from channel o % 3 at position o / 3
// (below 64): channels 0 and 1 through one two-source permute (index p, or
// 64 + p for the second source), channel 2 through a masked one.
struct Interleave3Tables {
  alignas(64) uint8_t first[3][64];
  alignas(64) uint8_t third[3][64];
  uint64_t thirdMask[3] = {0, 0, 0};
  Interleave3Tables() {
    for (int t = 0; t < 3; ++t)
      for (int m = 0; m < 64; ++m) {
        const int o = 64 * t + m, p = o / 3, j = o % 3;
        first[t][m] = static_cast<uint8_t>(j == 1 ? 64 + p : p);
        third[t][m] = static_cast<uint8_t>(p);
        if (j == 2) thirdMask[t] |= uint64_t{1} << m;
      }
  }
};

// dst[3 i + j] = src[i + j * ld] for j < 3 (a 3-channel 8-bit image to
// channels-last, the Transpose in front of a channels-last int8 chain), 64
// positions per step with AVX-512 VBMI byte permutes: 6 permutes for 192
// bytes, where the 16x16 tiles spend 64 unpacks on 48 (ultraface's
// [1, 3, 240, 320] image: 0.062 ms before). A copy, so exact. Returns the
// positions done.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) int64_t interleave3Vbmi(const uint8_t* src,
                                                                               int64_t ld,
                                                                               uint8_t* dst,
                                                                               int64_t n) {
  static const Interleave3Tables kT;
  __m512i first[3], third[3];
  for (int t = 0; t < 3; ++t) {
    first[t] = _mm512_load_si512(kT.first[t]);
    third[t] = _mm512_load_si512(kT.third[t]);
  }
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i a = _mm512_loadu_si512(src + i), b = _mm512_loadu_si512(src + ld + i),
                  c = _mm512_loadu_si512(src + 2 * ld + i);
    for (int t = 0; t < 3; ++t) {
      const __m512i ab = _mm512_permutex2var_epi8(a, first[t], b);
      _mm512_storeu_si512(dst + 3 * i + 64 * t,
                          _mm512_mask_permutexvar_epi8(ab, kT.thirdMask[t], third[t], c));
    }
  }
  return i;
}

// The byte shuffles of interleave3Avx2: output byte o (< 48) of 16 positions
// takes byte o / 3 of channel o % 3; index[v][j][m] places channel j's byte
// in output vector v (bytes 16 v to 16 v + 15), 0x80 (zero) elsewhere.
struct Interleave3Shuffles {
  alignas(32) uint8_t index[3][3][32];
  Interleave3Shuffles() {
    for (int v = 0; v < 3; ++v)
      for (int j = 0; j < 3; ++j)
        for (int m = 0; m < 32; ++m) {
          const int o = 16 * v + m % 16;
          index[v][j][m] = static_cast<uint8_t>(o % 3 == j ? o / 3 : 0x80);
        }
  }
};

// interleave3Vbmi on AVX2: 32 positions per step, three byte shuffles (one
// a channel) and two ORs per 32 output bytes, each 128-bit lane 16 positions
// (48 bytes in three lane vectors), the lanes put in order by three
// permutes. Replaces the 16x16 tiles (16 loads and 64 unpacks for 48 bytes).
// A copy, so exact. Returns the positions done.
__attribute__((target("avx2"))) int64_t interleave3Avx2(const uint8_t* src, int64_t ld,
                                                        uint8_t* dst, int64_t n) {
  static const Interleave3Shuffles kS;
  __m256i idx[3][3];
  for (int v = 0; v < 3; ++v)
    for (int j = 0; j < 3; ++j)
      idx[v][j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(kS.index[v][j]));
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)),
                  b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + ld + i)),
                  c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 2 * ld + i));
    __m256i o[3];
    for (int v = 0; v < 3; ++v)
      o[v] = _mm256_or_si256(
          _mm256_or_si256(_mm256_shuffle_epi8(a, idx[v][0]), _mm256_shuffle_epi8(b, idx[v][1])),
          _mm256_shuffle_epi8(c, idx[v][2]));
    // o[v] holds output vector v of positions i..i+15 (low lane) and of
    // i+16..i+31 (high lane).
    __m256i* d = reinterpret_cast<__m256i*>(dst + 3 * i);
    _mm256_storeu_si256(d, _mm256_permute2x128_si256(o[0], o[1], 0x20));
    _mm256_storeu_si256(d + 1, _mm256_permute2x128_si256(o[2], o[0], 0x30));
    _mm256_storeu_si256(d + 2, _mm256_permute2x128_si256(o[1], o[2], 0x31));
  }
  return i;
}

// [..., 3, P] -> [..., P, 3] on 8-bit elements whose P axis is contiguous,
// runs of 4096 positions in parallel (interleave3Vbmi, then the rest one by
// one, or interleave3Avx2 without VBMI). False where that is not the copy or
// the CPU has neither.
bool interleave3(const Tensor& x, int64_t base, const Dims& outDims,
                 const std::vector<int64_t>& srcStrides, Tensor& y, int threads) {
  const size_t rank = outDims.size();
  const bool vbmi = cpu_isa::hasAvx512Vbmi();
  if (rank < 2 || outDims[rank - 1] != 3 || srcStrides[rank - 2] != 1 ||
      !(vbmi || cpu_isa::hasAvx2Fma()))
    return false;
  const int64_t P = outDims[rank - 2], ld = srcStrides[rank - 1], run = 4096;
  int64_t batches = 1;
  for (size_t i = 0; i + 2 < rank; ++i) batches *= outDims[i];
  const uint8_t* src = static_cast<const uint8_t*>(x.raw()) + base;
  uint8_t* dst = static_cast<uint8_t*>(y.mutableRaw());
  const int64_t runs = (P + run - 1) / run;
  parallelFor(batches * runs, threads, 2, [&](int64_t b, int64_t e) {
    for (int64_t w = b; w < e; ++w) {
      int64_t batch = w / runs, off = 0;
      for (size_t i = rank - 2; i-- > 0;) {
        off += (batch % outDims[i]) * srcStrides[i];
        batch /= outDims[i];
      }
      const int64_t i0 = (w % runs) * run, i1 = std::min(i0 + run, P);
      const uint8_t* s = src + off;
      uint8_t* d = dst + (w / runs) * P * 3;
      int64_t i = i0 + (vbmi ? interleave3Vbmi : interleave3Avx2)(s + i0, ld, d + 3 * i0, i1 - i0);
      for (; i < i1; ++i)
        for (int64_t j = 0; j < 3; ++j) d[3 * i + j] = s[i + j * ld];
    }
  });
  return true;
}

// Copies with the collapsed dims and strides (any whole-byte type or strings).
void gather(const Tensor& x, int64_t base, const Dims& outDims,
            const std::vector<int64_t>& srcStrides, Tensor& y, int threads) {
  auto run = [&](auto tag) {
    using E = typename decltype(tag)::type;
    const E* src = x.data<E>();
    E* dst = y.mutableData<E>();
    parallelFor(y.numel(), threads, kElementwiseGrain, [&](int64_t b, int64_t e) {
      permute<E>(src, dst, outDims, srcStrides, base, b, e);
    });
  };
  const size_t size = x.dtype() == ir::DataType::kString ? 0 : elementSize(x.dtype());
  if (size == 1 &&
      (interleave3(x, base, outDims, srcStrides, y, threads) ||
       transposeTiled<uint8_t>(x, base, outDims, srcStrides, y, threads, transposeRows8)))
    return;
  if (size == 4 &&
      transposeTiled<uint32_t>(x, base, outDims, srcStrides, y, threads,
                               cpu_isa::hasAvx2Fma() ? transposeRows32Avx2 : transposeRows32))
    return;
  switch (x.dtype() == ir::DataType::kString ? 0 : elementSize(x.dtype())) {
    case 0:
      run(TypeTag<std::string>{});
      break;
    case 1:
      run(TypeTag<uint8_t>{});
      break;
    case 2:
      run(TypeTag<uint16_t>{});
      break;
    case 4:
      run(TypeTag<uint32_t>{});
      break;
    case 8:
      run(TypeTag<uint64_t>{});
      break;
    default:
      break;
  }
}

// Merges neighbouring dims that stay contiguous in the source; drops size-1 dims.
void collapse(const Dims& dims, const std::vector<int64_t>& strides, Dims& outDims,
              std::vector<int64_t>& outStrides) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (!outDims.empty() && outStrides.back() == strides[i] * dims[i]) {
      outDims.back() *= dims[i];
      outStrides.back() = strides[i];
    } else {
      outDims.push_back(dims[i]);
      outStrides.push_back(strides[i]);
    }
  }
  if (outDims.empty()) {
    outDims.push_back(1);
    outStrides.push_back(1);
  }
}

}  // namespace

void transposeInto(const Tensor& x, const std::vector<int64_t>& perm, Tensor& y, int threads) {
  const size_t rank = x.rank();
  if (rank == 0 || x.numel() == 0) {
    copyElements(x, 0, y, 0, x.numel());
    return;
  }
  std::vector<int64_t> inStrides(rank, 1);
  for (size_t i = rank - 1; i > 0; --i) inStrides[i - 1] = inStrides[i] * x.dim(i);
  Dims dims;
  std::vector<int64_t> strides;
  for (size_t i = 0; i < rank; ++i) {
    dims.push_back(x.dim(static_cast<size_t>(perm[i])));
    strides.push_back(inStrides[static_cast<size_t>(perm[i])]);
  }
  Dims outDims;
  std::vector<int64_t> srcStrides;
  collapse(dims, strides, outDims, srcStrides);
  gather(x, 0, outDims, srcStrides, y, threads);
}

void stridedCopy(const Tensor& x, int64_t base, const std::vector<int64_t>& srcStrides, Tensor& y,
                 int threads) {
  if (y.numel() == 0) return;
  if (y.rank() == 0) {
    copyElements(x, base, y, 0, 1);
    return;
  }
  Dims outDims;
  std::vector<int64_t> strides;
  collapse(y.dims(), srcStrides, outDims, strides);
  gather(x, base, outDims, strides, y, threads);
}

namespace {

class Transpose final : public Kernel {
 public:
  explicit Transpose(const KernelBuild& b) : perm_(b.node().attrInts("perm")) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (!movable(x.dtype())) return unsupported("Transpose of " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(TransposeShape t,
                             transposeShape(x.dims(), perm_, [&] { return x.describe(); }));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), std::move(t.out)));
    transposeInto(x, t.perm, *y, ctx.threads());
    return Status::ok();
  }

 private:
  std::vector<int64_t> perm_;
};

// DepthToSpace (DCR or CRD) and SpaceToDepth on [N, C, H, W].
template <bool kToSpace>
class SpaceDepth final : public Kernel {
 public:
  explicit SpaceDepth(const KernelBuild& b)
      : block_(b.node().attrInt("blocksize", 0)),
        crd_(b.node().attrString("mode", "DCR") == "CRD") {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 4) return invalidArgument("input must be 4-D, got " + x.describe());
    if (block_ < 1) return invalidArgument("blocksize must be positive");
    if (!movable(x.dtype())) return unsupported("element type of " + x.describe());
    const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3), b = block_;
    PASSLAB_ASSIGN_OR_RETURN(SpaceDepthShape s, spaceDepthShape(kToSpace, crd_, N, C, H, W, b));
    const Dims& view = s.view;
    const std::vector<int64_t>& perm = s.perm;
    Dims permuted;
    for (int64_t p : perm) permuted.push_back(view[static_cast<size_t>(p)]);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), s.out));
    Tensor yView = y->view(permuted);
    transposeInto(x.view(view), perm, yView, ctx.threads());
    return Status::ok();
  }

 private:
  int64_t block_;
  bool crd_;
};

const KernelDef kRows[] = {
    {"", "Transpose", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Transpose",
     makeKernel<Transpose>},
    {"", "DepthToSpace", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.DepthToSpace",
     makeKernel<SpaceDepth<true>>},
    {"", "SpaceToDepth", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.SpaceToDepth",
     makeKernel<SpaceDepth<false>>},
};

}  // namespace

std::span<const KernelDef> transposeKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
