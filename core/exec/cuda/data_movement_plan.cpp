#include "core/exec/cuda/data_movement_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/data_util.h"

namespace passlab::exec::cuda {

std::vector<int64_t> contiguousStrides(const Dims& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

StridedPlan collapsePlan(const StridedPlan& p) {
  StridedPlan r;
  r.base = p.base;
  if (!p.mods.empty()) return p;
  for (size_t i = 0; i < p.dims.size(); ++i) {
    if (p.dims[i] == 1) continue;
    if (!r.dims.empty() && r.strides.back() == p.strides[i] * p.dims[i]) {
      r.dims.back() *= p.dims[i];
      r.strides.back() = p.strides[i];
    } else {
      r.dims.push_back(p.dims[i]);
      r.strides.push_back(p.strides[i]);
    }
  }
  if (r.dims.empty()) {
    r.dims.push_back(1);
    r.strides.push_back(1);
  }
  return r;
}

StridedPlan transposePlan(const Dims& in, const std::vector<int64_t>& perm) {
  const std::vector<int64_t> inStrides = contiguousStrides(in);
  StridedPlan p;
  for (int64_t a : perm) {
    p.dims.push_back(in[static_cast<size_t>(a)]);
    p.strides.push_back(inStrides[static_cast<size_t>(a)]);
  }
  return collapsePlan(p);
}

Expected<SliceResult> slicePlan(const Dims& in, const std::vector<int64_t>& starts,
                                const std::vector<int64_t>& ends, std::vector<int64_t> axes,
                                std::vector<int64_t> steps) {
  if (ends.size() != starts.size())
    return invalidArgument("starts and ends have different lengths");
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size())
    return invalidArgument("starts, ends, axes and steps have different lengths");
  const auto rank = static_cast<int64_t>(in.size());
  Dims begin(in.size(), 0), step(in.size(), 1), out = in;
  std::vector<bool> seen(in.size(), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    PASSLAB_ASSIGN_OR_RETURN(int64_t a, cpu::normalizeAxis(axes[i], rank));
    if (seen[static_cast<size_t>(a)])
      return invalidArgument("axis " + std::to_string(a) + " is repeated");
    seen[static_cast<size_t>(a)] = true;
    const int64_t d = in[static_cast<size_t>(a)], st = steps[i];
    if (st == 0) return invalidArgument("steps must not be 0");
    int64_t s = starts[i], e = ends[i];
    if (s < 0) s = s < -d ? 0 : s + d;
    if (e < 0) e = e < -d ? -1 : e + d;
    int64_t len;
    if (st > 0) {
      s = std::clamp<int64_t>(s, 0, d);
      e = std::clamp<int64_t>(e, 0, d);
      len = e > s ? (e - s + st - 1) / st : 0;
    } else if (d == 0) {
      len = 0;
    } else {
      s = std::clamp<int64_t>(s, 0, d - 1);
      e = std::clamp<int64_t>(e, -1, d - 1);
      len = s > e ? (s - e - st - 1) / (-st) : 0;
    }
    begin[static_cast<size_t>(a)] = s;
    step[static_cast<size_t>(a)] = st;
    out[static_cast<size_t>(a)] = len;
  }
  const std::vector<int64_t> inStrides = contiguousStrides(in);
  StridedPlan p;
  p.dims = out;
  for (size_t i = 0; i < in.size(); ++i) {
    p.base += begin[i] * inStrides[i];
    p.strides.push_back(step[i] * inStrides[i]);
  }
  return SliceResult{std::move(out), collapsePlan(p)};
}

StridedPlan expandPlan(const Dims& in, const Dims& out) {
  const std::vector<int64_t> inStrides = contiguousStrides(in);
  StridedPlan p;
  p.dims = out;
  const size_t lead = out.size() - in.size();
  for (size_t i = 0; i < out.size(); ++i) {
    if (i < lead) {
      p.strides.push_back(0);
    } else {
      const size_t j = i - lead;
      p.strides.push_back(in[j] == 1 && out[i] != 1 ? 0 : inStrides[j]);
    }
  }
  return collapsePlan(p);
}

StridedPlan tilePlan(const Dims& in, const std::vector<int64_t>& repeats) {
  StridedPlan p;
  p.strides = contiguousStrides(in);
  for (size_t i = 0; i < in.size(); ++i) {
    p.dims.push_back(in[i] * repeats[i]);
    p.mods.push_back(in[i]);
  }
  if (p.dims.empty()) {  // a scalar: one element
    p.dims.push_back(1);
    p.strides.push_back(1);
    p.mods.push_back(1);
  }
  return p;
}

Expected<MoveStrides> toMoveStrides(const StridedPlan& p) {
  if (p.dims.size() > static_cast<size_t>(kMaxMoveRank))
    return unsupported("a copy of rank " + std::to_string(p.dims.size()) +
                       " (the GPU kernel takes " + std::to_string(kMaxMoveRank) +
                       " dims after merging)");
  MoveStrides s;
  s.rank = static_cast<int>(p.dims.size());
  s.base = p.base;
  for (size_t i = 0; i < p.dims.size(); ++i) {
    s.dims[i] = p.dims[i];
    s.strides[i] = p.strides[i];
    s.mods[i] = p.mods.empty() ? 0 : p.mods[i];
  }
  return s;
}

// ---- Resize (as core/exec/cpu/resize.cpp) ----

Expected<ResizeAttrs> parseResizeAttrs(const ir::Node& n, int64_t opset) {
  ResizeAttrs a;
  std::string mode = n.attrString("mode", "nearest");
  if (mode == "nearest") {
    a.mode = ResizeMode::kNearest;
  } else if (mode == "linear" || (opset < 11 && mode == "bilinear")) {
    a.mode = ResizeMode::kLinear;
  } else if (mode == "cubic" && opset >= 11) {
    return unsupported("mode cubic");
  } else {
    return invalidModel("unknown mode '" + mode + "'");
  }
  if (opset < 11) {
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
  a.excludeOutside = n.attrInt("exclude_outside", 0) != 0;
  a.extrapolation = n.attrFloat("extrapolation_value", 0.0f);
  if (opset >= 18) {
    if (n.attrInt("antialias", 0) != 0) {
      if (a.mode == ResizeMode::kNearest)
        return invalidModel("antialias is not defined for mode nearest");
      return unsupported("antialias");
    }
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
  return a;
}

Expected<std::vector<ResizeAxis>> resizeAxes(const ResizeAttrs& a, const Dims& in,
                                             const std::vector<double>& scales,
                                             const std::vector<int64_t>& sizes,
                                             const std::vector<double>& roi) {
  const auto rank = static_cast<int64_t>(in.size());
  const std::string desc = dimsToString(in);
  std::vector<int64_t> axes;
  if (a.axes.empty()) {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  } else {
    std::vector<bool> seen(in.size(), false);
    for (int64_t ax : a.axes) {
      PASSLAB_ASSIGN_OR_RETURN(int64_t d, cpu::normalizeAxis(ax, rank));
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
  return plans;
}

namespace {

double sourceCoord(const ResizeAttrs& a, const ResizeAxis& p, double y) {
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

bool outside(const ResizeAttrs& a, const ResizeAxis& p, double x) {
  return a.coord == ResizeCoord::kTfCropAndResize && (x < 0 || x > static_cast<double>(p.in - 1));
}

}  // namespace

std::vector<int64_t> nearestMap(const ResizeAttrs& a, const ResizeAxis& p) {
  std::vector<int64_t> map(static_cast<size_t>(std::max<int64_t>(p.out, 0)));
  const bool identity = p.out == p.in && p.scale == 1.0 && a.coord != ResizeCoord::kTfCropAndResize;
  for (int64_t o = 0; o < p.out; ++o) {
    if (identity) {
      map[static_cast<size_t>(o)] = o;
      continue;
    }
    double x = sourceCoord(a, p, static_cast<double>(o));
    if (outside(a, p, x)) {
      map[static_cast<size_t>(o)] = -1;
      continue;
    }
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
    map[static_cast<size_t>(o)] = std::clamp<int64_t>(i, 0, p.in - 1);
  }
  return map;
}

std::vector<LinearTap> linearTaps(const ResizeAttrs& a, const ResizeAxis& p) {
  std::vector<LinearTap> taps(static_cast<size_t>(std::max<int64_t>(p.out, 0)));
  const bool identity =
      p.out == p.in && p.scale == 1.0 &&
      (a.coord != ResizeCoord::kTfCropAndResize || (p.roiStart == 0 && p.roiEnd == 1));
  for (int64_t o = 0; o < p.out; ++o) {
    LinearTap& t = taps[static_cast<size_t>(o)];
    if (identity) {
      t.i0 = t.i1 = o;
      t.w0 = 1;
      t.w1 = 0;
      continue;
    }
    double x = sourceCoord(a, p, static_cast<double>(o));
    if (outside(a, p, x)) {
      t.extrapolate = 1;
      continue;
    }
    // The pixel left of x (x - 1 when x is whole, so the ratio is in (0, 1]).
    double base = std::floor(x);
    double ratio = x - base;
    if (ratio == 0) {
      base -= 1;
      ratio = 1;
    }
    int64_t idx[2] = {static_cast<int64_t>(base), static_cast<int64_t>(base) + 1};
    double w[2] = {1 - ratio, ratio};
    double sum = 0;
    for (int k = 0; k < 2; ++k) {
      if (a.excludeOutside && (idx[k] < 0 || idx[k] >= p.in)) w[k] = 0;
      idx[k] = std::clamp<int64_t>(idx[k], 0, p.in - 1);
      sum += w[k];
    }
    if (a.excludeOutside && sum != 0) {
      w[0] /= sum;
      w[1] /= sum;
    }
    t.i0 = idx[0];
    t.i1 = idx[1];
    t.w0 = static_cast<float>(w[0]);
    t.w1 = static_cast<float>(w[1]);
  }
  return taps;
}

std::vector<LinearTap> upsampleTaps(const ResizeAxis& p, bool linear) {
  std::vector<LinearTap> taps(static_cast<size_t>(std::max<int64_t>(p.out, 0)));
  const auto scale = static_cast<float>(p.scale);
  for (int64_t o = 0; o < p.out; ++o) {
    const float in = static_cast<float>(o) / scale;
    const int64_t i0 = std::min<int64_t>(static_cast<int64_t>(std::floor(in)), p.in - 1);
    const int64_t i1 = std::min<int64_t>(i0 + 1, p.in - 1);
    const float w = linear && scale != 1.0f ? in - static_cast<float>(i0) : 0.0f;
    LinearTap& t = taps[static_cast<size_t>(o)];
    t.i0 = i0;
    t.i1 = i1;
    t.w0 = 1 - w;
    t.w1 = w;
  }
  return taps;
}

}  // namespace passlab::exec::cuda
