// Spatial resampling of images: GridSample (nearest, linear, cubic; zeros,
// border and reflection padding; 2-D and N-d) and AffineGrid, float types
// computed in double; and the rows of Col2Im (sum of sliding blocks back into
// an image) and MaxUnpool, instances of the sliding-window kernel
// (window_kernel.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/window_kernel.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

template <class S>
std::vector<double> doublesOf(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(load(t.data<S>()[i]));
  return v;
}

template <class S>
void storeDoubles(Tensor& t, const std::vector<double>& v) {
  S* p = t.mutableData<S>();
  for (size_t i = 0; i < v.size(); ++i) p[i] = store<S>(static_cast<ComputeT<S>>(v[i]));
}

// ---- GridSample ----

enum class SampleMode { kNearest, kLinear, kCubic };
enum class PadMode { kZeros, kBorder, kReflection };

double reflect(double x, double lo, double hi) {
  const double range = hi - lo;
  if (range <= 0) return lo;
  if (x < lo) {
    const double dx = lo - x;
    const auto n = static_cast<int64_t>(dx / range);
    const double r = dx - static_cast<double>(n) * range;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const double dx = x - hi;
    const auto n = static_cast<int64_t>(dx / range);
    const double r = dx - static_cast<double>(n) * range;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

void cubicCoeffs(double t, double c[4]) {
  const double A = -0.75;
  t = std::fabs(t);
  c[0] = ((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A;
  c[1] = ((A + 2) * t - (A + 3)) * t * t + 1;
  c[2] = ((A + 2) * (1 - t) - (A + 3)) * (1 - t) * (1 - t) + 1;
  c[3] = ((A * (2 - t) - 5 * A) * (2 - t) + 8 * A) * (2 - t) - 4 * A;
}

class GridSample final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    auto k = std::unique_ptr<GridSample>(new GridSample());
    std::string mode = n.attrString("mode", b.opset() >= 20 ? "linear" : "bilinear");
    if (mode == "nearest") {
      k->mode_ = SampleMode::kNearest;
    } else if (mode == "bilinear" || mode == "linear") {
      k->mode_ = SampleMode::kLinear;
    } else if (mode == "bicubic" || mode == "cubic") {
      k->mode_ = SampleMode::kCubic;
    } else {
      return invalidModel("unknown mode '" + mode + "'");
    }
    std::string pad = n.attrString("padding_mode", "zeros");
    if (pad == "zeros") {
      k->pad_ = PadMode::kZeros;
    } else if (pad == "border") {
      k->pad_ = PadMode::kBorder;
    } else if (pad == "reflection") {
      k->pad_ = PadMode::kReflection;
    } else {
      return invalidModel("unknown padding_mode '" + pad + "'");
    }
    k->alignCorners_ = n.attrInt("align_corners", 0) != 0;
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& grid = ctx.input(1);
    const size_t nd = x.rank() >= 2 ? x.rank() - 2 : 0;
    if (nd < 1 || grid.rank() != nd + 2 || grid.dim(0) != x.dim(0) ||
        grid.dim(grid.rank() - 1) != static_cast<int64_t>(nd))
      return invalidArgument("X " + x.describe() + " and grid " + grid.describe() +
                             " do not match: grid must be [N, out..., " + std::to_string(nd) + "]");
    const int64_t N = x.dim(0), C = x.dim(1);
    Dims out = {N, C};
    int64_t outSize = 1, inSize = 1;
    for (size_t d = 0; d < nd; ++d) {
      out.push_back(grid.dim(d + 1));
      outSize *= grid.dim(d + 1);
      inSize *= x.dim(d + 2);
    }
    Dims in(x.dims().begin() + 2, x.dims().end());
    if (inSize == 0 && outSize > 0)
      return invalidArgument("cannot sample an empty image " + x.describe());
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      if (grid.dtype() != x.dtype()) return invalidArgument("grid must have X's type");
      std::vector<int64_t> inStrides(nd, 1);
      for (size_t d = nd; d-- > 1;) inStrides[d - 1] = inStrides[d] * in[d];
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
      if constexpr (std::is_same_v<S, float>) {
        // Read and written in place: each value widened to double as the reference does.
        sample(x.data<float>(), grid.data<float>(), y->mutableData<float>(), N, C, in, inStrides,
               outSize, ctx.threads());
      } else {
        const std::vector<double> X = doublesOf<S>(x), G = doublesOf<S>(grid);
        std::vector<double> Y(static_cast<size_t>(N * C * outSize));
        sample(X.data(), G.data(), Y.data(), N, C, in, inStrides, outSize, ctx.threads());
        storeDoubles<S>(*y, Y);
      }
      return Status::ok();
    });
  }

 private:
  // Y[n, c, o] = the weighted sum of X's corners at grid point o, in double;
  // T is float or double.
  template <class T>
  void sample(const T* X, const T* G, T* Y, int64_t N, int64_t C, const Dims& in,
              const std::vector<int64_t>& inStrides, int64_t outSize, int threads) const {
    const size_t nd = in.size();
    const int64_t inSize = numelOf(in);
    parallelFor(N * outSize, threads, 16, [&](int64_t begin, int64_t end) {
      Corners corners;
      std::vector<AxisTaps> taps(nd);
      for (int64_t j0 = begin; j0 < end;) {
        // A block of points of one image: their corners first, then each
        // channel's plane read at them.
        const int64_t n = j0 / outSize;
        const int64_t j1 = std::min({end, (n + 1) * outSize, j0 + kPointBlock});
        corners.clear();
        for (int64_t j = j0; j < j1; ++j)
          addCorners(G + j * static_cast<int64_t>(nd), in, inStrides, taps, corners);
        for (int64_t c = 0; c < C; ++c) {
          const T* img = X + (n * C + c) * inSize;
          T* y = Y + (n * C + c) * outSize + (j0 - n * outSize);
          for (int64_t p = 0; p < j1 - j0; ++p) {
            double acc = 0;
            for (uint32_t k = corners.first[static_cast<size_t>(p)];
                 k < corners.first[static_cast<size_t>(p) + 1]; ++k)
              acc += corners.weight[k] * static_cast<double>(img[corners.offset[k]]);
            y[p] = static_cast<T>(acc);
          }
        }
        j0 = j1;
      }
    });
  }

  GridSample() = default;

  static constexpr int64_t kPointBlock = 256;  // output points whose corners are kept at once

  // The taps of one axis (up to 4 input indices, -1 for a padding zero) and
  // their weights, for grid value v on an axis of `len`.
  struct AxisTaps {
    int64_t index[4];
    double weight[4];
    int count = 0;
  };

  // The corners read by a block of points: offsets in the plane and weights
  // (the product of one tap's weight per axis), point p's in [first[p], first[p + 1]).
  struct Corners {
    std::vector<int64_t> offset;
    std::vector<double> weight;
    std::vector<uint32_t> first{0};
    void clear() {
      offset.clear();
      weight.clear();
      first.assign(1, 0);
    }
  };

  AxisTaps axisTaps(double v, int64_t size) const {
    const auto len = static_cast<double>(size);
    double c = alignCorners_ ? (v + 1) / 2.0 * (len - 1) : ((v + 1) * len - 1) / 2.0;
    c = static_cast<float>(c);  // the reference keeps coordinates in float
    if (mode_ == SampleMode::kNearest) c = std::nearbyint(c);
    const double lo = alignCorners_ ? 0.0 : -0.5, hi = alignCorners_ ? len - 1 : len - 0.5;
    if (c < lo || c > hi) {
      if (pad_ == PadMode::kBorder) c = std::clamp(c, 0.0, len - 1);
      if (pad_ == PadMode::kReflection) c = reflect(c, lo, hi);
    }
    AxisTaps t;
    if (mode_ == SampleMode::kNearest) {
      t = {{static_cast<int64_t>(c)}, {1.0}, 1};
    } else if (mode_ == SampleMode::kLinear) {
      const double f = std::floor(c);
      t = {{static_cast<int64_t>(f), static_cast<int64_t>(f) + 1}, {1 - (c - f), c - f}, 2};
    } else {
      const double f = std::floor(c);
      double cc[4];
      cubicCoeffs(c - f, cc);
      const auto i0 = static_cast<int64_t>(f);
      t = {{i0 - 1, i0, i0 + 1, i0 + 2}, {cc[0], cc[1], cc[2], cc[3]}, 4};
    }
    // Padding of the taps themselves: -1 marks a zero.
    for (int i = 0; i < t.count; ++i) {
      int64_t& idx = t.index[i];
      if (idx >= 0 && idx < size) continue;
      if (pad_ == PadMode::kZeros) {
        idx = -1;
      } else if (pad_ == PadMode::kBorder) {
        idx = std::clamp<int64_t>(idx, 0, size - 1);
      } else {
        idx = static_cast<int64_t>(reflect(static_cast<double>(idx), lo, hi));
        idx = std::clamp<int64_t>(idx, 0, size - 1);
      }
    }
    return t;
  }

  // Appends the corners of the point whose grid entry is g (x, the last dim,
  // first): every product of one tap per axis, the last axis fastest, leaving
  // out those on a padding zero or with weight 0.
  template <class T>
  void addCorners(const T* g, const Dims& in, const std::vector<int64_t>& inStrides,
                  std::vector<AxisTaps>& taps, Corners& out) const {
    const size_t nd = in.size();
    size_t count = 1;
    for (size_t d = 0; d < nd; ++d) {
      taps[d] = axisTaps(static_cast<double>(g[nd - 1 - d]), in[d]);
      count *= static_cast<size_t>(taps[d].count);
    }
    for (size_t k = 0; k < count; ++k) {
      size_t rest = k;
      double w = 1;
      int64_t off = 0;
      bool zero = false;
      for (size_t d = nd; d-- > 0;) {
        const auto t = static_cast<int>(rest % static_cast<size_t>(taps[d].count));
        rest /= static_cast<size_t>(taps[d].count);
        const int64_t idx = taps[d].index[t];
        if (idx < 0) zero = true;
        w *= taps[d].weight[t];
        off += idx * inStrides[d];
      }
      if (zero || w == 0) continue;
      out.offset.push_back(off);
      out.weight.push_back(w);
    }
    out.first.push_back(static_cast<uint32_t>(out.offset.size()));
  }

  SampleMode mode_ = SampleMode::kLinear;
  PadMode pad_ = PadMode::kZeros;
  bool alignCorners_ = false;
};

