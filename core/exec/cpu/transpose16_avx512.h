// A 16x16 block of 32-bit lanes transposed in AVX-512 registers, for
// kernels that compute along channels and store along positions
// (passlab_fused_conv_integer.cpp, qlinear_conv_int32.cpp).
#pragma once

#if defined(__x86_64__)
#include "core/support/x86_intrinsics.h"

namespace passlab::exec::cpu {

// r[i][j] -> r[j][i] for a 16x16 float block (unpacks, then 128-bit lane shuffles).
__attribute__((target("avx512f"))) inline void transpose16(__m512 r[16]) {
  __m512 t[16], u[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int k = 0; k < 16; k += 4) {  // u[k + q] lane L: column 4L + q of rows k..k+3
    const __m512d a = _mm512_castps_pd(t[k]), b = _mm512_castps_pd(t[k + 1]);
    const __m512d c = _mm512_castps_pd(t[k + 2]), d = _mm512_castps_pd(t[k + 3]);
    u[k] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
    u[k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
    u[k + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
    u[k + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
  }
  for (int q = 0; q < 4; ++q) {  // t reused: columns q, 8+q (rows 0-7) / 4+q, 12+q; rows 8-15 at +8
    t[q] = _mm512_shuffle_f32x4(u[q], u[4 + q], 0x88);
    t[4 + q] = _mm512_shuffle_f32x4(u[q], u[4 + q], 0xdd);
    t[8 + q] = _mm512_shuffle_f32x4(u[8 + q], u[12 + q], 0x88);
    t[12 + q] = _mm512_shuffle_f32x4(u[8 + q], u[12 + q], 0xdd);
  }
  for (int q = 0; q < 4; ++q) {
    r[q] = _mm512_shuffle_f32x4(t[q], t[8 + q], 0x88);
    r[8 + q] = _mm512_shuffle_f32x4(t[q], t[8 + q], 0xdd);
    r[4 + q] = _mm512_shuffle_f32x4(t[4 + q], t[12 + q], 0x88);
    r[12 + q] = _mm512_shuffle_f32x4(t[4 + q], t[12 + q], 0xdd);
  }
}

}  // namespace passlab::exec::cpu
#endif
