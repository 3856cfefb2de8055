// Comparisons with broadcasting, giving bool tensors: Equal (numbers, bool,
// and strings from opset 19), Less, LessOrEqual, Greater, GreaterOrEqual.
// Opset 1-6 versions use the legacy broadcast attributes (binary_legacy.h).
#include "core/exec/cpu/binary_legacy.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

namespace {

// float16/bfloat16 compare as float: the conversion is exact, so the order is kept.
struct EqualOp {
  static constexpr TypeSet kTypes = types::kNumeric | types::kBool | types::kString;
  template <class C>
  bool operator()(const C& a, const C& b) const {
    return a == b;
  }
};
struct LessOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  bool operator()(C a, C b) const {
    return a < b;
  }
};
struct LessOrEqualOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  bool operator()(C a, C b) const {
    return a <= b;
  }
};
struct GreaterOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  bool operator()(C a, C b) const {
    return a > b;
  }
};
struct GreaterOrEqualOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  bool operator()(C a, C b) const {
    return a >= b;
  }
};

const KernelDef kRows[] = {
    legacyBinaryRow<EqualOp>("Equal", 1, kOpsetMax, "cpu.Equal"),
    legacyBinaryRow<LessOp>("Less", 1, kOpsetMax, "cpu.Less"),
    legacyBinaryRow<LessOrEqualOp>("LessOrEqual", 12, kOpsetMax, "cpu.LessOrEqual"),
    legacyBinaryRow<GreaterOp>("Greater", 1, kOpsetMax, "cpu.Greater"),
    legacyBinaryRow<GreaterOrEqualOp>("GreaterOrEqual", 12, kOpsetMax, "cpu.GreaterOrEqual"),
};

}  // namespace

std::span<const KernelDef> compareKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
