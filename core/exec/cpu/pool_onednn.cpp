// AveragePool on oneDNN's pooling primitive (float32, NCHW in and out) where
// oneDNN has a JIT kernel for it and the separable kernel is not faster
// (separableIsFaster); elsewhere (machines without AVX-512, where
// it takes the scalar simple_nchw, 4-8x slower; padding that ceil_mode adds
// when counting padding) on the separable kernel, pool_max_float.h. (float32
// MaxPool runs on cpu.MaxPool: oneDNN 2.6's plain-NCHW max pooling is 2.5x
// slower on AVX-512 and 30x slower without it.)
// Without AVX-512, on rows of fewer than 16 outputs (shufflenet's 3x3/2 on
// 136 x 28 x 28 and 272 x 14 x 14) the separable kernel's 8-lane rows are
// mostly tails: there X is reordered to nChw8c, pooled by the blocked kernel
// (blocked_pool_float.h, each tap a vector of 8 channels) and reordered back,
// 1.3-2.6x faster with both reorders (docs/exec-benchmark.md, session 33).
#include <memory>
#include <string>

#include "core/exec/cpu/blocked_pool_float.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/cpu/pool_max_float.h"
#include "core/exec/cpu/pool_ref.h"
#include "core/exec/kernel.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

using dnnl::memory;

