// Which layouts a blocked FusedConv (`block`, convert_to_blocked_layout) asks
// oneDNN for (issue #26).
//
// Given `any`, oneDNN 2.6 on AVX-512 picks its brgemm convolutions, which take
// NHWC: every call then reorders X from the chain's nChw{b}c to NHWC and Y
// back, two passes over memory per convolution (resnet50 --level fused: 107
// reorders, 6.9 ms of 62 per run, 1 thread). Asked for nChw{b}c itself it
// runs its direct JIT kernels with no reorder at all, and the residual can
// then be a binary post-op over Z, which is already in Y's layout.
//
// Per convolution (resnet50's 53, oneDNN verbose, per-position minimum of 10
// runs, 1 thread): the 1x1 JIT kernel on nChw16c is as fast as brgemm on NHWC
// (within 5% either way), so the reorders are pure loss; the 3x3 brgemm kernel
// is 8-15% faster than the direct one (1.33-1.44 vs 1.49-1.62 ms), more than
// its two reorders cost (0.02-0.11 ms); a first layer reading NCHW (the
// 7x7/2 stem) is as fast either way, but brgemm needs X reordered to NHWC
// and Y back (0.08 + 0.65 ms).
#pragma once

#include <cstdint>

#include "core/exec/cpu/conv_layout_choice.h"
#include "core/exec/kernel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu::fused {

enum class ConvLayouts : uint8_t {
  kTheChains,    // X and Y as the chain holds them (nChw{b}c, X NCHW for a first layer)
  kOneDnnsPick,  // `any`: oneDNN's choice, reordered to and from the chain's layout
};

// Those reorders are cheap while X and Y stay near the core (resnet50's 3x3
// on 56x56x64: 1.6 MB together, brgemm ahead as above), not once they go to
// memory: super_resolution's 3x3 convolutions on 64 x 224 x 224 (12.8 MB a
// tensor) spent 5.2 ms per run in reorders around 49 ms of brgemm (oneDNN
// verbose, 1 thread, AMD EPYC), and its file ran 0.93x as long end to end
// with the direct kernels. Above kReordersInCacheBytes of X and Y together
// (between those two measured sizes, not tuned) the chain's layouts are
// asked for.
inline constexpr int64_t kReordersInCacheBytes = int64_t{4} << 20;

// A depthwise convolution (one input and one output channel per group) has
// no brgemm kernel to gain from: oneDNN's pick is brdgmm on NHWC, as fast as
// its direct depthwise kernel on nChw16c (jit_dw) but with both reorders.
// ppocr_cls_mobile_v2's 11 depthwise 3x3 and 5x5 layers (8-200 channels on
// 3-24 x 96 planes) took 0.27 ms of its 0.65 ms run that way (1 thread;
// onnxruntime's NCHWc depthwise kernels 0.16 ms); on the chain's layout see
// docs/exec-benchmark.md, session 26.
//
// All of the above is one thread. On more than one (a step the executor
// splits, step_trials.h) the brgemm kernels lose: every call is three
// parallel regions (reorder, convolution, reorder) where the direct kernel is
// one, and on these small images brgemm itself split is slower than the
// direct kernel split (oneDNN verbose, winml_squeezenet: its 8 brgconv 1.8 ms
// a run, the direct kernels for them 0.8). winml_squeezenet's Fire 3x3 expand convolutions (16-64
// -> 64-256 channels, 13x13-55x55), every step split, 2 threads, per-node minima of 120 runs:
// 0.52-0.60 ms on brgemm with its reorders (slower than on one thread, 0.48-0.53), 0.29-0.34 ms on
// the direct kernel on nChw16c; the model's sum 5.9 -> 4.0 ms, inception_v2's 26.3 -> 20.7,
// resnet50's 44.5 -> 38.5 (docs/exec-benchmark.md, session 29). A step that runs on one thread
// builds its plan for one thread and keeps brgemm.
//
// On one thread too, a layer that widens few channels (widensFewChannels,
// conv_layout_choice.h: squeezenet's Fire expand layers) runs the direct
// kernel on the chain's layout: brgemm's reductions over so few channels lose.
// Except on small planes with 32 input channels or more where the CPU has
// AVX-512 (widensOnBrgemm): there brgemm with both reorders is the faster.
// oneDNN alone, 1 thread, medians of 100 calls, 2-3 alternating rounds, AMD
// EPYC Zen 5 (AVX-512 VNNI), load 4.2-5.1 (scripts/dev/conv_expand_pick.cpp
// and a shape sweep like it; docs/exec-benchmark.md, session 36), brgemm +
// reorders / direct: squeezenet's 48 -> 192 and 64 -> 256 3x3 at 13x13
// 0.91-0.93 (0.100 / 0.109, 0.175-0.179 / 0.189-0.197 ms), 32 -> 128 at
// 13x13 0.96, inception_v1's 5x5 32 -> 64 and 32 -> 128 at 14x14 0.94-0.96,
// 32 -> 128 and 48 -> 128 at 7x7 0.80-0.91; not taken: 16 input channels
// (16 -> 64 at 13x13 1.08, 16 -> 48 5x5 at 14x14 0.99, 16 -> 64 at 55x55
// 1.04-1.06) and planes above 14x14 (48 -> 192 and 64 -> 256 at 20x20
// 0.94-0.96, at 27x27 0.96-1.02: near the level, left as they were). The
// rule's first figures (session 30, a Zen 4, load 5) put the direct kernel
// level at 13x13 (0.22-0.23 / 0.23-0.25 ms, 0.39-0.43 / 0.41-0.45). A CPU
// without AVX-512 (oneDNN 2.6 has no brgemm convolution for it) keeps the
// direct kernel.
inline constexpr int64_t kBrgemmWideningMinChannels = 32;
inline constexpr int64_t kBrgemmWideningMaxPixels = 14 * 14;

