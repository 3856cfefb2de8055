#include "core/exec/cpu/conv_depthwise_1d.h"

#include <algorithm>

#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// The outputs [first, last) whose tap at input offset `offset` (o * stride +
// offset) lies inside a row of `in` elements.
void validOutputs(int64_t offset, int64_t stride, int64_t in, int64_t out, int64_t& first,
                  int64_t& last) {
  first = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  last = in - 1 - offset < 0 ? 0 : std::min(out, (in - 1 - offset) / stride + 1);
  first = std::min(first, last);
}

// One channel's row: the bias, then each tap over the outputs it reaches.
void channelRow(const ConvDepthwise1dShape& s, const float* x, const float* w, float b, float* y) {
  std::fill(y, y + s.out, b);
  for (int64_t k = 0; k < s.kernel; ++k) {
    const int64_t offset = k * s.dilation - s.padBegin;
    int64_t first = 0, last = 0;
    validOutputs(offset, s.stride, s.in, s.out, first, last);
    const float wk = w[k];
    if (s.stride == 1) {
      const float* xs = x + offset;
      for (int64_t o = first; o < last; ++o) y[o] += wk * xs[o];
    } else {
      for (int64_t o = first; o < last; ++o) y[o] += wk * x[o * s.stride + offset];
    }
  }
}

}  // namespace

void convDepthwise1d(const ConvDepthwise1dShape& s, const float* x, const float* w,
                     const float* bias, float* y, int threads) {
  const int64_t rows = s.N * s.C;
  const int64_t grain = std::max<int64_t>(1, 16384 / (s.out * s.kernel + 1));
  parallelFor(rows, threads, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t c = r % s.C;
      channelRow(s, x + r * s.in, w + c * s.kernel, bias ? bias[c] : 0.0f, y + r * s.out);
    }
  });
}

}  // namespace passlab::exec::cpu
