// The Reduce* family on the GPU: ReduceSum, ReduceMean, ReduceMax, ReduceMin,
// ReduceProd, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp and
// ReduceSumSquare over any axes, for float32, float16 and bfloat16
// (accumulated in float; the CPU kernel accumulates in double). Axes come from
// the attribute before the opset that made them an input (13 for ReduceSum,
// 18 for the others), keepdims and noop_with_empty_axes as on the CPU.
// ArgMax and ArgMin (axis, keepdims, select_last_index; int64 indices) for the
// same float types. Integer types stay on the CPU (no row).
#include <string>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/cuda_families.h"
#include "core/exec/cuda/float_type.h"
#include "core/exec/cuda/norm_reduce_plan.h"
#include "core/exec/cuda/reduce_launch.h"

namespace passlab::exec::cuda {

namespace {

template <ReduceOp kOp>
class ReduceKernel final : public CudaKernel {
 public:
  explicit ReduceKernel(const CudaBuild& b)
      : axesFromInput_(b.opset() >= (kOp == ReduceOp::kSum ? 13 : 18)),
        attrAxes_(b.node().attrInts("axes")),
        keepDims_(b.node().attrInt("keepdims", 1) != 0),
        noop_(b.node().attrInt("noop_with_empty_axes", 0) != 0) {}

  Status run(CudaContext& ctx) override {
    std::vector<int64_t> axes = attrAxes_;
    if (axesFromInput_ && ctx.inputCount() > 1 && ctx.has(1)) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor a, ctx.hostInput(1));
      if (a.rank() > 1) return invalidArgument("axes must be 1-D, got " + a.describe());
      PASSLAB_ASSIGN_OR_RETURN(axes, cpu::readInts(a, "axes"));
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    auto ft = launchFloat(x.dtype());
    if (!ft) return invalidArgument("X " + x.describe() + " is not a float type");
    PASSLAB_ASSIGN_OR_RETURN(CudaReducePlan plan, planCudaReduce(x.dims(), axes, keepDims_, noop_));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), plan.outDims));
    PASSLAB_CUDA_TRY(launchReduce(static_cast<int>(*ft), kOp, x.raw(), y.mutableRaw(),
                                  plan.geometry, ctx.stream()));
    return Status::ok();
  }

 private:
  bool axesFromInput_;
  std::vector<int64_t> attrAxes_;
  bool keepDims_, noop_;
};

template <bool kMax>
class ArgMinMaxKernel final : public CudaKernel {
 public:
  explicit ArgMinMaxKernel(const CudaBuild& b)
      : axis_(b.node().attrInt("axis", 0)),
        keepDims_(b.node().attrInt("keepdims", 1) != 0),
        last_(b.node().attrInt("select_last_index", 0) != 0) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    auto ft = launchFloat(x.dtype());
    if (!ft) return invalidArgument("X " + x.describe() + " is not a float type");
    PASSLAB_ASSIGN_OR_RETURN(ArgRows r, argRows(x.dims(), axis_, keepDims_));
    if (r.len == 0) return invalidArgument("cannot reduce an empty axis of " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, ir::DataType::kInt64, r.outDims));
    PASSLAB_CUDA_TRY(launchArgMinMax(static_cast<int>(*ft), kMax, last_, x.raw(),
                                     y.mutableData<int64_t>(), r.outer, r.len, r.inner,
                                     ctx.stream()));
    return Status::ok();
  }

 private:
  int64_t axis_;
  bool keepDims_, last_;
};

const CudaKernelDef kRows[] = {
    {"", "ArgMax", 1, kOpsetMax, kCudaFloats, 0, "cuda.ArgMax",
     makeCudaKernel<ArgMinMaxKernel<true>>},
    {"", "ArgMin", 1, kOpsetMax, kCudaFloats, 0, "cuda.ArgMin",
     makeCudaKernel<ArgMinMaxKernel<false>>},
    {"", "ReduceSum", 1, kOpsetMax, kCudaFloats, 0, "cuda.ReduceSum",
     makeCudaKernel<ReduceKernel<ReduceOp::kSum>>},
    {"", "ReduceMean", 1, kOpsetMax, kCudaFloats, 0, "cuda.ReduceMean",
     makeCudaKernel<ReduceKernel<ReduceOp::kMean>>},
    {"", "ReduceMax", 1, kOpsetMax, kCudaFloats, 0, "cuda.ReduceMax",
     makeCudaKernel<ReduceKernel<ReduceOp::kMax>>},
    {"", "ReduceMin", 1, kOpsetMax, kCudaFloats, 0, "cuda.ReduceMin",
     makeCudaKernel<ReduceKernel<ReduceOp::kMin>>},
    {"", "ReduceProd", 1, kOpsetMax, kCudaFloats, 0, "cuda.ReduceProd",
     makeCudaKernel<ReduceKernel<ReduceOp::kProd>>},
    {"", "ReduceL1", 1, kOpsetMax, kCudaFloats, 0, "cuda.ReduceL1",
     makeCudaKernel<ReduceKernel<ReduceOp::kL1>>},
    {"", "ReduceL2", 1, kOpsetMax, kCudaFloats, 0, "cuda.ReduceL2",
     makeCudaKernel<ReduceKernel<ReduceOp::kL2>>},
    {"", "ReduceLogSum", 1, kOpsetMax, kCudaFloats, 0, "cuda.ReduceLogSum",
     makeCudaKernel<ReduceKernel<ReduceOp::kLogSum>>},
    {"", "ReduceLogSumExp", 1, kOpsetMax, kCudaFloats, 0, "cuda.ReduceLogSumExp",
     makeCudaKernel<ReduceKernel<ReduceOp::kLogSumExp>>},
    {"", "ReduceSumSquare", 1, kOpsetMax, kCudaFloats, 0, "cuda.ReduceSumSquare",
     makeCudaKernel<ReduceKernel<ReduceOp::kSumSquare>>},
};

}  // namespace

std::span<const CudaKernelDef> reduceKernels() {
  return kRows;
}

}  // namespace passlab::exec::cuda
