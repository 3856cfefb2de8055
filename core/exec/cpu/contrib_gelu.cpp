// com.microsoft GELU variants: Gelu (erf form), BiasGelu (erf form of A + B)
// and FastGelu (tanh approximation of X + bias). The bias is 1-D and runs
// along the last dim. float16/bfloat16 are computed in float; float32
// FastGelu is geluTanhRow, Gelu and BiasGelu take their erf from geluErfRow
// (both vectorized).
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "core/exec/cpu/activation_rows.h"
#include "core/exec/cpu/erf_rows.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

enum class Form { kErf, kTanh };

template <class C>
C gelu(C x, Form f) {
  if (f == Form::kErf) return C(0.5) * x * (C(1) + std::erf(x * C(0.70710678118654752440)));
  const C k = C(0.7978845608028654);  // sqrt(2 / pi)
  return C(0.5) * x * (C(1) + std::tanh(k * (x + C(0.044715) * x * x * x)));
}

// FastGelu over float32 elements [b, e) on geluTanhRow (activation_rows.h:
// x sigmoid(2u), vectorized, no cancellation in 1 + tanh(u) below x = -3),
// X + bias formed a block at a time first (the bias a run at a time).
void fastGeluFloat(const float* X, const float* B, int64_t nb, float* Y, int64_t b, int64_t e) {
  if (!B) return geluTanhRow(X + b, Y + b, e - b);
  constexpr int64_t kBlock = 256;
  float v[kBlock];
  for (int64_t i0 = b; i0 < e; i0 += kBlock) {
    const int64_t n = std::min(kBlock, e - i0);
    for (int64_t j = 0, c = i0 % nb; j < n; c = 0) {  // runs of the bias, no division each
      const int64_t run = std::min(n - j, nb - c);
      for (int64_t t = 0; t < run; ++t) v[j + t] = X[i0 + j + t] + B[c + t];
      j += run;
    }
    geluTanhRow(v, Y + i0, n);
  }
}

template <Form kForm>
class GeluKernel final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor* bias = ctx.has(1) ? &ctx.input(1) : nullptr;
    if (bias) {
      const int64_t last = x.rank() == 0 ? 1 : x.dim(x.rank() - 1);
      if (bias->dtype() != x.dtype() || bias->numel() != last)
        return invalidArgument("the bias " + bias->describe() + " must be " +
                               std::string(ir::dtypeName(x.dtype())) + " with one value per " +
                               "element of the last dim of " + x.describe());
    }
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* X = x.data<S>();
      const S* B = bias ? bias->data<S>() : nullptr;
      const int64_t nb = bias ? bias->numel() : 1;
      S* Y = y->mutableData<S>();
      parallelFor(x.numel(), ctx.threads(), kElementwiseGrain, [&](int64_t b, int64_t e) {
        if constexpr (std::is_same_v<S, float>) {
          if (kForm == Form::kTanh) return fastGeluFloat(X, B, nb, Y, b, e);
          return geluErfRow(X + b, B, nb, b, Y + b, e - b);
        }
        for (int64_t i = b; i < e; ++i) {
          C v = load(X[i]);
          if (B) v += load(B[i % nb]);
          Y[i] = store<S>(gelu<C>(v, kForm));
        }
      });
      return Status::ok();
    });
  }
};

const KernelDef kRows[] = {
    {"com.microsoft", "Gelu", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.ms.Gelu",
     makeKernel<GeluKernel<Form::kErf>>},
    {"com.microsoft", "BiasGelu", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.ms.BiasGelu", makeKernel<GeluKernel<Form::kErf>>},
    {"com.microsoft", "FastGelu", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.ms.FastGelu", makeKernel<GeluKernel<Form::kTanh>>},
};

}  // namespace

std::span<const KernelDef> contribGeluKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
