// Operators that only change how data is seen: Reshape, Flatten, Unsqueeze,
// Squeeze, Identity, Dropout (inference) give views of their input (no copy);
// Shape and Size read the dims.
#include <algorithm>
#include <optional>
#include <random>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/shape_rules.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

Expected<Tensor*> int64Output(KernelContext& ctx, Dims dims) {
  return ctx.allocate(0, ir::DataType::kInt64, std::move(dims));
}

class Reshape final : public Kernel {
 public:
  explicit Reshape(const KernelBuild& b) : allowZero_(b.node().attrInt("allowzero", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> shape, readInts(ctx.input(1), "shape"));
    PASSLAB_ASSIGN_OR_RETURN(
        Dims out, reshapeDims(x.dims(), shape, allowZero_, [&] { return x.describe(); }));
    ctx.setOutput(0, x.view(std::move(out)));
    return Status::ok();
  }

 private:
  bool allowZero_;
};

class Flatten final : public Kernel {
 public:
  explicit Flatten(const KernelBuild& b) : axis_(b.node().attrInt("axis", 1)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(Dims out, flattenDims(x.dims(), axis_, [&] { return x.describe(); }));
    ctx.setOutput(0, x.view(std::move(out)));
    return Status::ok();
  }

 private:
  int64_t axis_;
};

// Axes from the attribute (before opset 13) or the second input.
Expected<std::vector<int64_t>> axesOf(KernelContext& ctx, const std::vector<int64_t>& attr,
                                      bool fromInput) {
  if (!fromInput) return attr;
  if (!ctx.has(1)) return std::vector<int64_t>{};
  return readInts(ctx.input(1), "axes");
}

class Unsqueeze final : public Kernel {
 public:
  explicit Unsqueeze(const KernelBuild& b)
      : attrAxes_(b.node().attrInts("axes")), fromInput_(b.opset() >= 13) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axesOf(ctx, attrAxes_, fromInput_));
    PASSLAB_ASSIGN_OR_RETURN(Dims out, unsqueezeDims(x.dims(), axes));
    ctx.setOutput(0, x.view(std::move(out)));
    return Status::ok();
  }

 private:
  std::vector<int64_t> attrAxes_;
  bool fromInput_;
};

class Squeeze final : public Kernel {
 public:
  explicit Squeeze(const KernelBuild& b)
      : attrAxes_(b.node().attrInts("axes")), fromInput_(b.opset() >= 13) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axesOf(ctx, attrAxes_, fromInput_));
    PASSLAB_ASSIGN_OR_RETURN(Dims out, squeezeDims(x.dims(), axes, [&] { return x.describe(); }));
    ctx.setOutput(0, x.view(std::move(out)));
    return Status::ok();
  }

 private:
  std::vector<int64_t> attrAxes_;
  bool fromInput_;
};

class Shape final : public Kernel {
 public:
  explicit Shape(const KernelBuild& b)
      : start_(b.node().attrInt("start", 0)), end_(b.node().attrInt("end", INT64_MAX)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    auto rank = static_cast<int64_t>(x.rank());
    auto clampAxis = [&](int64_t a) {
      if (a < 0) a += rank;
      return std::clamp<int64_t>(a, 0, rank);
    };
    int64_t s = clampAxis(start_), e = clampAxis(end_);
    int64_t n = std::max<int64_t>(0, e - s);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, int64Output(ctx, {n}));
    for (int64_t i = 0; i < n; ++i)
      y->mutableData<int64_t>()[i] = x.dim(static_cast<size_t>(s + i));
    return Status::ok();
  }

 private:
  int64_t start_, end_;
};

class Size final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, int64Output(ctx, {}));
    y->mutableData<int64_t>()[0] = ctx.input(0).numel();
    return Status::ok();
  }
};

// Identity passes any value through (tensors, sequences, optionals).
class Identity final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Value* v = ctx.value(0);
    ctx.setOutput(0, v ? *v : Value());
    return Status::ok();
  }
};

