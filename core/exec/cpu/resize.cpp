// Resize (opsets 10 to 19): nearest, linear and cubic interpolation along any
// axes, every coordinate_transformation_mode and nearest_mode, antialiasing
// when downsampling, axes and keep_aspect_ratio_policy. Interpolation is
// separable: one pass per resized axis, in double, as the ONNX reference does;
// nearest is a gather and copies values exactly. Integer outputs are rounded
// half to even and saturated.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

enum class Mode { kNearest, kLinear, kCubic };
enum class Coord {
  kHalfPixel,
  kHalfPixelSymmetric,
  kPytorchHalfPixel,
  kAlignCorners,
  kAsymmetric,
  kTfCropAndResize,
  kTfHalfPixelForNn,  // opsets 11-12
};
enum class Nearest { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil, kSimple };
enum class Policy { kStretch, kNotLarger, kNotSmaller };

struct ResizeAttrs {
  Mode mode = Mode::kNearest;
  Coord coord = Coord::kHalfPixel;
  Nearest nearest = Nearest::kRoundPreferFloor;
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0.0;
  bool antialias = false;
  std::vector<int64_t> axes;
  Policy policy = Policy::kStretch;
};

Expected<ResizeAttrs> parseAttrs(const ir::Node& n, int64_t opset) {
  ResizeAttrs a;
  std::string mode = n.attrString("mode", "nearest");
  if (mode == "nearest") {
    a.mode = Mode::kNearest;
  } else if (mode == "linear" || (opset < 11 && mode == "bilinear")) {
    a.mode = Mode::kLinear;
  } else if (mode == "cubic" && opset >= 11) {
    a.mode = Mode::kCubic;
  } else {
    return invalidModel("unknown mode '" + mode + "'");
  }
  if (opset < 11) {
    // Resize-10 has Upsample's coordinates: x_in = x_out / scale.
    a.coord = Coord::kAsymmetric;
    a.nearest = Nearest::kSimple;
    return a;
  }
  std::string c = n.attrString("coordinate_transformation_mode", "half_pixel");
  if (c == "half_pixel") {
    a.coord = Coord::kHalfPixel;
  } else if (c == "half_pixel_symmetric") {
    a.coord = Coord::kHalfPixelSymmetric;
  } else if (c == "pytorch_half_pixel") {
    a.coord = Coord::kPytorchHalfPixel;
  } else if (c == "align_corners") {
    a.coord = Coord::kAlignCorners;
  } else if (c == "asymmetric") {
    a.coord = Coord::kAsymmetric;
  } else if (c == "tf_crop_and_resize") {
    a.coord = Coord::kTfCropAndResize;
  } else if (c == "tf_half_pixel_for_nn" && opset < 13) {
    a.coord = Coord::kTfHalfPixelForNn;
  } else {
    return invalidModel("unknown coordinate_transformation_mode '" + c + "'");
  }
  std::string nm = n.attrString("nearest_mode", "round_prefer_floor");
  if (nm == "round_prefer_floor") {
    a.nearest = Nearest::kRoundPreferFloor;
  } else if (nm == "round_prefer_ceil") {
    a.nearest = Nearest::kRoundPreferCeil;
  } else if (nm == "floor") {
    a.nearest = Nearest::kFloor;
  } else if (nm == "ceil") {
    a.nearest = Nearest::kCeil;
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
      a.policy = Policy::kStretch;
    } else if (p == "not_larger") {
      a.policy = Policy::kNotLarger;
    } else if (p == "not_smaller") {
      a.policy = Policy::kNotSmaller;
    } else {
      return invalidModel("unknown keep_aspect_ratio_policy '" + p + "'");
    }
  }
  if (a.antialias && a.mode == Mode::kNearest)
    return invalidModel("antialias is not defined for mode nearest");
  return a;
}

// Float values of a float16/float/double tensor.
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

// One output position of one axis: source indices and their weights, or
// extrapolated (tf_crop_and_resize outside the input).
struct Tap {
  std::vector<int64_t> src;
  std::vector<double> w;
  bool extrapolate = false;
};

struct AxisPlan {
  int64_t in = 0, out = 0;
  double scale = 1;
  double roiStart = 0, roiEnd = 1;
};

