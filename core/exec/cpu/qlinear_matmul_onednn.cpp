// QLinearMatMul on oneDNN's int8 matmul: A (u8 or s8, [..., M, K], rows
// flattened into one matrix) with a_zero_point as oneDNN's source zero point,
// B a constant s8 matrix [K, N] with zero point 0 (what static quantizers
// emit) packed once into oneDNN's layout, and the requantization
// a_scale * b_scale[n] / y_scale (one value or one per column), y_zero_point
// and the saturation to u8/s8 inside the primitive, built once per A shape.
// ONNX Runtime's com.microsoft QGemm runs on the same primitive: A [M, K] or
// (transA) [K, M] read in place with its strides, B [K, N] or (transB) [N, K]
// packed once, its int32 bias C (one value per column) added to the int32
// sums before the requantization (oneDNN 2.x scales after the bias, as
// QLinearConv's bias), alpha folded into the scales, and without y_scale the
// float product written as is.
// Exactness as for QLinearConv (qlinear_conv_onednn.cpp): only on CPUs whose
// int8 dot products are exact (VNNI), or without VNNI for uint8 A and a B of
// weights in [-64, 64] (int8_dot_exactness.h: `reduce_range` weights), and oneDNN multiplies the
// int32 sum by the float32 scale in float32 where the reference uses double, so a value next to a
// rounding tie may come out 1 apart. Everything else runs the reference QLinearMatMul / QGemm
// (qlinear.cpp): per-row scales, scales or zero points that vary between runs, non-float32 scales,
// A of rank 1, B of rank other than 2, a QGemm bias that is not one value per column or a B fed at
// run time, and for QGemm a B not s8 or a nonzero B zero point. A QLinearMatMul B fed at run time
// (an attention's product of two activations) takes qlinear_matmul_runtime_b.cpp; a QLinearMatMul
// with uint8 B or a nonzero B zero point, constant or not, takes qlinear_matmul_int32.h (exact).
// The packed B is held across plans for other shapes of A (reordered from the
// held copy), so the kernel says holdsOwnCopy and the executor may free B;
// a run that would need B's data after that (the reference, oneDNN declining
// a new shape) fails with an error instead; a Y of no elements (a batch of 0)
// needs none.
#include "core/exec/cpu/qlinear_matmul_onednn.h"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/exec/cpu/families.h"
#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/cpu/narrow_int8_weights.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/qlinear_matmul_int32.h"
#include "core/exec/cpu/qlinear_matmul_runtime_b.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/qlinear_reference.h"

namespace passlab::exec::cpu {

namespace {

using dnnl::memory;
using ir::DataType;

// A is QLinearConv's x, B its w (qlinear::Input).
using namespace qlinear;         // NOLINT: the inputs, the requantization and its helpers
constexpr size_t kGemmBias = 6;  // QGemm's C

// What sets the two ops apart.
struct Form {
  bool gemm = false;  // com.microsoft QGemm: 2-D A, transposes, bias C
  bool transA = false, transB = false;
  OutputForm output;  // where y_scale and y_zero_point are, alpha
};

Form qgemmForm(const ir::Node& n) {
  return {true, n.attrInt("transA", 0) != 0, n.attrInt("transB", 0) != 0,
          qgemmOutputForm(n.attrFloat("alpha", 1.0f))};
}

// The product's sizes: A's rows (all of its leading dims) by K, times K by N.
struct Sizes {
  int64_t rows = 0, K = 0, N = 0;
};

// Everything built for one shape of A.
struct Plan {
  Dims aDims, bDims;
  bool hasBias = false;
  int threads = 0;
  Sizes sizes;
  Requantization requantization;
  bool declined = false;
  dnnl::matmul prim;
  memory::desc src, userWei, dst, bias;
  memory packedWei;
};

memory::data_type dstType(DataType t) {
  return t == DataType::kFloat ? memory::data_type::f32 : int8Type(t);
}

class OneDnnInt8MatMul final : public Kernel {
 public:
  OneDnnInt8MatMul(std::unique_ptr<Kernel> reference, Form form)
      : reference_(std::move(reference)), form_(form) {}

