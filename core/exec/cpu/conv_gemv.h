// A 1x1 float32 convolution on a 1x1 input (a squeeze-excite block's two
// convolutions, after its global pooling) as one GEMV per image and group:
//   Y[n, g*Mg .. g*Mg+Mg) = W[g] (Mg x Cg) x X[n, g*Cg .. g*Cg+Cg) + B,
// W read in place as stored ([M, C/group, 1, 1]: row m is output channel m),
// on gemvRows (gemv_rows.h, AVX-512). oneDNN runs these as a convolution
// with a reorder in and out, three library calls for a few hundred
// multiply-adds: 0.8-1.6 us per call against 0.05-1.0 us here (1 thread,
// tests/bench/bench_pointwise_conv.cpp; docs/exec-benchmark.md, issue #26).
// Which convolutions take it: runsAsGemv (conv_layout_choice.h).
#pragma once

#include <cstdint>

namespace passlab::exec::cpu {

struct ConvGemvShape {
  int64_t N = 1, C = 0, M = 0, group = 1;
  // Elements from one image to the next in X and Y: C and M for NCHW; the
  // blocked layout's padded channel counts for [N, C/b, 1, 1, b], whose
  // channel c of a 1x1 image sits at c as in NCHW.
  int64_t xImageStride = 0, yImageStride = 0;
};

// y = conv(x, w) + bias (bias may be null) for each image's M channels; the
// elements between M and yImageStride are left as they are.
void convGemv(const ConvGemvShape& s, const float* x, const float* w, const float* bias, float* y,
              int threads);

}  // namespace passlab::exec::cpu
