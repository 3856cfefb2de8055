// Clip (bounds from attributes before opset 11, from inputs after) and
// ImageScaler (y = scale * x + bias[channel], an early experimental op).
#include <limits>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

class Clip final : public Kernel {
 public:
  explicit Clip(const KernelBuild& b)
      : legacy_(b.opset() < 11),
        min_(b.node().attrFloat("min", std::numeric_limits<float>::lowest())),
        max_(b.node().attrFloat("max", std::numeric_limits<float>::max())) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    for (size_t i : {size_t{1}, size_t{2}})
      if (!legacy_ && ctx.has(i) &&
          (ctx.input(i).dtype() != x.dtype() || ctx.input(i).numel() != 1))
        return invalidArgument("min and max must be scalars of the input's type");
    return dispatch<types::kNumeric>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      C lo = std::numeric_limits<C>::lowest(), hi = std::numeric_limits<C>::max();
      if (legacy_) {
        lo = static_cast<C>(std::max<double>(min_, static_cast<double>(lo)));
        hi = static_cast<C>(std::min<double>(max_, static_cast<double>(hi)));
      } else {
        if (ctx.has(1)) lo = load(ctx.input(1).data<S>()[0]);
        if (ctx.has(2)) hi = load(ctx.input(2).data<S>()[0]);
      }
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      parallelFor(x.numel(), ctx.threads(), kElementwiseGrain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          C v = load(in[i]);
          v = v < lo ? lo : v;
          v = v > hi ? hi : v;
          out[i] = store<S>(v);
        }
      });
      return Status::ok();
    });
  }

 private:
  bool legacy_;
  float min_, max_;
};

class ImageScaler final : public Kernel {
 public:
  explicit ImageScaler(const KernelBuild& b)
      : scale_(b.node().attrFloat("scale", 1.0f)), bias_(b.node().attrFloats("bias")) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 4) return invalidArgument("input must be 4-D, got " + x.describe());
    const int64_t C = x.dim(1);
    if (!bias_.empty() && static_cast<int64_t>(bias_.size()) != C)
      return invalidArgument("bias has " + std::to_string(bias_.size()) + " values for " +
                             std::to_string(C) + " channels");
    const int64_t inner = x.dim(2) * x.dim(3);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using Cmp = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      parallelFor(x.dim(0) * C, ctx.threads(), 1, [&](int64_t b, int64_t e) {
        for (int64_t nc = b; nc < e; ++nc) {
          Cmp bias = bias_.empty() ? Cmp(0) : static_cast<Cmp>(bias_[static_cast<size_t>(nc % C)]);
          for (int64_t i = nc * inner; i < (nc + 1) * inner; ++i)
            out[i] = store<S>(static_cast<Cmp>(scale_) * load(in[i]) + bias);
        }
      });
      return Status::ok();
    });
  }

 private:
  float scale_;
  std::vector<float> bias_;
};

// Clip reads min and max before it allocates Y and then writes element i after
// reading element i of X: it may run in place (kInPlace).
const KernelDef kRows[] = {
    {"", "Clip", 6, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.Clip", makeKernel<Clip>,
     kInPlace},
    {"", "ImageScaler", 1, 9, types::kFloats, 0, Tier::kReference, "cpu.ImageScaler",
     makeKernel<ImageScaler>},
};

}  // namespace

std::span<const KernelDef> clipKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
