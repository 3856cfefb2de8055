// ArgMax and ArgMin along an axis (keepdims, select_last_index).
#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

template <bool kMax>
class ArgMinMax final : public Kernel {
 public:
  explicit ArgMinMax(const KernelBuild& b)
      : axis_(b.node().attrInt("axis", 0)),
        keepDims_(b.node().attrInt("keepdims", 1) != 0),
        last_(b.node().attrInt("select_last_index", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    auto rank = static_cast<int64_t>(x.rank());
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axis_, rank));
    const int64_t len = x.dim(static_cast<size_t>(axis));
    if (len == 0) return invalidArgument("cannot reduce an empty axis of " + x.describe());
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= x.dim(static_cast<size_t>(d));
    for (int64_t d = axis + 1; d < rank; ++d) inner *= x.dim(static_cast<size_t>(d));
    Dims out;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != axis)
        out.push_back(x.dim(static_cast<size_t>(d)));
      else if (keepDims_)
        out.push_back(1);
    }
    return dispatch<types::kNumeric>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kInt64, out));
      const S* X = x.data<S>();
      int64_t* Y = y->mutableData<int64_t>();
      parallelFor(outer * inner, ctx.threads(), std::max<int64_t>(1, 4096 / len),
                  [&](int64_t b, int64_t e) {
                    for (int64_t r = b; r < e; ++r) {
                      const S* p = X + (r / inner) * len * inner + r % inner;
                      auto best = load(p[0]);
                      int64_t at = 0;
                      for (int64_t i = 1; i < len; ++i) {
                        auto v = load(p[i * inner]);
                        bool better =
                            kMax ? (last_ ? v >= best : v > best) : (last_ ? v <= best : v < best);
                        if (better) {
                          best = v;
                          at = i;
                        }
                      }
                      Y[r] = at;
                    }
                  });
      return Status::ok();
    });
  }

 private:
  int64_t axis_;
  bool keepDims_, last_;
};

const KernelDef kRows[] = {
    {"", "ArgMax", 1, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.ArgMax",
     makeKernel<ArgMinMax<true>>},
    {"", "ArgMin", 1, kOpsetMax, types::kNumeric, 0, Tier::kReference, "cpu.ArgMin",
     makeKernel<ArgMinMax<false>>},
};

}  // namespace

std::span<const KernelDef> argMinMaxKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
