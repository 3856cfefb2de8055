// The pooling family on the GPU: MaxPool (without the Indices output),
// AveragePool, GlobalAveragePool, GlobalMaxPool, and BatchNormalization in
// inference mode. Direct kernels (pool.cu), not cuDNN: cuDNN's pooling has
// no ceil_mode and only symmetric pads, so one simple kernel per op computes
// exactly the CPU's windows (core/exec/cpu/window_kernel.cpp): the geometry
// comes from the CPU's poolGeometry (auto_pad, ceil_mode, dilations), the
// AveragePool divisor counts the taps inside the input, or inside the padded
// input with count_include_pad. float32, float16 and bfloat16, computed in
// float. Up to 3 spatial axes; more are declined.
#include <cmath>
#include <memory>
#include <string>

#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/cuda_families.h"
#include "core/exec/cuda/float_type.h"
#include "core/exec/cuda/pool_launch.h"
#include "core/exec/cuda/pool_plan.h"

namespace passlab::exec::cuda {

Expected<PoolWindow3> poolWindow3(const cpu::PoolGeometry& g) {
  const size_t r = g.spatial();
  if (r < 1 || r > 3)
    return unsupported("pooling over " + std::to_string(r) + " spatial axes (1 to 3 on the GPU)");
  PoolWindow3 w;
  for (size_t a = 0; a < 3; ++a) {
    w.in[a] = w.out[a] = w.kernel[a] = w.stride[a] = w.dilation[a] = 1;
    w.padBegin[a] = w.padEnd[a] = 0;
  }
  const size_t lead = 3 - r;
  for (size_t i = 0; i < r; ++i) {
    const size_t a = lead + i;
    w.in[a] = g.in[i];
    w.out[a] = g.out[i];
    w.kernel[a] = g.kernel[i];
    w.stride[a] = g.stride[i];
    w.dilation[a] = g.dilation[i];
    w.padBegin[a] = g.padBegin[i];
    w.padEnd[a] = g.padEnd[i];
  }
  return w;
}

namespace {

Expected<int> floatTypeOf(ir::DataType t, const char* what) {
  auto f = launchFloat(t);
  if (!f)
    return invalidArgument(std::string(what) + " of element type " + std::string(ir::dtypeName(t)));
  return static_cast<int>(*f);
}

// Whether the node asks for output i (present and named).
bool nodeWantsOutput(const ir::Node& n, size_t i) {
  return n.outputs().size() > i && n.outputs()[i] && !n.outputs()[i]->name().empty();
}

template <PoolMode Mode>
class PoolKernel final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    if (Mode == PoolMode::kMax && nodeWantsOutput(b.node(), 1))
      return unsupported("MaxPool's Indices output");
    auto a = cpu::parsePoolAttrs(b.node());
    if (!a) return a.error();
    if (a->window.kernel.size() > 3)
      return unsupported("pooling over " + std::to_string(a->window.kernel.size()) +
                         " spatial axes (1 to 3 on the GPU)");
    return std::unique_ptr<CudaKernel>(new PoolKernel(std::move(a).value()));
  }

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int ft, floatTypeOf(x.dtype(), "pooling"));
    PASSLAB_ASSIGN_OR_RETURN(cpu::PoolGeometry g, cpu::poolGeometry(attrs_, x.dims()));
    PASSLAB_ASSIGN_OR_RETURN(PoolWindow3 w, poolWindow3(g));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), g.outDims));
    PASSLAB_CUDA_TRY(launchPool(ft, Mode, attrs_.window.countIncludePad, x.raw(), y.mutableRaw(),
                                g.N * g.C, w, ctx.stream()));
    return Status::ok();
  }

 private:
  explicit PoolKernel(cpu::PoolAttrs a) : attrs_(std::move(a)) {}
  cpu::PoolAttrs attrs_;
};

template <PoolMode Mode>
class GlobalPoolKernel final : public CudaKernel {
 public:
  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    if (x.rank() < 2) return invalidArgument("input must have rank 2 or more, got " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(int ft, floatTypeOf(x.dtype(), "global pooling"));
    Dims out(x.rank(), 1);
    out[0] = x.dim(0);
    out[1] = x.dim(1);
    const int64_t planes = x.dim(0) * x.dim(1);
    const int64_t size = planes == 0 ? 0 : x.numel() / planes;
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), out));
    PASSLAB_CUDA_TRY(
        launchGlobalPool(ft, Mode, x.raw(), y.mutableRaw(), planes, size, ctx.stream()));
    return Status::ok();
  }
};

