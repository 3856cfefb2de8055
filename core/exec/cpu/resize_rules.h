// Resize's host-side rules, one contract for the CPU kernel (resize.cpp) and
// the CUDA one (core/exec/cuda/resize.cpp through data_movement_plan.cpp):
// the attributes, the per-axis output dims / scales / roi from the inputs,
// the source coordinate of an output position, and the taps (source indices
// and weights) of every output position of one axis.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/tensor.h"
#include "core/ir/node.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

enum class ResizeMode { kNearest, kLinear, kCubic };
enum class ResizeCoord {
  kHalfPixel,
  kHalfPixelSymmetric,
  kPytorchHalfPixel,
  kAlignCorners,
  kAsymmetric,
  kTfCropAndResize,
  kTfHalfPixelForNn,  // opsets 11-12
};
enum class ResizeNearest { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil, kSimple };
enum class ResizePolicy { kStretch, kNotLarger, kNotSmaller };

struct ResizeAttrs {
  ResizeMode mode = ResizeMode::kNearest;
  ResizeCoord coord = ResizeCoord::kHalfPixel;
  ResizeNearest nearest = ResizeNearest::kRoundPreferFloor;
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0.0;
  bool antialias = false;
  std::vector<int64_t> axes;
  ResizePolicy policy = ResizePolicy::kStretch;
};

// The attributes of Resize at `opset` (10 to 19); kInvalidModel for unknown values.
Expected<ResizeAttrs> parseResizeAttrs(const ir::Node& n, int64_t opset);

// Float values of a float16/float/double tensor; errors name `what`.
Expected<std::vector<double>> readFloats(const Tensor& t, const char* what);

// One axis: its input and output sizes, scale and roi.
struct ResizeAxis {
  int64_t in = 0, out = 0;
  double scale = 1;
  double roiStart = 0, roiEnd = 1;
};

struct ResizeGeometry {
  std::vector<int64_t> axes;     // the resized axes, in the order of their scales/sizes
  std::vector<ResizeAxis> dims;  // every axis of the input, resized or not
};

// The geometry of a Resize of an input of dims `in` (`desc` names it in
// errors) from the scales or the sizes (exactly one non-empty) and roi.
Expected<ResizeGeometry> resizeGeometry(const ResizeAttrs& a, const Dims& in,
                                        const std::string& desc, const std::vector<double>& scales,
                                        const std::vector<int64_t>& sizes,
                                        const std::vector<double>& roi);

// The input coordinate of output position `y` of axis `p`.
double resizeSourceCoord(const ResizeAttrs& a, const ResizeAxis& p, double y);

// One output position of one axis: source indices and their weights, or
// extrapolated (tf_crop_and_resize outside the input). Nearest has one tap of
// weight 1.
struct ResizeTap {
  std::vector<int64_t> src;
  std::vector<double> w;
  bool extrapolate = false;
};

// The taps of every output position of axis `p` for a.mode (and antialias,
// exclude_outside, cubic_coeff_a).
std::vector<ResizeTap> resizeTaps(const ResizeAttrs& a, const ResizeAxis& p);

}  // namespace passlab::exec::cpu