// X's and Y's channels (group 1; in = 0 where unknown or grouped), the
// layout's b, and Y's pixels per image (0 where unknown).
struct ConvChannels {
  int64_t in = 0, out = 0, block = 0, pixels = 0;
};

// True when a layer widening few channels takes oneDNN's pick (brgemm) on one
// thread after all (above): `avx512`, at least kBrgemmWideningMinChannels
// input channels, at most kBrgemmWideningMaxPixels output pixels (known).
inline bool widensOnBrgemm(const ConvChannels& channels, bool avx512) {
  return avx512 && channels.in >= kBrgemmWideningMinChannels && channels.pixels > 0 &&
         channels.pixels <= kBrgemmWideningMaxPixels;
}

// kernel: the spatial kernel sizes; blockedX: X is blocked (not a first layer
// reading NCHW); tensorBytes: X's and Y's bytes together; depthwise: one
// input and one output channel per group; threads: those the convolution runs
// on; channels: as above; avx512: the CPU has AVX-512 (as cpu_isa.h caps it).
// Where the chain's layouts are asked for and oneDNN offers no direct JIT
// kernel for them, the caller falls back to kOneDnnsPick.
inline ConvLayouts blockedConvLayouts(const Dims& kernel, bool blockedX, int64_t tensorBytes = 0,
                                      bool depthwise = false, int threads = 1,
                                      const ConvChannels& channels = {},
                                      bool avx512 = cpu_isa::hasAvx512f()) {
  if (!blockedX || depthwise || threads > 1 || tensorBytes > kReordersInCacheBytes)
    return ConvLayouts::kTheChains;
  if (widensFewChannels(channels.in, channels.out, channels.block) &&
      !widensOnBrgemm(channels, avx512))
    return ConvLayouts::kTheChains;
  for (int64_t k : kernel)
    if (k != 1) return ConvLayouts::kOneDnnsPick;
  return ConvLayouts::kTheChains;
}