  Status run(KernelContext& ctx) override {
    if (!form_.gemm && ExactQLinearMatMul::wanted(ctx)) return exact_.run(ctx, *reference_);
    if (!quantizationInvariant(ctx)) return referenceOrFreed(ctx);
    if (!ctx.invariantInput(kW))
      return form_.gemm ? reference_->run(ctx) : runtimeB_.run(ctx, *reference_);
    const Tensor& a = ctx.input(kX);
    const Tensor& b = ctx.input(kW);
    const Tensor* bias = form_.gemm && ctx.has(kGemmBias) ? &ctx.input(kGemmBias) : nullptr;
    // The reference reports malformed shapes.
    std::optional<Sizes> sizes = sizesOf(a, b, bias);
    if (!sizes) return referenceOrFreed(ctx);
    if (!plan_ || plan_->aDims != a.dims() || plan_->bDims != b.dims() ||
        plan_->hasBias != (bias != nullptr) || plan_->threads != ctx.threads())
      plan_ = build(ctx, *sizes, bias != nullptr);
    if (plan_->declined) return referenceOrFreed(ctx);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y,
                             ctx.allocate(0, plan_->requantization.yType, outputDims(a)));
    PASSLAB_RETURN_IF_ERROR(execute(a, bias, *y));
    ctx.holdsOwnCopy(kW);  // invariant, and held_ is it packed
    return Status::ok();
  }

 private:
  // The scales and zero points are baked into the primitive: they must hold
  // the same values on every run (omitted ones are constant too).
  bool quantizationInvariant(const KernelContext& ctx) const {
    const size_t inputs[] = {kXScale,     kXZeroPoint,         kWScale,
                             kWZeroPoint, form_.output.yScale, form_.output.yZeroPoint};
    for (size_t i : inputs)
      if (ctx.has(i) && !ctx.invariantInput(i)) return false;
    return true;
  }

  // The reference kernel, unless B's data was freed after packing: then an
  // error, unless Y has no elements (a batch of 0), which reads no weight.
  Status referenceOrFreed(KernelContext& ctx) {
    if (ctx.has(kW) && ctx.input(kW).dataFreed()) {
      if (std::optional<Status> empty = emptyOutput(ctx)) return *empty;
      return internalError(
          "the weights were freed after packing and the oneDNN kernel cannot run this case");
    }
    return reference_->run(ctx);
  }

  // The reference's Y where it has no elements, without the reference's read
  // of B (once B was freed); nullopt where Y is not empty or the shapes do
  // not fit (the reference's error then).
  std::optional<Status> emptyOutput(KernelContext& ctx) const {
    const Tensor& a = ctx.input(kX);
    const Tensor& b = ctx.input(kW);
    if (b.rank() != 2 || a.rank() < 2 || (form_.gemm && a.rank() != 2)) return std::nullopt;
    const int64_t K = form_.gemm && form_.transA ? a.dim(0) : a.dims().back();
    const int64_t N = b.dim(form_.transB ? 0 : 1);
    if (b.dim(form_.transB ? 1 : 0) != K) return std::nullopt;
    Dims out = a.dims();
    if (form_.gemm && form_.transA) out[0] = a.dim(1);
    out.back() = N;
    int64_t count = 1;
    for (int64_t d : out) count *= d;
    if (count != 0) return std::nullopt;
    std::optional<Requantization> r = readRequantization(ctx, N, form_.output);
    if (!r) return std::nullopt;
    return ctx.allocate(0, r->yType, out).status();
  }

  std::optional<Sizes> sizesOf(const Tensor& a, const Tensor& b, const Tensor* bias) const {
    if (a.numel() == 0 || b.numel() == 0 || b.rank() != 2) return std::nullopt;
    Sizes s;
    if (form_.gemm) {
      if (a.rank() != 2) return std::nullopt;
      s.rows = a.dim(form_.transA ? 1 : 0);
      s.K = a.dim(form_.transA ? 0 : 1);
    } else {
      if (a.rank() < 2) return std::nullopt;
      s.K = a.dims().back();
      s.rows = a.numel() / s.K;
    }
    s.N = b.dim(form_.transB ? 0 : 1);
    if (b.dim(form_.transB ? 1 : 0) != s.K) return std::nullopt;
    if (bias && !isColumnBias(*bias, s.N)) return std::nullopt;
    return s;
  }

  // int32 C of [N] or [1, N]: one value per column, what oneDNN's bias adds.
  static bool isColumnBias(const Tensor& c, int64_t N) {
    return c.dtype() == DataType::kInt32 && c.numel() == N &&
           (c.rank() == 1 || (c.rank() == 2 && c.dim(0) == 1));
  }

  Dims outputDims(const Tensor& a) const {
    if (form_.gemm) return {plan_->sizes.rows, plan_->sizes.N};
    Dims out = a.dims();
    out.back() = plan_->sizes.N;
    return out;
  }

