// A 256-entry float32 table held in 16 AVX-512 registers, and its lookup of
// 16 bytes at a time: the squeeze-excitation kernels' f(DQ(x)) tables
// (passlab_squeeze_excite.cpp, passlab_squeeze_excite_exact.cpp). Callers
// are compiled with AVX-512 F/BW/VL enabled per function and check the CPU.
#pragma once

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"

#include <cstdint>

namespace passlab::exec::cpu::avx512 {

#define PASSLAB_TABLE16_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))

struct Table16 {
  __m512 t[16];
};

PASSLAB_TABLE16_TARGET inline Table16 loadTable16(const float* table) {
  Table16 r;
  for (int k = 0; k < 16; ++k) r.t[k] = _mm512_loadu_ps(table + 16 * k);
  return r;
}

// table[x ^ flip] for the `m` lanes of 16 bytes at x (the others table[flip]
// of a zero byte: masked loads read 0): two-register permutes on the low 5
// bits of the index, blends on bits 5-7.
PASSLAB_TABLE16_TARGET inline __m512 lookup16(const Table16& T, const uint8_t* x, __mmask16 m,
                                              uint8_t flip) {
  const __m128i b =
      _mm_xor_si128(_mm_maskz_loadu_epi8(m, x), _mm_set1_epi8(static_cast<char>(flip)));
  const __m512i i = _mm512_cvtepu8_epi32(b);
  const __mmask16 b5 = _mm512_test_epi32_mask(i, _mm512_set1_epi32(32));
  const __mmask16 b6 = _mm512_test_epi32_mask(i, _mm512_set1_epi32(64));
  const __mmask16 b7 = _mm512_test_epi32_mask(i, _mm512_set1_epi32(128));
  __m512 q[4];
  for (int k = 0; k < 4; ++k)
    q[k] = _mm512_mask_blend_ps(b5, _mm512_permutex2var_ps(T.t[4 * k], i, T.t[4 * k + 1]),
                                _mm512_permutex2var_ps(T.t[4 * k + 2], i, T.t[4 * k + 3]));
  return _mm512_mask_blend_ps(b7, _mm512_mask_blend_ps(b6, q[0], q[1]),
                              _mm512_mask_blend_ps(b6, q[2], q[3]));
}

}  // namespace passlab::exec::cpu::avx512
#endif
