// GroupNormalization: the channels of X [N, C, ...] split into num_groups
// groups, each (sample, group) normalized to zero mean and unit variance, then
// y = x_hat * scale + bias per channel. Opset 18 gives scale and bias per
// group ([num_groups]); opset 21 per channel ([C]). Statistics in double;
// float32 groups through InstanceNormalization's vector plane statistics and
// affine rows (plane_moments.h: float lanes per block of 1024 elements, the
// blocks added in double): a scalar double sum per element made 32 groups of
// [1, 64, 112, 112] 1.5x onnxruntime (session 26).
#include <cmath>
#include <type_traits>
#include <vector>

#include "core/exec/cpu/families.h"
#include "core/exec/cpu/plane_moments.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

class GroupNorm final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    if (!b.node().hasAttr("num_groups")) return invalidArgument("num_groups is required");
    int64_t groups = b.node().attrInt("num_groups", 0);
    if (groups <= 0)
      return invalidArgument("num_groups must be positive, got " + std::to_string(groups));
    return std::unique_ptr<Kernel>(
        new GroupNorm(groups, b.node().attrFloat("epsilon", 1e-5f), b.opset() < 21));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& scale = ctx.input(1);
    const Tensor& bias = ctx.input(2);
    if (x.rank() < 2) return invalidArgument("X must be at least 2-D, got " + x.describe());
    const int64_t N = x.dim(0), C = x.dim(1);
    if (C % groups_ != 0)
      return invalidArgument(std::to_string(C) + " channels do not split into " +
                             std::to_string(groups_) + " groups");
    const int64_t paramLen = perGroup_ ? groups_ : C;
    for (const Tensor* t : {&scale, &bias}) {
      if (t->dtype() != x.dtype())
        return invalidArgument("scale and bias must have the type of X " + x.describe() + ", got " +
                               t->describe());
      if (t->numel() != paramLen)
        return invalidArgument("scale and bias must have " + std::to_string(paramLen) +
                               " values (" + (perGroup_ ? "one per group" : "one per channel") +
                               "), got " + t->describe());
    }
    const int64_t spatial = numelOf(Dims(x.dims().begin() + 2, x.dims().end()));
    const int64_t perGroupChannels = C / groups_;
    const int64_t groupSize = perGroupChannels * spatial;
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using Cm = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* in = x.data<S>();
      const S* sc = scale.data<S>();
      const S* bi = bias.data<S>();
      S* out = y->mutableData<S>();
      parallelFor(N * groups_, ctx.threads(),
                  std::max<int64_t>(1, kElementwiseGrain / (groupSize + 1)),
                  [&](int64_t b, int64_t e) {
                    for (int64_t ng = b; ng < e; ++ng) {
                      const int64_t g = ng % groups_;
                      const S* xg = in + ng * groupSize;
                      S* yg = out + ng * groupSize;
                      if constexpr (std::is_same_v<S, float>) {
                        const PlaneMoments m = planeMoments(xg, groupSize);
                        const double inv = 1.0 / std::sqrt(m.variance + epsilon_);
                        for (int64_t c = 0; c < perGroupChannels; ++c) {
                          const int64_t p = perGroup_ ? g : g * perGroupChannels + c;
                          const float a = static_cast<float>(inv) * sc[p];
                          const float shift = bi[p] - static_cast<float>(m.mean) * a;
                          affineRow(xg + c * spatial, yg + c * spatial, spatial, a, shift);
                        }
                        continue;
                      }
                      double mean = 0, var = 0;
                      for (int64_t i = 0; i < groupSize; ++i)
                        mean += static_cast<double>(load(xg[i]));
                      mean /= static_cast<double>(groupSize);
                      for (int64_t i = 0; i < groupSize; ++i) {
                        double d = static_cast<double>(load(xg[i])) - mean;
                        var += d * d;
                      }
                      var /= static_cast<double>(groupSize);
                      const double inv = 1.0 / std::sqrt(var + epsilon_);
                      for (int64_t c = 0; c < perGroupChannels; ++c) {
                        const int64_t p = perGroup_ ? g : g * perGroupChannels + c;
                        const Cm a = static_cast<Cm>(inv) * load(sc[p]);
                        const Cm shift = load(bi[p]) - static_cast<Cm>(mean) * a;
                        const S* xc = xg + c * spatial;
                        S* yc = yg + c * spatial;
                        for (int64_t i = 0; i < spatial; ++i)
                          yc[i] = store<S>(load(xc[i]) * a + shift);
                      }
                    }
                  });
      return Status::ok();
    });
  }

 private:
  GroupNorm(int64_t groups, float epsilon, bool perGroup)
      : groups_(groups), epsilon_(epsilon), perGroup_(perGroup) {}

  int64_t groups_;
  double epsilon_;
  bool perGroup_;
};

const KernelDef kRows[] = {
    {"", "GroupNormalization", 18, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.GroupNormalization", makeKernel<GroupNorm>},
};

}  // namespace

std::span<const KernelDef> groupNormKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
