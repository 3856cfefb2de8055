#include "core/exec/cpu/resize_rules.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/exec/cpu/data_util.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

Expected<ResizeAttrs> parseResizeAttrs(const ir::Node& n, int64_t opset) {
  ResizeAttrs a;
  std::string mode = n.attrString("mode", "nearest");
  if (mode == "nearest") {
    a.mode = ResizeMode::kNearest;
  } else if (mode == "linear" || (opset < 11 && mode == "bilinear")) {
    a.mode = ResizeMode::kLinear;
  } else if (mode == "cubic" && opset >= 11) {
    a.mode = ResizeMode::kCubic;
  } else {
    return invalidModel("unknown mode '" + mode + "'");
  }
  if (opset < 11) {
    // Resize-10 has Upsample's coordinates: x_in = x_out / scale.
    a.coord = ResizeCoord::kAsymmetric;
    a.nearest = ResizeNearest::kSimple;
    return a;
  }
  std::string c = n.attrString("coordinate_transformation_mode", "half_pixel");
  if (c == "half_pixel") {
    a.coord = ResizeCoord::kHalfPixel;
  } else if (c == "half_pixel_symmetric") {
    a.coord = ResizeCoord::kHalfPixelSymmetric;
  } else if (c == "pytorch_half_pixel") {
    a.coord = ResizeCoord::kPytorchHalfPixel;
  } else if (c == "align_corners") {
    a.coord = ResizeCoord::kAlignCorners;
  } else if (c == "asymmetric") {
    a.coord = ResizeCoord::kAsymmetric;
  } else if (c == "tf_crop_and_resize") {
    a.coord = ResizeCoord::kTfCropAndResize;
  } else if (c == "tf_half_pixel_for_nn" && opset < 13) {
    a.coord = ResizeCoord::kTfHalfPixelForNn;
  } else {
    return invalidModel("unknown coordinate_transformation_mode '" + c + "'");
  }
  std::string nm = n.attrString("nearest_mode", "round_prefer_floor");
  if (nm == "round_prefer_floor") {
    a.nearest = ResizeNearest::kRoundPreferFloor;
  } else if (nm == "round_prefer_ceil") {
    a.nearest = ResizeNearest::kRoundPreferCeil;
  } else if (nm == "floor") {
    a.nearest = ResizeNearest::kFloor;
  } else if (nm == "ceil") {
    a.nearest = ResizeNearest::kCeil;
  } else {
    return invalidModel("unknown nearest_mode '" + nm + "'");
  }
  a.cubicA = n.attrFloat("cubic_coeff_a", -0.75f);
  a.excludeOutside = n.attrInt("exclude_outside", 0) != 0;
  a.extrapolation = n.attrFloat("extrapolation_value", 0.0f);
  if (opset >= 18) {
    a.antialias = n.attrInt("antialias", 0) != 0;
    a.axes = n.attrInts("axes");
    std::string p = n.attrString("keep_aspect_ratio_policy", "stretch");
    if (p == "stretch") {
      a.policy = ResizePolicy::kStretch;
    } else if (p == "not_larger") {
      a.policy = ResizePolicy::kNotLarger;
    } else if (p == "not_smaller") {
      a.policy = ResizePolicy::kNotSmaller;
    } else {
      return invalidModel("unknown keep_aspect_ratio_policy '" + p + "'");
    }
  }
  if (a.antialias && a.mode == ResizeMode::kNearest)
    return invalidModel("antialias is not defined for mode nearest");
  return a;
}

Expected<std::vector<double>> readFloats(const Tensor& t, const char* what) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  Status s = dispatch<types::kFloats>(t.dtype(), [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(load(t.data<S>()[i]));
    return Status::ok();
  });
  if (!s) return s.error().withContext(what);
  return out;
}

