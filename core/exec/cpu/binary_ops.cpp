// Elementwise binary operators with broadcasting, on the generic BinaryKernel
// (see elementwise.h).
#include "core/exec/cpu/arith_ops.h"
#include "core/exec/cpu/elementwise.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

namespace {

using arith::AddOp;
using arith::DivOp;
using arith::MaxOp;
using arith::MeanOp;
using arith::MinOp;
using arith::MulOp;
using arith::SubOp;

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
