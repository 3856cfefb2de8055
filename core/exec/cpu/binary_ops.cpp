// Elementwise binary operators with broadcasting, on the generic BinaryKernel
// (see elementwise.h).
#include <type_traits>

#include "core/exec/cpu/elementwise.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

namespace {

// y = a + b
struct AddOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a + b);
  }
};

// y = a - b
struct SubOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a - b);
  }
};

// y = a * b
struct MulOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a * b);
  }
};

// y = a / b (integers truncate; a zero divisor gives 0 instead of a trap)
struct DivOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<C>) {
        if (b == -1) return static_cast<C>(0 - static_cast<std::make_unsigned_t<C>>(a));
      }
    }
    return static_cast<C>(a / b);
  }
};

// y = max(a, b), y = min(a, b) (NaN propagates, as numpy's maximum)
struct MaxOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return a < b ? b : a;
  }
};
struct MinOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return b < a ? b : a;
  }
};
// y = (x0 + ... + xn) / count
struct MeanOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C a, C b) const {
    return a + b;
  }
  template <class C>
  C finish(C acc, int count) const {
    return acc / static_cast<C>(count);
  }
};

const KernelDef kRows[] = {
    binaryRow<AddOp>("Add", 7, kOpsetMax, "cpu.Add"),
    binaryRow<SubOp>("Sub", 7, kOpsetMax, "cpu.Sub"),
    binaryRow<MulOp>("Mul", 7, kOpsetMax, "cpu.Mul"),
    binaryRow<DivOp>("Div", 7, kOpsetMax, "cpu.Div"),
    variadicRow<AddOp>("Sum", 6, kOpsetMax, "cpu.Sum"),
    variadicRow<MeanOp>("Mean", 6, kOpsetMax, "cpu.Mean"),
    variadicRow<MaxOp>("Max", 6, kOpsetMax, "cpu.Max"),
    variadicRow<MinOp>("Min", 6, kOpsetMax, "cpu.Min"),
};

}  // namespace

std::span<const KernelDef> binaryKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
