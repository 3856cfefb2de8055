// AveragePool on oneDNN's pooling primitive (float32, NCHW in and out) where
// oneDNN has a JIT kernel for it and the separable kernel is not faster
// (separableIsFaster); elsewhere (machines without AVX-512, where
// it takes the scalar simple_nchw, 4-8x slower; padding that ceil_mode adds
// when counting padding) on the separable kernel, pool_max_float.h. (float32
// MaxPool runs on cpu.MaxPool: oneDNN 2.6's plain-NCHW max pooling is 2.5x
// slower on AVX-512 and 30x slower without it.)
#include <memory>
#include <string>

#include "core/exec/cpu/families.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/cpu/pool_max_float.h"
#include "core/exec/cpu/pool_ref.h"
#include "core/exec/kernel.h"

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
