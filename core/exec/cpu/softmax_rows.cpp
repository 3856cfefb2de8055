// Softmax rows and columns (see softmax_rows.h). The loops other than exp run
// on 4-lane GCC vectors (one SSE2 register: the baseline build; wider GCC
// vectors are split and spilled there).
#include "core/exec/cpu/softmax_rows.h"

#include <cmath>
#include <cstring>
#include <limits>

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

}  // namespace

void softmaxRow(const float* x, float* y, int64_t n, bool log, float* scratch) {
  if (n <= 0) return;
  const float mx = maxOf(x, n);
  if (!log) {
    scale(y, 1.0f / expShiftedSumRow(x, mx, y, n), y, n);
    return;
  }
  subtract(x, std::log(expShiftedSumRow(x, mx, scratch, n)) + mx, y, n);
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
