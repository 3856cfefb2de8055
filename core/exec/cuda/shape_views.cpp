// Reshape, Flatten, Squeeze and Unsqueeze on the GPU: views of the input
// (no copy), as core/exec/cpu/shape_ops.cpp; rows in data_movement.cpp.
#include <string>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cuda/data_movement_kernels.h"

namespace passlab::exec::cuda {

namespace {

class Reshape final : public CudaKernel {
 public:
  explicit Reshape(const CudaBuild& b) : allowZero_(b.node().attrInt("allowzero", 0) != 0) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> shape, hostInts(ctx, 1, "shape"));
    Dims out(shape.begin(), shape.end());
    int64_t inferred = -1, known = 1;
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i] == 0 && !allowZero_) {
        if (i >= x.rank())
          return invalidArgument("shape " + dimsToString(shape) + " copies dimension " +
                                 std::to_string(i) + " of " + x.describe() + ", which has none");
        out[i] = x.dim(i);
      }
      if (out[i] == -1) {
        if (inferred >= 0) return invalidArgument("shape " + dimsToString(shape) + " has two -1");
        inferred = static_cast<int64_t>(i);
        continue;
      }
      if (out[i] < 0)
        return invalidArgument("shape " + dimsToString(shape) + " has a negative dim");
      known *= out[i];
    }
    if (inferred >= 0) {
      if (known == 0 || x.numel() % known != 0)
        return invalidArgument("cannot reshape " + x.describe() + " to " + dimsToString(shape));
      out[static_cast<size_t>(inferred)] = x.numel() / known;
    }
    if (numelOf(out) != x.numel())
      return invalidArgument("cannot reshape " + x.describe() + " (" + std::to_string(x.numel()) +
                             " elements) to " + dimsToString(out));
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
    auto rank = static_cast<int64_t>(x.rank());
    int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    if (axis < 0 || axis > rank)
      return invalidArgument("axis " + std::to_string(axis_) + " is out of range for " +
                             x.describe());
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= x.dim(static_cast<size_t>(i));
    for (int64_t i = axis; i < rank; ++i) inner *= x.dim(static_cast<size_t>(i));
    ctx.setOutput(0, x.view({outer, inner}));
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
    auto rank = static_cast<int64_t>(x.rank() + axes.size());
    std::vector<bool> inserted(static_cast<size_t>(rank), false);
    for (int64_t a : axes) {
      PASSLAB_ASSIGN_OR_RETURN(int64_t n, cpu::normalizeAxis(a, rank));
      if (inserted[static_cast<size_t>(n)])
        return invalidArgument("axis " + std::to_string(a) + " is repeated");
      inserted[static_cast<size_t>(n)] = true;
    }
    Dims out;
    size_t src = 0;
    for (int64_t i = 0; i < rank; ++i)
      out.push_back(inserted[static_cast<size_t>(i)] ? 1 : x.dim(src++));
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
    auto rank = static_cast<int64_t>(x.rank());
    std::vector<bool> drop(x.rank(), false);
    if (axes.empty())
      for (size_t i = 0; i < x.rank(); ++i) drop[i] = x.dim(i) == 1;
    for (int64_t a : axes) {
      PASSLAB_ASSIGN_OR_RETURN(int64_t n, cpu::normalizeAxis(a, rank));
      if (x.dim(static_cast<size_t>(n)) != 1)
        return invalidArgument("cannot squeeze axis " + std::to_string(a) + " of " + x.describe() +
                               ": its size is not 1");
      drop[static_cast<size_t>(n)] = true;
    }
    Dims out;
    for (size_t i = 0; i < x.rank(); ++i)
      if (!drop[i]) out.push_back(x.dim(i));
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
