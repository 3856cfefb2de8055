#include "core/exec/cuda/data_movement_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/copy_rules.h"
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
  PASSLAB_ASSIGN_OR_RETURN(cpu::SliceWindow w,
                           cpu::sliceWindow(in, starts, ends, std::move(axes), std::move(steps)));
  const Dims &begin = w.begin, &step = w.step;
  Dims out = std::move(w.out);
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

// ---- Resize (core/exec/cpu/resize_rules.h) ----

Expected<ResizeAttrs> parseResizeAttrs(const ir::Node& n, int64_t opset) {
  PASSLAB_ASSIGN_OR_RETURN(ResizeAttrs a, cpu::parseResizeAttrs(n, opset));
  if (a.mode == ResizeMode::kCubic) return unsupported("mode cubic");
  if (a.antialias) return unsupported("antialias");
  return a;
}

Expected<std::vector<ResizeAxis>> resizeAxes(const ResizeAttrs& a, const Dims& in,
                                             const std::vector<double>& scales,
                                             const std::vector<int64_t>& sizes,
                                             const std::vector<double>& roi) {
  PASSLAB_ASSIGN_OR_RETURN(cpu::ResizeGeometry g,
                           cpu::resizeGeometry(a, in, dimsToString(in), scales, sizes, roi));
  return std::move(g.dims);
}

std::vector<int64_t> nearestMap(const ResizeAttrs& a, const ResizeAxis& p) {
  std::vector<int64_t> map(static_cast<size_t>(std::max<int64_t>(p.out, 0)));
  if (p.out == p.in && p.scale == 1.0 && a.coord != ResizeCoord::kTfCropAndResize) {
    for (int64_t o = 0; o < p.out; ++o) map[static_cast<size_t>(o)] = o;
    return map;
  }
  ResizeAttrs n = a;
  n.mode = ResizeMode::kNearest;
  const std::vector<cpu::ResizeTap> taps = cpu::resizeTaps(n, p);
  for (size_t o = 0; o < map.size(); ++o) map[o] = taps[o].extrapolate ? -1 : taps[o].src[0];
  return map;
}

std::vector<LinearTap> linearTaps(const ResizeAttrs& a, const ResizeAxis& p) {
  std::vector<LinearTap> taps(static_cast<size_t>(std::max<int64_t>(p.out, 0)));
  if (p.out == p.in && p.scale == 1.0 &&
      (a.coord != ResizeCoord::kTfCropAndResize || (p.roiStart == 0 && p.roiEnd == 1))) {
    for (int64_t o = 0; o < p.out; ++o) {
      LinearTap& t = taps[static_cast<size_t>(o)];
      t.i0 = t.i1 = o;
      t.w0 = 1;
      t.w1 = 0;
    }
    return taps;
  }
  ResizeAttrs l = a;
  l.mode = ResizeMode::kLinear;
  l.antialias = false;  // declined: two taps per position
  const std::vector<cpu::ResizeTap> cpuTaps = cpu::resizeTaps(l, p);
  for (size_t o = 0; o < taps.size(); ++o) {
    const cpu::ResizeTap& c = cpuTaps[o];
    LinearTap& t = taps[o];
    if (c.extrapolate) {
      t.extrapolate = 1;
      continue;
    }
    t.i0 = c.src[0];
    t.i1 = c.src[1];
    t.w0 = static_cast<float>(c.w[0]);
    t.w1 = static_cast<float>(c.w[1]);
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
