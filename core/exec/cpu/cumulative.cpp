// CumSum and CumProd along one axis (given as a scalar tensor), with the
// `exclusive` (shifted by one, starting from the identity) and `reverse`
// (from the end) attributes. The lines along the axis are accumulated a span
// of contiguous lines at a time (row by row, so the inner loop vectorizes),
// each line in the same order as alone. Parallel over the spans.
#include <algorithm>
#include <vector>

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
      // Work items are (outer block, span of `inner`): the lines of a span are
      // accumulated together, one contiguous row of `inner` per step along the axis.
      const int64_t spans = (inner + kSpan - 1) / kSpan;
      parallelFor(outer * spans, ctx.threads(),
                  std::max<int64_t>(1, kElementwiseGrain / (len * std::min(inner, kSpan) + 1)),
                  [&](int64_t b, int64_t e) {
                    std::vector<C> acc(static_cast<size_t>(std::min(inner, kSpan)));
                    for (int64_t item = b; item < e; ++item) {
                      const int64_t o = item / spans, i0 = (item % spans) * kSpan;
                      const int64_t width = std::min(kSpan, inner - i0);
                      const int64_t base = o * len * inner + i0;
                      std::fill(acc.begin(), acc.begin() + width, kProd ? C(1) : C(0));
                      for (int64_t k = 0; k < len; ++k) {
                        const int64_t at = base + (reverse_ ? len - 1 - k : k) * inner;
                        accumulateRow(in + at, out + at, acc.data(), width);
                      }
                    }
                  });
      return Status::ok();
    });
  }

 private:
  static constexpr int64_t kSpan = 1024;  // lines accumulated together

  // One step along the axis for `width` lines: acc op= in, out = acc (before
  // the step when exclusive), in the same order as line by line.
  template <class S, class C>
  void accumulateRow(const S* in, S* out, C* acc, int64_t width) const {
    if (exclusive_) {
      for (int64_t i = 0; i < width; ++i) {
        const C v = load(in[i]);
        out[i] = store<S>(acc[i]);
        acc[i] = kProd ? static_cast<C>(acc[i] * v) : static_cast<C>(acc[i] + v);
      }
    } else {
      for (int64_t i = 0; i < width; ++i) {
        const C v = load(in[i]);
        acc[i] = kProd ? static_cast<C>(acc[i] * v) : static_cast<C>(acc[i] + v);
        out[i] = store<S>(acc[i]);
      }
    }
  }

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
