// The opset 1-6 versions of Add, Sub, Mul and Div (B broadcasts to A only
// with broadcast=1, lined up at `axis`; see binary_legacy.h) and the opset 1-5
// versions of Sum, Mean, Max, Min and Clip. From opset 7 (6 for the others)
// binary_ops.cpp and clip.cpp run them.
#include <limits>

#include "core/exec/cpu/arith_ops.h"
#include "core/exec/cpu/binary_legacy.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

namespace {

using arith::AddOp;
using arith::DivOp;
using arith::MeanOp;
using arith::MulOp;
using arith::SubOp;
using MaxOp = arith::FloatsOnly<arith::MaxOp>;
using MinOp = arith::FloatsOnly<arith::MinOp>;
using SumOp = arith::FloatsOnly<arith::AddOp>;

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