Expected<ResizeGeometry> resizeGeometry(const ResizeAttrs& a, const Dims& in,
                                        const std::string& desc, const std::vector<double>& scales,
                                        const std::vector<int64_t>& sizes,
                                        const std::vector<double>& roi) {
  const auto rank = static_cast<int64_t>(in.size());
  // Resized axes, in the order their scales/sizes are given.
  std::vector<int64_t> axes;
  if (a.axes.empty()) {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  } else {
    std::vector<bool> seen(in.size(), false);
    for (int64_t ax : a.axes) {
      PASSLAB_ASSIGN_OR_RETURN(int64_t d, normalizeAxis(ax, rank));
      if (seen[static_cast<size_t>(d)])
        return invalidArgument("axis " + std::to_string(ax) + " is repeated");
      seen[static_cast<size_t>(d)] = true;
      axes.push_back(d);
    }
  }
  const size_t na = axes.size();
  std::vector<ResizeAxis> plans(in.size());
  for (size_t d = 0; d < in.size(); ++d) plans[d] = {in[d], in[d], 1.0, 0.0, 1.0};

  if (scales.empty() == sizes.empty())
    return invalidArgument(scales.empty() ? "one of scales and sizes is required"
                                          : "only one of scales and sizes may be given");
  if (!scales.empty()) {
    if (scales.size() != na)
      return invalidArgument("scales has " + std::to_string(scales.size()) + " values for " +
                             std::to_string(na) + " axes of " + desc);
    for (size_t i = 0; i < na; ++i) {
      // float32 scales, used in double as the reference does.
      double s = static_cast<double>(static_cast<float>(scales[i]));
      if (!(s > 0)) return invalidArgument("scales must be positive");
      ResizeAxis& p = plans[static_cast<size_t>(axes[i])];
      p.scale = s;
      p.out = static_cast<int64_t>(s * static_cast<double>(p.in));
    }
  } else {
    if (sizes.size() != na)
      return invalidArgument("sizes has " + std::to_string(sizes.size()) + " values for " +
                             std::to_string(na) + " axes of " + desc);
    for (size_t i = 0; i < na; ++i) {
      if (sizes[i] < 0) return invalidArgument("sizes must not be negative");
      ResizeAxis& p = plans[static_cast<size_t>(axes[i])];
      if (p.in == 0) return invalidArgument("cannot resize an empty axis to a size");
      p.out = sizes[i];
      p.scale = static_cast<double>(sizes[i]) / static_cast<double>(p.in);
    }
    if (a.policy != ResizePolicy::kStretch) {
      double s = a.policy == ResizePolicy::kNotLarger ? std::numeric_limits<double>::infinity() : 0;
      for (int64_t d : axes) {
        double v = plans[static_cast<size_t>(d)].scale;
        s = a.policy == ResizePolicy::kNotLarger ? std::min(s, v) : std::max(s, v);
      }
      for (int64_t d : axes) {
        ResizeAxis& p = plans[static_cast<size_t>(d)];
        p.scale = s;
        p.out = static_cast<int64_t>(s * static_cast<double>(p.in) + 0.5);
      }
    }
  }
  if (a.coord == ResizeCoord::kTfCropAndResize) {
    if (roi.size() != 2 * na)
      return invalidArgument("roi has " + std::to_string(roi.size()) + " values, " +
                             std::to_string(2 * na) + " are needed for tf_crop_and_resize");
    for (size_t i = 0; i < na; ++i) {
      plans[static_cast<size_t>(axes[i])].roiStart = roi[i];
      plans[static_cast<size_t>(axes[i])].roiEnd = roi[na + i];
    }
  }
  Dims out(in.size());
  for (size_t d = 0; d < in.size(); ++d) out[d] = plans[d].out;
  if (numelOf(out) < 0) return invalidArgument("the output " + dimsToString(out) + " is too large");
  for (int64_t d : axes)
    if (plans[static_cast<size_t>(d)].in == 0 && plans[static_cast<size_t>(d)].out > 0)
      return invalidArgument("cannot resize an empty axis of " + desc);

  return ResizeGeometry{std::move(axes), std::move(plans)};
}

