// Reshape, Flatten, Squeeze and Unsqueeze on the GPU: views of the input
// (no copy), the dims by core/exec/cpu/shape_rules.h as on the CPU; rows in
// data_movement.cpp.
#include <string>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/shape_rules.h"
#include "core/exec/cuda/data_movement_kernels.h"

namespace passlab::exec::cuda {

namespace {

class Reshape final : public CudaKernel {
 public:
  explicit Reshape(const CudaBuild& b) : allowZero_(b.node().attrInt("allowzero", 0) != 0) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> shape, hostInts(ctx, 1, "shape"));
    PASSLAB_ASSIGN_OR_RETURN(
        Dims out, cpu::reshapeDims(x.dims(), shape, allowZero_, [&] { return x.describe(); }));
    ctx.setOutput(0, x.view(std::move(out)));
    return Status::ok();
  }

 private:
  bool allowZero_;
};

class Flatten final : public CudaKernel {
 public:
  explicit Flatten(const CudaBuild& b) : axis_(b.node().attrInt("axis", 1)) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(Dims out,
                             cpu::flattenDims(x.dims(), axis_, [&] { return x.describe(); }));
    ctx.setOutput(0, x.view(std::move(out)));
    return Status::ok();
  }

 private:
  int64_t axis_;
};

// Axes from the attribute (before opset 13) or the second input.
Expected<std::vector<int64_t>> axesOf(CudaContext& ctx, const std::vector<int64_t>& attr,
                                      bool fromInput) {
  if (!fromInput) return attr;
  if (!ctx.has(1)) return std::vector<int64_t>{};
  return hostInts(ctx, 1, "axes");
}

class Unsqueeze final : public CudaKernel {
 public:
  explicit Unsqueeze(const CudaBuild& b)
      : attrAxes_(b.node().attrInts("axes")), fromInput_(b.opset() >= 13) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axesOf(ctx, attrAxes_, fromInput_));
    PASSLAB_ASSIGN_OR_RETURN(Dims out, cpu::unsqueezeDims(x.dims(), axes));
    ctx.setOutput(0, x.view(std::move(out)));
    return Status::ok();
  }

 private:
  std::vector<int64_t> attrAxes_;
  bool fromInput_;
};

class Squeeze final : public CudaKernel {
 public:
  explicit Squeeze(const CudaBuild& b)
      : attrAxes_(b.node().attrInts("axes")), fromInput_(b.opset() >= 13) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axesOf(ctx, attrAxes_, fromInput_));
    PASSLAB_ASSIGN_OR_RETURN(Dims out,
                             cpu::squeezeDims(x.dims(), axes, [&] { return x.describe(); }));
    ctx.setOutput(0, x.view(std::move(out)));
    return Status::ok();
  }

 private:
  std::vector<int64_t> attrAxes_;
  bool fromInput_;
};

}  // namespace

Expected<std::unique_ptr<CudaKernel>> makeReshapeKernel(const CudaBuild& b) {
  return makeCudaKernel<Reshape>(b);
}
Expected<std::unique_ptr<CudaKernel>> makeFlattenKernel(const CudaBuild& b) {
  return makeCudaKernel<Flatten>(b);
}
Expected<std::unique_ptr<CudaKernel>> makeUnsqueezeKernel(const CudaBuild& b) {
  return makeCudaKernel<Unsqueeze>(b);
}
Expected<std::unique_ptr<CudaKernel>> makeSqueezeKernel(const CudaBuild& b) {
  return makeCudaKernel<Squeeze>(b);
}

}  // namespace passlab::exec::cuda
