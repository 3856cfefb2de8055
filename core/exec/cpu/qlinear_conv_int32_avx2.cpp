// QLinearConvInt32's requantization on AVX2 + FMA (qlinear_conv_int32_tile.h):
// 8 lanes where the AVX-512 path has 16, the same arithmetic (qlinear_requant8.h,
// qlinear_requant16.h's in 256-bit registers): the double product rounded half to
// even, + y_zero_point, saturated; or, where Multipliers::floatExact holds, one
// float32 FMA onto 1.5 * 2^23, whose bits less those of 1.5 * 2^23 are the same
// integer.
#include "core/exec/cpu/qlinear_conv_int32_tile.h"

#include <algorithm>

#if defined(__x86_64__)
#include "core/exec/cpu/avx2_transpose8.h"
#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/qlinear_requant8.h"
#include "core/support/x86_intrinsics.h"
#endif

namespace passlab::exec::cpu::int32_sums {

#if defined(__x86_64__)
namespace {

#define PASSLAB_I32_AVX2 __attribute__((target("avx2,fma")))

constexpr int64_t kLanes8 = 8;

// The first `left` of 8 lanes (all where left >= 8).
PASSLAB_I32_AVX2 __m256i lanes8(int64_t left) {
  const int32_t n = static_cast<int32_t>(std::min<int64_t>(left, kLanes8));
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

}  // namespace

// Positions [o0, o1) of one image into y [M, P]: 8 channels' sums of each
// position loaded, transposed in registers so that each register holds one
// channel's 8 positions, the weights' zero-point term taken out along them,
// then requantized and stored as the channel's bytes.
PASSLAB_I32_AVX2 void requantizeTileAvx2(const TileInput& in, bool fast, uint8_t* y, int64_t o0,
                                         int64_t o1) {
  const requant8::Requant q = requant8::constants(*in.mult16, fast);
  const int64_t n = o1 - o0;
  const __m256i kp = lanes8(n);
  for (int64_t c0 = 0; c0 < in.m; c0 += kLanes8) {
    const __m256i kc = lanes8(in.m - c0);
    __m256 r[kLanes8];
    for (int64_t i = 0; i < kLanes8; ++i) {
      const int64_t at = (o0 + i) * in.m + c0;
      __m256i v = _mm256_setzero_si256();
      if (i < n) {
        v = _mm256_maskload_epi32(in.acc + at, kc);
        if (in.xTerm) v = _mm256_sub_epi32(v, _mm256_maskload_epi32(in.xTerm + at, kc));
      }
      r[i] = _mm256_castsi256_ps(v);
    }
    transpose8Avx2(r);
    const int64_t channels = std::min(kLanes8, in.m - c0);
    for (int64_t j = 0; j < channels; ++j) {
      const int64_t c = c0 + j;
      __m256i v = _mm256_castps_si256(r[j]);
      if (in.t) {
        const int32_t* t = in.t + (c / in.mPerGroup) * in.p + o0;
        v = _mm256_sub_epi32(
            v, _mm256_mullo_epi32(_mm256_set1_epi32(in.zw[c]), _mm256_maskload_epi32(t, kp)));
      }
      const int64_t lane16 = c * avx512::kLanes;  // each channel's values in 16 lanes
      v = _mm256_add_epi32(v, _mm256_set1_epi32(in.bias16[lane16]));
      requant8::storeSum8(v, in.mult16->mult.data() + lane16, in.mult16->multf.data() + lane16, q,
                          y + c * in.p + o0, static_cast<int>(n));
    }
  }
}

PASSLAB_I32_AVX2 void requantizePositionsAvx2(const TileInput& in, const int32_t* groupAt,
                                              bool fast, uint8_t* y, int64_t o0, int64_t o1) {
  const requant8::Requant q = requant8::constants(*in.mult16, fast);
  for (int64_t o = o0; o < o1; ++o)
    for (int64_t c0 = 0; c0 < in.m; c0 += kLanes8) {
      const __m256i kc = lanes8(in.m - c0);
      __m256i v = _mm256_maskload_epi32(in.acc + o * in.m + c0, kc);
      if (in.t) {
        const __m256i t =
            in.mPerGroup == in.m
                ? _mm256_set1_epi32(in.t[o])
                : _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), in.t + o,
                                              _mm256_maskload_epi32(groupAt + c0, kc), kc, 4);
        v = _mm256_sub_epi32(v, _mm256_mullo_epi32(_mm256_maskload_epi32(in.zw + c0, kc), t));
      }
      if (in.xTerm) v = _mm256_sub_epi32(v, _mm256_maskload_epi32(in.xTerm + o * in.m + c0, kc));
      // bias and multipliers are padded to a multiple of 16 channels: whole loads stay inside.
      v = _mm256_add_epi32(v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in.bias16 + c0)));
      requant8::storeSum8(v, in.mult16->mult.data() + c0, in.mult16->multf.data() + c0, q,
                          y + o * in.m + c0, static_cast<int>(std::min(kLanes8, in.m - c0)));
    }
}

#else

void requantizeTileAvx2(const TileInput&, bool, uint8_t*, int64_t, int64_t) {}
void requantizePositionsAvx2(const TileInput&, const int32_t*, bool, uint8_t*, int64_t, int64_t) {}

#endif

}  // namespace passlab::exec::cpu::int32_sums
