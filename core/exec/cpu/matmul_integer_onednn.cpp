// MatMulInteger (A, B, a_zero_point, b_zero_point) -> int32 on Int32MatMul
// (matmul_int32.h), the product quantize_dynamic writes for transformers
// (DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul). Bit for bit the
// reference kernel. Anything Int32MatMul declines, and zero points that are
// not one value or one per row of A / per column of B of their tensor's type,
// run the reference MatMulInteger (qlinear.cpp), whose errors hold. A constant
// 2-D B is held packed (Int32MatMul::holdsB): the kernel says holdsOwnCopy.
#include "core/exec/cpu/matmul_integer_onednn.h"

#include <optional>
#include <vector>

#include "core/exec/cpu/matmul_int32.h"
#include "core/exec/cpu/qlinear_reference.h"

namespace passlab::exec::cpu {

namespace {

enum Input : size_t { kA = 0, kB = 1, kAZeroPoint = 2, kBZeroPoint = 3 };

class OneDnnMatMulInteger final : public Kernel {
 public:
  explicit OneDnnMatMulInteger(std::unique_ptr<Kernel> reference)
      : reference_(std::move(reference)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(kA);
    const Tensor& b = ctx.input(kB);
    std::optional<MatMulShape> s = product_.prepare(a, b, ctx.invariantInput(kB), ctx.threads());
    if (!s) return referenceOrFreed(ctx, b);
    auto za = int8ZeroPoints(ctx, kAZeroPoint, a.dtype(), s->M);
    auto zb = int8ZeroPoints(ctx, kBZeroPoint, b.dtype(), s->N);
    if (!za || !zb) return referenceOrFreed(ctx, b);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kInt32, s->out));
    product_.compute(a, b, *za, *zb, ctx.threads(), y->mutableData<int32_t>());
    if (ctx.invariantInput(kB) && product_.holdsB()) ctx.holdsOwnCopy(kB);
    return Status::ok();
  }

 private:
  // The reference kernel, unless B's data was freed after packing.
  Status referenceOrFreed(KernelContext& ctx, const Tensor& b) {
    if (b.dataFreed())
      return internalError(
          "the weights were freed after packing and the int8 matmul cannot run this case");
    return reference_->run(ctx);
  }

  std::unique_ptr<Kernel> reference_;
  Int32MatMul product_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeOneDnnMatMulInteger(const KernelBuild& b) {
  PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> reference,
                           makeQLinearReference("MatMulInteger", b));
  return std::unique_ptr<Kernel>(std::make_unique<OneDnnMatMulInteger>(std::move(reference)));
}

}  // namespace passlab::exec::cpu
