// QLinearMatMul with B fed at run time on oneDNN's int8 matmul: A [..., M, K]
// and B [..., K, N] (u8 or s8, ranks 2 or more, batch dims broadcast), each
// with one scale and one zero point, baked into the primitive with the
// requantization a_scale * b_scale / y_scale and y_zero_point (built once per
// pair of shapes). oneDNN takes s8 weights only: a u8 B is fed as b - 128
// (its top bit flipped, one pass over B per run) with zero point
// b_zero_point - 128, which gives the same (b - zb) products. Exactness as
// for the constant-B path: only on CPUs whose int8 dot products are exact,
// and a value next to a rounding tie may come out 1 apart (float32 against
// the reference's double). Everything else runs the reference: scales or
// zero points that vary between runs or are not one value, non-float32
// scales, a zero point of another type than its tensor, rank-1 operands, an
// implementation oneDNN has only as its reference.
#include "core/exec/cpu/qlinear_matmul_runtime_b.h"

#include <optional>
#include <string_view>
#include <vector>

#include "core/exec/cpu/matmul_shape.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"

namespace passlab::exec::cpu {

using dnnl::memory;
using ir::DataType;
using namespace qlinear;  // NOLINT: the inputs and the int8 helpers

struct RuntimeBQLinearMatMul::Plan {
  Dims aDims, bDims;
  DataType aType = DataType::kUndefined, bType = DataType::kUndefined;
  int threads = 0;
  bool declined = false;
  Dims out;
  DataType yType = DataType::kUInt8;
  bool flipB = false;  // B is u8: fed as s8 b - 128
  dnnl::matmul prim;
  memory::desc src, wei, dst;
  std::vector<int8_t> flipped;
};

namespace {

// The scales and zero points of a QLinearMatMul, all per tensor.
struct Scalars {
  float scale = 0;  // a_scale * b_scale / y_scale
  int32_t aZero = 0, bZero = 0, yZero = 0;
  DataType yType = DataType::kUInt8;
};

// Zero point `i` when absent (0), or a scalar of `type`; nullopt otherwise.
std::optional<int32_t> zeroPoint(const KernelContext& ctx, Input i, DataType type) {
  if (!ctx.has(i)) return 0;
  const Tensor& z = ctx.input(i);
  if (z.numel() != 1 || z.dtype() != type) return std::nullopt;
  return int8At(z, 0);
}

std::optional<Scalars> readScalars(const KernelContext& ctx) {
  const Tensor& a = ctx.input(kX);
  const Tensor& b = ctx.input(kW);
  if (!isInt8(a.dtype()) || !isInt8(b.dtype())) return std::nullopt;
  for (Input i : {kXScale, kWScale, kYScale})
    if (!ctx.has(i) || ctx.input(i).dtype() != DataType::kFloat || ctx.input(i).numel() != 1)
      return std::nullopt;
  Scalars s;
  s.yType = ctx.has(kYZeroPoint) ? ctx.input(kYZeroPoint).dtype() : a.dtype();
  if (!isInt8(s.yType)) return std::nullopt;
  std::optional<int32_t> za = zeroPoint(ctx, kXZeroPoint, a.dtype());
  std::optional<int32_t> zb = zeroPoint(ctx, kWZeroPoint, b.dtype());
  std::optional<int32_t> zy = zeroPoint(ctx, kYZeroPoint, s.yType);
  if (!za || !zb || !zy) return std::nullopt;
  s.aZero = *za, s.bZero = *zb, s.yZero = *zy;
  // As the reference: (a_scale * b_scale) / y_scale in float32.
  s.scale = ctx.input(kXScale).data<float>()[0] * ctx.input(kWScale).data<float>()[0] /
            ctx.input(kYScale).data<float>()[0];
  return s;
}

Dims withMatrix(Dims batch, int64_t rows, int64_t cols) {
  batch.push_back(rows);
  batch.push_back(cols);
  return batch;
}

}  // namespace

RuntimeBQLinearMatMul::RuntimeBQLinearMatMul() = default;
RuntimeBQLinearMatMul::~RuntimeBQLinearMatMul() = default;

Status RuntimeBQLinearMatMul::run(KernelContext& ctx, Kernel& reference) {
  for (Input i : kQuantizationInputs)
    if (ctx.has(i) && !ctx.invariantInput(i)) return reference.run(ctx);
  const Tensor& a = ctx.input(kX);
  const Tensor& b = ctx.input(kW);
  if (a.rank() < 2 || b.rank() < 2 || a.numel() == 0 || b.numel() == 0) return reference.run(ctx);
  if (!plan_ || plan_->aDims != a.dims() || plan_->bDims != b.dims() || plan_->aType != a.dtype() ||
      plan_->bType != b.dtype() || plan_->threads != ctx.threads())
    plan_ = build(ctx);
  if (plan_->declined) return reference.run(ctx);
  PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, plan_->yType, plan_->out));
  memory wei = onednn::over(plan_->wei, b);
  if (plan_->flipB) {
    const uint8_t* from = b.data<uint8_t>();
    const auto n = static_cast<size_t>(b.numel());
    for (size_t i = 0; i < n; ++i) plan_->flipped[i] = static_cast<int8_t>(from[i] ^ 0x80u);
    wei = memory(plan_->wei, onednn::engine(), plan_->flipped.data());
  }
  dnnl::stream& s = onednn::stream();
  plan_->prim.execute(s, {{DNNL_ARG_SRC, onednn::over(plan_->src, a)},
                          {DNNL_ARG_WEIGHTS, wei},
                          {DNNL_ARG_DST, onednn::over(plan_->dst, *y)}});
  s.wait();
  return Status::ok();
}

