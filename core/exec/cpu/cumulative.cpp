// CumSum and CumProd along one axis (given as a scalar tensor), with the
// `exclusive` (shifted by one, starting from the identity) and `reverse`
// (from the end) attributes. Parallel over the lines along the axis.
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

template <bool kProd>
class Cumulative final : public Kernel {
 public:
  explicit Cumulative(const KernelBuild& b)
      : exclusive_(b.node().attrInt("exclusive", 0) != 0),
        reverse_(b.node().attrInt("reverse", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& a = ctx.input(1);
    if (a.numel() != 1 || a.rank() > 1)
      return invalidArgument("axis must be a scalar, got " + a.describe());
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> axisValue, readInts(a, "axis"));
    const auto rank = static_cast<int64_t>(x.rank());
    if (rank == 0) return invalidArgument("the input must have at least one dim");
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axisValue[0], rank));
    int64_t outer = 1, inner = 1;
    const int64_t len = x.dim(static_cast<size_t>(axis));
    for (int64_t d = 0; d < axis; ++d) outer *= x.dim(static_cast<size_t>(d));
    for (int64_t d = axis + 1; d < rank; ++d) inner *= x.dim(static_cast<size_t>(d));
    return dispatch<types::kNumeric>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      parallelFor(outer * inner, ctx.threads(), std::max<int64_t>(1, kElementwiseGrain / (len + 1)),
                  [&](int64_t b, int64_t e) {
                    for (int64_t line = b; line < e; ++line) {
                      const int64_t base = (line / inner) * len * inner + line % inner;
                      C acc = kProd ? C(1) : C(0);
                      for (int64_t k = 0; k < len; ++k) {
                        const int64_t j = reverse_ ? len - 1 - k : k;
                        const int64_t at = base + j * inner;
                        const C v = load(in[at]);
                        if (exclusive_) out[at] = store<S>(acc);
                        acc = kProd ? static_cast<C>(acc * v) : static_cast<C>(acc + v);
                        if (!exclusive_) out[at] = store<S>(acc);
                      }
                    }
                  });
      return Status::ok();
    });
  }

 private:
  bool exclusive_, reverse_;
};

const KernelDef kRows[] = {
    // Dispatch on x; axis is int32 or int64.
    {"", "CumSum", 11, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.CumSum",
     makeKernel<Cumulative<false>>},
    {"", "CumProd", 26, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.CumProd",
     makeKernel<Cumulative<true>>},
};

}  // namespace

std::span<const KernelDef> cumulativeKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