  std::unique_ptr<Plan> build(const KernelContext& ctx, const Sizes& sizes, bool hasBias) {
    auto p = std::make_unique<Plan>();
    const Tensor& a = ctx.input(kX);
    const Tensor& b = ctx.input(kW);
    p->aDims = a.dims();
    p->bDims = b.dims();
    p->hasBias = hasBias;
    p->threads = ctx.threads();
    p->sizes = sizes;
    std::optional<Requantization> r = readRequantization(ctx, sizes.N, form_.output);
    const bool narrow = !exactInt8DotProducts();  // exact only for narrow weights
    if (!r || (narrow && !narrowWeights(ctx))) {
      p->declined = true;
      return p;
    }
    p->requantization = std::move(*r);
    try {
      using tag = memory::format_tag;
      const Requantization& q = p->requantization;
      const int64_t rows = sizes.rows, K = sizes.K, N = sizes.N;
      // [rows, K] read as [K, rows] under transA; B likewise.
      p->src = memory::desc({rows, K}, int8Type(a.dtype()), form_.transA ? tag::ba : tag::ab);
      p->userWei = memory::desc({K, N}, memory::data_type::s8, form_.transB ? tag::ba : tag::ab);
      p->dst = memory::desc({rows, N}, dstType(q.yType), tag::ab);
      p->bias = memory::desc({1, N}, memory::data_type::s32, tag::ab);
      auto anyWei = memory::desc({K, N}, memory::data_type::s8, tag::any);
      auto desc = hasBias ? dnnl::matmul::desc(p->src, anyWei, p->bias, p->dst)
                          : dnnl::matmul::desc(p->src, anyWei, p->dst);
      dnnl::matmul::primitive_desc pd(desc, requantizationAttr(q), onednn::engine());
      if (std::string_view(pd.impl_info_str()).starts_with("ref")) {
        p->declined = true;
        return p;
      }
      p->prim = dnnl::matmul(pd);
      if (held_ && heldDims_ == b.dims() && held_.get_desc() == pd.weights_desc()) {
        p->packedWei = held_;
      } else {
        // From the held copy when B's data may be gone, else from B.
        const bool fromHeld = held_ && heldDims_ == b.dims();
        if (!fromHeld && b.dataFreed()) {
          p->declined = true;
          return p;
        }
        p->packedWei = memory(pd.weights_desc(), onednn::engine());
        memory from = fromHeld ? held_ : onednn::over(p->userWei, b);
        dnnl::reorder(from, p->packedWei).execute(onednn::stream(), from, p->packedWei);
        onednn::stream().wait();
      }
      held_ = p->packedWei;
      heldDims_ = b.dims();
      if (narrow) countNarrowWeightInt8Plan();
    } catch (const dnnl::error&) {
      p->declined = true;
    }
    return p;
  }

  // Without VNNI: whether oneDNN's int8 sums are exact for this node anyway
  // (narrow_int8_weights.h). Decided once, on B's data: a later plan may run
  // after B was freed (held packed).
  bool narrowWeights(const KernelContext& ctx) {
    if (!narrow_) narrow_ = narrowInt8Weights(ctx);
    return narrow_.value_or(false);
  }

  Status execute(const Tensor& a, const Tensor* bias, Tensor& y) {
    dnnl::stream& s = onednn::stream();
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, onednn::over(plan_->src, a)},
                                         {DNNL_ARG_WEIGHTS, plan_->packedWei},
                                         {DNNL_ARG_DST, onednn::over(plan_->dst, y)}};
    if (bias) args.emplace(DNNL_ARG_BIAS, onednn::over(plan_->bias, *bias));
    plan_->prim.execute(s, args);
    s.wait();
    return Status::ok();
  }

  std::unique_ptr<Kernel> reference_;
  Form form_;
  std::unique_ptr<Plan> plan_;
  // The invariant B packed for the latest plan that took it, and B's dims:
  // kept when a plan for another shape of A declines, taken into the next.
  memory held_;
  Dims heldDims_;
  std::optional<bool> narrow_;  // narrowWeights, once B was read
  RuntimeBQLinearMatMul runtimeB_;
  ExactQLinearMatMul exact_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeOneDnnQLinearMatMul(const KernelBuild& b) {
  PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> reference,
                           makeQLinearReference("QLinearMatMul", b));
  return std::unique_ptr<Kernel>(std::make_unique<OneDnnInt8MatMul>(std::move(reference), Form{}));
}

Expected<std::unique_ptr<Kernel>> makeOneDnnQGemm(const KernelBuild& b) {
  PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> reference, makeQLinearReference("QGemm", b));
  return std::unique_ptr<Kernel>(
      std::make_unique<OneDnnInt8MatMul>(std::move(reference), qgemmForm(b.node())));
}

}  // namespace passlab::exec::cpu
