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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/resize_rules.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

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

// out[j] = in[map[j]] for j in [0, width): one output row of nearest's gather
// (no extrapolated positions).
template <class S>
void gatherRow(const S* in, const int64_t* map, int64_t width, S* out) {
  for (int64_t j = 0; j < width; ++j) out[j] = in[map[j]];
}

// k when map[j] == j / k for every j of a row k times the input's width
// (nearest upsampling by a whole factor along the last axis), else 0.
int64_t wholeRepeat(const std::vector<int64_t>& map, int64_t inWidth) {
  const int64_t width = static_cast<int64_t>(map.size());
  if (inWidth <= 0 || width % inWidth != 0 || width == inWidth) return 0;
  const int64_t k = width / inWidth;
  for (int64_t j = 0; j < width; ++j)
    if (map[static_cast<size_t>(j)] != j / k) return 0;
  return k;
}

// out[j] = in[j / k] for j in [0, k * inWidth): each value repeated k times;
// by 2 on 4-byte values with SSE2 unpacks (FPN / YOLO upsampling).
template <class S>
void repeatRow(const S* in, int64_t inWidth, int64_t k, S* out) {
  int64_t i = 0;
#if defined(__SSE2__)
  if constexpr (sizeof(S) == 4) {
    if (k == 2) {
      for (; i + 4 <= inWidth; i += 4) {
        const __m128 v = _mm_loadu_ps(reinterpret_cast<const float*>(in + i));
        _mm_storeu_ps(reinterpret_cast<float*>(out + 2 * i), _mm_unpacklo_ps(v, v));
        _mm_storeu_ps(reinterpret_cast<float*>(out + 2 * i + 4), _mm_unpackhi_ps(v, v));
      }
    }
  }
#endif
  for (; i < inWidth; ++i)
    for (int64_t t = 0; t < k; ++t) out[i * k + t] = in[i];
}

