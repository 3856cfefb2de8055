#include "core/exec/cpu/reduce_rows.h"

#include "core/support/x86_intrinsics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/exec/cpu/avx512_lanes.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

// The reference loop's rule (reduce.cpp): a NaN element wins, a NaN
// accumulator stays; otherwise the larger (smaller) one, ties keep acc.
template <bool kMax>
inline float extremeOf(float acc, float v) {
  if (v != v) return v;
  return (kMax ? v > acc : v < acc) ? v : acc;
}

template <bool kMax>
constexpr float extremeInit() {
  return kMax ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
}

// ---- AVX-512 ----------------------------------------------------------------

#define PASSLAB_AVX512 __attribute__((target("avx512f")))

// acc + pre(d) for 8 widened elements d.
template <RowOp Op>
PASSLAB_AVX512 inline __m512d addWide(__m512d acc, __m256 x) {
  const __m512d d = _mm512_cvtps_pd(x);
  if constexpr (Op == RowOp::kSumSquare) return _mm512_fmadd_pd(d, d, acc);  // d * d is exact
  if constexpr (Op == RowOp::kAbsSum) return _mm512_add_pd(acc, _mm512_abs_pd(d));
  return _mm512_add_pd(acc, d);
}

PASSLAB_AVX512 inline __m256 low8(__m512 v) {
  return _mm512_castps512_ps256(v);
}
PASSLAB_AVX512 inline __m256 high8(__m512 v) {
  return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
}

using avx512::lanes;

template <RowOp Op>
PASSLAB_AVX512 double sumRow512(const float* x, int64_t n) {
  __m512d a0 = _mm512_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 = addWide<Op>(a0, _mm256_loadu_ps(x + i));
    a1 = addWide<Op>(a1, _mm256_loadu_ps(x + i + 8));
    a2 = addWide<Op>(a2, _mm256_loadu_ps(x + i + 16));
    a3 = addWide<Op>(a3, _mm256_loadu_ps(x + i + 24));
  }
  for (; i < n; i += 16) {  // masked-off lanes load as 0, which adds nothing
    const __m512 v = _mm512_maskz_loadu_ps(lanes(n - i), x + i);
    a0 = addWide<Op>(a0, low8(v));
    a1 = addWide<Op>(a1, high8(v));
  }
  return _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)));
}

template <RowOp Op>
PASSLAB_AVX512 void addRow512(const float* x, double* acc, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_pd(acc + i, addWide<Op>(_mm512_loadu_pd(acc + i), _mm256_loadu_ps(x + i)));
  if (i < n) {
    const __mmask8 m = static_cast<__mmask8>((1u << (n - i)) - 1);
    const __m512 v = _mm512_maskz_loadu_ps(m, x + i);
    _mm512_mask_storeu_pd(acc + i, m, addWide<Op>(_mm512_maskz_loadu_pd(m, acc + i), low8(v)));
  }
}

// Columns [0, 8 V) of `rows` rows (the last vector holding `last` of 8
// columns) added into acc, the V accumulators in registers across the rows.
template <RowOp Op, int V>
PASSLAB_AVX512 void addColumns512(const float* x, int64_t rows, int64_t stride, double* acc,
                                  int last) {
  const auto mask = [&](int v) -> __mmask8 {
    return v + 1 < V ? __mmask8{0xff} : static_cast<__mmask8>((1u << last) - 1);
  };
  __m512d a[V];
#pragma GCC unroll 8
  for (int v = 0; v < V; ++v) a[v] = _mm512_maskz_loadu_pd(mask(v), acc + 8 * v);
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = x + r * stride;
#pragma GCC unroll 8
    for (int v = 0; v < V; ++v)  // masked-off lanes load as 0 and are not stored
      a[v] = addWide<Op>(a[v], low8(_mm512_maskz_loadu_ps(mask(v), row + 8 * v)));
  }
#pragma GCC unroll 8
  for (int v = 0; v < V; ++v) _mm512_mask_storeu_pd(acc + 8 * v, mask(v), a[v]);
}

template <RowOp Op>
PASSLAB_AVX512 void addRows512(const float* x, int64_t rows, int64_t stride, double* acc,
                               int64_t n) {
  for (int64_t i0 = 0; i0 < n; i0 += 64) {
    const int64_t width = std::min<int64_t>(64, n - i0);
    const int vectors = static_cast<int>((width + 7) / 8);
    const int last = static_cast<int>(width - 8 * (vectors - 1));
    const float* xs = x + i0;
    double* as = acc + i0;
    switch (vectors) {
      case 1:
        addColumns512<Op, 1>(xs, rows, stride, as, last);
        break;
      case 2:
        addColumns512<Op, 2>(xs, rows, stride, as, last);
        break;
      case 3:
        addColumns512<Op, 3>(xs, rows, stride, as, last);
        break;
      case 4:
        addColumns512<Op, 4>(xs, rows, stride, as, last);
        break;
      case 5:
        addColumns512<Op, 5>(xs, rows, stride, as, last);
        break;
      case 6:
        addColumns512<Op, 6>(xs, rows, stride, as, last);
        break;
      case 7:
        addColumns512<Op, 7>(xs, rows, stride, as, last);
        break;
      default:
        addColumns512<Op, 8>(xs, rows, stride, as, last);
        break;
    }
  }
}

