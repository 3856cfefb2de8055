// The range of a float32 tensor with 0 (value_range.h): one pass, 64 at a
// time with AVX-512F, 8 at a time with SSE2 (the scalar loop below does not
// vectorize).
#include "core/exec/cpu/value_range.h"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#include "core/support/x86_intrinsics.h"
#endif

#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

#if defined(__x86_64__)
// The AVX-512 part of rangeWithZero: r over the first elements; returns how many.
__attribute__((target("avx512f"))) int64_t rangeAvx512(const float* p, int64_t n, ValueRange& r) {
  __m512 mn[4], mx[4];
  for (int k = 0; k < 4; ++k) mn[k] = mx[k] = _mm512_setzero_ps();
  __mmask16 bad = 0;
  int64_t i = 0;
  for (; i + 64 <= n; i += 64)
    for (int k = 0; k < 4; ++k) {
      const __m512 a = _mm512_loadu_ps(p + i + 16 * k);
      bad |= _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q);
      mn[k] = _mm512_min_ps(mn[k], a);
      mx[k] = _mm512_max_ps(mx[k], a);
    }
  r.min = std::min(r.min, _mm512_reduce_min_ps(_mm512_min_ps(_mm512_min_ps(mn[0], mn[1]),
                                                             _mm512_min_ps(mn[2], mn[3]))));
  r.max = std::max(r.max, _mm512_reduce_max_ps(_mm512_max_ps(_mm512_max_ps(mx[0], mx[1]),
                                                             _mm512_max_ps(mx[2], mx[3]))));
  r.nan = r.nan || bad != 0;
  return i;
}
#endif

}  // namespace

ValueRange rangeWithZero(const float* p, int64_t n) {
  ValueRange r;
  int64_t i = 0;
#if defined(__x86_64__)
  if (cpu_isa::hasAvx512f()) i = rangeAvx512(p, n, r);
#endif
#if defined(__SSE2__)
  __m128 mn0 = _mm_setzero_ps(), mn1 = mn0, mx0 = mn0, mx1 = mn0, bad = mn0;
  for (; i + 8 <= n; i += 8) {
    const __m128 a = _mm_loadu_ps(p + i), b = _mm_loadu_ps(p + i + 4);
    bad = _mm_or_ps(bad, _mm_or_ps(_mm_cmpunord_ps(a, a), _mm_cmpunord_ps(b, b)));
    mn0 = _mm_min_ps(mn0, a), mn1 = _mm_min_ps(mn1, b);
    mx0 = _mm_max_ps(mx0, a), mx1 = _mm_max_ps(mx1, b);
  }
  alignas(16) float lanes[4];
  _mm_store_ps(lanes, _mm_min_ps(mn0, mn1));
  for (float v : lanes) r.min = std::min(r.min, v);
  _mm_store_ps(lanes, _mm_max_ps(mx0, mx1));
  for (float v : lanes) r.max = std::max(r.max, v);
  r.nan = r.nan || _mm_movemask_ps(bad) != 0;
#endif
  for (; i < n; ++i) {
    if (std::isnan(p[i])) r.nan = true;
    r.max = std::max(r.max, p[i]);
    r.min = std::min(r.min, p[i]);
  }
  return r;
}

ValueRange mergeRanges(const ValueRange& a, const ValueRange& b) {
  return {std::min(a.min, b.min), std::max(a.max, b.max), a.nan || b.nan};
}

void storeRange(const ValueRange& r, float* out) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  out[0] = r.nan ? nan : r.min;
  out[1] = r.nan ? nan : r.max;
}

ValueRange loadRange(const float* in) {
  if (std::isnan(in[0]) || std::isnan(in[1])) return {0, 0, true};
  return {std::min(in[0], 0.0f), std::max(in[1], 0.0f), false};
}

}  // namespace passlab::exec::cpu
