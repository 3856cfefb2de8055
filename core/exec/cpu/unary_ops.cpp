// Elementwise unary operators on the generic UnaryKernel (see elementwise.h);
// float32 Sigmoid on 4 lanes with the fused kernels' exp.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/exec/cpu/elementwise.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/passlab_fused_math.h"

namespace passlab::exec::cpu {

namespace {

// y = max(x, 0)
struct ReluOp {
  static constexpr TypeSet kTypes = types::kSignedNumeric;
  template <class C>
  C operator()(C x) const {
    return std::max(x, C(0));
  }
};

// y = -x
struct NegOp {
  static constexpr TypeSet kTypes = types::kSignedNumeric;
  template <class C>
  C operator()(C x) const {
    return static_cast<C>(-x);
  }
};

// y = exp(x)
struct ExpOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return std::exp(x);
  }
};

// y = 1 / (1 + exp(-x))
struct SigmoidOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return x >= C(0) ? C(1) / (C(1) + std::exp(-x)) : std::exp(x) / (C(1) + std::exp(x));
  }
  // The same on 4 lanes with e = exp(-|x|) from fused::expNeg4 (within 2 ulp
  // of expf; 0 below -87): 1 / (1 + e) for x >= 0, e / (1 + e) otherwise.
  void floatN(const float* x, float* y, int64_t n) const {
    using fused::F4;
    using fused::I4;
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
      F4 v;
      std::memcpy(&v, x + i, sizeof v);
      const I4 pos = v >= 0.0f;
      const F4 e = fused::expNeg4(pos ? -v : v);
      const F4 s = (pos ? F4{} + 1.0f : e) / (e + 1.0f);
      std::memcpy(y + i, &s, sizeof s);
    }
    for (; i < n; ++i) y[i] = (*this)(x[i]);
  }
};

const KernelDef kRows[] = {
    unaryRow<ReluOp>("Relu", 6, kOpsetMax, "cpu.Relu"),
    unaryRow<NegOp>("Neg", 6, kOpsetMax, "cpu.Neg"),
    unaryRow<ExpOp>("Exp", 6, kOpsetMax, "cpu.Exp"),
    unaryRow<SigmoidOp>("Sigmoid", 6, kOpsetMax, "cpu.Sigmoid"),
};

}  // namespace

std::span<const KernelDef> unaryKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
