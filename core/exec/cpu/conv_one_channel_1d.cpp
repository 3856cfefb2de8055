#include "core/exec/cpu/conv_one_channel_1d.h"

#include "core/support/x86_intrinsics.h"

#include <algorithm>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// Windows of one row taken together: the filter is loaded once for all.
constexpr int64_t kWindows = 8;

// y[o] = b + dot(w, x + o * stride) for the O windows o = 0 .. O-1, 16 taps
// per register.
template <int O>
__attribute__((target("avx512f"))) void windows512(const float* x, int64_t stride, const float* w,
                                                   int64_t kernel, float b, float* y) {
  constexpr int64_t kLanes = avx512::kLanes;
  __m512 acc[O];
#pragma GCC unroll 8
  for (int o = 0; o < O; ++o) acc[o] = _mm512_setzero_ps();
  int64_t k = 0;
  for (; k + kLanes <= kernel; k += kLanes) {
    const __m512 wv = _mm512_loadu_ps(w + k);
#pragma GCC unroll 8
    for (int o = 0; o < O; ++o)
      acc[o] = _mm512_fmadd_ps(wv, _mm512_loadu_ps(x + o * stride + k), acc[o]);
  }
  if (k < kernel) {
    const __mmask16 mask = avx512::lanes(kernel - k);
    const __m512 wv = _mm512_maskz_loadu_ps(mask, w + k);
#pragma GCC unroll 8
    for (int o = 0; o < O; ++o)
      acc[o] = _mm512_fmadd_ps(wv, _mm512_maskz_loadu_ps(mask, x + o * stride + k), acc[o]);
  }
#pragma GCC unroll 8
  for (int o = 0; o < O; ++o) y[o] = b + _mm512_reduce_add_ps(acc[o]);
}

// The sum of a register's 8 lanes.
__attribute__((target("avx2,fma"))) inline float sum256(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// As windows512, 8 taps per register.
template <int O>
__attribute__((target("avx2,fma"))) void windows256(const float* x, int64_t stride, const float* w,
                                                    int64_t kernel, float b, float* y) {
  constexpr int64_t kLanes = 8;
  __m256 acc[O];
#pragma GCC unroll 8
  for (int o = 0; o < O; ++o) acc[o] = _mm256_setzero_ps();
  int64_t k = 0;
  for (; k + kLanes <= kernel; k += kLanes) {
    const __m256 wv = _mm256_loadu_ps(w + k);
#pragma GCC unroll 8
    for (int o = 0; o < O; ++o)
      acc[o] = _mm256_fmadd_ps(wv, _mm256_loadu_ps(x + o * stride + k), acc[o]);
  }
  if (k < kernel) {
    const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(kernel - k)),
                                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256 wv = _mm256_maskload_ps(w + k, mask);
#pragma GCC unroll 8
    for (int o = 0; o < O; ++o)
      acc[o] = _mm256_fmadd_ps(wv, _mm256_maskload_ps(x + o * stride + k, mask), acc[o]);
  }
#pragma GCC unroll 8
  for (int o = 0; o < O; ++o) y[o] = b + sum256(acc[o]);
}

using WindowsFn = void (*)(const float*, int64_t, const float*, int64_t, float, float*);
constexpr WindowsFn kWindows512[kWindows + 1] = {nullptr,       windows512<1>, windows512<2>,
                                                 windows512<3>, windows512<4>, windows512<5>,
                                                 windows512<6>, windows512<7>, windows512<8>};
constexpr WindowsFn kWindows256[kWindows + 1] = {nullptr,       windows256<1>, windows256<2>,
                                                 windows256<3>, windows256<4>, windows256<5>,
                                                 windows256<6>, windows256<7>, windows256<8>};

// One filter over one image's row: its outputs kWindows at a time.
void filterRow(const ConvOneChannel1dShape& s, const WindowsFn* fns, const float* x, const float* w,
               float b, float* y) {
  for (int64_t o = 0; o < s.out; o += kWindows) {
    const int64_t n = std::min(kWindows, s.out - o);
    fns[n](x + o * s.stride, s.stride, w, s.kernel, b, y + o);
  }
}

}  // namespace

void convOneChannel1d(const ConvOneChannel1dShape& s, const float* x, const float* w,
                      const float* bias, float* y, int threads) {
  const WindowsFn* fns = cpu_isa::hasAvx512f() ? kWindows512 : kWindows256;
  const int64_t rows = s.N * s.M;
  const int64_t grain = std::max<int64_t>(1, 32768 / (s.out * s.kernel + 1));
  parallelFor(rows, threads, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t n = r / s.M, m = r % s.M;
      filterRow(s, fns, x + n * s.in, w + m * s.kernel, bias ? bias[m] : 0.0f, y + r * s.out);
    }
  });
}

}  // namespace passlab::exec::cpu
