// A float32 1-D convolution of one input channel with long filters (group 1,
// C = 1, no pads, no dilation): silero_vad's STFT, 258 filters of 256 taps at
// stride 64 over 640 samples. Each output is a dot product of a filter with a
// window of the row, so the loop runs along the taps: one filter against up to
// 8 windows at a time, 16 taps per register (8 on AVX2), the filter loaded once
// for all 8.
// oneDNN 2.6 runs it at about twice onnxruntime's time (26 us against 14 us,
// 1 thread, AVX-512 Zen 5; here 7 us, and 11 us against oneDNN's 29 us with
// both capped to AVX2; docs/exec-benchmark.md, issue #26). Which convolutions
// take it: runsAsOneChannel1d; conv_onednn.cpp runs them here.
#pragma once

#include <cstdint>

#include "core/exec/cpu/conv_geometry.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

// Filter length from which the direct loop runs (only 256 was measured).
inline constexpr int64_t kOneChannel1dMinKernel = 64;

// True when the (non-transposed) convolution of `g` takes convOneChannel1d:
// 1-D, one group, one input channel, a kernel of at least
// kOneChannel1dMinKernel taps, dilation 1, no pads, and AVX-512 or AVX2 with
// FMA (`vectors`: the CPU as cpu_isa.h caps it has either).
inline bool runsAsOneChannel1d(const ConvGeometry& g,
                               bool vectors = cpu_isa::hasAvx512f() || cpu_isa::hasAvx2Fma()) {
  if (!vectors || g.spatial() != 1 || g.group != 1 || g.C != 1 || g.M < 1) return false;
  return g.kernel[0] >= kOneChannel1dMinKernel && g.dilation[0] == 1 && g.padBegin[0] == 0 &&
         g.padEnd[0] == 0 && g.out[0] >= 1;
}

struct ConvOneChannel1dShape {
  int64_t N = 1, M = 0;     // batch, filters (output channels)
  int64_t in = 0, out = 0;  // row lengths of X and Y
  int64_t kernel = 1, stride = 1;
};

// y[n, m, o] = bias[m] + sum_k w[m, k] * x[n, o * stride + k] (bias may be
// null), on AVX-512 where the CPU (as capped) has it, else AVX2; requires
// one of them and (out - 1) * stride + kernel <= in.
void convOneChannel1d(const ConvOneChannel1dShape& s, const float* x, const float* w,
                      const float* bias, float* y, int threads);

}  // namespace passlab::exec::cpu
