// CausalConvWithState (opset 27): a stateful causal depthwise 1-D
// convolution (Mamba, Gated DeltaNet), the fused form of Concat(past_state,
// input) + Conv(group = channels) + Slice.
//
//   input [B, C, L], weight [C, 1, k], bias [C], past_state [B, C, k - 1]
//   -> output [B, C, L] (optionally SiLU'd), present_state [B, C, k - 1]
//
// The geometry is one ir::WindowAxis (core/ir/window.h): image L, kernel k,
// stride and dilation 1, k - 1 pads at the beginning, grid L. Tap t of output
// l reads input position l - (k - 1) + t; a position p < 0 lies in the
// beginning pad, which holds past_state[k - 1 + p] (zeros without it) instead
// of zeros. present_state is the last k - 1 positions of that padded
// sequence (past_state and input together), through the same positions.
#include <cmath>
#include <string>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"
#include "core/ir/window.h"

namespace passlab::exec::cpu {

namespace {

constexpr TypeSet kTypes{ir::DataType::kFloat, ir::DataType::kFloat16, ir::DataType::kBFloat16};

// The element at position p of the padded sequence: input for p >= 0, else
// past_state (or zero).
template <class S>
ComputeT<S> padded(const S* x, const S* past, int64_t pad, int64_t p) {
  if (p >= 0) return load(x[p]);
  return past ? load(past[pad + p]) : ComputeT<S>(0);
}

class CausalConvWithState final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const std::string act = b.node().attrString("activation", "none");
    if (act != "none" && act != "silu" && act != "swish")
      return invalidArgument("activation must be 'none', 'silu' or 'swish', got '" + act + "'");
    return std::unique_ptr<Kernel>(new CausalConvWithState(act != "none"));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Tensor* bias = ctx.has(2) ? &ctx.input(2) : nullptr;
    const Tensor* past = ctx.has(3) ? &ctx.input(3) : nullptr;
    if (x.rank() != 3) return invalidArgument("input " + x.describe() + " must be [B, C, L]");
    const int64_t B = x.dim(0), C = x.dim(1), L = x.dim(2);
    if (w.rank() != 3 || w.dim(0) != C || w.dim(1) != 1 || w.dim(2) < 1)
      return invalidArgument("weight " + w.describe() +
                             " must be [C, 1, k] with C = " + std::to_string(C) + " and k >= 1");
    const int64_t k = w.dim(2), pad = k - 1;
    if (w.dtype() != x.dtype() || (bias && bias->dtype() != x.dtype()) ||
        (past && past->dtype() != x.dtype()))
      return invalidArgument("input, weight, bias and past_state must have one element type");
    if (bias && (bias->rank() != 1 || bias->dim(0) != C))
      return invalidArgument("bias " + bias->describe() + " must be [" + std::to_string(C) + "]");
    const Dims stateDims{B, C, pad};
    if (past && past->dims() != stateDims)
      return invalidArgument("past_state " + past->describe() +
                             " must be [B, C, k - 1] = " + dimsToString(stateDims));
    const ir::WindowAxis axis{.image = L, .kernel = k, .padBegin = pad, .grid = L};
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
    Tensor* state = nullptr;
    if (ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(state, ctx.allocate(1, x.dtype(), stateDims));
    }
    return dispatch<kTypes>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using Cp = ComputeT<S>;
      const S* X = x.data<S>();
      const S* W = w.data<S>();
      const S* Bi = bias ? bias->data<S>() : nullptr;
      const S* P = past ? past->data<S>() : nullptr;
      S* Y = y->mutableData<S>();
      S* St = state ? state->mutableData<S>() : nullptr;
      parallelFor(B * C, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
        for (int64_t bc = b0; bc < e0; ++bc) {
          const int64_t c = bc % C;
          const S* xp = X + bc * L;
          const S* pp = P ? P + bc * pad : nullptr;
          const S* wp = W + c * k;
          for (int64_t o = 0; o < L; ++o) {
            Cp acc = Bi ? load(Bi[c]) : Cp(0);
            for (int64_t t = 0; t < k; ++t) acc += load(wp[t]) * padded(xp, pp, pad, axis.at(o, t));
            if (silu_) acc = acc / (Cp(1) + std::exp(-acc));
            Y[bc * L + o] = store<S>(acc);
          }
          // The last k - 1 positions of the padded sequence: L - pad .. L - 1.
          if (St)
            for (int64_t i = 0; i < pad; ++i)
              St[bc * pad + i] = store<S>(padded(xp, pp, pad, L - pad + i));
        }
      });
      return Status::ok();
    });
  }

 private:
  explicit CausalConvWithState(bool silu) : silu_(silu) {}
  bool silu_;
};

const KernelDef kRows[] = {
    {"", "CausalConvWithState", 27, kOpsetMax, kTypes, 0, Tier::kReference,
     "cpu.CausalConvWithState", makeKernel<CausalConvWithState>},
};

}  // namespace

std::span<const KernelDef> causalConvKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
