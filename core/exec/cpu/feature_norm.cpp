// Normalizations without learned parameters:
//   MeanVarianceNormalization: y = (x - mean) / (sqrt(E[x^2] - mean^2) + 1e-9)
//     over `axes` (default [0, 2, 3]), as the op's function body computes it;
//   LpNormalization: y = x / ||x||_p along `axis` (p = 1 or 2); a zero norm
//     gives 0.
#include <cmath>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/reduce_plan.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

class MeanVarianceNorm final : public Kernel {
 public:
  explicit MeanVarianceNorm(const KernelBuild& b) : axes_(b.node().attrInts("axes", {0, 2, 3})) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(std::vector<bool> flags,
                             reducedAxes(axes_, static_cast<int64_t>(x.rank())));
    const ReducePlan plan = planReduction(x.dims(), flags, true);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      const double n = static_cast<double>(plan.reducedCount);
      parallelFor(plan.outCount, ctx.threads(),
                  std::max<int64_t>(1, kElementwiseGrain / (plan.reducedCount + 1)),
                  [&](int64_t b, int64_t e) {
                    for (int64_t o = b; o < e; ++o) {
                      double sum = 0, sq = 0;
                      plan.forEach(o, [&](int64_t at) {
                        double v = static_cast<double>(load(in[at]));
                        sum += v;
                        sq += v * v;
                      });
                      const double mean = sum / n;
                      const double var = std::max(0.0, sq / n - mean * mean);
                      const C m = static_cast<C>(mean);
                      const C inv = static_cast<C>(1.0 / (std::sqrt(var) + 1e-9));
                      plan.forEach(
                          o, [&](int64_t at) { out[at] = store<S>((load(in[at]) - m) * inv); });
                    }
                  });
      return Status::ok();
    });
  }

 private:
  std::vector<int64_t> axes_;
};

class LpNorm final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    int64_t p = b.node().attrInt("p", 2);
    if (p != 1 && p != 2) return invalidArgument("p must be 1 or 2, got " + std::to_string(p));
    return std::unique_ptr<Kernel>(new LpNorm(b.node().attrInt("axis", -1), p == 1));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const auto rank = static_cast<int64_t>(x.rank());
    if (rank == 0) return invalidArgument("the input must have at least one dim");
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axis_, rank));
    std::vector<bool> flags(static_cast<size_t>(rank), false);
    flags[static_cast<size_t>(axis)] = true;
    const ReducePlan plan = planReduction(x.dims(), flags, true);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      parallelFor(plan.outCount, ctx.threads(),
                  std::max<int64_t>(1, kElementwiseGrain / (plan.reducedCount + 1)),
                  [&](int64_t b, int64_t e) {
                    for (int64_t o = b; o < e; ++o) {
                      double acc = 0;
                      plan.forEach(o, [&](int64_t at) {
                        double v = static_cast<double>(load(in[at]));
                        acc += l1_ ? std::fabs(v) : v * v;
                      });
                      const double norm = l1_ ? acc : std::sqrt(acc);
                      const C inv = norm == 0 ? C(0) : static_cast<C>(1.0 / norm);
                      plan.forEach(o, [&](int64_t at) { out[at] = store<S>(load(in[at]) * inv); });
                    }
                  });
      return Status::ok();
    });
  }

 private:
  LpNorm(int64_t axis, bool l1) : axis_(axis), l1_(l1) {}
  int64_t axis_;
  bool l1_;
};

const KernelDef kRows[] = {
    {"", "MeanVarianceNormalization", 9, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.MeanVarianceNormalization", makeKernel<MeanVarianceNorm>},
    {"", "LpNormalization", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.LpNormalization", makeKernel<LpNorm>},
};

}  // namespace

std::span<const KernelDef> featureNormKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
