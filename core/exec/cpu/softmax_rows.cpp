// Softmax rows and columns (see softmax_rows.h). A row's maximum and its
// final pass (the scale, or the subtraction) run on AVX-512 or AVX2 when the
// CPU has them (cpu_isa.h, as the exp rows), on 4-lane GCC vectors (one SSE2
// register: the baseline build) otherwise; the columns on the 4-lane vectors.
// The maximum, the products and the differences are exact, so every path
// gives the same bits for the same exp; only exp (expShiftedSumRow) differs
// between paths, by an ulp or two.
#include "core/exec/cpu/softmax_rows.h"

#include "core/support/x86_intrinsics.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/exec/cpu/row_isa.h"
#include "core/exec/cpu/sigmoid_rows.h"

namespace passlab::exec::cpu {

namespace {

constexpr int kLanes = 4;
using F4 = float __attribute__((vector_size(kLanes * sizeof(float))));

F4 load4(const float* p) {
  F4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void store4(float* p, F4 v) {
  std::memcpy(p, &v, sizeof v);
}

// a > b ? a : b lane by lane; a NaN in b wins (the comparison is false), a
// NaN in a loses to the next b. So the maximum may drop a NaN of the row, but
// exp(NaN - max) puts it in the sum, and the row comes out NaN as in the
// reference.
F4 max4(F4 a, F4 b) {
  return a > b ? a : b;
}

float maxOf(const float* x, int64_t n) {
  constexpr float kLow = -std::numeric_limits<float>::infinity();
  F4 acc = F4{} + kLow;
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) acc = max4(acc, load4(x + i));
  float m = kLow;
  for (int k = 0; k < kLanes; ++k) m = m > acc[k] ? m : acc[k];
  for (; i < n; ++i) m = m > x[i] ? m : x[i];
  return m;
}

// y = x - c (scalar c).
void subtract(const float* x, float c, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store4(y + i, load4(x + i) - c);
  for (; i < n; ++i) y[i] = x[i] - c;
}

// y = x * c (scalar c).
void scale(const float* x, float c, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store4(y + i, load4(x + i) * c);
  for (; i < n; ++i) y[i] = x[i] * c;
}

// Lane by lane over n: y = op(a, b).
template <class Op>
void lanes(const float* a, const float* b, float* y, int64_t n, Op op) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store4(y + i, op(load4(a + i), load4(b + i)));
  for (; i < n; ++i) {
    F4 va = F4{} + a[i], vb = F4{} + b[i];
    y[i] = op(va, vb)[0];
  }
}

// ---- AVX-512 (16 lanes; the tails with masks) ------------------------------

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#define PASSLAB_AVX512 __attribute__((target("avx512f")))

// Four accumulators (the maximum's latency); max_ps(a, b) is a > b ? a : b,
// as max4.
PASSLAB_AVX512 float maxOf512(const float* x, int64_t n) {
  const __m512 low = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  __m512 a0 = low, a1 = low, a2 = low, a3 = low;
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    a0 = _mm512_max_ps(a0, _mm512_loadu_ps(x + i));
    a1 = _mm512_max_ps(a1, _mm512_loadu_ps(x + i + 16));
    a2 = _mm512_max_ps(a2, _mm512_loadu_ps(x + i + 32));
    a3 = _mm512_max_ps(a3, _mm512_loadu_ps(x + i + 48));
  }
  for (; i + 16 <= n; i += 16) a0 = _mm512_max_ps(a0, _mm512_loadu_ps(x + i));
  if (i < n) {
    const __mmask16 k = avx512::lanes(n - i);
    a1 = _mm512_mask_max_ps(a1, k, a1, _mm512_maskz_loadu_ps(k, x + i));
  }
  return _mm512_reduce_max_ps(_mm512_max_ps(_mm512_max_ps(a0, a1), _mm512_max_ps(a2, a3)));
}

// y = x * c (kMul) or y = x - c.
template <bool kMul>
PASSLAB_AVX512 inline __m512 withScalar16(__m512 a, __m512 c) {
  return kMul ? _mm512_mul_ps(a, c) : _mm512_sub_ps(a, c);
}

template <bool kMul>
PASSLAB_AVX512 void withScalar512(const float* x, float c, float* y, int64_t n) {
  const __m512 v = _mm512_set1_ps(c);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(y + i, withScalar16<kMul>(_mm512_loadu_ps(x + i), v));
  if (i < n) {
    const __mmask16 k = avx512::lanes(n - i);
    _mm512_mask_storeu_ps(y + i, k, withScalar16<kMul>(_mm512_maskz_loadu_ps(k, x + i), v));
  }
}

#pragma GCC diagnostic pop

// ---- AVX2 (8 lanes; the tails on the 4-lane loops) --------------------------

#define PASSLAB_AVX2 __attribute__((target("avx2")))

PASSLAB_AVX2 float maxOf256(const float* x, int64_t n) {
  const __m256 low = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
  __m256 a0 = low, a1 = low, a2 = low, a3 = low;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm256_max_ps(a0, _mm256_loadu_ps(x + i));
    a1 = _mm256_max_ps(a1, _mm256_loadu_ps(x + i + 8));
    a2 = _mm256_max_ps(a2, _mm256_loadu_ps(x + i + 16));
    a3 = _mm256_max_ps(a3, _mm256_loadu_ps(x + i + 24));
  }
  for (; i + 8 <= n; i += 8) a0 = _mm256_max_ps(a0, _mm256_loadu_ps(x + i));
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, _mm256_max_ps(_mm256_max_ps(a0, a1), _mm256_max_ps(a2, a3)));
  float m = maxOf(x + i, n - i);
  for (float v : lanes) m = m > v ? m : v;
  return m;
}

