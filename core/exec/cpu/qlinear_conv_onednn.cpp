// QLinearConv on oneDNN's int8 convolution (and, registered here, QLinearMatMul on
// its int8 matmul: qlinear_matmul_onednn.cpp). The activation (u8 or s8) goes in
// with x_zero_point as oneDNN's source zero point, the weights are s8 with a
// zero point of 0 (what static quantizers emit: symmetric weights), the int32
// bias is added in the accumulator domain, and the requantization
// x_scale * w_scale[m] / y_scale, y_zero_point and the saturation to u8/s8
// happen inside the primitive. The scales and zero points are baked into the
// primitive (oneDNN 2.6 declined runtime ones here), so they must be the same
// on every run (KernelContext::invariantInput); the primitive is built once per
// input shape and constant weights are reordered once (onednn::ConvPrimitive).
//
// Anything else runs the reference QLinearConv (qlinear.cpp), so errors and
// results stay the reference's: a nonzero or non-int8 weight zero point,
// scales or zero points that vary between runs, non-float32 scales, a
// configuration oneDNN has no optimized implementation for, a CPU without
// VNNI (see exactInt8DotProducts). The one difference from the reference:
// oneDNN multiplies the int32 sum by the float32 scale in float32 where the
// reference uses double, so a value close to a rounding tie may come out 1
// apart.
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/onednn_conv_primitive.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/qlinear_matmul_onednn.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

using dnnl::memory;
using ir::DataType;
using tag = memory::format_tag;

// QLinearConv's inputs.
enum Input : size_t {
  kX = 0,
  kXScale = 1,
  kXZeroPoint = 2,
  kW = 3,
  kWScale = 4,
  kWZeroPoint = 5,
  kYScale = 6,
  kYZeroPoint = 7,
  kBias = 8,
};
constexpr Input kQuantizationInputs[] = {kXScale,     kXZeroPoint, kWScale,
                                         kWZeroPoint, kYScale,     kYZeroPoint};

tag dataTag(size_t spatial) {
  return spatial == 1 ? tag::ncw : spatial == 2 ? tag::nchw : tag::ncdhw;
}
tag weightsTag(size_t spatial, bool grouped) {
  if (grouped) return spatial == 1 ? tag::goiw : spatial == 2 ? tag::goihw : tag::goidhw;
  return spatial == 1 ? tag::oiw : spatial == 2 ? tag::oihw : tag::oidhw;
}

bool isInt8(DataType t) {
  return t == DataType::kInt8 || t == DataType::kUInt8;
}
memory::data_type int8Type(DataType t) {
  return t == DataType::kInt8 ? memory::data_type::s8 : memory::data_type::u8;
}

// One 8-bit value of a uint8 or int8 tensor.
int32_t int8At(const Tensor& t, int64_t i) {
  return t.dtype() == DataType::kInt8 ? t.data<int8_t>()[i] : t.data<uint8_t>()[i];
}

// What the primitive is built with: the requantization of QLinearConv.
struct Requantization {
  int32_t xZeroPoint = 0, yZeroPoint = 0;
  DataType yType = DataType::kUInt8;
  // x_scale * w_scale[m] / y_scale in float32 as the reference computes it:
  // one value, or one per output channel.
  std::vector<float> outputScales;
};

// The requantization of this run, or nullopt where the reference must run:
// anything it would reject, and what oneDNN cannot take (a nonzero weight
// zero point, scales other than float32, u8 weights).
std::optional<Requantization> readRequantization(const KernelContext& ctx, int64_t M) {
  const Tensor& x = ctx.input(kX);
  const Tensor& xScale = ctx.input(kXScale);
  const Tensor& wScale = ctx.input(kWScale);
  const Tensor& yScale = ctx.input(kYScale);
  if (ctx.input(kW).dtype() != DataType::kInt8) return std::nullopt;
  for (const Tensor* s : {&xScale, &wScale, &yScale})
    if (s->dtype() != DataType::kFloat) return std::nullopt;
  if (xScale.numel() != 1 || yScale.numel() != 1) return std::nullopt;
  if (wScale.numel() != 1 && wScale.numel() != M) return std::nullopt;

  Requantization r;
  if (ctx.has(kXZeroPoint)) {
    const Tensor& z = ctx.input(kXZeroPoint);
    if (z.dtype() != x.dtype() || z.numel() != 1) return std::nullopt;
    r.xZeroPoint = int8At(z, 0);
  }
  if (ctx.has(kWZeroPoint)) {
    const Tensor& z = ctx.input(kWZeroPoint);
    if (z.dtype() != DataType::kInt8 || (z.numel() != 1 && z.numel() != M)) return std::nullopt;
    for (int64_t i = 0; i < z.numel(); ++i)
      if (z.data<int8_t>()[i] != 0) return std::nullopt;
  }
  r.yType = x.dtype();
  if (ctx.has(kYZeroPoint)) {
    const Tensor& z = ctx.input(kYZeroPoint);
    if (!isInt8(z.dtype()) || z.numel() != 1) return std::nullopt;
    r.yType = z.dtype();
    r.yZeroPoint = int8At(z, 0);
  }
  const float xs = xScale.data<float>()[0], ys = yScale.data<float>()[0];
  for (int64_t m = 0; m < wScale.numel(); ++m)
    r.outputScales.push_back(xs * wScale.data<float>()[m] / ys);
  return r;
}