double resizeSourceCoord(const ResizeAttrs& a, const ResizeAxis& p, double y) {
  const double inW = static_cast<double>(p.in);
  const double outW = p.scale * inW;
  switch (a.coord) {
    case ResizeCoord::kAlignCorners:
      return outW == 1 ? 0.0 : y * (inW - 1) / (outW - 1);
    case ResizeCoord::kAsymmetric:
      return y / p.scale;
    case ResizeCoord::kTfCropAndResize: {
      double x = outW == 1 ? (p.roiEnd - p.roiStart) * (inW - 1) / 2
                           : y * (p.roiEnd - p.roiStart) * (inW - 1) / (outW - 1);
      return x + p.roiStart * (inW - 1);
    }
    case ResizeCoord::kPytorchHalfPixel:
      return outW == 1 ? -0.5 : (y + 0.5) / p.scale - 0.5;
    case ResizeCoord::kHalfPixel:
      return (y + 0.5) / p.scale - 0.5;
    case ResizeCoord::kTfHalfPixelForNn:
      return (y + 0.5) / p.scale;
    case ResizeCoord::kHalfPixelSymmetric: {
      double adjustment = static_cast<double>(p.out) / outW;
      double offset = inW / 2 * (1 - adjustment);
      return offset + (y + 0.5) / p.scale - 0.5;
    }
  }
  return 0;
}

namespace {

double cubicWeight(double x, double A) {
  x = std::fabs(x);
  if (x <= 1) return ((A + 2) * x - (A + 3)) * x * x + 1;
  if (x < 2) return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
  return 0;
}

}  // namespace

std::vector<ResizeTap> resizeTaps(const ResizeAttrs& a, const ResizeAxis& p) {
  std::vector<ResizeTap> taps(static_cast<size_t>(p.out));
  const double s = std::min(p.scale, 1.0);
  for (int64_t o = 0; o < p.out; ++o) {
    ResizeTap& t = taps[static_cast<size_t>(o)];
    double x = resizeSourceCoord(a, p, static_cast<double>(o));
    if (a.coord == ResizeCoord::kTfCropAndResize && (x < 0 || x > static_cast<double>(p.in - 1))) {
      t.extrapolate = true;
      continue;
    }
    if (a.mode == ResizeMode::kNearest) {
      int64_t i;
      double fl = std::floor(x);
      double r = x - fl;
      switch (a.nearest) {
        case ResizeNearest::kRoundPreferFloor:
          i = static_cast<int64_t>(r <= 0.5 ? fl : fl + 1);
          break;
        case ResizeNearest::kRoundPreferCeil:
          i = static_cast<int64_t>(r < 0.5 ? fl : fl + 1);
          break;
        case ResizeNearest::kFloor:
          i = static_cast<int64_t>(fl);
          break;
        case ResizeNearest::kCeil:
          i = static_cast<int64_t>(std::ceil(x));
          break;
        case ResizeNearest::kSimple:
        default:
          i = p.scale < 1 ? static_cast<int64_t>(std::ceil(x)) : static_cast<int64_t>(x);
          break;
      }
      t.src.push_back(std::clamp<int64_t>(i, 0, p.in - 1));
      t.w.push_back(1);
      continue;
    }
    // The pixel left of x (x - 1 when x is whole, so the ratio is in (0, 1]).
    double base = std::floor(x);
    double ratio = x - base;
    if (ratio == 0) {
      base -= 1;
      ratio = 1;
    }
    int64_t start;
    if (a.mode == ResizeMode::kLinear) {
      start = a.antialias ? static_cast<int64_t>(std::floor(-1 / s) + 1) : 0;
    } else {
      start = a.antialias ? static_cast<int64_t>(std::floor(-2 / s) + 1) : -1;
    }
    const int64_t n = 2 - 2 * start;
    double sum = 0;
    for (int64_t k = 0; k < n; ++k) {
      double d = static_cast<double>(start + k) - ratio;
      double w;
      if (a.mode == ResizeMode::kLinear) {
        w = a.antialias ? std::clamp(1 - std::fabs(d * s), 0.0, 1.0) : (k == 0 ? 1 - ratio : ratio);
      } else {
        w = cubicWeight(a.antialias ? d * s : d, a.cubicA);
      }
      int64_t idx = static_cast<int64_t>(base) + start + k;
      if (a.excludeOutside && (idx < 0 || idx >= p.in)) w = 0;
      t.src.push_back(std::clamp<int64_t>(idx, 0, p.in - 1));
      t.w.push_back(w);
      sum += w;
    }
    if ((a.antialias || a.excludeOutside) && sum != 0)
      for (double& w : t.w) w /= sum;
  }
  return taps;
}

}  // namespace passlab::exec::cpu