template <bool kMax>
PASSLAB_AVX512 inline __m512 extreme16(__m512 acc, __m512 v) {
  const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
  // max_ps(v, acc) is v > acc ? v : acc per lane (a NaN acc stays).
  const __m512 r = kMax ? _mm512_max_ps(v, acc) : _mm512_min_ps(v, acc);
  return _mm512_mask_blend_ps(nan, r, v);
}

template <bool kMax>
PASSLAB_AVX512 double extremeRow512(const float* x, int64_t n) {
  const __m512 init = _mm512_set1_ps(extremeInit<kMax>());
  __m512 a[4] = {init, init, init, init};
  int64_t i = 0;
  for (; i + 64 <= n; i += 64)
    for (int k = 0; k < 4; ++k) a[k] = extreme16<kMax>(a[k], _mm512_loadu_ps(x + i + 16 * k));
  for (; i < n; i += 16)  // masked-off lanes keep the identity
    a[0] = extreme16<kMax>(a[0], _mm512_mask_loadu_ps(init, lanes(n - i), x + i));
  alignas(64) float lanes[64];
  for (int k = 0; k < 4; ++k) _mm512_store_ps(lanes + 16 * k, a[k]);
  float r = extremeInit<kMax>();
  for (float v : lanes) r = extremeOf<kMax>(r, v);
  return r;
}

template <bool kMax>
PASSLAB_AVX512 void extremeInto512(const float* x, float* acc, int64_t n) {
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = lanes(n - i);
    const __m512 a = _mm512_maskz_loadu_ps(m, acc + i);
    _mm512_mask_storeu_ps(acc + i, m, extreme16<kMax>(a, _mm512_maskz_loadu_ps(m, x + i)));
  }
}

// ---- 8 or 16 lanes (any CPU; the compiler vectorizes the lane loops) ---------

template <RowOp Op>
inline double pre(float v) {
  const double d = v;
  if constexpr (Op == RowOp::kSumSquare) return d * d;
  if constexpr (Op == RowOp::kAbsSum) return std::fabs(d);
  return d;
}

template <RowOp Op>
double sumRowLanes(const float* x, int64_t n) {
  constexpr int64_t kLanes = 8;
  double acc[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) acc[l] += pre<Op>(x[i + l]);
  for (int64_t l = 0; i + l < n; ++l) acc[l] += pre<Op>(x[i + l]);
  double total = 0;
  for (double v : acc) total += v;
  return total;
}

template <RowOp Op>
void addRowLanes(const float* x, double* acc, int64_t n) {
  for (int64_t i = 0; i < n; ++i) acc[i] += pre<Op>(x[i]);
}

template <RowOp Op>
void addRowsLanes(const float* x, int64_t rows, int64_t stride, double* acc, int64_t n) {
  for (int64_t r = 0; r < rows; ++r) addRowLanes<Op>(x + r * stride, acc, n);
}

template <bool kMax>
double extremeRowLanes(const float* x, int64_t n) {
  constexpr int64_t kLanes = 16;
  float acc[kLanes];
  for (float& a : acc) a = extremeInit<kMax>();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) acc[l] = extremeOf<kMax>(acc[l], x[i + l]);
  for (int64_t l = 0; i + l < n; ++l) acc[l] = extremeOf<kMax>(acc[l], x[i + l]);
  float r = extremeInit<kMax>();
  for (float v : acc) r = extremeOf<kMax>(r, v);
  return r;
}

template <bool kMax>
void extremeIntoLanes(const float* x, float* acc, int64_t n) {
  for (int64_t i = 0; i < n; ++i) acc[i] = extremeOf<kMax>(acc[i], x[i]);
}

// ---- Dispatch ---------------------------------------------------------------