// ---- AffineGrid ----

class AffineGrid final : public Kernel {
 public:
  explicit AffineGrid(const KernelBuild& b)
      : alignCorners_(b.node().attrInt("align_corners", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& theta = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> size, readInts(ctx.input(1), "size"));
    if (size.size() != 4 && size.size() != 5)
      return invalidArgument("size must be [N, C, H, W] or [N, C, D, H, W], got " +
                             dimsToString(size));
    const size_t nd = size.size() - 2;
    const int64_t N = size[0];
    if (theta.rank() != 3 || theta.dim(0) != N || theta.dim(1) != static_cast<int64_t>(nd) ||
        theta.dim(2) != static_cast<int64_t>(nd) + 1)
      return invalidArgument("theta " + theta.describe() + " must be [" + std::to_string(N) + ", " +
                             std::to_string(nd) + ", " + std::to_string(nd + 1) + "]");
    Dims spatial(size.begin() + 2, size.end());
    int64_t count = 1;
    for (int64_t s : spatial) {
      if (s < 0) return invalidArgument("size must not be negative");
      count *= s;
    }
    // Base coordinates along a dim of s points: [-1, 1] through the corners or pixel centers.
    auto base = [&](int64_t i, int64_t s) {
      if (alignCorners_)
        return s == 1 ? -1.0 : -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(s - 1);
      return -1.0 + (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(s);
    };
    return dispatch<types::kFloats>(theta.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const std::vector<double> T = doublesOf<S>(theta);
      Dims out = {N};
      out.insert(out.end(), spatial.begin(), spatial.end());
      out.push_back(static_cast<int64_t>(nd));
      std::vector<double> Y(static_cast<size_t>(N * count * static_cast<int64_t>(nd)));
      std::vector<double> h(nd + 1);
      for (int64_t n = 0; n < N; ++n)
        for (int64_t p = 0; p < count; ++p) {
          // Homogeneous point (x, y[, z], 1): x runs along the last dim.
          int64_t rest = p;
          for (size_t d = nd; d-- > 0;) {
            h[nd - 1 - d] = base(rest % spatial[d], spatial[d]);
            rest /= spatial[d];
          }
          h[nd] = 1;
          for (size_t r = 0; r < nd; ++r) {
            double acc = 0;
            for (size_t k = 0; k <= nd; ++k)
              acc += T[static_cast<size_t>(n) * nd * (nd + 1) + r * (nd + 1) + k] * h[k];
            Y[static_cast<size_t>((n * count + p) * static_cast<int64_t>(nd)) + r] = acc;
          }
        }
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, theta.dtype(), out));
      storeDoubles<S>(*y, Y);
      return Status::ok();
    });
  }

 private:
  bool alignCorners_;
};

const KernelDef kRows[] = {
    {"", "GridSample", 16, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.GridSample",
     makeKernel<GridSample>},
    {"", "AffineGrid", 20, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.AffineGrid",
     makeKernel<AffineGrid>},
    {"", "Col2Im", 18, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Col2Im",
     makeWindowKernelOf<WindowOp::kCol2Im>},
    {"", "MaxUnpool", 9, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.MaxUnpool",
     makeWindowKernelOf<WindowOp::kMaxUnpool>},
};

}  // namespace

std::span<const KernelDef> imageKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
