// A 256-entry float32 table held as its four byte planes (byte b of every
// entry, each plane in four registers), and its lookup of 64 bytes at a time
// with AVX-512 VBMI: the squeeze-excitation kernels' f(DQ(x)) tables
// (passlab_squeeze_excite.cpp, passlab_squeeze_excite_exact.cpp). Two
// vpermi2b (entries 0-127, 128-255) and a blend on bit 7 look up 64 bytes of
// a plane; unpacking the planes' bytes, then words, puts the 64 floats
// together in four vectors: 12 permutes and blends and 8 unpacks for 64
// lookups, against 60 permutes and blends for four lookup16
// (avx512_table16.h). Callers are compiled with AVX-512 F/BW/VL/VBMI enabled
// per function and check the CPU.
#pragma once

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"

#include <cstdint>

namespace passlab::exec::cpu::avx512 {

#define PASSLAB_TABLE64_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))

struct BytePlanes {
  __m512i t[4][4];  // [byte][entries 0-63, 64-127, 128-191, 192-255]
};

PASSLAB_TABLE64_TARGET inline BytePlanes loadBytePlanes(const float* table) {
  alignas(64) uint8_t planes[4][256];
  const auto* bytes = reinterpret_cast<const unsigned char*>(table);
  for (int e = 0; e < 256; ++e)
    for (int b = 0; b < 4; ++b) planes[b][e] = bytes[4 * e + b];
  BytePlanes r;
  for (int b = 0; b < 4; ++b)
    for (int k = 0; k < 4; ++k) r.t[b][k] = _mm512_load_si512(planes[b] + 64 * k);
  return r;
}

// table[idx] of 64 bytes as 64 floats in the unpacks' order: vector k,
// lane 4L + j holds the entry of byte 16L + 4k + j of idx.
PASSLAB_TABLE64_TARGET inline void lookup64(const BytePlanes& T, __m512i idx, __m512 (&f)[4]) {
  const __mmask64 high = _mm512_movepi8_mask(idx);
  __m512i b[4];
#pragma GCC unroll 4
  for (int p = 0; p < 4; ++p)
    b[p] = _mm512_mask_blend_epi8(high, _mm512_permutex2var_epi8(T.t[p][0], idx, T.t[p][1]),
                                  _mm512_permutex2var_epi8(T.t[p][2], idx, T.t[p][3]));
  const __m512i lo01 = _mm512_unpacklo_epi8(b[0], b[1]), hi01 = _mm512_unpackhi_epi8(b[0], b[1]);
  const __m512i lo23 = _mm512_unpacklo_epi8(b[2], b[3]), hi23 = _mm512_unpackhi_epi8(b[2], b[3]);
  f[0] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(lo01, lo23));
  f[1] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(lo01, lo23));
  f[2] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(hi01, hi23));
  f[3] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(hi01, hi23));
}

// The same in byte order: vector k, lane i holds the entry of byte 16k + i.
// The bytes' 4-byte groups are first transposed as a 4x4 matrix (group
// 4L + k takes group 4k + L), which the unpacks' order undoes.
PASSLAB_TABLE64_TARGET inline void lookup64InOrder(const BytePlanes& T, __m512i idx,
                                                   __m512 (&f)[4]) {
  const __m512i transpose = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  lookup64(T, _mm512_permutexvar_epi32(transpose, idx), f);
}

}  // namespace passlab::exec::cpu::avx512
#endif
