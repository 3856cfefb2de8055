// The pooling rows. Reference: MaxPool (with the Indices output),
// AveragePool, LpPool and the Global pools, instances of the one
// sliding-window kernel (window_kernel.h). Fast paths kept here: MaxPool on
// uint8 and int8 (what fuse_qdq_into_qlinear leaves between QLinearConvs;
// oneDNN's 8-bit pooling is slow on plain NCHW): separable, the max over the
// window's rows first (contiguous, vectorized), then along each row; and the
// float32 GlobalAveragePool, summing each plane in 8 lanes. The float32
// MaxPool row, cpu.MaxPool, runs pool_max_float.cpp's kernel; com.microsoft
// NhwcMaxPool (8-bit, channels last) pool_max_nhwc8.cpp's.
#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "core/exec/cpu/families.h"
#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/cpu/pool_max_float.h"
#include "core/exec/cpu/pool_max_nhwc8.h"
#include "core/exec/cpu/pool_ref.h"
#include "core/exec/cpu/window3.h"
#include "core/exec/cpu/window_kernel.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

constexpr TypeSet kMaxPoolTypes =
    types::kFloats | TypeSet{ir::DataType::kInt8, ir::DataType::kUInt8};

// The sum of p[0, n) in 8 lanes (two vectors of 4, added pairwise at the end),
// so a plane's sum is not one long chain of dependent adds.
float sumFloats(const float* p, int64_t n) {
  using F4 = float __attribute__((vector_size(16)));
  F4 a{}, b{};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    F4 u, v;
    std::memcpy(&u, p + i, sizeof u);
    std::memcpy(&v, p + i + 4, sizeof v);
    a += u;
    b += v;
  }
  a += b;
  float sum = (a[0] + a[2]) + (a[1] + a[3]);
  for (; i < n; ++i) sum += p[i];
  return sum;
}

// GlobalAveragePool on float32: one mean per (batch, channel) plane.
class GlobalAverageFloat final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2) return invalidArgument("input must have rank 2 or more, got " + x.describe());
    if (x.dtype() != ir::DataType::kFloat)
      return unsupported("GlobalAveragePool of " + x.describe());
    Dims out(x.rank(), 1);
    out[0] = x.dim(0);
    out[1] = x.dim(1);
    const int64_t planes = x.dim(0) * x.dim(1);
    const int64_t size = planes == 0 ? 0 : x.numel() / planes;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), out));
    const float* X = x.data<float>();
    float* Y = y->mutableData<float>();
    parallelFor(planes, ctx.threads(), std::max<int64_t>(1, 16384 / (size + 1)),
                [&](int64_t b0, int64_t e0) {
                  for (int64_t pl = b0; pl < e0; ++pl)
                    Y[pl] =
                        size > 0 ? sumFloats(X + pl * size, size) / static_cast<float>(size) : 0.0f;
                });
    return Status::ok();
  }
};

