#include "core/exec/cpu/window_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/window_indirection.h"
#include "core/exec/parallel.h"
#include "core/ir/window.h"

namespace passlab::exec::cpu {

namespace {

constexpr TypeSet kMaxTypes = types::kFloats | TypeSet{ir::DataType::kInt8, ir::DataType::kUInt8};

Dims spatialOf(const Dims& d) {
  return Dims(d.begin() + 2, d.end());
}

Dims withBatchAndChannels(int64_t n, int64_t c, const Dims& spatial) {
  Dims d{n, c};
  d.insert(d.end(), spatial.begin(), spatial.end());
  return d;
}

// The window the size of the image (the Global pools): one grid position.
ir::Window wholeImage(const Dims& image) {
  ir::Window w;
  for (int64_t e : image) w.axes.push_back({.image = e, .kernel = e, .grid = 1});
  return w;
}

// ---- Gathers: one output plane's grid positions reduce their taps ----

// MaxPool: the largest tap inside the image, and where (row-major, or
// column-major with storage_order 1) as Indices.
template <class S>
void maxPlane(const Indirection& ind, const S* xp, S* yp, int64_t* ip, int64_t planeBase,
              const Dims* colMajorDims) {
  using C = ComputeT<S>;
  for (int64_t g = 0; g < ind.grid; ++g) {
    const int64_t* at = ind.row(g);
    C best = std::numeric_limits<C>::lowest();
    int64_t bestAt = -1;
    for (int64_t t = 0; t < ind.taps; ++t) {
      if (at[t] < 0) continue;
      const C v = load(xp[at[t]]);
      if (bestAt < 0 || v > best) {
        best = v;
        bestAt = at[t];
      }
    }
    yp[g] = store<S>(best);
    if (!ip) continue;
    bestAt = std::max<int64_t>(bestAt, 0);
    ip[g] = planeBase + (colMajorDims ? columnMajorOffset(bestAt, *colMajorDims) : bestAt);
  }
}

// AveragePool: the mean of the taps inside the image, or over the padded
// window with count_include_pad.
template <class S>
void averagePlane(const Indirection& ind, const S* xp, S* yp, bool includePad) {
  using C = ComputeT<S>;
  for (int64_t g = 0; g < ind.grid; ++g) {
    const int64_t* at = ind.row(g);
    C sum = 0;
    int64_t valid = 0;
    for (int64_t t = 0; t < ind.taps; ++t) {
      if (at[t] < 0) continue;
      sum += load(xp[at[t]]);
      ++valid;
    }
    const int64_t n = includePad ? ind.padded[static_cast<size_t>(g)] : valid;
    yp[g] = store<S>(n > 0 ? sum / static_cast<C>(n) : C(0));
  }
}

// |v|^p for LpPool's integer p: repeated products for small p (exact for
// p <= 2, as std::pow is; within an ulp above), std::pow otherwise.
double absPow(double v, int64_t p) {
  v = std::fabs(v);
  if (p < 1 || p > 8) return std::pow(v, static_cast<double>(p));
  double r = v;
  for (int64_t i = 1; i < p; ++i) r *= v;
  return r;
}

// LpPool: (sum |x|^p)^(1/p) over the taps inside the image, in double.
template <class S>
void lpPlane(const Indirection& ind, const S* xp, S* yp, int64_t p) {
  using C = ComputeT<S>;
  for (int64_t g = 0; g < ind.grid; ++g) {
    const int64_t* at = ind.row(g);
    double sum = 0;
    for (int64_t t = 0; t < ind.taps; ++t)
      if (at[t] >= 0) sum += absPow(static_cast<double>(load(xp[at[t]])), p);
    yp[g] = store<S>(static_cast<C>(std::pow(sum, 1.0 / static_cast<double>(p))));
  }
}

// Conv output plane (n, m): the bias plus, per grid position, the sum over
// the group's input channels and the taps inside the image (the grid
// position's row of the indirection is reused by every channel).
template <class S>
void convPlane(const Indirection& ind, const S* X, const S* W, const S* B, S* yp, int64_t xPlane0,
               int64_t channels, int64_t imageSize, int64_t m) {
  using C = ComputeT<S>;
  for (int64_t g = 0; g < ind.grid; ++g) {
    const int64_t* at = ind.row(g);
    C acc = B ? load(B[m]) : C(0);
    for (int64_t c = 0; c < channels; ++c) {
      const S* xp = X + (xPlane0 + c) * imageSize;
      const S* wk = W + (m * channels + c) * ind.taps;
      for (int64_t t = 0; t < ind.taps; ++t)
        if (at[t] >= 0) acc += load(xp[at[t]]) * load(wk[t]);
    }
    yp[g] = store<S>(acc);
  }
}

// ---- Scatters: each grid position adds its taps into the image ----

// acc[at] += x[g] * w[t] over the grid positions and taps of one input plane
// (w == nullptr: weight 1, xStride apart per tap as Col2Im's columns are).
template <class S>
void scatterPlane(const Indirection& ind, const S* xp, int64_t xTapStride, const S* wk,
                  ComputeT<S>* acc) {
  using C = ComputeT<S>;
  for (int64_t g = 0; g < ind.grid; ++g) {
    const int64_t* at = ind.row(g);
    for (int64_t t = 0; t < ind.taps; ++t) {
      if (at[t] < 0) continue;
      const C x = load(xp[g + t * xTapStride]);
      acc[at[t]] += wk ? x * load(wk[t]) : x;
    }
  }
}

class WindowKernel final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b, WindowOp op) {
    const ir::Node& node = b.node();
    PASSLAB_ASSIGN_OR_RETURN(ir::WindowAttrs a, ir::readWindowAttrs(node));
    const int64_t group = node.attrInt("group", 1);
    const int64_t storageOrder = node.attrInt("storage_order", 0);
    if (group < 1) return invalidArgument("group must be positive");
    if (storageOrder != 0 && storageOrder != 1)
      return invalidArgument("storage_order must be 0 or 1");
    const bool pooled = op == WindowOp::kMaxPool || op == WindowOp::kAveragePool ||
                        op == WindowOp::kLpPool || op == WindowOp::kMaxUnpool;
    if (pooled && a.kernel.empty()) return invalidArgument("kernel_shape is required");
    return std::unique_ptr<Kernel>(
        new WindowKernel(op, std::move(a), group, storageOrder, node.attrInt("p", 2)));
  }

