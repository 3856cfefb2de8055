// Which layout a float32 oneDNN convolution runs in, activations being plain
// NCHW between operators (issue #26). oneDNN left to choose (format `any`)
// picks its blocked or NHWC layout, so each call reorders its input in and its
// result out; for a 1x1 convolution with stride 1 and no padding, plain NCHW
// is one SGEMM per group (W[g] [M/g, C/g] x X[g] [C/g, H*W], no im2col) and
// skips both reorders.
// Measured on this project's AVX-512 Xeon, oneDNN 2.6, 1 thread, per call
// (blocked + reorders vs plain NCHW): resnet50's 64->256 at 56x56 1.16 vs
// 0.66 ms, 1024->256 at 14x14 0.82 vs 0.78, squeezenet's 96->16 at 55x55
// 0.20 vs 0.10, 512->64 at 13x13 0.105 vs 0.086; at 7x7 plain loses
// (2048->512 0.79 vs 0.99) and so do 3x3 kernels (64->64 at 56x56 1.70 vs
// 2.81): those stay blocked. Grouped (shufflenet's 4 groups;
// tests/bench/bench_pointwise_conv.cpp, alternating, medians): 112->112 at
// 28x28 120-124 vs 52-53 us, 136->136 at 28x28 150-155 vs 66-68, at 14x14
// 39-40 vs 21, 272->272 at 14x14 98 vs 71; at 7x7 plain loses again
// (544->544 70-72 vs 83-86): the same threshold. Strided group-1 1x1
// convolutions (resnet50's downsampling; a standalone oneDNN harness, 3
// alternating rounds, load 4.4-4.6, blocked + reorders vs plain): 512->1024
// at 28x28 /2 3.18-3.27 vs 2.34-2.56 ms, 256->512 at 56x56 /2 2.43-2.85 vs
// 2.25-2.78; at 7x7 plain loses (1024->2048 2.21-2.50 vs 3.11-3.43): the
// same threshold.
// A 1x1 convolution on a 1x1 input is a GEMV (conv_gemv.h), not a
// convolution: runsAsGemv.
// A convolution with few input channels (a network's first layer) reads plain
// NCHW directly with oneDNN's direct JIT kernel (dst still oneDNN's layout):
// readsPlainNchw.
#pragma once

#include <string_view>

#include "core/exec/cpu/conv_geometry.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

// Output pixels from which a 1x1 convolution runs faster in plain NCHW.
inline constexpr int64_t kPlainConvMinPixels = 144;

// The same for a grouped one (stride 1) on a CPU without AVX-512: there
// oneDNN's own pick for shufflenet's stage-4 544->544 in 4 groups at 7x7 is
// its direct kernel on nChw8c (jit:avx2), not a 1x1 kernel, and loses to the
// GEMM on plain NCHW (x64:gemm:jit). tests/bench/bench_pointwise_conv.cpp on
// an AMD EPYC (Zen 3, AVX2), 3 alternating rounds, load 4-6, blocked +
// reorders vs plain: 1 thread 246-387 vs 114-178 us, 2 threads 263-298 vs
// 93-129 (onnxruntime: 0.10 ms); 272->272 in 4 groups at 7x7 oneDNN already
// picks the GEMM (28-52 vs 28-51). Group-1 ones at 10x10 stay blocked there
// (picodet's 96-384 channels: jit_1x1:avx2 11-15% faster than the GEMM).
inline constexpr int64_t kPlainGroupedConvMinPixelsAvx2 = 49;

