// QLinearMatMul on oneDNN's int8 matmul: A (u8 or s8, [..., M, K], rows
// flattened into one matrix) with a_zero_point as oneDNN's source zero point,
// B a constant s8 matrix [K, N] with zero point 0 (what static quantizers
// emit) packed once into oneDNN's layout, and the requantization
// a_scale * b_scale[n] / y_scale (one value or one per column), y_zero_point
// and the saturation to u8/s8 inside the primitive, built once per A shape.
// Exactness as for QLinearConv (qlinear_conv_onednn.cpp): only on CPUs whose
// int8 dot products are exact (VNNI), and oneDNN multiplies the int32 sum by
// the float32 scale in float32 where the reference uses double, so a value
// next to a rounding tie may come out 1 apart. Everything else runs the
// reference QLinearMatMul (qlinear.cpp): B not s8, a nonzero B zero point,
// per-row scales, scales or zero points that vary between runs, non-float32
// scales, A of rank 1, B of rank other than 2. A B fed at run time (an
// attention's product of two activations) takes qlinear_matmul_runtime_b.cpp.
#include "core/exec/cpu/qlinear_matmul_onednn.h"

#include <optional>
#include <string_view>
#include <vector>

#include "core/exec/cpu/families.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/qlinear_matmul_runtime_b.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"

namespace passlab::exec::cpu {

namespace {

using dnnl::memory;
using ir::DataType;

// A is QLinearConv's x, B its w (qlinear::Input).
using namespace qlinear;  // NOLINT: the inputs, the requantization and its helpers

// Everything built for one shape of A.
struct Plan {
  Dims aDims, bDims;
  int threads = 0;
  int64_t rows = 0, K = 0, N = 0;
  Requantization requantization;
  bool declined = false;
  dnnl::matmul prim;
  memory::desc src, userWei, dst;
  memory packedWei;
  bool packed = false;
};

class OneDnnQLinearMatMul final : public Kernel {
 public:
  explicit OneDnnQLinearMatMul(std::unique_ptr<Kernel> reference)
      : reference_(std::move(reference)) {}

  Status run(KernelContext& ctx) override {
    for (Input i : kQuantizationInputs)
      if (ctx.has(i) && !ctx.invariantInput(i)) return reference_->run(ctx);
    if (!ctx.invariantInput(kW)) return runtimeB_.run(ctx, *reference_);
    const Tensor& a = ctx.input(kX);
    const Tensor& b = ctx.input(kW);
    if (a.rank() < 2 || b.rank() != 2 || a.dims().back() != b.dim(0) || a.numel() == 0 ||
        b.numel() == 0)
      return reference_->run(ctx);
    if (!plan_ || plan_->aDims != a.dims() || plan_->bDims != b.dims() ||
        plan_->threads != ctx.threads())
      plan_ = build(ctx);
    if (plan_->declined) return reference_->run(ctx);
    Dims out = a.dims();
    out.back() = plan_->N;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, plan_->requantization.yType, out));
    return execute(a, b, *y);
  }

 private:
  std::unique_ptr<Plan> build(const KernelContext& ctx) const {
    auto p = std::make_unique<Plan>();
    const Tensor& a = ctx.input(kX);
    const Tensor& b = ctx.input(kW);
    p->aDims = a.dims();
    p->bDims = b.dims();
    p->threads = ctx.threads();
    p->K = b.dim(0);
    p->N = b.dim(1);
    p->rows = a.numel() / p->K;
    std::optional<Requantization> r = readRequantization(ctx, p->N);
    if (!r || !exactInt8DotProducts()) {
      p->declined = true;
      return p;
    }
    p->requantization = std::move(*r);
    try {
      const Requantization& q = p->requantization;
      dnnl::primitive_attr attr = requantizationAttr(q);
      using tag = memory::format_tag;
      p->src = memory::desc({p->rows, p->K}, int8Type(a.dtype()), tag::ab);
      p->userWei = memory::desc({p->K, p->N}, memory::data_type::s8, tag::ab);
      p->dst = memory::desc({p->rows, p->N}, int8Type(q.yType), tag::ab);
      auto anyWei = memory::desc({p->K, p->N}, memory::data_type::s8, tag::any);
      dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(p->src, anyWei, p->dst), attr,
                                      onednn::engine());
      if (std::string_view(pd.impl_info_str()).starts_with("ref")) {
        p->declined = true;
        return p;
      }
      p->prim = dnnl::matmul(pd);
      p->packedWei = memory(pd.weights_desc(), onednn::engine());
      memory user = onednn::over(p->userWei, b);
      dnnl::reorder(user, p->packedWei).execute(onednn::stream(), user, p->packedWei);
      onednn::stream().wait();
    } catch (const dnnl::error&) {
      p->declined = true;
    }
    return p;
  }

  Status execute(const Tensor& a, const Tensor& b, Tensor& y) {
    dnnl::stream& s = onednn::stream();
    plan_->prim.execute(s, {{DNNL_ARG_SRC, onednn::over(plan_->src, a)},
                            {DNNL_ARG_WEIGHTS, plan_->packedWei},
                            {DNNL_ARG_DST, onednn::over(plan_->dst, y)}});
    s.wait();
    return Status::ok();
  }

  std::unique_ptr<Kernel> reference_;
  std::unique_ptr<Plan> plan_;
  RuntimeBQLinearMatMul runtimeB_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeOneDnnQLinearMatMul(const KernelBuild& b) {
  for (const KernelDef& row : qlinearKernels())
    if (row.op == "QLinearMatMul" && row.tier == Tier::kReference) {
      PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> reference, row.create(b));
      return std::unique_ptr<Kernel>(std::make_unique<OneDnnQLinearMatMul>(std::move(reference)));
    }
  return unsupported("the reference QLinearMatMul kernel is missing");
}

}  // namespace passlab::exec::cpu