// Everything built for one input shape.
struct QConvPlan : onednn::ConvPrimitive {
  Dims xDims, wDims;
  bool hasBias = false;
  int threads = 0;
  Requantization requantization;
  bool declined = false;  // the reference kernel runs this configuration
};

// oneDNN's dims of ONNX weights [M, C/group, k...]: [group, M/group, C/group, k...] when grouped.
memory::dims oneDnnWeightDims(const ConvGeometry& g) {
  memory::dims d;
  if (g.group > 1) d.push_back(g.group);
  d.push_back(g.M / g.group);
  d.push_back(g.C / g.group);
  d.insert(d.end(), g.kernel.begin(), g.kernel.end());
  return d;
}

// The scales and zero points as primitive attributes.
dnnl::primitive_attr requantizationAttr(const Requantization& r) {
  dnnl::primitive_attr attr;
  // Mask 1 << 1: one scale per channel of dst [N, M, ...]; 0: one for all.
  attr.set_output_scales(r.outputScales.size() > 1 ? 1 << 1 : 0, r.outputScales);
  if (r.xZeroPoint != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {r.xZeroPoint});
  if (r.yZeroPoint != 0) attr.set_zero_points(DNNL_ARG_DST, 0, {r.yZeroPoint});
  return attr;
}

// Without VNNI, oneDNN multiplies u8 by s8 with vpmaddubsw, whose int16 sums
// of pairs saturate (and for s8 sources it halves the weights): measured 8 to
// 27 off the reference under ONEDNN_MAX_CPU_ISA=AVX2 or AVX512_CORE. Only CPUs
// with VNNI (exact int32 dot products) run oneDNN here.
bool exactInt8DotProducts() {
  using isa = dnnl::cpu_isa;
  switch (dnnl::get_effective_cpu_isa()) {
    case isa::avx2_vnni:
    case isa::avx512_core_vnni:
    case isa::avx512_core_bf16:
    case isa::avx512_core_amx:
      return true;
    default:
      return false;
  }
}

// AMX's tile set-up costs more than its int8 tiles save on small
// convolutions: ppocr_cls_mobile_v2's 52 convolutions (at most 3.5M
// multiply-adds each) took 0.92 ms with AMX and 0.29 ms on VNNI, ultraface's
// 4.1 and 3.7 ms (1 thread, medians of 40 runs); a 3x3 64->64 convolution on
// 56x56 (115M) gains from it. Below this many multiply-adds, the first
// implementation that is not AMX.
constexpr int64_t kAmxMinMultiplyAdds = int64_t{64} << 20;

int64_t multiplyAdds(const QConvPlan& p, const ConvGeometry& g) {
  int64_t out = 1, perOutput = 1;
  for (int64_t d : g.outDims) out *= d;
  for (size_t i = 1; i < p.wDims.size(); ++i) perOutput *= p.wDims[i];
  return out * perOutput;
}

// Moves `pd` past AMX implementations; false when none other is left (pd is
// then spent: make it again).
bool skipAmx(dnnl::convolution_forward::primitive_desc& pd) {
  while (std::string_view(pd.impl_info_str()).find("amx") != std::string_view::npos)
    if (!pd.next_impl()) return false;
  return !std::string_view(pd.impl_info_str()).starts_with("ref");
}

// The convolution primitive for geometry g, or declined when oneDNN has no
// implementation or only its own reference one (slower than an optimized
// kernel, and no reason to leave PassLab's reference semantics).
void buildPrimitive(QConvPlan& p, const ConvGeometry& g, DataType xType) {
  static const bool exact = exactInt8DotProducts();
  if (!exact) {
    p.declined = true;
    return;
  }
  try {
    const size_t sp = g.spatial();
    const memory::data_type src = int8Type(xType), dst = int8Type(p.requantization.yType);
    const memory::data_type wei = memory::data_type::s8;
    const memory::dims wDims = oneDnnWeightDims(g);
    memory::dims strides(g.stride.begin(), g.stride.end());
    memory::dims padL(g.padBegin.begin(), g.padBegin.end()), padR(g.padEnd.begin(), g.padEnd.end());
    memory::dims dilation;
    for (int64_t d : g.dilation) dilation.push_back(d - 1);  // oneDNN counts the gaps

    p.userSrc = memory::desc(onednn::toDims(p.xDims), src, dataTag(sp));
    p.userWei = memory::desc(wDims, wei, weightsTag(sp, g.group > 1));
    p.userDst = memory::desc(onednn::toDims(g.outDims), dst, dataTag(sp));
    p.biasDesc = memory::desc({g.M}, memory::data_type::s32, tag::x);
    // `any`: oneDNN picks the layouts of its fastest int8 kernel (channels-last or blocked).
    auto anySrc = memory::desc(onednn::toDims(p.xDims), src, tag::any);
    auto anyWei = memory::desc(wDims, wei, tag::any);
    auto anyDst = memory::desc(onednn::toDims(g.outDims), dst, tag::any);
    const auto kind = dnnl::prop_kind::forward_inference;
    const auto algo = dnnl::algorithm::convolution_direct;
    auto desc = p.hasBias ? dnnl::convolution_forward::desc(kind, algo, anySrc, anyWei, p.biasDesc,
                                                            anyDst, strides, dilation, padL, padR)
                          : dnnl::convolution_forward::desc(kind, algo, anySrc, anyWei, anyDst,
                                                            strides, dilation, padL, padR);
    auto make = [&] {
      return dnnl::convolution_forward::primitive_desc(desc, requantizationAttr(p.requantization),
                                                       onednn::engine());
    };
    auto pd = make();
    if (multiplyAdds(p, g) < kAmxMinMultiplyAdds && !skipAmx(pd)) pd = make();
    if (std::string_view(pd.impl_info_str()).starts_with("ref")) {
      p.declined = true;
      return;
    }
    p.adopt(dnnl::convolution_forward(pd), pd.src_desc(), pd.weights_desc(), pd.dst_desc());
  } catch (const dnnl::error&) {
    p.declined = true;
  }
}

