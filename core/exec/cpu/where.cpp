// Where: y = condition ? x : y elementwise, the three operands broadcast
// together; any element type, strings included. The output is walked in runs
// (BroadcastWalker): a run whose condition is broadcast is a copy of x's or
// y's run, any other run of 1-, 2-, 4- or 8-byte elements a vector select
// (where_rows.h), strings the element loop.
#include <algorithm>
#include <array>
#include <type_traits>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/where_rows.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// Element types whose select moves their bytes (all but strings).
template <class S>
inline constexpr bool kBytes = std::is_trivially_copyable_v<S> &&
                               (sizeof(S) == 1 || sizeof(S) == 2 || sizeof(S) == 4 ||
                                sizeof(S) == 8);

class Where final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& c = ctx.input(0);
    const Tensor& x = ctx.input(1);
    const Tensor& y = ctx.input(2);
    if (c.dtype() != ir::DataType::kBool)
      return invalidArgument("condition must be bool, got " + c.describe());
    if (x.dtype() != y.dtype())
      return invalidArgument("X and Y have different element types (" + x.describe() + " and " +
                             y.describe() + ")");
    PASSLAB_ASSIGN_OR_RETURN(Dims dims, broadcastShapes({&c.dims(), &x.dims(), &y.dims()}));
    return dispatch<types::kAll>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate(0, x.dtype(), dims));
      const bool* pc = c.data<bool>();
      const S* px = x.data<S>();
      const S* py = y.data<S>();
      S* po = out->mutableData<S>();
      BroadcastWalker<3> walker(dims, {&c.dims(), &x.dims(), &y.dims()});
      parallelFor(walker.total(), ctx.threads(), kElementwiseGrain, [&](int64_t b, int64_t e) {
        walker.walk(b, e,
                    [&](int64_t o, const std::array<int64_t, 3>& off, int64_t n,
                        const std::array<int64_t, 3>& st) {
                      const bool* cc = pc + off[0];
                      const S* xx = px + off[1];
                      const S* yy = py + off[2];
                      S* r = po + o;
                      if (st[0] == 0) {
                        // One condition for the whole run.
                        const S* src = *cc ? xx : yy;
                        if ((*cc ? st[1] : st[2]) == 1)
                          std::copy_n(src, n, r);
                        else
                          std::fill_n(r, n, *src);
                        return;
                      }
                      if constexpr (kBytes<S>) {
                        if (whereRow(cc, xx, static_cast<int>(st[1]), yy, static_cast<int>(st[2]),
                                     r, n, sizeof(S)))
                          return;
                      }
                      if (st[1] == 1 && st[2] == 1) {
                        for (int64_t i = 0; i < n; ++i) r[i] = cc[i] ? xx[i] : yy[i];
                      } else {
                        for (int64_t i = 0; i < n; ++i)
                          r[i] = cc[i] ? xx[i * st[1]] : yy[i * st[2]];
                      }
                    });
      });
      return Status::ok();
    });
  }
};

const KernelDef kRows[] = {
    // Dispatch on X (input 1): the condition is always bool.
    {"", "Where", 9, kOpsetMax, types::kAll, 1, Tier::kReference, "cpu.Where", makeKernel<Where>},
};

}  // namespace

std::span<const KernelDef> whereKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