class OneDnnAveragePool final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto a = parsePoolAttrs(b.node());
    if (!a) return a.error();
    auto fallback = makeAveragePoolRef(b);
    if (!fallback) return fallback.error();
    return std::unique_ptr<Kernel>(new OneDnnAveragePool(*a, std::move(fallback).value()));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.dtype() != ir::DataType::kFloat) return fallback_->run(ctx);
    PASSLAB_ASSIGN_OR_RETURN(PoolGeometry g, poolGeometry(attrs_, x.dims()));
    if (g.spatial() > 3 || x.numel() == 0) return fallback_->run(ctx);
    if (x.dims() != xDims_ || threads_ != ctx.threads()) build(g, x.dims(), ctx.threads());
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, g.outDims));
    if (blockedIsFaster(g) && !blocked_.failed) return runBlocked(ctx, g, x, *y);
    if (!jit_ || separableIsFaster(g)) {
      averagePoolFloat(g, attrs_.window.countIncludePad, x.data<float>(), y->mutableData<float>(),
                       ctx.threads());
      return Status::ok();
    }
    dnnl::stream& s = onednn::stream();
    prim_.execute(
        s, {{DNNL_ARG_SRC, onednn::over(srcDesc_, x)}, {DNNL_ARG_DST, onednn::over(dstDesc_, *y)}});
    s.wait();
    return Status::ok();
  }

 private:
  // Channel block of the blocked path.
  static constexpr int64_t kBlock = 8;

  // Without AVX-512 (PASSLAB_MAX_ISA caps it), 2-D, channels whole blocks of
  // 8, strides up to 2 and 2-15 outputs a row. Measured (AMD EPYC Zen 3, 1
  // thread, latency minima of a model reorder + BlockedPool + reorder / of
  // the pool alone on the separable kernel (this path in the kernel: 0.045
  // and 0.026 for the first two), ms: 3x3/2 pad 1 on 136 x 28 x 28 0.047 / 0.080, 272 x 14 x 14
  // 0.028 / 0.070, 136 x 14 x 14 0.016 / 0.036, 48 x 28 x 28 0.020 / 0.029,
  // 256 x 28 x 28 0.083 / 0.148, 544 x 14 x 14 0.053 / 0.139; 3x3/1 pad 1 on
  // 14 x 14 with 64, 256, 480 channels 0.015 / 0.018, 0.049 / 0.070, 0.087 /
  // 0.128. Rows of 28 outputs: even or lost (3x3/2 on 64 x 56 x 56 0.079 /
  // 0.076, 24 x 56 x 56 0.034 / 0.029; 3x3/1 on 192 x 28 x 28 0.13 either way).
  static bool blockedIsFaster(const PoolGeometry& g) {
    if (cpu_isa::hasAvx512f() || g.spatial() != 2 || g.C % kBlock != 0) return false;
    return g.stride.back() <= 2 && g.out.back() >= 2 && g.out.back() < 16;
  }

  // X reordered to nChw8c, the blocked kernel, Y reordered back (oneDNN's
  // reorders, built once per shape; scratch for both blocked tensors).
  Status runBlocked(KernelContext& ctx, const PoolGeometry& g, const Tensor& x, Tensor& y) {
    if (blocked_.xDims != x.dims()) {
      blocked_ = {};
      blocked_.xDims = x.dims();
      try {
        auto f32 = memory::data_type::f32;
        blocked_.xPlain = onednn::plainDesc(x.dims());
        blocked_.yPlain = onednn::plainDesc(g.outDims);
        blocked_.xBlocked = memory::desc(onednn::toDims(x.dims()), f32, memory::format_tag::nChw8c);
        blocked_.yBlocked =
            memory::desc(onednn::toDims(g.outDims), f32, memory::format_tag::nChw8c);
        auto& eng = onednn::engine();
        blocked_.toBlocked = dnnl::reorder(
            dnnl::reorder::primitive_desc(eng, blocked_.xPlain, eng, blocked_.xBlocked));
        blocked_.fromBlocked = dnnl::reorder(
            dnnl::reorder::primitive_desc(eng, blocked_.yBlocked, eng, blocked_.yPlain));
      } catch (const dnnl::error&) {
        blocked_.failed = true;
      }
    }
    if (blocked_.failed) {
      averagePoolFloat(g, attrs_.window.countIncludePad, x.data<float>(), y.mutableData<float>(),
                       ctx.threads());
      return Status::ok();
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor xb, ctx.scratch(ir::DataType::kFloat, {x.numel()}));
    PASSLAB_ASSIGN_OR_RETURN(Tensor yb, ctx.scratch(ir::DataType::kFloat, {y.numel()}));
    dnnl::stream& s = onednn::stream();
    blocked_.toBlocked.execute(s, {{DNNL_ARG_FROM, onednn::over(blocked_.xPlain, x)},
                                   {DNNL_ARG_TO, onednn::over(blocked_.xBlocked, xb)}});
    s.wait();
    blockedAveragePool(g, attrs_.window.countIncludePad, kBlock, xb.data<float>(),
                       yb.mutableData<float>(), ctx.threads());
    blocked_.fromBlocked.execute(s, {{DNNL_ARG_FROM, onednn::over(blocked_.yBlocked, yb)},
                                     {DNNL_ARG_TO, onednn::over(blocked_.yPlain, y)}});
    s.wait();
    return Status::ok();
  }

  struct BlockedPlan {
    Dims xDims;
    bool failed = false;
    memory::desc xPlain, yPlain, xBlocked, yBlocked;
    dnnl::reorder toBlocked, fromBlocked;
  };
  BlockedPlan blocked_;

  // The separable kernel's passes along the row are vectorized for strides 1
  // and 2; there it beats oneDNN's plain-NCHW JIT kernel on AVX-512 too
  // (inception_v2's seven 3x3/1 AveragePools, 1 thread: 1.79 vs 2.34 ms) unless
  // one window covers the row (resnet50's 7x7 on 2048x7x7: 0.106 vs 0.078 ms).
  static bool separableIsFaster(const PoolGeometry& g) {
    return g.stride.back() <= 2 && g.out.back() > 1;
  }

  OneDnnAveragePool(PoolAttrs a, std::unique_ptr<Kernel> fallback)
      : attrs_(std::move(a)), fallback_(std::move(fallback)) {}

  void build(const PoolGeometry& g, const Dims& x, int threads) {
    xDims_ = x;
    threads_ = threads;
    jit_ = false;
    memory::dims strides(g.stride.begin(), g.stride.end()),
        kernel(g.kernel.begin(), g.kernel.end());
    memory::dims dil, padL(g.padBegin.begin(), g.padBegin.end()), padR;
    for (size_t i = 0; i < g.spatial(); ++i) {
      dil.push_back(g.dilation[i] - 1);
      // oneDNN derives the output size from the right pad (ceil_mode may need more).
      int64_t span = (g.kernel[i] - 1) * g.dilation[i] + 1;
      int64_t r = (g.out[i] - 1) * g.stride[i] + span - g.in[i] - g.padBegin[i];
      // Averages that count padding must not count padding ceil_mode added.
      if (attrs_.window.countIncludePad && r != g.padEnd[i]) return;
      if (r < 0) return;
      padR.push_back(r);
    }
    auto alg = attrs_.window.countIncludePad ? dnnl::algorithm::pooling_avg_include_padding
                                             : dnnl::algorithm::pooling_avg_exclude_padding;
    try {
      srcDesc_ = onednn::plainDesc(x);
      dstDesc_ = onednn::plainDesc(g.outDims);
      auto d = dnnl::pooling_v2_forward::desc(dnnl::prop_kind::forward_inference, alg, srcDesc_,
                                              dstDesc_, strides, kernel, dil, padL, padR);
      auto pd = dnnl::pooling_v2_forward::primitive_desc(d, onednn::engine());
      prim_ = dnnl::pooling_v2_forward(pd);
      jit_ = std::string(pd.impl_info_str()).rfind("jit", 0) == 0;
    } catch (const dnnl::error&) {
      jit_ = false;
    }
  }

  PoolAttrs attrs_;
  std::unique_ptr<Kernel> fallback_;
  Dims xDims_;
  int threads_ = 0;
  bool jit_ = false;  // oneDNN built a JIT kernel (not simple_nchw or ref) for xDims_
  memory::desc srcDesc_, dstDesc_;
  dnnl::primitive prim_;
};

const KernelDef kRows[] = {
    {"", "AveragePool", 1, kOpsetMax, types::kFloat32, 0, Tier::kOptimized, "onednn.AveragePool",
     makeKernel<OneDnnAveragePool>},
};

}  // namespace

std::span<const KernelDef> poolOneDnnKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
