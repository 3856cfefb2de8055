#include "core/exec/cpu/conv_one_channel_1d.h"

#include <algorithm>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

using avx512::kLanes;

// Windows of one row taken together: the filter is loaded once for all.
constexpr int64_t kWindows = 8;

// y[o] = b + dot(w, x + o * stride) for the O windows o = 0 .. O-1.
template <int O>
__attribute__((target("avx512f"))) void windows(const float* x, int64_t stride, const float* w,
                                                int64_t kernel, float b, float* y) {
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

using WindowsFn = void (*)(const float*, int64_t, const float*, int64_t, float, float*);
constexpr WindowsFn kWindowsOf[kWindows + 1] = {nullptr,    windows<1>, windows<2>,
                                                windows<3>, windows<4>, windows<5>,
                                                windows<6>, windows<7>, windows<8>};

// One filter over one image's row: its outputs kWindows at a time.
void filterRow(const ConvOneChannel1dShape& s, const float* x, const float* w, float b, float* y) {
  for (int64_t o = 0; o < s.out; o += kWindows) {
    const int64_t n = std::min(kWindows, s.out - o);
    kWindowsOf[n](x + o * s.stride, s.stride, w, s.kernel, b, y + o);
  }
}

}  // namespace

void convOneChannel1d(const ConvOneChannel1dShape& s, const float* x, const float* w,
                      const float* bias, float* y, int threads) {
  const int64_t rows = s.N * s.M;
  const int64_t grain = std::max<int64_t>(1, 32768 / (s.out * s.kernel + 1));
  parallelFor(rows, threads, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t n = r / s.M, m = r % s.M;
      filterRow(s, x + n * s.in, w + m * s.kernel, bias ? bias[m] : 0.0f, y + r * s.out);
    }
  });
}

}  // namespace passlab::exec::cpu
