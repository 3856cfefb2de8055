// The opset 1-6 versions of Add, Sub, Mul and Div (B broadcasts to A only
// with broadcast=1, lined up at `axis`; see binary_legacy.h) and the opset 1-5
// versions of Sum, Mean, Max, Min and Clip. From opset 7 (6 for the others)
// binary_ops.cpp and clip.cpp run them.
#include <limits>
#include <type_traits>

#include "core/exec/cpu/binary_legacy.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

namespace {

struct AddOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a + b);
  }
};
struct SubOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a - b);
  }
};
struct MulOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a * b);
  }
};
// Integers truncate toward zero; a zero divisor gives 0 instead of a trap.
struct DivOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) {
      if (b == 0) return C(0);
      if constexpr (std::is_signed_v<C>) {
        if (b == C(-1)) return static_cast<C>(C(0) - a);
      }
    }
    return static_cast<C>(a / b);
  }
};
struct MaxOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C a, C b) const {
    if (a != a) return a;
    if (b != b) return b;
    return a < b ? b : a;
  }
};
struct MinOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C a, C b) const {
    if (a != a) return a;
    if (b != b) return b;
    return b < a ? b : a;
  }
};
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
struct SumOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C a, C b) const {
    return a + b;
  }
};

// y = min(max(x, min), max) with the bounds as attributes.
struct ClipOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit ClipOp(const KernelBuild& b)
      : lo(b.node().attrFloat("min", std::numeric_limits<float>::lowest())),
        hi(b.node().attrFloat("max", std::numeric_limits<float>::max())) {}
  template <class C>
  C operator()(C x) const {
    C v = x < C(lo) ? C(lo) : x;
    return v > C(hi) ? C(hi) : v;
  }
  float lo, hi;
};

const KernelDef kRows[] = {
    legacyBinaryRow<AddOp>("Add", 1, 6, "cpu.Add"), legacyBinaryRow<SubOp>("Sub", 1, 6, "cpu.Sub"),
    legacyBinaryRow<MulOp>("Mul", 1, 6, "cpu.Mul"), legacyBinaryRow<DivOp>("Div", 1, 6, "cpu.Div"),
    variadicRow<SumOp>("Sum", 1, 5, "cpu.Sum"),     variadicRow<MeanOp>("Mean", 1, 5, "cpu.Mean"),
    variadicRow<MaxOp>("Max", 1, 5, "cpu.Max"),     variadicRow<MinOp>("Min", 1, 5, "cpu.Min"),
    unaryRow<ClipOp>("Clip", 1, 5, "cpu.Clip"),
};

}  // namespace

std::span<const KernelDef> legacyArithKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
