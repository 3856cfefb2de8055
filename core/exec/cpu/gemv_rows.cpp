#include "core/exec/cpu/gemv_rows.h"

#include "core/support/x86_intrinsics.h"

#include <algorithm>

#include "core/exec/cpu/row_isa.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// Adds the scalar tail [k, K) of four consecutive rows (w0, w0 + K, ...) to
// their vector sums and stores the four results at y[0..3].
inline void storeFourRows(const float* x, const float* w0, int64_t K, int64_t k, float (&sums)[4],
                          float* y) {
  for (int r = 0; r < 4; ++r) {
    const float* w = w0 + r * K;
    float s = sums[r];
    for (int64_t i = k; i < K; ++i) s += x[i] * w[i];
    y[r] = s;
  }
}

// Four rows at a time share each load of x; the tail of K is scalar.
__attribute__((target("avx512f"))) void rowsAvx512(const float* x, const float* W, int64_t n0,
                                                   int64_t n1, int64_t K, float* y) {
  int64_t n = n0;
  for (; n + 4 <= n1; n += 4) {
    const float* w0 = W + n * K;
    const float* w1 = w0 + K;
    const float* w2 = w1 + K;
    const float* w3 = w2 + K;
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    int64_t k = 0;
    for (; k + 16 <= K; k += 16) {
      __m512 xv = _mm512_loadu_ps(x + k);
      a0 = _mm512_fmadd_ps(xv, _mm512_loadu_ps(w0 + k), a0);
      a1 = _mm512_fmadd_ps(xv, _mm512_loadu_ps(w1 + k), a1);
      a2 = _mm512_fmadd_ps(xv, _mm512_loadu_ps(w2 + k), a2);
      a3 = _mm512_fmadd_ps(xv, _mm512_loadu_ps(w3 + k), a3);
    }
    float sums[4] = {_mm512_reduce_add_ps(a0), _mm512_reduce_add_ps(a1), _mm512_reduce_add_ps(a2),
                     _mm512_reduce_add_ps(a3)};
    storeFourRows(x, w0, K, k, sums, y + n);
  }
  for (; n < n1; ++n) {
    const float* w = W + n * K;
    __m512 a = _mm512_setzero_ps();
    int64_t k = 0;
    for (; k + 16 <= K; k += 16)
      a = _mm512_fmadd_ps(_mm512_loadu_ps(x + k), _mm512_loadu_ps(w + k), a);
    float s = _mm512_reduce_add_ps(a);
    for (; k < K; ++k) s += x[k] * w[k];
    y[n] = s;
  }
}

__attribute__((target("avx2,fma"))) float hsum256(__m256 v) {
  __m128 lo = _mm256_castps256_ps128(v), hi = _mm256_extractf128_ps(v, 1);
  __m128 s = _mm_add_ps(lo, hi);
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

__attribute__((target("avx2,fma"))) void rowsAvx2(const float* x, const float* W, int64_t n0,
                                                  int64_t n1, int64_t K, float* y) {
  int64_t n = n0;
  for (; n + 4 <= n1; n += 4) {
    const float* w0 = W + n * K;
    const float* w1 = w0 + K;
    const float* w2 = w1 + K;
    const float* w3 = w2 + K;
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    int64_t k = 0;
    for (; k + 8 <= K; k += 8) {
      __m256 xv = _mm256_loadu_ps(x + k);
      a0 = _mm256_fmadd_ps(xv, _mm256_loadu_ps(w0 + k), a0);
      a1 = _mm256_fmadd_ps(xv, _mm256_loadu_ps(w1 + k), a1);
      a2 = _mm256_fmadd_ps(xv, _mm256_loadu_ps(w2 + k), a2);
      a3 = _mm256_fmadd_ps(xv, _mm256_loadu_ps(w3 + k), a3);
    }
    float sums[4] = {hsum256(a0), hsum256(a1), hsum256(a2), hsum256(a3)};
    storeFourRows(x, w0, K, k, sums, y + n);
  }
  for (; n < n1; ++n) {
    const float* w = W + n * K;
    __m256 a = _mm256_setzero_ps();
    int64_t k = 0;
    for (; k + 8 <= K; k += 8)
      a = _mm256_fmadd_ps(_mm256_loadu_ps(x + k), _mm256_loadu_ps(w + k), a);
    float s = hsum256(a);
    for (; k < K; ++k) s += x[k] * w[k];
    y[n] = s;
  }
}

void rowsScalar(const float* x, const float* W, int64_t n0, int64_t n1, int64_t K, float* y) {
  for (int64_t n = n0; n < n1; ++n) {
    const float* w = W + n * K;
    float s = 0.0f;
    for (int64_t k = 0; k < K; ++k) s += x[k] * w[k];
    y[n] = s;
  }
}

// The scalar path's name (row_isa.h).
constexpr char kBaseIsa[] = "scalar";

void rowsOn(RowIsa isa, const float* x, const float* W, int64_t n0, int64_t n1, int64_t K,
            float* y) {
  switch (isa) {
    case RowIsa::kAvx512:
      return rowsAvx512(x, W, n0, n1, K, y);
    case RowIsa::kAvx2:
      return rowsAvx2(x, W, n0, n1, K, y);
    case RowIsa::kBase:
      return rowsScalar(x, W, n0, n1, K, y);
  }
}

}  // namespace

void gemvRows(const float* x, const float* W, int64_t N, int64_t K, float* y, int threads) {
  // Rows per thread: at least 64 KiB of W each, so small layers stay on one thread.
  int64_t grain = std::max<int64_t>(4, (16 * 1024 + K - 1) / std::max<int64_t>(K, 1));
  const RowIsa chosen = detectedRowIsa();
  parallelFor(N, threads, grain,
              [&](int64_t n0, int64_t n1) { rowsOn(chosen, x, W, n0, n1, K, y); });
}

const char* gemvRowsIsa() {
  return rowIsaName(detectedRowIsa(), kBaseIsa);
}

bool gemvRowsOn(std::string_view name, const float* x, const float* W, int64_t N, int64_t K,
                float* y) {
  RowIsa chosen;
  if (!parseRowIsa(name, kBaseIsa, &chosen)) return false;
  rowsOn(chosen, x, W, 0, N, K, y);
  return true;
}

}  // namespace passlab::exec::cpu