// MaxPool on 8-bit tensors without dilation or the Indices output (others go
// to the reference kernel). Exact: the same max as the reference kernel.
class MaxPool8 final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto a = parsePoolAttrs(b.node());
    if (!a) return a.error();
    auto fallback = makeWindowKernel(b, WindowOp::kMaxPool);
    if (!fallback) return fallback.error();
    return std::unique_ptr<Kernel>(new MaxPool8(*a, std::move(fallback).value()));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (ctx.wantsOutput(1)) return fallback_->run(ctx);
    PASSLAB_ASSIGN_OR_RETURN(PoolGeometry g, poolGeometry(attrs_, x.dims()));
    if (g.spatial() > 3) return fallback_->run(ctx);
    for (int64_t d : g.dilation)
      if (d != 1) return fallback_->run(ctx);
    constexpr TypeSet kTypes{ir::DataType::kInt8, ir::DataType::kUInt8};
    return dispatch<kTypes>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), g.outDims));
      const Window3 q(g);
      const S* X = x.data<S>();
      S* Y = y->mutableData<S>();
      // The input positions [lo, hi) the window of output `o` covers on axis `a`.
      auto span = [&q](size_t a, int64_t o) {
        const int64_t start = o * q.s[a] - q.pb[a];
        return std::pair<int64_t, int64_t>{std::max<int64_t>(start, 0),
                                           std::min(start + q.k[a], q.in[a])};
      };
      // Windows along the last axis that lie inside the input start at [0, full).
      // Bounds are locals: stores through S* (a char type) may alias anything
      // else, which would stop the loops from vectorizing.
      const int64_t W = q.in[2], k2 = q.k[2], s2 = q.s[2], pb2 = q.pb[2], out2 = q.out[2];
      const int64_t full = W - k2 + 1;
      parallelFor(
          g.N * g.C, ctx.threads(), 1, [&, W, k2, s2, pb2, out2, full](int64_t b0, int64_t e0) {
            std::vector<S> rows(static_cast<size_t>(W));
            std::vector<S> wins(static_cast<size_t>(std::max<int64_t>(full, 0)));
            S* __restrict r = rows.data();
            S* __restrict h = wins.data();
            constexpr S kLowest = std::numeric_limits<S>::lowest();
            for (int64_t plane = b0; plane < e0; ++plane) {
              const S* xp = X + plane * q.inSize();
              S* yp = Y + plane * q.outSize();
              for (int64_t o0 = 0; o0 < q.out[0]; ++o0) {
                const auto [lo0, hi0] = span(0, o0);
                for (int64_t o1 = 0; o1 < q.out[1]; ++o1) {
                  const auto [lo1, hi1] = span(1, o1);
                  // r: the max over the window's rows, column by column.
                  for (int64_t c = 0; c < W; ++c) r[c] = kLowest;
                  for (int64_t i0 = lo0; i0 < hi0; ++i0)
                    for (int64_t i1 = lo1; i1 < hi1; ++i1) {
                      const S* __restrict src = xp + (i0 * q.in[1] + i1) * W;
                      for (int64_t c = 0; c < W; ++c) r[c] = std::max(r[c], src[c]);
                    }
                  // h[c]: the max of r over the inside window starting at c.
                  for (int64_t c = 0; c < full; ++c) h[c] = r[c];
                  for (int64_t j = 1; j < k2; ++j)
                    for (int64_t c = 0; c < full; ++c) h[c] = std::max(h[c], r[c + j]);
                  S* __restrict out = yp + (o0 * q.out[1] + o1) * out2;
                  for (int64_t o2 = 0; o2 < out2; ++o2) {
                    const int64_t start = o2 * s2 - pb2;
                    if (start >= 0 && start < full) {
                      out[o2] = h[start];
                      continue;
                    }
                    S best = kLowest;
                    for (int64_t c = std::max<int64_t>(start, 0); c < std::min(start + k2, W); ++c)
                      best = std::max(best, r[c]);
                    out[o2] = best;
                  }
                }
              }
            }
          });
      return Status::ok();
    });
  }

 private:
  MaxPool8(PoolAttrs a, std::unique_ptr<Kernel> fallback)
      : attrs_(std::move(a)), fallback_(std::move(fallback)) {}
  PoolAttrs attrs_;
  std::unique_ptr<Kernel> fallback_;
};

const KernelDef kRows[] = {
    {"", "MaxPool", 1, kOpsetMax, kMaxPoolTypes, 0, Tier::kReference, "cpu.ref.MaxPool",
     makeWindowKernelOf<WindowOp::kMaxPool>},
    {"", "MaxPool", 12, kOpsetMax, TypeSet{ir::DataType::kInt8, ir::DataType::kUInt8}, 0,
     Tier::kOptimized, "cpu.MaxPool8", makeKernel<MaxPool8>},
    {"", "MaxPool", 1, kOpsetMax, types::kFloat32, 0, Tier::kOptimized, "cpu.MaxPool",
     makeMaxPoolFloat},
    {"com.microsoft", "NhwcMaxPool", 1, kOpsetMax,
     TypeSet{ir::DataType::kInt8, ir::DataType::kUInt8}, 0, Tier::kReference, "cpu.ms.NhwcMaxPool",
     makeNhwcMaxPool},
    {"", "AveragePool", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.ref.AveragePool",
     makeWindowKernelOf<WindowOp::kAveragePool>},
    {"", "LpPool", 2, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.ref.LpPool",
     makeWindowKernelOf<WindowOp::kLpPool>},
    {"", "GlobalAveragePool", 1, kOpsetMax, types::kFloat32, 0, Tier::kOptimized,
     "cpu.GlobalAveragePool", makeKernel<GlobalAverageFloat>},
    {"", "GlobalAveragePool", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.ref.GlobalAveragePool", makeWindowKernelOf<WindowOp::kGlobalAveragePool>},
    {"", "GlobalMaxPool", 1, kOpsetMax, kMaxPoolTypes, 0, Tier::kReference, "cpu.ref.GlobalMaxPool",
     makeWindowKernelOf<WindowOp::kGlobalMaxPool>},
    {"", "GlobalLpPool", 2, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.ref.GlobalLpPool",
     makeWindowKernelOf<WindowOp::kGlobalLpPool>},
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeMaxPoolRef(const KernelBuild& b) {
  return makeWindowKernel(b, WindowOp::kMaxPool);
}
Expected<std::unique_ptr<Kernel>> makeAveragePoolRef(const KernelBuild& b) {
  return makeWindowKernel(b, WindowOp::kAveragePool);
}

std::span<const KernelDef> poolRefKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
