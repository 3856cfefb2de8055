// Host side of the cuDNN convolution rows (conv_cudnn.cpp), testable without
// a GPU: the CPU's conv geometry (core/exec/cpu/conv_geometry.h: auto_pad,
// strides, dilations, groups resolved) as cuDNN's legacy API takes it, and
// FusedConv's activation as the epilogue kernel's.
#pragma once

#include <cstdint>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cuda/conv_launch.h"
#include "core/support/error.h"

namespace passlab::exec::cpu::fused {
struct Activation;
}

namespace passlab::exec::cuda {

// A convolution as cuDNN sees it: NCHW (or NCDHW) tensors of rank 4 (1-D
// convolutions get a leading spatial axis of extent 1) or 5, int dims.
// cuDNN's pads are symmetric: with asymmetric pads X is first padded
// explicitly (prePad, zeros) and cuDNN's pads are 0.
struct CudnnConvShape {
  std::vector<int> x, w, y;                   // dims of X (after prePad), W, Y
  std::vector<int> pads, strides, dilations;  // per spatial axis (rank - 2)
  int groups = 1;
  bool prePad = false;
  // The explicit padding on 3 axes (leading axes of extent 1): X [N*C, in] to
  // [N*C, paddedIn], X at padBegin.
  int64_t in[3] = {1, 1, 1}, paddedIn[3] = {1, 1, 1}, padBegin[3] = {0, 0, 0};
};

// kUnsupported for more than 3 spatial axes or dims beyond cuDNN's int
// (tensors of 2^31 elements or more).
Expected<CudnnConvShape> cudnnConvShape(const cpu::ConvGeometry& g);

// A ConvTranspose as cuDNN's backward-data convolution: x is the
// transposed convolution's input X [N, C, in...] (cuDNN's dy), w its W
// [C, M/group, k...], y the full image [N, M, full...] with no pads, full =
// (in - 1) * stride + span (cuDNN's dx). Y is then cut from the full image:
// Y[o] = full[o + padBegin], zeros past its end (output_padding, a larger
// output_shape); in the 3-axis fields: in = full, paddedIn = Y's extents,
// padBegin = -(the geometry's padBegin), as launchPadSpatial takes them.
// prePad is false.
Expected<CudnnConvShape> cudnnConvTransposeShape(const cpu::ConvGeometry& g);

// The epilogue kernel's activation and parameters.
EpilogueAct epilogueAct(const cpu::fused::Activation& a);

}  // namespace passlab::exec::cuda