  Status run(KernelContext& ctx) override {
    switch (op_) {
      case WindowOp::kConv:
        return runConv(ctx);
      case WindowOp::kConvTranspose:
        return runConvTranspose(ctx);
      case WindowOp::kMaxUnpool:
        return runMaxUnpool(ctx);
      case WindowOp::kCol2Im:
        return runCol2Im(ctx);
      default:
        return runPool(ctx);
    }
  }

 private:
  WindowKernel(WindowOp op, ir::WindowAttrs a, int64_t group, int64_t storageOrder, int64_t p)
      : op_(op), attrs_(std::move(a)), group_(group), storageOrder_(storageOrder), p_(p) {}

  // X [N, C, image...], W [M, C/group, kernel...], B [M] -> Y [N, M, grid...].
  Status runConv(KernelContext& ctx) const {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Tensor* bias = ctx.has(2) ? &ctx.input(2) : nullptr;
    PASSLAB_RETURN_IF_ERROR(checkConvOperands(x, w, bias));
    const int64_t N = x.dim(0), C = x.dim(1), M = w.dim(0);
    if (C != w.dim(1) * group_ || M % group_ != 0)
      return invalidArgument("X " + x.describe() + " and W " + w.describe() + " do not fit group " +
                             std::to_string(group_));
    PASSLAB_ASSIGN_OR_RETURN(ir::Window win,
                             ir::forwardWindow(attrs_, spatialOf(x.dims()), spatialOf(w.dims())));
    if (bias && bias->numel() != M)
      return invalidArgument("B has " + std::to_string(bias->numel()) + " elements, expected " +
                             std::to_string(M));
    PASSLAB_ASSIGN_OR_RETURN(
        Tensor * y, ctx.allocate(0, x.dtype(), withBatchAndChannels(N, M, win.gridDims())));
    const Indirection ind = buildIndirection(win);
    const int64_t cg = C / group_, mg = M / group_, imageSize = win.imageSize();
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const S* X = x.data<S>();
      const S* W = w.data<S>();
      const S* B = bias ? bias->data<S>() : nullptr;
      S* Y = y->mutableData<S>();
      parallelFor(N * M, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
        for (int64_t nm = b0; nm < e0; ++nm) {
          const int64_t n = nm / M, m = nm % M;
          convPlane(ind, X, W, B, Y + nm * ind.grid, n * C + (m / mg) * cg, cg, imageSize, m);
        }
      });
      return Status::ok();
    });
  }

  // X [N, C, grid...], W [C, M/group, kernel...], B [M] -> Y [N, M, image...].
  Status runConvTranspose(KernelContext& ctx) const {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Tensor* bias = ctx.has(2) ? &ctx.input(2) : nullptr;
    PASSLAB_RETURN_IF_ERROR(checkConvOperands(x, w, bias));
    const int64_t N = x.dim(0), C = x.dim(1), M = w.dim(1) * group_;
    if (w.dim(0) != C || C % group_ != 0)
      return invalidArgument("X " + x.describe() + " and W " + w.describe() + " do not fit group " +
                             std::to_string(group_));
    PASSLAB_ASSIGN_OR_RETURN(
        ir::Window win, ir::transposedWindow(attrs_, spatialOf(x.dims()), spatialOf(w.dims())));
    if (bias && bias->numel() != M)
      return invalidArgument("B has " + std::to_string(bias->numel()) + " elements, expected " +
                             std::to_string(M));
    PASSLAB_ASSIGN_OR_RETURN(
        Tensor * y, ctx.allocate(0, x.dtype(), withBatchAndChannels(N, M, win.imageDims())));
    const Indirection ind = buildIndirection(win);
    const int64_t cg = C / group_, mg = M / group_, imageSize = win.imageSize();
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using Acc = ComputeT<S>;
      const S* X = x.data<S>();
      const S* W = w.data<S>();
      const S* B = bias ? bias->data<S>() : nullptr;
      S* Y = y->mutableData<S>();
      parallelFor(N * M, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
        std::vector<Acc> acc(static_cast<size_t>(imageSize));
        for (int64_t nm = b0; nm < e0; ++nm) {
          const int64_t n = nm / M, m = nm % M, grp = m / mg, ml = m % mg;
          std::fill(acc.begin(), acc.end(), B ? load(B[m]) : Acc(0));
          for (int64_t c = grp * cg; c < (grp + 1) * cg; ++c)
            scatterPlane(ind, X + (n * C + c) * ind.grid, 0, W + (c * mg + ml) * ind.taps,
                         acc.data());
          S* yp = Y + nm * imageSize;
          for (int64_t i = 0; i < imageSize; ++i) yp[i] = store<S>(acc[static_cast<size_t>(i)]);
        }
      });
      return Status::ok();
    });
  }

  // The pools: X [N, C, image...] -> Y [N, C, grid...] (MaxPool: Indices too).
  Status runPool(KernelContext& ctx) const {
    const Tensor& x = ctx.input(0);
    const bool global = op_ == WindowOp::kGlobalMaxPool || op_ == WindowOp::kGlobalAveragePool ||
                        op_ == WindowOp::kGlobalLpPool;
    if (x.rank() < 2 || (!global && x.rank() != attrs_.kernel.size() + 2))
      return invalidArgument("input " + x.describe() + " does not fit the window");
    ir::Window win;
    if (global) {
      win = wholeImage(spatialOf(x.dims()));
    } else {
      PASSLAB_ASSIGN_OR_RETURN(win, ir::forwardWindow(attrs_, spatialOf(x.dims())));
    }
    const bool isMax = op_ == WindowOp::kMaxPool || op_ == WindowOp::kGlobalMaxPool;
    const bool isLp = op_ == WindowOp::kLpPool || op_ == WindowOp::kGlobalLpPool;
    const int64_t planes = x.dim(0) * x.dim(1), imageSize = win.imageSize();
    const Dims outDims = withBatchAndChannels(x.dim(0), x.dim(1), win.gridDims());
    const Indirection ind = buildIndirection(win);
    auto compute = [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), outDims));
      Tensor* indices = nullptr;
      if (op_ == WindowOp::kMaxPool && ctx.wantsOutput(1)) {
        PASSLAB_ASSIGN_OR_RETURN(indices, ctx.allocate(1, ir::DataType::kInt64, outDims));
      }
      const S* X = x.data<S>();
      S* Y = y->mutableData<S>();
      int64_t* I = indices ? indices->mutableData<int64_t>() : nullptr;
      const Dims image = win.imageDims();
      const Dims* colMajor = storageOrder_ == 1 ? &image : nullptr;
      parallelFor(planes, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
        for (int64_t plane = b0; plane < e0; ++plane) {
          const S* xp = X + plane * imageSize;
          S* yp = Y + plane * ind.grid;
          if (isMax)
            maxPlane(ind, xp, yp, I ? I + plane * ind.grid : nullptr, plane * imageSize, colMajor);
          else if (isLp)
            lpPlane(ind, xp, yp, p_);
          else
            averagePlane(ind, xp, yp, win.countIncludePad);
        }
      });
      return Status::ok();
    };
    if (isMax) return dispatch<kMaxTypes>(x.dtype(), compute);
    return dispatch<types::kFloats>(x.dtype(), compute);
  }

  // X [N, C * prod(block), L], image_shape, block_shape -> Y [N, C, image...]:
  // a forward window on the image whose L grid positions scatter their taps.
  Status runCol2Im(KernelContext& ctx) const {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(Dims image, readInts(ctx.input(1), "image_shape"));
    PASSLAB_ASSIGN_OR_RETURN(Dims block, readInts(ctx.input(2), "block_shape"));
    if (image.empty() || block.size() != image.size())
      return invalidArgument("image_shape and block_shape must have the same positive length");
    if (x.rank() != 3)
      return invalidArgument("input must be [N, C * prod(block), L], got " + x.describe());
    ir::WindowAttrs a = attrs_;
    a.kernel = block;
    PASSLAB_ASSIGN_OR_RETURN(ir::Window win, ir::forwardWindow(a, image));
    const int64_t taps = win.kernelSize(), L = win.gridSize();
    if (x.dim(1) % taps != 0 || x.dim(2) != L)
      return invalidArgument("input " + x.describe() + " must be [N, C * " + std::to_string(taps) +
                             ", " + std::to_string(L) + "] for image " + dimsToString(image) +
                             " and block " + dimsToString(block));
    const int64_t N = x.dim(0), C = x.dim(1) / taps, imageSize = win.imageSize();
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y,
                             ctx.allocate(0, x.dtype(), withBatchAndChannels(N, C, image)));
    const Indirection ind = buildIndirection(win);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using Acc = ComputeT<S>;
      const S* X = x.data<S>();
      S* Y = y->mutableData<S>();
      parallelFor(N * C, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
        std::vector<Acc> acc(static_cast<size_t>(imageSize));
        for (int64_t plane = b0; plane < e0; ++plane) {
          std::fill(acc.begin(), acc.end(), Acc(0));
          scatterPlane<S>(ind, X + plane * taps * L, L, nullptr, acc.data());
          S* yp = Y + plane * imageSize;
          for (int64_t i = 0; i < imageSize; ++i) yp[i] = store<S>(acc[static_cast<size_t>(i)]);
        }
      });
      return Status::ok();
    });
  }

  // X [N, C, grid...], Indices (into the unpooled [N, C, image...]) and an
  // optional output_shape -> Y: each x goes where its index says, in the
  // output's corner when output_shape is larger than the window's image.
  Status runMaxUnpool(KernelContext& ctx) const {
    const Tensor& x = ctx.input(0);
    const Tensor& ind = ctx.input(1);
    if (x.rank() != attrs_.kernel.size() + 2)
      return invalidArgument("X " + x.describe() + " does not match kernel_shape");
    if (ind.dims() != x.dims() || ind.dtype() != ir::DataType::kInt64)
      return invalidArgument("indices " + ind.describe() + " must be int64 with X's dims");
    ir::WindowAttrs a = attrs_;
    a.dilations.clear();
    a.outputShape.clear();
    a.outputPadding.clear();
    PASSLAB_ASSIGN_OR_RETURN(ir::Window win, ir::transposedWindow(a, spatialOf(x.dims())));
    const Dims unpooled = withBatchAndChannels(x.dim(0), x.dim(1), win.imageDims());
    Dims out = unpooled;
    if (ctx.has(2)) {
      PASSLAB_ASSIGN_OR_RETURN(out, readInts(ctx.input(2), "output_shape"));
      if (out.size() != unpooled.size())
        return invalidArgument("output_shape " + dimsToString(out) + " must have rank " +
                               std::to_string(unpooled.size()));
      for (size_t d = 0; d < out.size(); ++d)
        if (out[d] < unpooled[d])
          return invalidArgument("output_shape " + dimsToString(out) +
                                 " is smaller than the unpooled shape " + dimsToString(unpooled));
    }
    const int64_t total = numelOf(unpooled);
    if (total < 0) return invalidArgument("the unpooled shape is too large");
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
    std::memset(y->mutableRaw(), 0, y->byteSize());
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const S* X = x.data<S>();
      const int64_t* I = ind.data<int64_t>();
      S* Y = y->mutableData<S>();
      std::vector<int64_t> pos(unpooled.size());
      const bool sameShape = out == unpooled;
      for (int64_t i = 0; i < x.numel(); ++i) {
        int64_t at = I[i];
        if (at < 0 || at >= total)
          return invalidArgument("index " + std::to_string(at) + " is out of range [0, " +
                                 std::to_string(total) + ")");
        if (sameShape) {
          Y[at] = X[i];
          continue;
        }
        for (size_t d = unpooled.size(); d-- > 0;) {
          pos[d] = at % unpooled[d];
          at /= unpooled[d];
        }
        int64_t dst = 0;
        for (size_t d = 0; d < out.size(); ++d) dst = dst * out[d] + pos[d];
        Y[dst] = X[i];
      }
      return Status::ok();
    });
  }

  static Status checkConvOperands(const Tensor& x, const Tensor& w, const Tensor* bias) {
    if (w.dtype() != x.dtype() || (bias && bias->dtype() != x.dtype()))
      return invalidArgument("X, W and B must have one element type");
    if (x.rank() < 3 || w.rank() != x.rank())
      return invalidArgument("X " + x.describe() + " and W " + w.describe() +
                             " must have one rank of 3 or more");
    return Status::ok();
  }

  WindowOp op_;
  ir::WindowAttrs attrs_;
  int64_t group_, storageOrder_, p_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeWindowKernel(const KernelBuild& b, WindowOp op) {
  return WindowKernel::create(b, op);
}

}  // namespace passlab::exec::cpu
