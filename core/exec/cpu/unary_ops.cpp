// Elementwise unary operators on the generic UnaryKernel (see elementwise.h);
// float32 Sigmoid and Exp on the vectorized rows of sigmoid_rows.h, Relu on
// relu_row.h.
#include <algorithm>
#include <cmath>

#include "core/exec/cpu/elementwise.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/relu_row.h"
#include "core/exec/cpu/sigmoid_rows.h"

namespace passlab::exec::cpu {

namespace {

// y = max(x, 0)
struct ReluOp {
  static constexpr TypeSet kTypes = types::kSignedNumeric;
  template <class C>
  C operator()(C x) const {
    return std::max(x, C(0));
  }
  // The same bits on 16 lanes where the CPU has AVX-512 (relu_row.h).
  void floatN(const float* x, float* y, int64_t n) const { reluRow(x, y, n); }
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
  // The same within a few ulp, vectorized (sigmoid_rows.h).
  void floatN(const float* x, float* y, int64_t n) const { expRow(x, y, n); }
};

// y = 1 / (1 + exp(-x))
struct SigmoidOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return x >= C(0) ? C(1) / (C(1) + std::exp(-x)) : std::exp(x) / (C(1) + std::exp(x));
  }
  // The same within a few ulp, vectorized (sigmoid_rows.h: AVX-512, AVX2 or 4 lanes).
  void floatN(const float* x, float* y, int64_t n) const { sigmoidRow(x, y, n); }
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