class Resize final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(ResizeAttrs a, parseResizeAttrs(b.node(), b.opset()));
    return std::unique_ptr<Kernel>(new Resize(std::move(a), b.opset()));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
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
    PASSLAB_ASSIGN_OR_RETURN(ResizeGeometry g,
                             resizeGeometry(a_, x.dims(), x.describe(), scales, sizes, roi));
    const std::vector<int64_t>& axes = g.axes;
    const std::vector<ResizeAxis>& plans = g.dims;
    Dims out(x.rank());
    for (size_t d = 0; d < x.rank(); ++d) out[d] = plans[d].out;

    return dispatch<types::kNumeric>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
      if (y->numel() == 0) return Status::ok();
      if (a_.mode == ResizeMode::kNearest) return nearest<S>(x, *y, plans, ctx.threads());
      if (innerPlanesOnly(x, plans)) return planes<S>(ctx, x, *y, plans);
      return interpolate<S>(ctx, x, *y, plans, axes);
    });
  }

 private:
  Resize(ResizeAttrs a, int64_t opset) : a_(std::move(a)), opset_(opset) {}

  // A gather: each output element is one input element (or the extrapolation value).
  template <class S>
  Status nearest(const Tensor& x, Tensor& y, const std::vector<ResizeAxis>& plans, int threads) {
    const size_t rank = x.rank();
    std::vector<std::vector<int64_t>> map(rank);
    std::vector<int64_t> xs(rank, 1);
    for (size_t d = rank; d-- > 1;) xs[d - 1] = xs[d] * x.dim(d);
    for (size_t d = 0; d < rank; ++d) {
      bool identity = plans[d].out == plans[d].in && plans[d].scale == 1.0 &&
                      a_.coord != ResizeCoord::kTfCropAndResize;
      if (identity) {
        for (int64_t i = 0; i < plans[d].out; ++i) map[d].push_back(i * xs[d]);
        continue;
      }
      for (const ResizeTap& t : resizeTaps(a_, plans[d]))
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
    const bool lastFills = std::any_of(last.begin(), last.end(), [](int64_t m) { return m < 0; });
    const int64_t repeat = lastFills ? 0 : wholeRepeat(last, x.dim(rank - 1));
    parallelFor(y.numel() / width, threads, std::max<int64_t>(1, kElementwiseGrain / width),
                [&](int64_t b, int64_t e) {
                  std::vector<int64_t> idx(rank - 1);
                  int64_t rest = b;
                  for (size_t d = rank - 1; d-- > 0;) {
                    idx[d] = rest % od[d];
                    rest /= od[d];
                  }
                  int64_t prevBase = -1;  // the source row of output row r - 1 (-1: none yet)
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
                      base = -1;
                    } else if (lastIdentity) {
                      std::copy(X + base, X + base + width, out);
                    } else if (base == prevBase) {
                      // Upsampling along H: the same source row as the row
                      // before, already gathered: a block copy.
                      std::copy(out - width, out, out);
                    } else if (lastFills) {
                      const S* in = X + base;
                      for (int64_t j = 0; j < width; ++j) {
                        const int64_t m = last[static_cast<size_t>(j)];
                        out[j] = m < 0 ? fill : in[m];
                      }
                    } else if (repeat > 0) {
                      repeatRow(X + base, width / repeat, repeat, out);
                    } else {
                      gatherRow(X + base, last.data(), width, out);
                    }
                    prevBase = base;
                    for (size_t d = rank - 1; d-- > 0;) {
                      if (++idx[d] < od[d]) break;
                      idx[d] = 0;
                    }
                  }
                });
    return Status::ok();
  }

  bool identityAxis(const ResizeAxis& p) const {
    return p.out == p.in && p.scale == 1.0 &&
           (a_.coord != ResizeCoord::kTfCropAndResize || (p.roiStart == 0 && p.roiEnd == 1));
  }

  // True when only the last two axes (or one of them) are resized and no
  // tap extrapolates (tf_crop_and_resize keeps the separable passes).
  bool innerPlanesOnly(const Tensor& x, const std::vector<ResizeAxis>& plans) const {
    const size_t rank = x.rank();
    if (rank < 2 || a_.coord == ResizeCoord::kTfCropAndResize) return false;
    for (size_t d = 0; d + 2 < rank; ++d)
      if (!identityAxis(plans[d])) return false;
    return true;
  }

  // An axis's taps as flat arrays: output position k reads src[off[k]..off[k+1]).
  struct FlatTaps {
    std::vector<int64_t> off, src;
    std::vector<double> w;
  };
  FlatTaps flatTaps(const ResizeAxis& p) const {
    FlatTaps f;
    f.off.push_back(0);
    if (identityAxis(p)) {
      for (int64_t k = 0; k < p.out; ++k) {
        f.src.push_back(k);
        f.w.push_back(1.0);
        f.off.push_back(k + 1);
      }
      return f;
    }
    for (const ResizeTap& t : resizeTaps(a_, p)) {
      for (size_t q = 0; q < t.src.size(); ++q) {
        if (t.w[q] == 0) continue;
        f.src.push_back(t.src[q]);
        f.w.push_back(t.w[q]);
      }
      f.off.push_back(static_cast<int64_t>(f.src.size()));
    }
    return f;
  }

  // Linear or cubic over the last two axes, plane by plane: every source row
  // resized along W once (in double), then each output row a weighted sum of
  // those rows. The same taps and double arithmetic as the separable passes,
  // without a double copy of the whole tensor and a per-element pass along W.
  template <class S>
  Status planes(KernelContext& ctx, const Tensor& x, Tensor& y,
                const std::vector<ResizeAxis>& plans) {
    const size_t rank = x.rank();
    const ResizeAxis& ph = plans[rank - 2];
    const ResizeAxis& pw = plans[rank - 1];
    const FlatTaps th = flatTaps(ph), tw = flatTaps(pw);
    const int64_t hin = ph.in, win = pw.in, hout = ph.out, wout = pw.out;
    const int64_t count = x.numel() / std::max<int64_t>(1, hin * win);
    const S* X = x.data<S>();
    S* Y = y.mutableData<S>();
    const int64_t grain =
        std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, hout * wout));
    parallelFor(count, ctx.threads(), grain, [&](int64_t b, int64_t e) {
      std::vector<double> rows(static_cast<size_t>(hin * wout));
      std::vector<double> acc(static_cast<size_t>(wout));
      for (int64_t c = b; c < e; ++c) {
        const S* in = X + c * hin * win;
        for (int64_t r = 0; r < hin; ++r) {
          const S* src = in + r * win;
          double* dst = rows.data() + r * wout;
          for (int64_t j = 0; j < wout; ++j) {
            double v = 0;
            for (int64_t q = tw.off[static_cast<size_t>(j)]; q < tw.off[static_cast<size_t>(j) + 1];
                 ++q)
              v += tw.w[static_cast<size_t>(q)] *
                   static_cast<double>(load(src[tw.src[static_cast<size_t>(q)]]));
            dst[j] = v;
          }
        }
        S* out = Y + c * hout * wout;
        for (int64_t k = 0; k < hout; ++k) {
          std::fill(acc.begin(), acc.end(), 0.0);
          for (int64_t q = th.off[static_cast<size_t>(k)]; q < th.off[static_cast<size_t>(k) + 1];
               ++q) {
            const double w = th.w[static_cast<size_t>(q)];
            const double* row = rows.data() + th.src[static_cast<size_t>(q)] * wout;
            for (int64_t j = 0; j < wout; ++j) acc[static_cast<size_t>(j)] += w * row[j];
          }
          for (int64_t j = 0; j < wout; ++j)
            out[k * wout + j] = fromDouble<S>(acc[static_cast<size_t>(j)]);
        }
      }
    });
    if (ctx.cancelled()) return Error(ErrorCode::kCancelled, "run cancelled in Resize");
    return Status::ok();
  }

  // Separable passes in double, one per resized axis.
  template <class S>
  Status interpolate(KernelContext& ctx, const Tensor& x, Tensor& y,
                     const std::vector<ResizeAxis>& plans, const std::vector<int64_t>& axes) {
    Dims cur = x.dims();
    std::vector<double> buf(static_cast<size_t>(x.numel()));
    for (int64_t i = 0; i < x.numel(); ++i)
      buf[static_cast<size_t>(i)] = static_cast<double>(load(x.data<S>()[i]));
    for (int64_t axis : axes) {
      const ResizeAxis& p = plans[static_cast<size_t>(axis)];
      bool identity =
          p.out == p.in && p.scale == 1.0 &&
          (a_.coord != ResizeCoord::kTfCropAndResize || (p.roiStart == 0 && p.roiEnd == 1));
      if (identity) continue;
      if (ctx.cancelled()) return Error(ErrorCode::kCancelled, "run cancelled in Resize");
      std::vector<ResizeTap> taps = resizeTaps(a_, p);
      int64_t outer = 1, inner = 1;
      for (int64_t d = 0; d < axis; ++d) outer *= cur[static_cast<size_t>(d)];
      for (size_t d = static_cast<size_t>(axis) + 1; d < cur.size(); ++d) inner *= cur[d];
      std::vector<double> next(static_cast<size_t>(outer * p.out * inner));
      parallelFor(outer * p.out, ctx.threads(),
                  std::max<int64_t>(1, kElementwiseGrain / (inner + 1)), [&](int64_t b, int64_t e) {
                    for (int64_t j = b; j < e; ++j) {
                      const int64_t o = j / p.out, k = j % p.out;
                      const ResizeTap& t = taps[static_cast<size_t>(k)];
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
