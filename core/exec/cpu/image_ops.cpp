// Spatial resampling of images: GridSample (nearest, linear, cubic; zeros,
// border and reflection padding; 2-D and N-d) and AffineGrid, float types
// computed in double; and the rows of Col2Im (sum of sliding blocks back into
// an image) and MaxUnpool, instances of the sliding-window kernel
// (window_kernel.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

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
      const std::vector<double> X = doublesOf<S>(x), G = doublesOf<S>(grid);
      std::vector<double> Y(static_cast<size_t>(N * C * outSize));
      std::vector<int64_t> inStrides(nd, 1);
      for (size_t d = nd; d-- > 1;) inStrides[d - 1] = inStrides[d] * in[d];
      parallelFor(N * outSize, ctx.threads(), 16, [&](int64_t begin, int64_t end) {
        std::vector<double> coord(nd);
        std::vector<std::vector<int64_t>> taps(nd);
        std::vector<std::vector<double>> weights(nd);
        for (int64_t j = begin; j < end; ++j) {
          const int64_t n = j / outSize, o = j % outSize;
          // The grid lists x (the last dim) first: reverse it.
          const double* g = G.data() + (n * outSize + o) * static_cast<int64_t>(nd);
          for (size_t d = 0; d < nd; ++d) {
            const auto len = static_cast<double>(in[d]);
            const double v = g[nd - 1 - d];
            double c = alignCorners_ ? (v + 1) / 2.0 * (len - 1) : ((v + 1) * len - 1) / 2.0;
            c = static_cast<float>(c);  // the reference keeps coordinates in float
            if (mode_ == SampleMode::kNearest) c = std::nearbyint(c);
            const double lo = alignCorners_ ? 0.0 : -0.5, hi = alignCorners_ ? len - 1 : len - 0.5;
            if (c < lo || c > hi) {
              if (pad_ == PadMode::kBorder) c = std::clamp(c, 0.0, len - 1);
              if (pad_ == PadMode::kReflection) c = reflect(c, lo, hi);
            }
            coord[d] = c;
            taps[d].clear();
            weights[d].clear();
            if (mode_ == SampleMode::kNearest) {
              taps[d].push_back(static_cast<int64_t>(c));
              weights[d].push_back(1.0);
            } else if (mode_ == SampleMode::kLinear) {
              const double f = std::floor(c);
              taps[d] = {static_cast<int64_t>(f), static_cast<int64_t>(f) + 1};
              weights[d] = {1 - (c - f), c - f};
            } else {
              const double f = std::floor(c);
              double cc[4];
              cubicCoeffs(c - f, cc);
              const auto i0 = static_cast<int64_t>(f);
              taps[d] = {i0 - 1, i0, i0 + 1, i0 + 2};
              weights[d] = {cc[0], cc[1], cc[2], cc[3]};
            }
            // Padding of the taps themselves: -1 marks a zero.
            for (int64_t& t : taps[d]) {
              if (t >= 0 && t < in[d]) continue;
              if (pad_ == PadMode::kZeros) {
                t = -1;
              } else if (pad_ == PadMode::kBorder) {
                t = std::clamp<int64_t>(t, 0, in[d] - 1);
              } else {
                t = static_cast<int64_t>(reflect(static_cast<double>(t), lo, hi));
                t = std::clamp<int64_t>(t, 0, in[d] - 1);
              }
            }
          }
          // Sum over the corners (products of one tap per dim).
          size_t corners = 1;
          for (size_t d = 0; d < nd; ++d) corners *= taps[d].size();
          for (int64_t c = 0; c < C; ++c) {
            const double* img = X.data() + (n * C + c) * inSize;
            double acc = 0;
            for (size_t k = 0; k < corners; ++k) {
              size_t rest = k;
              double w = 1;
              int64_t off = 0;
              bool zero = false;
              for (size_t d = nd; d-- > 0;) {
                const size_t t = rest % taps[d].size();
                rest /= taps[d].size();
                const int64_t idx = taps[d][t];
                if (idx < 0) zero = true;
                w *= weights[d][t];
                off += idx * inStrides[d];
              }
              if (!zero && w != 0) acc += w * img[off];
            }
            Y[static_cast<size_t>((n * C + c) * outSize + o)] = acc;
          }
        }
      });
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
      storeDoubles<S>(*y, Y);
      return Status::ok();
    });
  }

 private:
  GridSample() = default;
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