// A 3x3 convolution, stride 1, no dilation, one group, at least 64 input
// and 32 output channels in whole blocks of 16, on one thread where the CPU
// has AVX-512, on tensors out of cache (X and Y above kReordersInCacheBytes,
// where the chain's layouts are asked for), or widening few channels onto a
// larger plane (below): oneDNN's Winograd F(4x4, 3x3) kernel on the chain's
// nChw16c (jit_wino_4x3; F(2x2, 3x3) on some shapes) instead of the direct
// one.
// super_resolution's 64 -> 64 and 64 -> 32 on 224 x 224, oneDNN alone, 1
// thread, AMD EPYC Zen 5, 2 rounds, load 3.9: 15.2-15.6 -> 9.4-9.7 ms and
// 8.1-8.9 -> 5.9-6.3 ms (the direct kernel 8.6 ms in the model against
// onnxruntime's 7.4); brgemm with its reorders was slower than direct there
// (17.0-17.3 and 9.0-9.4). Its results differ from the direct kernel's by
// rounding: 64 -> 64 on 224 x 224, X in [-1, 1), W in [-0.1, 0.1): largest
// difference 1.0e-5 on values up to 4.2, 8e-7 relative RMS. On 2 threads it
// was not measured apart from the load (leave it).
//
// In cache too, a 3x3 layer that widens few channels (widensFewChannels)
// onto more than kBrgemmWideningMaxPixels output pixels (squeezenet's Fire
// expands on 55x55 and 27x27, inception_v1's and inception_v2's 64 -> 192 on
// 55x55 / 56x56) takes Winograd: oneDNN's F(2x2, 3x3) kernel
// (jit_fp32_wino_2x3) or its F(4x4, 3x3) one, both on nChw16c with no reorder
// of X or Y. oneDNN alone, bias and ReLU, 1 thread, medians of 100 calls, 2
// rounds, AMD EPYC Zen 5 (AVX-512 VNNI), load 3.7 (docs/exec-benchmark.md,
// session 37), Winograd / direct: 16 -> 64 on 55x55 0.68-0.69 (0.153-0.155
// against 0.225 ms), 32 -> 128 on 27x27 0.56-0.57, 64 -> 192 on 55x55
// 0.40-0.42 (1.08 against 2.61 ms); brgemm with its reorders no faster than
// direct there. In squeezenet (`profile`, 1 thread, 2 rounds, load 3.8) the
// 55x55 and 27x27 expands 0.23-0.25 -> 0.15-0.21 ms. Small planes stay as
// they were (brgemm, widensOnBrgemm): alone Winograd was ahead there too
// (48 -> 192 on 13x13 0.078 against brgemm's 0.105 ms) but in the model it
// lost (0.122-0.133 -> 0.134-0.153, 64 -> 256 0.215-0.226 -> 0.276-0.313 ms):
// on 7x7 tiles the F(2x2, 3x3) weights, 16/9 as large as the 3x3 ones (1 MB
// for 64 -> 256), dominate, and in the model they come from beyond L2. Not
// every widening shape gains either (96 -> 208 and 112 -> 224 on 13x13:
// 1.15-1.79 of direct alone, outside widensFewChannels anyway). Outside
// blocked chains the same rule picks the kernel where a widening layer on
// NCHW asks for nChw16c (directKernelBlock): the NCHW FusedConv and the plain
// Conv of optimizations off (conv_onednn.cpp), X and Y reordered as before.
inline constexpr int64_t kWinogradMinInputChannels = 64;
inline constexpr int64_t kWinogradMinOutputChannels = 32;

inline bool blockedConvWinograd(const Dims& kernel, const Dims& stride, const Dims& dilation,
                                const ConvChannels& channels, int64_t tensorBytes, int threads,
                                bool avx512 = cpu_isa::hasAvx512f()) {
  if (!avx512 || threads != 1 || channels.block != 16 || channels.in % 16 != 0 ||
      channels.out % 16 != 0)
    return false;
  const bool outOfCache = tensorBytes > kReordersInCacheBytes &&
                          channels.in >= kWinogradMinInputChannels &&
                          channels.out >= kWinogradMinOutputChannels;
  const bool widensOnALargePlane = widensFewChannels(channels.in, channels.out, channels.block) &&
                                   channels.pixels > kBrgemmWideningMaxPixels;
  if (!outOfCache && !widensOnALargePlane) return false;
  if (kernel.size() != 2 || stride.size() != 2 || dilation.size() != 2) return false;
  for (size_t i = 0; i < 2; ++i)
    if (kernel[i] != 3 || stride[i] != 1 || dilation[i] != 1) return false;
  return true;
}

}  // namespace passlab::exec::cpu::fused