double sourceCoord(const ResizeAttrs& a, const AxisPlan& p, double y) {
  const double inW = static_cast<double>(p.in);
  const double outW = p.scale * inW;
  switch (a.coord) {
    case Coord::kAlignCorners:
      return outW == 1 ? 0.0 : y * (inW - 1) / (outW - 1);
    case Coord::kAsymmetric:
      return y / p.scale;
    case Coord::kTfCropAndResize: {
      double x = outW == 1 ? (p.roiEnd - p.roiStart) * (inW - 1) / 2
                           : y * (p.roiEnd - p.roiStart) * (inW - 1) / (outW - 1);
      return x + p.roiStart * (inW - 1);
    }
    case Coord::kPytorchHalfPixel:
      return outW == 1 ? -0.5 : (y + 0.5) / p.scale - 0.5;
    case Coord::kHalfPixel:
      return (y + 0.5) / p.scale - 0.5;
    case Coord::kTfHalfPixelForNn:
      return (y + 0.5) / p.scale;
    case Coord::kHalfPixelSymmetric: {
      double adjustment = static_cast<double>(p.out) / outW;
      double offset = inW / 2 * (1 - adjustment);
      return offset + (y + 0.5) / p.scale - 0.5;
    }
  }
  return 0;
}

double cubicWeight(double x, double A) {
  x = std::fabs(x);
  if (x <= 1) return ((A + 2) * x - (A + 3)) * x * x + 1;
  if (x < 2) return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
  return 0;
}

