#include "core/exec/cpu/conv_gemv.h"

#include "core/exec/cpu/gemv_rows.h"

namespace passlab::exec::cpu {

void convGemv(const ConvGemvShape& s, const float* x, const float* w, const float* bias, float* y,
              int threads) {
  const int64_t Mg = s.M / s.group, Cg = s.C / s.group;
  for (int64_t n = 0; n < s.N; ++n) {
    const float* xn = x + n * s.xImageStride;
    float* yn = y + n * s.yImageStride;
    for (int64_t g = 0; g < s.group; ++g)
      gemvRows(xn + g * Cg, w + g * Mg * Cg, Mg, Cg, yn + g * Mg, threads);
    if (bias)
      for (int64_t m = 0; m < s.M; ++m) yn[m] += bias[m];
  }
}

}  // namespace passlab::exec::cpu
