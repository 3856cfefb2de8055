// A float32 2-D convolution with few output channels (M <= 9, group 1,
// stride 1: a style-transfer network's last 9x9 layer from 32 channels to
// RGB, a mask or density head) as a direct AVX-512 loop on plain NCHW: 16
// output columns per register, the M output channels of 64 columns held in
// registers while every input channel and tap adds to them, each input vector
// loaded once for all M (32 columns for M > 4). oneDNN pads the output channels to its block of 16
// and runs such a layer at a quarter of its speed or less (starry_night's
// 32 -> 3 9x9 layer on 224x224: 37 ms on brgconv, figures in
// docs/exec-benchmark.md). Pads are taken by reading from a copy of the image
// with a zero border (the caller's scratch); a blocked X (the blocked layout's
// FusedConv, passlab_fused_conv.cpp) is read into that copy as NCHW, and a
// blocked Y is stored through 16x16 transposes (super_resolution's last
// layer, 32 -> 9 3x3 on 224x224, oneDNN's jit:avx512_core on nChw16c at 2-3x
// onnxruntime's time). Which convolutions take it: runsAsFewOutputs;
// conv_onednn.cpp and passlab_fused_conv.cpp run them here.
#pragma once

#include <cstdint>

#include "core/exec/cpu/conv_geometry.h"

namespace passlab::exec::cpu {

inline constexpr int64_t kFewOutputsMax = 9;
// The one blocked layout Y may have (ConvFewOutputsShape::yBlock).
inline constexpr int64_t kFewOutputsYBlock = 16;

// True when the (non-transposed) convolution of `g` takes convFewOutputs on
// this CPU: 2-D, group 1, 1 <= M <= kFewOutputsMax, stride 1, at least 1024
// output positions per channel, and AVX-512 available.
bool runsAsFewOutputs(const ConvGeometry& g);

struct ConvFewOutputsShape {
  int64_t N = 1, C = 0, M = 0;
  int64_t H = 0, W = 0;    // input plane
  int64_t KH = 1, KW = 1;  // kernel
  int64_t dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  int64_t OH = 0, OW = 0;  // output plane (stride 1)
  // X's and Y's layouts: 0 NCHW; b the blocked layout [N, ceil(C/b), H, W, b]
  // (core/ir/passlab_ops.h), X any b, Y only 16 (M <= 16: one block, the
  // padding channels written zero).
  int64_t xBlock = 0, yBlock = 0;
};

ConvFewOutputsShape fewOutputsShape(const ConvGeometry& g);

// Floats of scratch convFewOutputs needs for s (0 without pads): one image
// copied with its zero border, plus the weights regrouped tap by tap.
int64_t fewOutputsScratchFloats(const ConvFewOutputsShape& s);

// y = conv(x, w) + bias (bias may be null); w is [M, C, KH, KW];
// `scratch` holds fewOutputsScratchFloats(s) floats. Requires
// runsAsFewOutputs of the geometry s came from.
void convFewOutputs(const ConvFewOutputsShape& s, const float* x, const float* w, const float* bias,
                    float* y, float* scratch, int threads);

}  // namespace passlab::exec::cpu