std::vector<Tap> planAxis(const ResizeAttrs& a, const AxisPlan& p) {
  std::vector<Tap> taps(static_cast<size_t>(p.out));
  const double s = std::min(p.scale, 1.0);
  for (int64_t o = 0; o < p.out; ++o) {
    Tap& t = taps[static_cast<size_t>(o)];
    double x = sourceCoord(a, p, static_cast<double>(o));
    if (a.coord == Coord::kTfCropAndResize && (x < 0 || x > static_cast<double>(p.in - 1))) {
      t.extrapolate = true;
      continue;
    }
    if (a.mode == Mode::kNearest) {
      int64_t i;
      double fl = std::floor(x);
      double r = x - fl;
      switch (a.nearest) {
        case Nearest::kRoundPreferFloor:
          i = static_cast<int64_t>(r <= 0.5 ? fl : fl + 1);
          break;
        case Nearest::kRoundPreferCeil:
          i = static_cast<int64_t>(r < 0.5 ? fl : fl + 1);
          break;
        case Nearest::kFloor:
          i = static_cast<int64_t>(fl);
          break;
        case Nearest::kCeil:
          i = static_cast<int64_t>(std::ceil(x));
          break;
        case Nearest::kSimple:
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
    if (a.mode == Mode::kLinear) {
      start = a.antialias ? static_cast<int64_t>(std::floor(-1 / s) + 1) : 0;
    } else {
      start = a.antialias ? static_cast<int64_t>(std::floor(-2 / s) + 1) : -1;
    }
    const int64_t n = 2 - 2 * start;
    double sum = 0;
    for (int64_t k = 0; k < n; ++k) {
      double d = static_cast<double>(start + k) - ratio;
      double w;
      if (a.mode == Mode::kLinear) {
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

template <class S>
S fromDouble(double v) {
  if constexpr (std::is_integral_v<S>) {
    v = std::nearbyint(v);
    v = std::clamp(v, static_cast<double>(std::numeric_limits<S>::min()),
                   static_cast<double>(std::numeric_limits<S>::max()));
    return static_cast<S>(v);
  } else {
    return store<S>(static_cast<ComputeT<S>>(v));
  }
}

class Resize final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(ResizeAttrs a, parseAttrs(b.node(), b.opset()));
    return std::unique_ptr<Kernel>(new Resize(std::move(a), b.opset()));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const auto rank = static_cast<int64_t>(x.rank());
    // Resized axes, in the order their scales/sizes are given.
    std::vector<int64_t> axes;
    if (a_.axes.empty()) {
      for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
    } else {
      std::vector<bool> seen(x.rank(), false);
      for (int64_t ax : a_.axes) {
        PASSLAB_ASSIGN_OR_RETURN(int64_t d, normalizeAxis(ax, rank));
        if (seen[static_cast<size_t>(d)])
          return invalidArgument("axis " + std::to_string(ax) + " is repeated");
        seen[static_cast<size_t>(d)] = true;
        axes.push_back(d);
      }
    }
    const size_t na = axes.size();
    std::vector<AxisPlan> plans(x.rank());
    for (size_t d = 0; d < x.rank(); ++d) plans[d] = {x.dim(d), x.dim(d), 1.0, 0.0, 1.0};

    const size_t scalesIn = opset_ < 11 ? 1 : 2;
    std::vector<double> scales, roi;
    std::vector<int64_t> sizes;
    if (ctx.has(scalesIn) && ctx.input(scalesIn).numel() > 0) {
      PASSLAB_ASSIGN_OR_RETURN(scales, readFloats(ctx.input(scalesIn), "scales"));
    }
    if (opset_ >= 11 && ctx.has(3) && ctx.input(3).numel() > 0) {
      PASSLAB_ASSIGN_OR_RETURN(sizes, readInts(ctx.input(3), "sizes"));
    }
    if (opset_ >= 11 && ctx.has(1) && ctx.input(1).numel() > 0) {
      PASSLAB_ASSIGN_OR_RETURN(roi, readFloats(ctx.input(1), "roi"));
    }
    if (scales.empty() == sizes.empty())
      return invalidArgument(scales.empty() ? "one of scales and sizes is required"
                                            : "only one of scales and sizes may be given");
    if (!scales.empty()) {
      if (scales.size() != na)
        return invalidArgument("scales has " + std::to_string(scales.size()) + " values for " +
                               std::to_string(na) + " axes of " + x.describe());
      for (size_t i = 0; i < na; ++i) {
        // float32 scales, used in double as the reference does.
        double s = static_cast<double>(static_cast<float>(scales[i]));
        if (!(s > 0)) return invalidArgument("scales must be positive");
        AxisPlan& p = plans[static_cast<size_t>(axes[i])];
        p.scale = s;
        p.out = static_cast<int64_t>(s * static_cast<double>(p.in));
      }
    } else {
      if (sizes.size() != na)
        return invalidArgument("sizes has " + std::to_string(sizes.size()) + " values for " +
                               std::to_string(na) + " axes of " + x.describe());
      for (size_t i = 0; i < na; ++i) {
        if (sizes[i] < 0) return invalidArgument("sizes must not be negative");
        AxisPlan& p = plans[static_cast<size_t>(axes[i])];
        if (p.in == 0) return invalidArgument("cannot resize an empty axis to a size");
        p.out = sizes[i];
        p.scale = static_cast<double>(sizes[i]) / static_cast<double>(p.in);
      }
      if (a_.policy != Policy::kStretch) {
        double s = a_.policy == Policy::kNotLarger ? std::numeric_limits<double>::infinity() : 0;
        for (int64_t d : axes) {
          double v = plans[static_cast<size_t>(d)].scale;
          s = a_.policy == Policy::kNotLarger ? std::min(s, v) : std::max(s, v);
        }
        for (int64_t d : axes) {
          AxisPlan& p = plans[static_cast<size_t>(d)];
          p.scale = s;
          p.out = static_cast<int64_t>(s * static_cast<double>(p.in) + 0.5);
        }
      }
    }
    if (a_.coord == Coord::kTfCropAndResize) {
      if (roi.size() != 2 * na)
        return invalidArgument("roi has " + std::to_string(roi.size()) + " values, " +
                               std::to_string(2 * na) + " are needed for tf_crop_and_resize");
      for (size_t i = 0; i < na; ++i) {
        plans[static_cast<size_t>(axes[i])].roiStart = roi[i];
        plans[static_cast<size_t>(axes[i])].roiEnd = roi[na + i];
      }
    }
    Dims out(x.rank());
    for (size_t d = 0; d < x.rank(); ++d) out[d] = plans[d].out;
    if (numelOf(out) < 0)
      return invalidArgument("the output " + dimsToString(out) + " is too large");
    for (int64_t d : axes)
      if (plans[static_cast<size_t>(d)].in == 0 && plans[static_cast<size_t>(d)].out > 0)
        return invalidArgument("cannot resize an empty axis of " + x.describe());

    return dispatch<types::kNumeric>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
      if (y->numel() == 0) return Status::ok();
      if (a_.mode == Mode::kNearest) return nearest<S>(x, *y, plans, ctx.threads());
      return interpolate<S>(ctx, x, *y, plans, axes);
    });
  }

 private:
  Resize(ResizeAttrs a, int64_t opset) : a_(std::move(a)), opset_(opset) {}

  // A gather: each output element is one input element (or the extrapolation value).
  template <class S>
  Status nearest(const Tensor& x, Tensor& y, const std::vector<AxisPlan>& plans, int threads) {
    const size_t rank = x.rank();
    std::vector<std::vector<int64_t>> map(rank);
    std::vector<int64_t> xs(rank, 1);
    for (size_t d = rank; d-- > 1;) xs[d - 1] = xs[d] * x.dim(d);
    for (size_t d = 0; d < rank; ++d) {
      bool identity = plans[d].out == plans[d].in && plans[d].scale == 1.0 &&
                      a_.coord != Coord::kTfCropAndResize;
      if (identity) {
        for (int64_t i = 0; i < plans[d].out; ++i) map[d].push_back(i * xs[d]);
        continue;
      }
      for (const Tap& t : planAxis(a_, plans[d]))
        map[d].push_back(t.extrapolate ? -1 : t.src[0] * xs[d]);
    }
    const S fill = fromDouble<S>(a_.extrapolation);
    const S* X = x.data<S>();
    S* Y = y.mutableData<S>();
    // Row by row along the last axis: the leading axes give the source row
    // (or the fill), the last axis's map gathers within it.
    if (rank == 0) {
      Y[0] = X[0];
      return Status::ok();
    }
    const Dims& od = y.dims();
    const int64_t width = od[rank - 1];
    const std::vector<int64_t>& last = map[rank - 1];
    bool lastIdentity = x.dim(rank - 1) == width;
    for (int64_t j = 0; j < width && lastIdentity; ++j)
      lastIdentity = last[static_cast<size_t>(j)] == j;
    parallelFor(y.numel() / width, threads, std::max<int64_t>(1, kElementwiseGrain / width),
                [&](int64_t b, int64_t e) {
                  std::vector<int64_t> idx(rank - 1);
                  int64_t rest = b;
                  for (size_t d = rank - 1; d-- > 0;) {
                    idx[d] = rest % od[d];
                    rest /= od[d];
                  }
                  for (int64_t r = b; r < e; ++r) {
                    S* out = Y + r * width;
                    int64_t base = 0;
                    bool outside = false;
                    for (size_t d = 0; d + 1 < rank; ++d) {
                      const int64_t m = map[d][static_cast<size_t>(idx[d])];
                      outside |= m < 0;
                      base += m;
                    }
                    if (outside) {
                      std::fill(out, out + width, fill);
                    } else if (lastIdentity) {
                      std::copy(X + base, X + base + width, out);
                    } else {
                      const S* in = X + base;
                      for (int64_t j = 0; j < width; ++j) {
                        const int64_t m = last[static_cast<size_t>(j)];
                        out[j] = m < 0 ? fill : in[m];
                      }
                    }
                    for (size_t d = rank - 1; d-- > 0;) {
                      if (++idx[d] < od[d]) break;
                      idx[d] = 0;
                    }
                  }
                });
    return Status::ok();
  }

  // Separable passes in double, one per resized axis.
  template <class S>
  Status interpolate(KernelContext& ctx, const Tensor& x, Tensor& y,
                     const std::vector<AxisPlan>& plans, const std::vector<int64_t>& axes) {
    Dims cur = x.dims();
    std::vector<double> buf(static_cast<size_t>(x.numel()));
    for (int64_t i = 0; i < x.numel(); ++i)
      buf[static_cast<size_t>(i)] = static_cast<double>(load(x.data<S>()[i]));
    for (int64_t axis : axes) {
      const AxisPlan& p = plans[static_cast<size_t>(axis)];
      bool identity = p.out == p.in && p.scale == 1.0 &&
                      (a_.coord != Coord::kTfCropAndResize || (p.roiStart == 0 && p.roiEnd == 1));
      if (identity) continue;
      if (ctx.cancelled()) return Error(ErrorCode::kCancelled, "run cancelled in Resize");
      std::vector<Tap> taps = planAxis(a_, p);
      int64_t outer = 1, inner = 1;
      for (int64_t d = 0; d < axis; ++d) outer *= cur[static_cast<size_t>(d)];
      for (size_t d = static_cast<size_t>(axis) + 1; d < cur.size(); ++d) inner *= cur[d];
      std::vector<double> next(static_cast<size_t>(outer * p.out * inner));
      parallelFor(outer * p.out, ctx.threads(),
                  std::max<int64_t>(1, kElementwiseGrain / (inner + 1)), [&](int64_t b, int64_t e) {
                    for (int64_t j = b; j < e; ++j) {
                      const int64_t o = j / p.out, k = j % p.out;
                      const Tap& t = taps[static_cast<size_t>(k)];
                      double* dst = next.data() + j * inner;
                      if (t.extrapolate) {
                        std::fill(dst, dst + inner, a_.extrapolation);
                        continue;
                      }
                      std::fill(dst, dst + inner, 0.0);
                      for (size_t q = 0; q < t.src.size(); ++q) {
                        const double w = t.w[q];
                        if (w == 0) continue;
                        const double* src = buf.data() + (o * p.in + t.src[q]) * inner;
                        for (int64_t i = 0; i < inner; ++i) dst[i] += w * src[i];
                      }
                    }
                  });
      buf = std::move(next);
      cur[static_cast<size_t>(axis)] = p.out;
    }
    S* Y = y.mutableData<S>();
    for (int64_t i = 0; i < y.numel(); ++i) Y[i] = fromDouble<S>(buf[static_cast<size_t>(i)]);
    return Status::ok();
  }

  ResizeAttrs a_;
  int64_t opset_;
};

const KernelDef kRows[] = {
    {"", "Resize", 10, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.Resize",
     makeKernel<Resize>},
};

}  // namespace

std::span<const KernelDef> resizeKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