std::unique_ptr<RuntimeBQLinearMatMul::Plan> RuntimeBQLinearMatMul::build(
    const KernelContext& ctx) const {
  auto p = std::make_unique<Plan>();
  const Tensor& a = ctx.input(kX);
  const Tensor& b = ctx.input(kW);
  p->aDims = a.dims();
  p->bDims = b.dims();
  p->aType = a.dtype();
  p->bType = b.dtype();
  p->threads = ctx.threads();
  Expected<MatMulShape> shape = matmulShape(a.dims(), b.dims());
  std::optional<Scalars> q = readScalars(ctx);
  if (!shape || !q || !exactInt8DotProducts()) {
    p->declined = true;
    return p;
  }
  const MatMulShape& sh = *shape;
  p->out = sh.out;
  p->yType = q->yType;
  p->flipB = b.dtype() == DataType::kUInt8;
  const int32_t bZero = p->flipB ? q->bZero - 128 : q->bZero;
  try {
    dnnl::primitive_attr attr;
    attr.set_output_scales(0, {q->scale});
    if (q->aZero != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {q->aZero});
    if (bZero != 0) attr.set_zero_points(DNNL_ARG_WEIGHTS, 0, {bZero});
    if (q->yZero != 0) attr.set_zero_points(DNNL_ARG_DST, 0, {q->yZero});
    const Dims src = withMatrix(sh.aBatch, sh.M, sh.K), wei = withMatrix(sh.bBatch, sh.K, sh.N),
               dst = withMatrix(sh.batch, sh.M, sh.N);
    const auto tag = onednn::plainTag(dst.size());
    p->src = memory::desc(onednn::toDims(src), int8Type(a.dtype()), tag);
    p->wei = memory::desc(onednn::toDims(wei), memory::data_type::s8, tag);
    p->dst = memory::desc(onednn::toDims(dst), int8Type(q->yType), tag);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(p->src, p->wei, p->dst), attr,
                                    onednn::engine());
    if (std::string_view(pd.impl_info_str()).starts_with("ref")) {
      p->declined = true;
      return p;
    }
    p->prim = dnnl::matmul(pd);
    if (p->flipB) p->flipped.resize(static_cast<size_t>(b.numel()));
  } catch (const dnnl::error&) {
    p->declined = true;
  }
  return p;
}

}  // namespace passlab::exec::cpu
