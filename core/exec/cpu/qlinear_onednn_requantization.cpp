#include "core/exec/cpu/qlinear_onednn_requantization.h"

#include <algorithm>
#include <atomic>

#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/cpu/onednn_util.h"

namespace passlab::exec::cpu::qlinear {

using ir::DataType;

bool isInt8(DataType t) {
  return t == DataType::kInt8 || t == DataType::kUInt8;
}

dnnl::memory::data_type int8Type(DataType t) {
  return t == DataType::kInt8 ? dnnl::memory::data_type::s8 : dnnl::memory::data_type::u8;
}

int32_t int8At(const Tensor& t, int64_t i) {
  return t.dtype() == DataType::kInt8 ? t.data<int8_t>()[i] : t.data<uint8_t>()[i];
}

namespace {

// A scalar zero point of an 8-bit type (`type`, or any 8-bit type when
// kUndefined), or nullopt.
std::optional<int32_t> scalarZeroPoint(const Tensor& z, DataType type) {
  if (type == DataType::kUndefined ? !isInt8(z.dtype()) : z.dtype() != type) return std::nullopt;
  if (z.numel() != 1) return std::nullopt;
  return int8At(z, 0);
}

// int8 zero points, one or one per channel, all 0.
bool weightZeroPointsAreZero(const Tensor& z, int64_t channels) {
  if (z.dtype() != DataType::kInt8 || (z.numel() != 1 && z.numel() != channels)) return false;
  for (int64_t i = 0; i < z.numel(); ++i)
    if (z.data<int8_t>()[i] != 0) return false;
  return true;
}

}  // namespace

OutputForm qgemmOutputForm(float alpha) {
  return OutputForm{7, 8, alpha, true};
}

std::optional<Requantization> readRequantization(const KernelContext& ctx, int64_t channels,
                                                 const OutputForm& form, WeightForm weights) {
  const bool floatOutput = form.floatWithoutYScale && !ctx.has(form.yScale);
  if (!ctx.has(form.yScale) && !floatOutput) return std::nullopt;
  // QGemm's output type is y_zero_point's: float without one.
  if (form.floatWithoutYScale && ctx.has(form.yScale) != ctx.has(form.yZeroPoint))
    return std::nullopt;
  const Tensor& x = ctx.input(kX);
  const Tensor& xScale = ctx.input(kXScale);
  const Tensor& wScale = ctx.input(kWScale);
  const bool anyWeights = weights == WeightForm::kAny8Bit;
  const DataType wType = ctx.input(kW).dtype();
  if (!isInt8(x.dtype()) || (anyWeights ? !isInt8(wType) : wType != DataType::kInt8))
    return std::nullopt;
  for (const Tensor* s : {&xScale, &wScale})
    if (s->dtype() != DataType::kFloat) return std::nullopt;
  if (xScale.numel() != 1) return std::nullopt;
  if (wScale.numel() != 1 && wScale.numel() != channels) return std::nullopt;
  if (!anyWeights && ctx.has(kWZeroPoint) &&
      !weightZeroPointsAreZero(ctx.input(kWZeroPoint), channels))
    return std::nullopt;

  Requantization r;
  if (ctx.has(kXZeroPoint)) {
    std::optional<int32_t> z = scalarZeroPoint(ctx.input(kXZeroPoint), x.dtype());
    if (!z) return std::nullopt;
    r.xZeroPoint = *z;
  }
  const float xs = form.alpha * xScale.data<float>()[0];
  if (floatOutput) {
    r.yType = DataType::kFloat;
    for (int64_t c = 0; c < wScale.numel(); ++c)
      r.outputScales.push_back(xs * wScale.data<float>()[c]);
    return r;
  }
  const Tensor& yScale = ctx.input(form.yScale);
  if (yScale.dtype() != DataType::kFloat || yScale.numel() != 1) return std::nullopt;
  r.yType = x.dtype();
  if (ctx.has(form.yZeroPoint)) {
    std::optional<int32_t> z = scalarZeroPoint(ctx.input(form.yZeroPoint), DataType::kUndefined);
    if (!z) return std::nullopt;
    r.yType = ctx.input(form.yZeroPoint).dtype();
    r.yZeroPoint = *z;
  }
  const float ys = yScale.data<float>()[0];
  for (int64_t c = 0; c < wScale.numel(); ++c)
    r.outputScales.push_back(xs * wScale.data<float>()[c] / ys);
  return r;
}

dnnl::primitive_attr requantizationAttr(const Requantization& r) {
  dnnl::primitive_attr attr;
  // Mask 1 << 1: one scale per element of dst's axis 1 (the channels of
  // [N, M, ...], the columns of [rows, N]); 0: one for all.
  attr.set_output_scales(r.outputScales.size() > 1 ? 1 << 1 : 0, r.outputScales);
  if (r.xZeroPoint != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {r.xZeroPoint});
  if (r.yZeroPoint != 0) {
    // QLinearConv rounds the scaled sum, then adds y_zero_point (as the
    // reference and ONNX Runtime do). oneDNN's dst zero point is added to the
    // float32 product before its rounding, which loses the product's low bits
    // (from 2^-16 up at 128..255): a value within that of a .5 tie rounded
    // one step apart (0.01-0.02% of ppocr_cls's outputs, enough to cost it
    // 4.5 dB after the squeeze-excitation blocks). So: round to nearest even
    // as a post-op, then add the zero point to that integer (exact).
    dnnl::post_ops ops;
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_round, 0.0f, 0.0f);
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, 1.0f,
                       static_cast<float>(r.yZeroPoint));
    attr.set_post_ops(ops);
  }
  return attr;
}

namespace {

// Whether oneDNN, capped at PASSLAB_MAX_ISA first, runs at AVX-512 VNNI or
// above, or (`avx2Vnni`) also at AVX2_VNNI.
bool oneDnnHasVnni(bool avx2Vnni) {
  onednn::engine();
  using isa = dnnl::cpu_isa;
  switch (dnnl::get_effective_cpu_isa()) {
    case isa::avx2_vnni:
      return avx2Vnni;
    case isa::avx512_core_vnni:
    case isa::avx512_core_bf16:
    case isa::avx512_core_amx:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool exactInt8DotProducts() {
  return oneDnnHasVnni(true);
}

bool int8ConvSumsExactPastFloat32() {
  return oneDnnHasVnni(false);
}

bool int8ConvSumsExact(int64_t largestWeightSum) {
  static const bool pastFloat32 = int8ConvSumsExactPastFloat32();
  return pastFloat32 || largestWeightSum * 255 < (int64_t{1} << 24);
}

// int8_dot_exactness.h
bool int8DotProductsExactFor(std::span<const int8_t> w, DataType xType) {
  static const bool exact = exactInt8DotProducts();
  if (exact) return true;
  if (xType != DataType::kUInt8) return false;
  return std::all_of(w.begin(), w.end(),
                     [](int8_t v) { return v >= -kNarrowInt8Weight && v <= kNarrowInt8Weight; });
}

namespace {
std::atomic<uint64_t> narrowPlans{0};
}  // namespace

uint64_t narrowWeightInt8Plans() {
  return narrowPlans.load(std::memory_order_relaxed);
}

void countNarrowWeightInt8Plan() {
  narrowPlans.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace passlab::exec::cpu::qlinear