// Dropout at inference: y = x; the mask, when asked for, is all true. With
// training_mode (opset 12+) and a ratio r > 0, an element is kept when a
// uniform draw in [0, 1) is >= r and scaled by 1 / (1 - r). The draws are
// NumPy's legacy generator (MT19937 seeded by init_genrand, 53-bit doubles),
// so a `seed` attribute gives the mask numpy.random.RandomState(seed) gives.
class Dropout final : public Kernel {
 public:
  explicit Dropout(const KernelBuild& b)
      : opset_(b.opset()),
        seed_(b.node().hasAttr("seed") ? std::optional<int64_t>(b.node().attrInt("seed", 0))
                                       : std::nullopt) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (opset_ >= 12 && ctx.has(2)) {
      const Tensor& training = ctx.input(2);
      if (training.dtype() != ir::DataType::kBool || training.numel() != 1)
        return invalidArgument("training_mode must be a bool scalar, got " + training.describe());
      double ratio = 0.5;
      if (ctx.has(1)) {
        const Tensor& r = ctx.input(1);
        if (r.numel() != 1 || !types::kFloats.contains(r.dtype()))
          return invalidArgument("ratio must be a float scalar, got " + r.describe());
        ratio = r.toIr().valueAsDouble(0);
      }
      if (training.data<bool>()[0] && ratio != 0) return runTraining(ctx, ratio);
    }
    ctx.setOutput(0, x);
    if (ctx.wantsOutput(1)) {
      // Before opset 10 the mask had the input's type.
      ir::DataType maskType = opset_ >= 10 ? ir::DataType::kBool : x.dtype();
      PASSLAB_ASSIGN_OR_RETURN(Tensor * mask, ctx.allocate(1, maskType, x.dims()));
      if (maskType == ir::DataType::kBool) {
        std::fill(mask->mutableData<bool>(), mask->mutableData<bool>() + mask->numel(), true);
      } else {
        std::memset(mask->mutableRaw(), 0, mask->byteSize());
      }
    }
    return Status::ok();
  }

 private:
  Status runTraining(KernelContext& ctx, double ratio) {
    const Tensor& x = ctx.input(0);
    if (ratio < 0 || ratio >= 1) return invalidArgument("ratio must be in [0, 1)");
    std::mt19937 gen(static_cast<uint32_t>(seed_ ? *seed_ : std::random_device{}()));
    auto uniform = [&] {  // numpy's random_sample
      uint32_t a = gen() >> 5, b = gen() >> 6;
      return (a * 67108864.0 + b) / 9007199254740992.0;
    };
    const int64_t n = x.numel();
    std::vector<bool> keep(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) keep[static_cast<size_t>(i)] = uniform() >= ratio;
    const double scale = 1.0 / (1.0 - ratio);
    Status st = dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      for (int64_t i = 0; i < n; ++i)
        out[i] = store<S>(static_cast<ComputeT<S>>(
            keep[static_cast<size_t>(i)] ? static_cast<double>(load(in[i])) * scale : 0.0));
      return Status::ok();
    });
    if (!st) return st;
    if (ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor * mask, ctx.allocate(1, ir::DataType::kBool, x.dims()));
      for (int64_t i = 0; i < n; ++i) mask->mutableData<bool>()[i] = keep[static_cast<size_t>(i)];
    }
    return Status::ok();
  }

  int64_t opset_;
  std::optional<int64_t> seed_;
};

const KernelDef kRows[] = {
    {"", "Reshape", 5, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Reshape",
     makeKernel<Reshape>},
    {"", "Flatten", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Flatten",
     makeKernel<Flatten>},
    {"", "Unsqueeze", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Unsqueeze",
     makeKernel<Unsqueeze>},
    {"", "Squeeze", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Squeeze",
     makeKernel<Squeeze>},
    {"", "Shape", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Shape", makeKernel<Shape>},
    {"", "Size", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Size", makeKernel<Size>},
    {"", "Identity", 1, kOpsetMax, types::kAll, kAnyType, Tier::kReference, "cpu.Identity",
     makeKernel<Identity>, kValueInputs},
    {"", "Dropout", 1, kOpsetMax, types::kAll, 0, Tier::kReference, "cpu.Dropout",
     makeKernel<Dropout>},
};

}  // namespace

std::span<const KernelDef> shapeKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
