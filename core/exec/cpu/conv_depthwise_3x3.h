// A float32 depthwise 3x3 convolution on plain NCHW tensors (group = C = M:
// one filter per channel; strides 1 or 2, pads 0 or 1, dilation 1) as a
// direct loop per channel plane: each output row sums the three input rows'
// three taps, 16 outputs a vector (AVX-512, masked loads at the plane's
// edges; core/support/cpu_isa.h, PASSLAB_MAX_ISA caps it) or the portable
// loop otherwise. oneDNN 2.6's direct depthwise kernel wants nChw8c/16c, so
// between NCHW layers (shufflenet's channel shuffles and grouped 1x1
// convolutions) each call paid a reorder in and one out, more than the
// convolution itself (docs/exec-benchmark.md, session 27). Which
// convolutions take it: prefersDepthwise3x3; conv_onednn.cpp (Conv) and
// passlab_fused_conv.cpp (FusedConv, its epilogue per plane) run them here.
#pragma once

#include <cstdint>
#include <functional>

#include "core/exec/cpu/conv_geometry.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

// True when the (non-transposed) convolution of `g` is a 2-D depthwise 3x3
// (group = C = M > 1) with strides 1 or 2, dilation 1 and pads of 0 or 1.
inline bool runsAsDepthwise3x3(const ConvGeometry& g) {
  if (g.spatial() != 2 || g.group <= 1 || g.group != g.C || g.M != g.C) return false;
  for (size_t i = 0; i < 2; ++i)
    if (g.kernel[i] != 3 || g.dilation[i] != 1 || (g.stride[i] != 1 && g.stride[i] != 2) ||
        g.padBegin[i] < 0 || g.padBegin[i] > 1 || g.padEnd[i] < 0 || g.padEnd[i] > 1)
      return false;
  return true;
}

// Where the direct kernel measured at least as fast as oneDNN's jit_dw with
// its reorder in and out (1 thread, between NCHW 1x1 convolutions; session
// 27, docs/exec-benchmark.md): output rows of 14 or more, and stride 2 on both
// axes or channels that are not a multiple of 16. oneDNN on whole nChw16c
// blocks won stride 1 by 10-50% (128x56x56, 256x28x28), and 7-wide rows
// (7x7 planes, 14x14 at stride 2) by 1.5-2x; on nChw8c (136, 248 channels)
// and at stride 2 the direct kernel won or tied. The routers (conv_onednn.cpp,
// passlab_fused_conv.cpp) run this rule; runsAsDepthwise3x3 says what it can.
// All of that is the AVX-512 loop. Without AVX-512 (or capped below it,
// PASSLAB_MAX_ISA) oneDNN's jit_dw:avx2 on nChw8c with both reorders wins
// every shape: shufflenet's, AMD EPYC Zen 3 (AVX2), 1 thread, per-node
// minima, load 2.7-3.5, jit_dw / the portable loop / an 8-lane AVX2 version
// of the direct loop (tried, not kept): 136 x 28 x 28 0.084 / 0.44 / 0.15 ms,
// 112 x 56 x 56 stride 2 0.16 / 0.53 / 0.28, 136 x 28 x 28 stride 2 0.047 /
// 0.24 / 0.057 (docs/exec-benchmark.md, session 31).
inline bool prefersDepthwise3x3(const ConvGeometry& g) {
  if (!cpu_isa::hasAvx512f() || !runsAsDepthwise3x3(g) || g.out[1] < 14) return false;
  return (g.stride[0] == 2 && g.stride[1] == 2) || g.C % 16 != 0;
}

struct ConvDepthwise3x3Shape {
  int64_t N = 1, C = 0;    // batch, channels (= groups = output channels)
  int64_t H = 0, W = 0;    // X's plane
  int64_t OH = 0, OW = 0;  // Y's plane
  int64_t strideH = 1, strideW = 1;
  int64_t padTop = 0, padLeft = 0;
};

// Called once per finished output plane (n * C + c) from the thread that
// wrote it, with the plane (OH * OW floats): FusedConv's epilogue.
using PlaneEpilogue = std::function<void(int64_t plane, float* y)>;

// y[n, c, i, j] = bias[c] + sum_{kh, kw} w[c, kh, kw] *
//   x[n, c, i * strideH + kh - padTop, j * strideW + kw - padLeft]
// (taps outside the plane count as zeros); bias may be null. X and Y must
// not overlap.
void convDepthwise3x3(const ConvDepthwise3x3Shape& s, const float* x, const float* w,
                      const float* bias, float* y, int threads, const PlaneEpilogue& after = {});

// The shape of `g` (runsAsDepthwise3x3(g)).
ConvDepthwise3x3Shape depthwise3x3Shape(const ConvGeometry& g);

}  // namespace passlab::exec::cpu