// True when the (non-transposed) convolution of `g` should run on plain NCHW
// src and dst: 2-D, 1x1 kernel, no padding, at least kPlainConvMinPixels
// output pixels (kPlainGroupedConvMinPixelsAvx2 for a grouped one when
// `avx512` is false: the CPU, as cpu_isa.h caps it, lacks AVX-512); stride 1
// with any number of groups, or any stride with one group (grouped strided
// ones were not measured).
inline bool runsInPlainNchw(const ConvGeometry& g, bool avx512 = cpu_isa::hasAvx512f()) {
  if (g.spatial() != 2) return false;
  int64_t pixels = 1;
  for (size_t i = 0; i < 2; ++i) {
    if (g.kernel[i] != 1 || g.padBegin[i] != 0 || g.padEnd[i] != 0) return false;
    if (g.stride[i] != 1 && g.group != 1) return false;
    pixels *= g.out[i];
  }
  if (g.group > 1 && !avx512) return pixels >= kPlainGroupedConvMinPixelsAvx2;
  return pixels >= kPlainConvMinPixels;
}

// Input channels below which a convolution reads its input as plain NCHW.
inline constexpr int64_t kPlainSrcMaxChannels = 16;

// True when the (non-transposed) convolution of `g` should read plain NCHW
// src and let oneDNN choose dst (its direct JIT kernel for a few input
// channels, no input reorder): 2-D, one group, fewer than
// kPlainSrcMaxChannels input channels, a kernel larger than 1x1, and output
// channels in whole blocks of 16 (that kernel writes nChw16c: other counts
// pad its result, a larger scratch than the NCHW tensor; picodet's 3->24
// ran 9% faster alone but the model 4% slower, ppocr's 3->8 1.8% slower).
// Measured (oneDNN 2.6, 1 thread, 3 alternating rounds, load 4.6, blocked +
// reorders vs plain src; the result reordered out in both): squeezenet's
// 3->64 3x3/2 at 224x224 656-676 vs 474-502 us, ultraface's 3->16 3x3/2
// 229-241 vs 185-188, picodet's 3->24 3x3/2 575-599 vs 522-547, shufflenet's
// 3->24 3x3/2 279-296 vs 250-254, alexnet's 3->96 11x11/4 1.98-2.07 vs
// 1.80-1.84 ms, resnet50's 3->64 7x7/2 2.36-3.27 vs 2.28-2.41 ms, ultraface's
// 8->16 and 12->16 3x3 at 30x40 29-42 vs 26-37 us; ppocr's 3->8 3x3/2 at
// 48x192 27-28 vs 30 us.
inline bool readsPlainNchw(const ConvGeometry& g) {
  if (g.spatial() != 2 || g.group != 1 || g.C >= kPlainSrcMaxChannels || g.M % 16 != 0)
    return false;
  return g.kernel[0] != 1 || g.kernel[1] != 1;
}

// The channel block of the layout a depthwise 2-D convolution (one input and
// one output channel per group) asks oneDNN for, activations being NCHW: 16
// when the channels are whole blocks of 16, else 8 when whole blocks of 8; 0
// (not depthwise, or neither): oneDNN's pick. Given `any`, oneDNN 2.6 picks
// its brdgmm kernel on NHWC, and its NCHW <-> NHWC reorders cost 3-4x the
// convolution; its direct depthwise kernel on nChw{b}c (jit_dw) is as fast
// and those reorders are cheaper. Per call with both reorders, 1 thread,
// alternating, medians (us): shufflenet's 136 channels at 28x28 142-165 ->
// 60-62 (nChw8c; nChw16c, with a padded block, 111-115), 112 at 56x56 stride
// 2 157-159 -> 73, 272 at 14x14 34 -> 27-28, 544 at 7x7 20-27 -> 16-17.
inline int64_t depthwiseBlock(const ConvGeometry& g) {
  if (g.spatial() != 2 || g.group < 2 || g.group != g.C || g.M != g.C) return 0;
  return g.C % 16 == 0 ? 16 : g.C % 8 == 0 ? 8 : 0;
}