double reduceOn(bool avx512, RowOp op, const float* x, int64_t n) {
  switch (op) {
    case RowOp::kSum:
      return avx512 ? sumRow512<RowOp::kSum>(x, n) : sumRowLanes<RowOp::kSum>(x, n);
    case RowOp::kSumSquare:
      return avx512 ? sumRow512<RowOp::kSumSquare>(x, n) : sumRowLanes<RowOp::kSumSquare>(x, n);
    case RowOp::kAbsSum:
      return avx512 ? sumRow512<RowOp::kAbsSum>(x, n) : sumRowLanes<RowOp::kAbsSum>(x, n);
    case RowOp::kMax:
      return avx512 ? extremeRow512<true>(x, n) : extremeRowLanes<true>(x, n);
    case RowOp::kMin:
      return avx512 ? extremeRow512<false>(x, n) : extremeRowLanes<false>(x, n);
    case RowOp::kNone:
      break;
  }
  return 0;
}

void addOn(bool avx512, RowOp op, const float* x, double* acc, int64_t n) {
  switch (op) {
    case RowOp::kSum:
      return avx512 ? addRow512<RowOp::kSum>(x, acc, n) : addRowLanes<RowOp::kSum>(x, acc, n);
    case RowOp::kSumSquare:
      return avx512 ? addRow512<RowOp::kSumSquare>(x, acc, n)
                    : addRowLanes<RowOp::kSumSquare>(x, acc, n);
    case RowOp::kAbsSum:
      return avx512 ? addRow512<RowOp::kAbsSum>(x, acc, n) : addRowLanes<RowOp::kAbsSum>(x, acc, n);
    default:
      break;
  }
}

void addRowsOn(bool avx512, RowOp op, const float* x, int64_t rows, int64_t stride, double* acc,
               int64_t n) {
  switch (op) {
    case RowOp::kSum:
      return avx512 ? addRows512<RowOp::kSum>(x, rows, stride, acc, n)
                    : addRowsLanes<RowOp::kSum>(x, rows, stride, acc, n);
    case RowOp::kSumSquare:
      return avx512 ? addRows512<RowOp::kSumSquare>(x, rows, stride, acc, n)
                    : addRowsLanes<RowOp::kSumSquare>(x, rows, stride, acc, n);
    case RowOp::kAbsSum:
      return avx512 ? addRows512<RowOp::kAbsSum>(x, rows, stride, acc, n)
                    : addRowsLanes<RowOp::kAbsSum>(x, rows, stride, acc, n);
    default:
      break;
  }
}

void extremeOn(bool avx512, RowOp op, const float* x, float* acc, int64_t n) {
  if (op == RowOp::kMax)
    return avx512 ? extremeInto512<true>(x, acc, n) : extremeIntoLanes<true>(x, acc, n);
  if (op == RowOp::kMin)
    return avx512 ? extremeInto512<false>(x, acc, n) : extremeIntoLanes<false>(x, acc, n);
}

// The named path, or false when unknown or not on this machine.
bool parseIsa(std::string_view name, bool* avx512) {
  *avx512 = name == "avx512";
  if (*avx512) return cpu_isa::hasAvx512f();
  return name == "lanes";
}

}  // namespace

double reduceRowF32(RowOp op, const float* x, int64_t n) {
  return reduceOn(cpu_isa::hasAvx512f(), op, x, n);
}

void addRowF32(RowOp op, const float* x, double* acc, int64_t n) {
  addOn(cpu_isa::hasAvx512f(), op, x, acc, n);
}

void addRowsF32(RowOp op, const float* x, int64_t rows, int64_t stride, double* acc, int64_t n) {
  addRowsOn(cpu_isa::hasAvx512f(), op, x, rows, stride, acc, n);
}

void extremeRowF32(RowOp op, const float* x, float* acc, int64_t n) {
  extremeOn(cpu_isa::hasAvx512f(), op, x, acc, n);
}

bool reduceRowF32On(std::string_view isa, RowOp op, const float* x, int64_t n, double* out) {
  bool avx512;
  if (!parseIsa(isa, &avx512)) return false;
  *out = reduceOn(avx512, op, x, n);
  return true;
}

bool addRowF32On(std::string_view isa, RowOp op, const float* x, double* acc, int64_t n) {
  bool avx512;
  if (!parseIsa(isa, &avx512)) return false;
  addOn(avx512, op, x, acc, n);
  return true;
}

bool addRowsF32On(std::string_view isa, RowOp op, const float* x, int64_t rows, int64_t stride,
                  double* acc, int64_t n) {
  bool avx512;
  if (!parseIsa(isa, &avx512)) return false;
  addRowsOn(avx512, op, x, rows, stride, acc, n);
  return true;
}

bool extremeRowF32On(std::string_view isa, RowOp op, const float* x, float* acc, int64_t n) {
  bool avx512;
  if (!parseIsa(isa, &avx512)) return false;
  extremeOn(avx512, op, x, acc, n);
  return true;
}

}  // namespace passlab::exec::cpu
