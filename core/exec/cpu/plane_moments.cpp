#include "core/exec/cpu/plane_moments.h"

#include "core/support/x86_intrinsics.h"

#include <algorithm>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

using avx512::kLanes;
using avx512::lanes;
constexpr int64_t kBlock = 1024;  // elements summed in float before the double total

// ---- AVX-512 ----------------------------------------------------------------

#define PASSLAB_AVX512 __attribute__((target("avx512f")))

// Sum over x[0, n) of (x[i] - shift)^Power, Power 1 or 2.
template <int Power>
PASSLAB_AVX512 double sumAvx512(const float* x, int64_t n, float shift) {
  const __m512 s = _mm512_set1_ps(shift);
  double total = 0;
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t e = std::min(n, b + kBlock);
    __m512 acc0 = _mm512_setzero_ps(), acc1 = _mm512_setzero_ps();
    int64_t i = b;
    for (; i + 2 * kLanes <= e; i += 2 * kLanes) {
      const __m512 d0 = _mm512_sub_ps(_mm512_loadu_ps(x + i), s);
      const __m512 d1 = _mm512_sub_ps(_mm512_loadu_ps(x + i + kLanes), s);
      if constexpr (Power == 1) {
        acc0 = _mm512_add_ps(acc0, d0);
        acc1 = _mm512_add_ps(acc1, d1);
      } else {
        acc0 = _mm512_fmadd_ps(d0, d0, acc0);
        acc1 = _mm512_fmadd_ps(d1, d1, acc1);
      }
    }
    for (; i < e; i += kLanes) {
      const __mmask16 m = lanes(e - i);
      const __m512 d = _mm512_maskz_sub_ps(m, _mm512_maskz_loadu_ps(m, x + i), s);
      acc0 = Power == 1 ? _mm512_add_ps(acc0, d) : _mm512_fmadd_ps(d, d, acc0);
    }
    const __m512 acc = _mm512_add_ps(acc0, acc1);
    const __m256 lo = _mm512_castps512_ps256(acc);
    const __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(acc), 1));
    const __m512d wide = _mm512_add_pd(_mm512_cvtps_pd(lo), _mm512_cvtps_pd(hi));
    total += _mm512_reduce_add_pd(wide);
  }
  return total;
}

PASSLAB_AVX512 void affineAvx512(const float* x, float* y, int64_t n, float a, float b) {
  const __m512 va = _mm512_set1_ps(a), vb = _mm512_set1_ps(b);
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    _mm512_storeu_ps(y + i, _mm512_fmadd_ps(_mm512_loadu_ps(x + i), va, vb));
  if (i < n) {
    const __mmask16 m = lanes(n - i);
    _mm512_mask_storeu_ps(y + i, m, _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + i), va, vb));
  }
}

// ---- 16 float lanes (any CPU; the compiler vectorizes the lane loops) ---------

template <int Power>
double sumLanes(const float* x, int64_t n, float shift) {
  double total = 0;
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t e = std::min(n, b + kBlock);
    float acc[kLanes] = {};
    int64_t i = b;
    for (; i + kLanes <= e; i += kLanes)
      for (int64_t l = 0; l < kLanes; ++l) {
        const float d = x[i + l] - shift;
        acc[l] += Power == 1 ? d : d * d;
      }
    for (int64_t l = 0; i + l < e; ++l) {
      const float d = x[i + l] - shift;
      acc[l] += Power == 1 ? d : d * d;
    }
    for (float v : acc) total += v;
  }
  return total;
}

void affineLanes(const float* x, float* y, int64_t n, float a, float b) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] * a + b;
}

template <class Sum>
PlaneMoments moments(const float* x, int64_t n, Sum sum) {
  PlaneMoments m;
  if (n <= 0) return m;
  const double count = static_cast<double>(n);
  m.mean = sum(x, n, 0.0f, 1) / count;
  // Deviations from the mean rounded to float: the variance about a point
  // off by d is larger by d^2 only, far below float's resolution here.
  m.variance = sum(x, n, static_cast<float>(m.mean), 2) / count;
  return m;
}

PlaneMoments momentsAvx512(const float* x, int64_t n) {
  return moments(x, n, [](const float* p, int64_t k, float s, int power) {
    return power == 1 ? sumAvx512<1>(p, k, s) : sumAvx512<2>(p, k, s);
  });
}

PlaneMoments momentsLanes(const float* x, int64_t n) {
  return moments(x, n, [](const float* p, int64_t k, float s, int power) {
    return power == 1 ? sumLanes<1>(p, k, s) : sumLanes<2>(p, k, s);
  });
}

}  // namespace

PlaneMoments planeMoments(const float* x, int64_t n) {
  return cpu_isa::hasAvx512f() ? momentsAvx512(x, n) : momentsLanes(x, n);
}

void affineRow(const float* x, float* y, int64_t n, float a, float b) {
  if (cpu_isa::hasAvx512f()) return affineAvx512(x, y, n, a, b);
  affineLanes(x, y, n, a, b);
}

bool planeMomentsOn(std::string_view isa, const float* x, int64_t n, PlaneMoments& out) {
  if (isa == "avx512" && cpu_isa::hasAvx512f()) return out = momentsAvx512(x, n), true;
  if (isa == "lanes") return out = momentsLanes(x, n), true;
  return false;
}

bool affineRowOn(std::string_view isa, const float* x, float* y, int64_t n, float a, float b) {
  if (isa == "avx512" && cpu_isa::hasAvx512f()) return affineAvx512(x, y, n, a, b), true;
  if (isa == "lanes") return affineLanes(x, y, n, a, b), true;
  return false;
}

}  // namespace passlab::exec::cpu
