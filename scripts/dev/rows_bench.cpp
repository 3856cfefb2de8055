// Developer tool: nanoseconds per element of the float32 activation rows
// against the per-element forms they replaced (session 30): GELU erf form
// (erfc tail) against session 29's 1 + erf kernel (copied below as the
// baseline), GELU tanh form in one pass against the three-pass blocks, Sin and
// Cos against std::sin / std::cos, Celu on eluRow against std::expm1. Rows of
// 3072 (a BERT MLP row), inputs in [-6, 6] (Sin/Cos: [-100, 100]), median of 31
// runs of 2000 rows. Not part of the build:
//
//   g++ -O2 -std=c++20 -I. scripts/dev/rows_bench.cpp core/exec/cpu/erf_rows.cpp \
//     core/exec/cpu/sigmoid_rows.cpp core/exec/cpu/activation_rows.cpp \
//     core/exec/cpu/trig_rows.cpp core/support/cpu_isa.cpp core/support/log.cpp \
//     -lspdlog -lfmt -o /tmp/rows_bench && /tmp/rows_bench
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "core/exec/cpu/activation_rows.h"
#include "core/exec/cpu/erf_rows.h"
#include "core/exec/cpu/trig_rows.h"

using namespace passlab::exec::cpu;

namespace {

// Session 29's AVX-512 GELU (erf_rows.cpp at c470f10): 0.5 v (1 + erf16(v / sqrt 2)).
constexpr float kClamp = 3.832506856900711f, kOne = 3.92f;
constexpr float kP[] = {-2.72614225801306e-10f, 2.77068142495902e-08f,  -2.10102402082508e-06f,
                        -5.69250639462346e-05f, -7.34990630326855e-04f, -2.95459980854025e-03f,
                        -1.60960333262415e-02f};
constexpr float kQ[] = {-1.45660718464996e-05f, -2.13374055278905e-04f, -1.68282697438203e-03f,
                        -7.37332916720468e-03f, -1.42647390514189e-02f};

__attribute__((target("avx512f"))) __m512 erf16(__m512 v) {
  const __m512 x = _mm512_min_ps(_mm512_set1_ps(kClamp), _mm512_max_ps(_mm512_set1_ps(-kClamp), v));
  const __m512 x2 = _mm512_mul_ps(x, x);
  __m512 p = _mm512_set1_ps(kP[0]);
  for (int i = 1; i < 7; ++i) p = _mm512_fmadd_ps(x2, p, _mm512_set1_ps(kP[i]));
  __m512 q = _mm512_set1_ps(kQ[0]);
  for (int i = 1; i < 5; ++i) q = _mm512_fmadd_ps(x2, q, _mm512_set1_ps(kQ[i]));
  const __m512 r =
      _mm512_min_ps(_mm512_set1_ps(1.0f),
                    _mm512_max_ps(_mm512_set1_ps(-1.0f), _mm512_div_ps(_mm512_mul_ps(x, p), q)));
  const __m512i sign = _mm512_set1_epi32(static_cast<int>(0x80000000u));
  const __m512 absV = _mm512_castsi512_ps(_mm512_andnot_si512(sign, _mm512_castps_si512(v)));
  const __m512 signedOne = _mm512_castsi512_ps(_mm512_or_si512(
      _mm512_and_si512(sign, _mm512_castps_si512(v)), _mm512_castps_si512(_mm512_set1_ps(1.0f))));
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(absV, _mm512_set1_ps(kOne), _CMP_GE_OQ), r,
                              signedOne);
}

__attribute__((target("avx512f"))) void oldGelu(const float* v, float* y, int64_t n) {
  for (int64_t i = 0; i + 16 <= n; i += 16) {
    const __m512 x = _mm512_loadu_ps(v + i);
    const __m512 e = erf16(_mm512_mul_ps(x, _mm512_set1_ps(0.70710678118654752f)));
    _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), x),
                                          _mm512_add_ps(_mm512_set1_ps(1.0f), e)));
  }
}

double nsPerElement(const std::function<void(const float*, float*, int64_t)>& f,
                    const std::vector<float>& x) {
  constexpr int64_t kRow = 3072, kRows = 2000;
  std::vector<float> y(x.size());
  std::vector<double> ts;
  for (int rep = 0; rep < 31; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int64_t r = 0; r < kRows; ++r) {
      const int64_t off = (r % 16) * kRow;
      f(x.data() + off, y.data() + off, kRow);
    }
    ts.push_back(
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
        (kRow * kRows));
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

std::vector<float> inputs(float lo, float hi) {
  std::vector<float> x(16 * 3072);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = lo + (hi - lo) * static_cast<float>((i * 2654435761u) % 100003) / 100003.0f;
  return x;
}

void row(const char* name, double before, double after) {
  std::printf("%-26s %8.3f %8.3f  %5.2fx\n", name, before, after, before / after);
}

}  // namespace

int main() {
  const std::vector<float> g = inputs(-6, 6), t = inputs(-100, 100);
  std::printf("%-26s %8s %8s  (ns per element, median of 31)\n", "row", "before", "after");
  row("Gelu erf form", nsPerElement(oldGelu, g),
      nsPerElement([](const float* x, float* y, int64_t n) { geluErfRow(x, nullptr, 1, 0, y, n); },
                   g));
  row("Gelu tanh form",
      nsPerElement([](const float* x, float* y, int64_t n) { geluTanhRowOn("sse2", x, y, n); }, g),
      nsPerElement(geluTanhRow, g));
  row("Sin",
      nsPerElement(
          [](const float* x, float* y, int64_t n) {
            for (int64_t i = 0; i < n; ++i) y[i] = std::sin(x[i]);
          },
          t),
      nsPerElement(sinRow, t));
  row("Cos",
      nsPerElement(
          [](const float* x, float* y, int64_t n) {
            for (int64_t i = 0; i < n; ++i) y[i] = std::cos(x[i]);
          },
          t),
      nsPerElement(cosRow, t));
  row("Celu (alpha 1)",
      nsPerElement(
          [](const float* x, float* y, int64_t n) {
            for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : std::expm1(x[i]);
          },
          g),
      nsPerElement(
          [](const float* x, float* y, int64_t n) {
            float b[256];
            for (int64_t i0 = 0; i0 < n; i0 += 256) {
              const int64_t m = std::min<int64_t>(256, n - i0);
              for (int64_t j = 0; j < m; ++j) b[j] = x[i0 + j] / 1.0f;
              eluRow(b, 1.0f, b, m);
              for (int64_t j = 0; j < m; ++j) y[i0 + j] = x[i0 + j] > 0.0f ? x[i0 + j] : b[j];
            }
          },
          g));
  return 0;
}
