// Where: y = condition ? x : y elementwise, the three operands broadcast
// together; any element type, strings included.
#include <array>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

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
                      if (st[0] == 1 && st[1] == 1 && st[2] == 1) {
                        for (int64_t i = 0; i < n; ++i) r[i] = cc[i] ? xx[i] : yy[i];
                      } else {
                        for (int64_t i = 0; i < n; ++i)
                          r[i] = cc[i * st[0]] ? xx[i * st[1]] : yy[i * st[2]];
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
