// A float32 depthwise 1-D convolution (group = C = M: one filter per channel;
// silero_vad's 258-channel k = 5 convolution and its 16- and 32-channel ones)
// as a direct loop: per channel, each tap adds w[k] * x to the outputs whose
// input position lies inside the row, outputs contiguous so the loop
// vectorizes. oneDNN 2.6 has no direct depthwise kernel for 1-D convolutions
// on plain layouts and runs them as x64:gemm:jit, one small GEMM per channel
// (ONEDNN_VERBOSE; figures in docs/exec-benchmark.md). Which convolutions
// take it: runsAsDepthwise1d; conv_onednn.cpp runs them here.
#pragma once

#include <cstdint>

#include "core/exec/cpu/conv_geometry.h"

namespace passlab::exec::cpu {

// True when the (non-transposed) convolution of `g` is depthwise over one
// spatial axis (group = C = M > 1; any kernel, stride, dilation and pads).
inline bool runsAsDepthwise1d(const ConvGeometry& g) {
  return g.spatial() == 1 && g.group > 1 && g.group == g.C && g.M == g.C;
}

struct ConvDepthwise1dShape {
  int64_t N = 1, C = 0;     // batch, channels (= groups = output channels)
  int64_t in = 0, out = 0;  // row lengths of X and Y
  int64_t kernel = 1, stride = 1, dilation = 1, padBegin = 0;
};

// y[n, c, o] = bias[c] + sum_k w[c, k] * x[n, c, o * stride + k * dilation - padBegin]
// (taps outside the row count as zeros); bias may be null.
void convDepthwise1d(const ConvDepthwise1dShape& s, const float* x, const float* w,
                     const float* bias, float* y, int threads);

}  // namespace passlab::exec::cpu