// A convolution widening few channels: X's at most kFewInputChannels, a
// whole number of blocks of `block`, into at least twice as many. oneDNN's
// direct JIT kernel on nChw{block}c runs these faster than its own pick
// (brgemm on NHWC), whose reductions over so few channels lose. squeezenet's
// Fire 3x3 expand layers (16-64 -> 64-256 channels, 13x13-55x55), oneDNN
// alone, 1 thread, medians of 100 calls, AMD EPYC, load 5, direct kernel
// against brgemm: from and to nChw16c (blocked_conv_layouts.h) 0.47-0.52 /
// 0.54-0.60 ms on 55x55, 0.45-0.48 / 0.50-0.52 on 27x27, 0.22-0.23 /
// 0.23-0.25 and 0.39-0.43 / 0.41-0.45 on 13x13; from and to NCHW, both
// reorders counted, 0.50-0.51 / 0.56-0.61, 0.46-0.50 / 0.49-0.51, 0.23 /
// 0.24-0.27, 0.40 / 0.42-0.44 (the same with 2 threads). inception_v1's 5x5
// ones (16-48 -> 32-128) 1-8% less. Not changed: 64 -> 64 (resnet50 on
// 56x56: the two level), 96 input channels and more (brgemm as fast or
// faster; resnet50's 512 x 7 x 7 2.1 against 6.2 ms), and a padded block
// (inception_v1's 24 channels, where brgemm was faster).
inline constexpr int64_t kFewInputChannels = 64;

inline bool widensFewChannels(int64_t inputChannels, int64_t outputChannels, int64_t block) {
  return inputChannels > 0 && block > 0 && inputChannels <= kFewInputChannels &&
         inputChannels % block == 0 && outputChannels >= 2 * inputChannels;
}

// The channel block (16) a plain-NCHW 2-D convolution of one group with a
// kernel larger than 1x1 asks oneDNN for when it widens few channels
// (widensFewChannels), its input and result reordered; 0 otherwise.
inline int64_t wideningBlock(const ConvGeometry& g) {
  if (g.spatial() != 2 || g.group != 1 || (g.kernel[0] == 1 && g.kernel[1] == 1)) return 0;
  return widensFewChannels(g.C, g.M, 16) ? 16 : 0;
}

// The channel block a convolution on NCHW activations asks oneDNN's direct
// kernel for (depthwiseBlock, else wideningBlock); 0: oneDNN's pick.
inline int64_t directKernelBlock(const ConvGeometry& g) {
  const int64_t depthwise = depthwiseBlock(g);
  return depthwise ? depthwise : wideningBlock(g);
}

// True when oneDNN's implementation name (primitive_desc::impl_info_str) is
// its GEMM-based convolution, the one plain NCHW gets: "x64:gemm:jit" in
// oneDNN 2.6 (Debian's), "gemm:jit" in older releases. That convolution
// applies post-ops element by element after the GEMM (oneDNN 2.6, 1 thread:
// shufflenet's 24->112 at 56x56 with a ReLU post-op 1.7 ms against 0.08 ms
// without and 0.03 ms for PassLab's epilogue pass), so it is asked for
// without them.
inline bool isGemmConvolution(std::string_view impl) {
  return impl.find("gemm:jit") != std::string_view::npos;
}

// Images up to which a 1x1-on-1x1 convolution runs as GEMVs (W read once per image).
inline constexpr int64_t kGemvMaxBatch = 4;

// True when the (non-transposed) convolution of `g` is a GEMV per image and
// group (conv_gemv.h): every kernel size, input and output size 1, no
// padding (any stride, any dilation: one tap), at most kGemvMaxBatch images.
inline bool runsAsGemv(const ConvGeometry& g) {
  if (g.spatial() < 1 || g.N < 1 || g.N > kGemvMaxBatch || g.group < 1) return false;
  if (g.C % g.group != 0 || g.M % g.group != 0) return false;
  for (size_t i = 0; i < g.spatial(); ++i)
    if (g.kernel[i] != 1 || g.in[i] != 1 || g.out[i] != 1 || g.padBegin[i] != 0 || g.padEnd[i] != 0)
      return false;
  return true;
}

}  // namespace passlab::exec::cpu
