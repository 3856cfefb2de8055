// One sliding window over N spatial axes: the description every window op
// shares (Conv, ConvTranspose, the pools, MaxUnpool, Col2Im), built once from
// the node's attributes and concrete spatial dims, with auto_pad, ceil_mode
// and ConvTranspose's output_shape / output_padding resolved to pads and
// extents. Shape inference, the passes and the kernels read it.
//
// The two sides of a window: the *image* the taps index and the *grid* of
// window positions. Tap k of position o on an axis reads image position
//   o * stride - padBegin + k * dilation.
// A forward window (Conv, pools, Im2Col) reads the image (its input) and
// writes the grid (its output); a transposed one (ConvTranspose, MaxUnpool,
// Col2Im) reads the grid (its input) and writes the image (its output).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/ir/node.h"
#include "core/support/error.h"

namespace passlab::ir {

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };
Expected<AutoPad> parseAutoPad(std::string_view text);

// A window op's attributes as written; empty lists were not given.
struct WindowAttrs {
  AutoPad autoPad = AutoPad::kNotSet;
  std::vector<int64_t> kernel, strides, dilations, pads;  // pads: begins, then ends
  std::vector<int64_t> outputPadding, outputShape;        // ConvTranspose
  bool ceilMode = false;
  bool countIncludePad = false;
};
Expected<WindowAttrs> readWindowAttrs(const Node& node);

// One spatial axis of a window.
struct WindowAxis {
  int64_t image = 1, kernel = 1, stride = 1, dilation = 1, padBegin = 0, padEnd = 0, grid = 1;
  int64_t span() const { return (kernel - 1) * dilation + 1; }
  // The image position tap k of grid position o reads (may be in the pads).
  int64_t at(int64_t o, int64_t k) const { return o * stride - padBegin + k * dilation; }
  // Whether a window position may read nothing but padding: a pad as wide as
  // the span (what a MaxPool must not meet when its pad value is not -inf).
  bool mayReadOnlyPadding() const { return padBegin >= span() || padEnd >= span(); }
};

struct Window {
  std::vector<WindowAxis> axes;
  bool countIncludePad = false;  // AveragePool's divisor

  size_t rank() const { return axes.size(); }
  int64_t imageSize() const;
  int64_t kernelSize() const;
  int64_t gridSize() const;
  std::vector<int64_t> imageDims() const;
  std::vector<int64_t> gridDims() const;
};

// A forward window on `image` (spatial dims): pads from auto_pad, grid dims
// with ceil_mode. `kernel` (the weights' spatial dims, or empty) must match
// kernel_shape when both are given.
Expected<Window> forwardWindow(const WindowAttrs& a, const std::vector<int64_t>& image,
                               const std::vector<int64_t>& kernel = {});

// A transposed window on the `grid` (spatial dims of the input): the image
// extent (grid - 1) * stride + output_padding + span less the pads, or
// output_shape (then the pads split the difference, as ONNX Runtime does).
Expected<Window> transposedWindow(const WindowAttrs& a, const std::vector<int64_t>& grid,
                                  const std::vector<int64_t>& kernel = {});

// The extents of one axis, the rules the builders above apply (shape
// inference calls them for static dims). forwardGridExtent: window positions
// on a padded image of `image` (ceil mode drops a window that starts in the
// end padding); <= 0 when the window does not fit. transposedImageExtent: the
// image a grid of `grid` positions covers, less the pads.
int64_t forwardGridExtent(int64_t image, int64_t span, int64_t stride, int64_t padBegin,
                          int64_t padEnd, bool ceilMode);
int64_t transposedImageExtent(int64_t grid, int64_t span, int64_t stride, int64_t padBegin,
                              int64_t padEnd, int64_t outputPadding);

}  // namespace passlab::ir
