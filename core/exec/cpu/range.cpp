// Range: [start, start + delta, ...) up to limit (exclusive), with
// max(ceil((limit - start) / delta), 0) elements. Integers are computed
// exactly; floats in double (float16/bfloat16 too: opset 27's stash_type asks
// for at least float).
#include <cmath>
#include <type_traits>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

constexpr TypeSet kRangeTypes{ir::DataType::kFloat,   ir::DataType::kDouble, ir::DataType::kInt16,
                              ir::DataType::kInt32,   ir::DataType::kInt64,  ir::DataType::kFloat16,
                              ir::DataType::kBFloat16};

class Range final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& start = ctx.input(0);
    for (size_t i = 0; i < 3; ++i) {
      const Tensor& t = ctx.input(i);
      if (t.numel() != 1 || t.rank() > 1)
        return invalidArgument("start, limit and delta must be scalars, got " + t.describe());
      if (t.dtype() != start.dtype())
        return invalidArgument("start, limit and delta have different types (" + start.describe() +
                               " and " + t.describe() + ")");
    }
    return dispatch<kRangeTypes>(start.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      const C s = load(ctx.input(0).data<S>()[0]);
      const C l = load(ctx.input(1).data<S>()[0]);
      const C d = load(ctx.input(2).data<S>()[0]);
      if (d == C(0)) return invalidArgument("delta is 0");
      int64_t n;
      if constexpr (std::is_integral_v<C>) {
        // ceil((l - s) / d) in 64 bits without overflow for the int16/int32 inputs.
        const int64_t span = static_cast<int64_t>(l) - static_cast<int64_t>(s);
        const int64_t step = static_cast<int64_t>(d);
        int64_t q = span / step;
        if (q * step != span && ((span > 0) == (step > 0))) ++q;
        n = q > 0 ? q : 0;
      } else {
        const double q =
            std::ceil((static_cast<double>(l) - static_cast<double>(s)) / static_cast<double>(d));
        if (std::isnan(q)) return invalidArgument("start, limit and delta give no length (NaN)");
        if (q > 9.0e15)
          return invalidArgument("Range would have " + std::to_string(q) + " elements");
        n = q > 0 ? static_cast<int64_t>(q) : 0;
      }
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, start.dtype(), {n}));
      S* out = y->mutableData<S>();
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral_v<C>) {
          out[i] = static_cast<S>(static_cast<int64_t>(s) + i * static_cast<int64_t>(d));
        } else {
          out[i] = store<S>(static_cast<C>(static_cast<double>(s) +
                                           static_cast<double>(i) * static_cast<double>(d)));
        }
      }
      return Status::ok();
    });
  }
};

const KernelDef kRows[] = {
    {"", "Range", 11, kOpsetMax, kRangeTypes, 0, Tier::kReference, "cpu.Range", makeKernel<Range>},
};

}  // namespace

std::span<const KernelDef> rangeKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