// BatchNormalization, inference: y = x * a[c] + b[c], the parameters folded
// on the host (downloaded when they live on the device) and uploaded; kept
// while all four are invariant.
class BatchNormKernel final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    if (b.opset() >= 14 && b.node().attrInt("training_mode", 0) != 0)
      return unsupported("BatchNormalization with training_mode 1");
    for (size_t i = 1; i < 3; ++i)
      if (nodeWantsOutput(b.node(), i)) return unsupported("BatchNormalization's running outputs");
    auto k = std::make_unique<BatchNormKernel>();
    k->epsilon_ = b.node().attrFloat("epsilon", 1e-5f);
    return std::unique_ptr<CudaKernel>(std::move(k));
  }

  Status run(CudaContext& ctx) override {
    for (size_t i = 1; i < 5; ++i)
      if (!ctx.has(i)) return invalidArgument("input " + std::to_string(i) + " is required");
    const Dims& xd = ctx.inputDims(0);
    if (xd.size() < 2)
      return invalidArgument("X must have rank 2 or more, got " + dimsToString(xd));
    const int64_t N = xd[0];
    const int64_t P = numelOf(ctx.inputDims(1));
    const int64_t numel = numelOf(xd);
    bool match = P > 0 && N > 0 && numel % (N * P) == 0;
    for (size_t i = 2; i < 5; ++i) match = match && numelOf(ctx.inputDims(i)) == P;
    if (!match) return invalidArgument("scale, B, mean and var do not match X " + dimsToString(xd));
    for (size_t i = 1; i < 5; ++i)
      if (!launchFloat(ctx.inputType(i)) && ctx.inputType(i) != ir::DataType::kDouble)
        return invalidArgument("parameters must be floating point");
    const bool invariant = ctx.invariantInput(1) && ctx.invariantInput(2) &&
                           ctx.invariantInput(3) && ctx.invariantInput(4);
    if (!(invariant && a_.defined() && a_.numel() == P)) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor scale, ctx.hostInput(1));
      PASSLAB_ASSIGN_OR_RETURN(Tensor bias, ctx.hostInput(2));
      PASSLAB_ASSIGN_OR_RETURN(Tensor mean, ctx.hostInput(3));
      PASSLAB_ASSIGN_OR_RETURN(Tensor var, ctx.hostInput(4));
      std::vector<float> a, b;
      foldBatchNorm(scale, bias, mean, var, epsilon_, a, b);
      // Pageable uploads: the host vectors may go once the copies are queued.
      PASSLAB_ASSIGN_OR_RETURN(
          a_, upload(Tensor::fromVector(ir::DataType::kFloat, {P}, a), ctx.stream()));
      PASSLAB_ASSIGN_OR_RETURN(
          b_, upload(Tensor::fromVector(ir::DataType::kFloat, {P}, b), ctx.stream()));
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int ft, floatTypeOf(x.dtype(), "BatchNormalization"));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), x.dims()));
    PASSLAB_CUDA_TRY(launchScaleShift(ft, x.raw(), y.mutableRaw(), N, P, numel / (N * P),
                                      a_.data<float>(), b_.data<float>(), ctx.stream()));
    if (!invariant) {
      a_ = DeviceTensor();
      b_ = DeviceTensor();
    }
    return Status::ok();
  }

  double epsilon_ = 1e-5;
  DeviceTensor a_, b_;  // folded per channel, float32
};

const CudaKernelDef kRows[] = {
    {"", "MaxPool", 1, kOpsetMax, kCudaFloats, 0, "cuda.MaxPool",
     makeCudaKernel<PoolKernel<PoolMode::kMax>>},
    {"", "AveragePool", 1, kOpsetMax, kCudaFloats, 0, "cuda.AveragePool",
     makeCudaKernel<PoolKernel<PoolMode::kAverage>>},
    {"", "GlobalAveragePool", 1, kOpsetMax, kCudaFloats, 0, "cuda.GlobalAveragePool",
     makeCudaKernel<GlobalPoolKernel<PoolMode::kAverage>>},
    {"", "GlobalMaxPool", 1, kOpsetMax, kCudaFloats, 0, "cuda.GlobalMaxPool",
     makeCudaKernel<GlobalPoolKernel<PoolMode::kMax>>},
    {"", "BatchNormalization", 7, kOpsetMax, kCudaFloats, 0, "cuda.BatchNormalization",
     makeCudaKernel<BatchNormKernel>},
};

}  // namespace

std::span<const CudaKernelDef> poolKernels() {
  return kRows;
}

}  // namespace passlab::exec::cuda