// The reference QLinearConv's factory (qlinear.cpp), found by its row.
Expected<std::unique_ptr<Kernel>> makeReferenceQLinearConv(const KernelBuild& b) {
  for (const KernelDef& row : qlinearKernels())
    if (row.op == "QLinearConv" && row.tier == Tier::kReference) return row.create(b);
  return unsupported("the reference QLinearConv kernel is missing");
}

class OneDnnQLinearConv final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(ConvAttrs attrs, parseConvAttrs(b.node()));
    PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> reference, makeReferenceQLinearConv(b));
    return std::unique_ptr<Kernel>(new OneDnnQLinearConv(std::move(attrs), std::move(reference)));
  }

  Status run(KernelContext& ctx) override {
    if (!quantizationInvariant(ctx)) return reference_->run(ctx);
    const Tensor& x = ctx.input(kX);
    const Tensor& w = ctx.input(kW);
    const Tensor* bias = ctx.has(kBias) ? &ctx.input(kBias) : nullptr;
    // The reference reports malformed geometry and bias.
    auto geo = convGeometry(attrs_, x.dims(), w.dims());
    if (!geo) return reference_->run(ctx);
    const ConvGeometry& g = *geo;
    if (bias && (bias->dtype() != DataType::kInt32 || bias->numel() != g.M))
      return reference_->run(ctx);
    if (g.spatial() > 3 || x.numel() == 0) return reference_->run(ctx);
    if (planIsStale(ctx, x, w, bias != nullptr)) plan_ = build(ctx, g, bias != nullptr);
    if (plan_->declined) return reference_->run(ctx);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, plan_->requantization.yType, g.outDims));
    return plan_->execute(ctx, x, w, bias, *y, ctx.invariantInput(kW));
  }

 private:
  OneDnnQLinearConv(ConvAttrs attrs, std::unique_ptr<Kernel> reference)
      : attrs_(std::move(attrs)), reference_(std::move(reference)) {}

  // The scales and zero points are baked into the primitive: they must hold
  // the same values on every run (omitted zero points are constant too).
  static bool quantizationInvariant(const KernelContext& ctx) {
    for (Input i : kQuantizationInputs)
      if (ctx.has(i) && !ctx.invariantInput(i)) return false;
    return true;
  }

  bool planIsStale(const KernelContext& ctx, const Tensor& x, const Tensor& w, bool hasBias) const {
    return !plan_ || plan_->xDims != x.dims() || plan_->wDims != w.dims() ||
           plan_->hasBias != hasBias || plan_->threads != ctx.threads();
  }

  static std::unique_ptr<QConvPlan> build(const KernelContext& ctx, const ConvGeometry& g,
                                          bool hasBias) {
    auto p = std::make_unique<QConvPlan>();
    p->xDims = ctx.input(kX).dims();
    p->wDims = ctx.input(kW).dims();
    p->hasBias = hasBias;
    p->threads = ctx.threads();
    std::optional<Requantization> r = readRequantization(ctx, g.M);
    if (!r) {
      p->declined = true;
      return p;
    }
    p->requantization = std::move(*r);
    buildPrimitive(*p, g, ctx.input(kX).dtype());
    return p;
  }

  ConvAttrs attrs_;
  std::unique_ptr<Kernel> reference_;
  std::unique_ptr<QConvPlan> plan_;
};

constexpr TypeSet kInt8s{DataType::kInt8, DataType::kUInt8};

const KernelDef kRows[] = {
    {"", "QLinearConv", 10, kOpsetMax, kInt8s, 0, Tier::kOptimized, "onednn.QLinearConv",
     makeKernel<OneDnnQLinearConv>},
    // qlinear_matmul_onednn.cpp
    {"", "QLinearMatMul", 10, kOpsetMax, kInt8s, 0, Tier::kOptimized, "onednn.QLinearMatMul",
     makeOneDnnQLinearMatMul},
};

}  // namespace

std::span<const KernelDef> qlinearOneDnnKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