template <bool kMul>
PASSLAB_AVX2 void withScalar256(const float* x, float c, float* y, int64_t n) {
  const __m256 v = _mm256_set1_ps(c);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 a = _mm256_loadu_ps(x + i);
    _mm256_storeu_ps(y + i, kMul ? _mm256_mul_ps(a, v) : _mm256_sub_ps(a, v));
  }
  if (kMul)
    scale(x + i, c, y + i, n - i);
  else
    subtract(x + i, c, y + i, n - i);
}

// ---- Dispatch ---------------------------------------------------------------

// The SSE2 path's name (row_isa.h).
constexpr char kBaseIsa[] = "sse2";

float maxOn(RowIsa isa, const float* x, int64_t n) {
  switch (isa) {
    case RowIsa::kAvx512:
      return maxOf512(x, n);
    case RowIsa::kAvx2:
      return maxOf256(x, n);
    case RowIsa::kBase:
      break;
  }
  return maxOf(x, n);
}

template <bool kMul>
void withScalarOn(RowIsa isa, const float* x, float c, float* y, int64_t n) {
  switch (isa) {
    case RowIsa::kAvx512:
      return withScalar512<kMul>(x, c, y, n);
    case RowIsa::kAvx2:
      return withScalar256<kMul>(x, c, y, n);
    case RowIsa::kBase:
      break;
  }
  return kMul ? scale(x, c, y, n) : subtract(x, c, y, n);
}

// The row on `isa`'s loops, exp on the same instruction set's
// (expShiftedSumRowOn).
void rowOn(RowIsa isa, const float* x, float* y, int64_t n, bool log, float* scratch) {
  if (n <= 0) return;
  const float mx = maxOn(isa, x, n);
  float sum = 0;
  if (!log) {
    expShiftedSumRowOn(rowIsaName(isa, kBaseIsa), x, mx, y, n, &sum);
    withScalarOn<true>(isa, y, 1.0f / sum, y, n);
    return;
  }
  expShiftedSumRowOn(rowIsaName(isa, kBaseIsa), x, mx, nullptr, n, &sum);  // the sum only
  withScalarOn<false>(isa, x, std::log(sum) + mx, y, n);
}

}  // namespace

void softmaxRow(const float* x, float* y, int64_t n, bool log, float* scratch) {
  rowOn(detectedRowIsa(), x, y, n, log, scratch);
}

bool softmaxRowOn(std::string_view isa, const float* x, float* y, int64_t n, bool log,
                  float* scratch) {
  RowIsa chosen;
  if (!parseRowIsa(isa, kBaseIsa, &chosen)) return false;
  rowOn(chosen, x, y, n, log, scratch);
  return true;
}

void softmaxShortRows(const float* x, float* y, int64_t rows, int64_t n, bool log, float* scratch) {
  if (rows <= 0 || n <= 0) return;
  float* e = scratch;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * n;
    float mx = -std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < n; ++i) mx = mx > xr[i] ? mx : xr[i];
    for (int64_t i = 0; i < n; ++i) e[r * n + i] = xr[i] - mx;
  }
  expRow(e, e, rows * n);
  for (int64_t r = 0; r < rows; ++r) {
    const float* er = e + r * n;
    float sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += er[i];
    float* yr = y + r * n;
    if (!log) {
      const float c = 1.0f / sum;
      for (int64_t i = 0; i < n; ++i) yr[i] = er[i] * c;
      continue;
    }
    const float* xr = x + r * n;
    float mx = -std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < n; ++i) mx = mx > xr[i] ? mx : xr[i];
    const float c = std::log(sum) + mx;
    for (int64_t i = 0; i < n; ++i) yr[i] = xr[i] - c;
  }
}

void softmaxColumns(const float* x, float* y, int64_t len, int64_t inner, int64_t c0, int64_t c1,
                    bool log, float* scratch) {
  const int64_t w = c1 - c0;
  if (w <= 0 || len <= 0) return;
  float* mx = scratch;
  float* sum = scratch + w;
  float* t = scratch + 2 * w;
  std::memcpy(mx, x + c0, static_cast<size_t>(w) * sizeof(float));
  for (int64_t i = 1; i < len; ++i) lanes(mx, x + i * inner + c0, mx, w, max4);
  std::memset(sum, 0, static_cast<size_t>(w) * sizeof(float));
  auto minus = [](F4 a, F4 b) { return a - b; };
  auto plus = [](F4 a, F4 b) { return a + b; };
  for (int64_t i = 0; i < len; ++i) {
    float* e = log ? t : y + i * inner + c0;
    lanes(x + i * inner + c0, mx, e, w, minus);
    expRow(e, e, w);
    lanes(sum, e, sum, w, plus);
  }
  if (!log) {
    for (int64_t c = 0; c < w; ++c) sum[c] = 1.0f / sum[c];
    auto times = [](F4 a, F4 b) { return a * b; };
    for (int64_t i = 0; i < len; ++i) lanes(y + i * inner + c0, sum, y + i * inner + c0, w, times);
    return;
  }
  for (int64_t c = 0; c < w; ++c) sum[c] = std::log(sum[c]) + mx[c];
  for (int64_t i = 0; i < len; ++i) lanes(x + i * inner + c0, sum, y + i * inner + c0, w, minus);
}

}  // namespace passlab::exec::cpu
