#include "core/exec/cpu/relu_row.h"

#include <algorithm>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

#if defined(__x86_64__)
// The lanes that are not below 0 (NaN included) kept, the others zeroed.
__attribute__((target("avx512f"))) inline __m512 relu16(__m512 v) {
  return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_NLT_UQ), v);
}

__attribute__((target("avx512f"))) void reluRow512(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512 a = _mm512_loadu_ps(x + i), b = _mm512_loadu_ps(x + i + 16);
    const __m512 c = _mm512_loadu_ps(x + i + 32), d = _mm512_loadu_ps(x + i + 48);
    _mm512_storeu_ps(y + i, relu16(a));
    _mm512_storeu_ps(y + i + 16, relu16(b));
    _mm512_storeu_ps(y + i + 32, relu16(c));
    _mm512_storeu_ps(y + i + 48, relu16(d));
  }
  for (; i < n; i += 16) {
    const __mmask16 k = avx512::lanes(n - i);
    _mm512_mask_storeu_ps(y + i, k, relu16(_mm512_maskz_loadu_ps(k, x + i)));
  }
}
#endif

}  // namespace

void reluRow(const float* x, float* y, int64_t n) {
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512f()) return reluRow512(x, y, n);
#endif
  for (int64_t i = 0; i < n; ++i) y[i] = std::max(x[i], 0.0f);
}

}  // namespace passlab::exec::cpu
