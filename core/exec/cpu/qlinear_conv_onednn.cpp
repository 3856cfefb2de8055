// QLinearConv on oneDNN's int8 convolution (and, registered here, QLinearMatMul
// and com.microsoft QGemm on its int8 matmul: qlinear_matmul_onednn.cpp). The
// activation (u8 or s8) goes in with x_zero_point as oneDNN's source zero
// point, the weights are s8 with a zero point of 0 (what static quantizers
// emit: symmetric weights), the int32 bias is added in the accumulator domain,
// and the requantization x_scale * w_scale[m] / y_scale, y_zero_point and the
// saturation to u8/s8 happen inside the primitive. The scales and zero points
// are baked into the primitive (oneDNN 2.6 declined runtime ones here), so
// they must be the same on every run (KernelContext::invariantInput); the
// primitive is built once per input shape and constant weights are reordered
// once (onednn::ConvPrimitive).
//
// A channels-last depthwise QLinearConv with constant weights runs on
// PassLab's own kernel instead (qlinear_depthwise_nhwc.h: exact, and
// faster than oneDNN 2.6's generic jit_int8 kernel, the one it offers with
// zero points, and than its brdgmm_dw without; AVX-512 VNNI, or 256-bit on
// AVX-VNNI and AVX2 for any int8 weights), and so does a
// channels-last pointwise one (1x1, stride 1, no padding) with zero points and
// at least 8 outputs (any pixel count, since session 38), or of at most 4
// pixels with or without zero points (qlinear_pointwise_nhwc.h: exact, without
// oneDNN's per-call set-up and zero-point post-ops).
//
// uint8 weights or a nonzero weight zero point (constant weights) run on
// oneDNN's int32 sums with the zero points taken out and the reference's
// requantization (qlinear_conv_int32.h: exact).
//
// Constant weights held in a form of their own (oneDNN's packed layout, the
// depthwise and pointwise kernels' prepared weights) serve every later run
// and every plan for another input shape (reordered from the held copy,
// reshaped), so the kernel says KernelContext::holdsOwnCopy and the executor
// may free W; a path that would read the freed W (oneDNN declines a new
// shape) is an error naming the node, but for a Y of no elements (a batch of
// 0), which reads no weight. The int32 path (qlinear_conv_int32.h) holds W'
// packed the same way. Not a pointwise layer whose kernel depends on the
// pixel count (at most 4 pixels: the pointwise kernel; more: oneDNN, which
// may round a tie the other way): its W stays, so that every shape takes
// the kernel a fresh executor would.
//
// Anything else runs the reference QLinearConv (qlinear.cpp), so errors and
// results stay the reference's: scales or zero points that vary between
// runs, non-float32 scales, a configuration oneDNN has no optimized
// implementation for. On a CPU without VNNI (exactInt8DotProducts: oneDNN's int8 kernels there
// saturate) a layer of uint8 X and constant int8 weights in [-64, 64] with zero point 0 (what
// `reduce_range` quantizers write) still runs on oneDNN's int8 convolution, whose sums are exact
// for it (int8_dot_exactness.h); any other, the integer sums come from oneDNN's float32
// convolution where that is exact (qlinear_conv_float_sums.h), bit for bit the reference; else
// the reference.
//
// NCHW layers with VNNI (AVX-512 or AVX-VNNI), and NCHW layers of narrow weights without it
// (AVX2), take oneDNN's int32 sums and the reference's requantization (qlinear_conv_int32.h, as
// for uint8 weights; on AVX2 + FMA where there is no AVX-512): bit for bit the reference. Where
// oneDNN's primitive requantizes (channels-last layers PassLab's own kernels do not take, SSE4.1
// CPUs), it multiplies the int32 sum by the float32 scale in float32 where the reference uses
// double, so a value close to a rounding tie may come out 1 apart
// (qlinear_conv_near_tie_test.cpp).
#include <memory>
#include <optional>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/int8_dot_exactness.h"
#include "core/exec/cpu/narrow_int8_weights.h"
#include "core/exec/cpu/onednn_conv_primitive.h"
#include "core/exec/cpu/onednn_int8_conv.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/qlinear_conv_channels_last.h"
#include "core/exec/cpu/qlinear_conv_float_sums.h"
#include "core/exec/cpu/qlinear_conv_int32.h"
#include "core/exec/cpu/qlinear_depthwise_nhwc.h"
#include "core/exec/cpu/qlinear_matmul_onednn.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/qlinear_pointwise_nhwc.h"
#include "core/exec/cpu/qlinear_reference.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

using dnnl::memory;
using ir::DataType;

using namespace qlinear;  // NOLINT: the inputs, the requantization and its helpers
constexpr size_t kBias = 8;

// Everything built for one input shape.
struct QConvPlan : onednn::ConvPrimitive {
  Dims xDims, wDims;
  bool hasBias = false;
  int threads = 0;
  Requantization requantization;
  bool declined = false;  // the reference kernel runs this configuration
  // A CPU without exact int8 dot products, and weights that make oneDNN's
  // int8 sums exact anyway (int8_dot_exactness.h): the primitive runs.
  bool narrowWeights = false;
  // A channels-last depthwise convolution with constant weights runs on
  // PassLab's own kernel instead of the primitive (qlinear_depthwise_nhwc.h).
  std::unique_ptr<QLinearDepthwiseNhwc> depthwise;
  // And a channels-last pointwise one that reduces the channels (qlinear_pointwise_nhwc.h).
  std::unique_ptr<QLinearPointwiseNhwc> pointwise;
  // The layer takes the pointwise kernel on few pixels and oneDNN on more
  // (which round differently at a float32 tie): W is never freed for it, so
  // that each input shape takes the kernel a fresh executor would, whatever
  // shapes ran before (a reused executor gives a fresh one's bytes).
  bool kernelByPixels = false;
  // uint8 weights or weight zero points other than 0 (qlinear_conv_int32.h).
  std::unique_ptr<QLinearConvInt32> int32Sums;
  // Without exact int8 dot products: the sums in float32 (qlinear_conv_float_sums.h).
  std::unique_ptr<QLinearConvFloatSums> floatSums;
};

// The convolution primitive for geometry g (onednn_int8_conv.h), or declined
// on a CPU without exact int8 dot products, where oneDNN has no
// implementation or only its own reference one (slower than an optimized
// kernel, and no reason to leave PassLab's reference semantics).
void buildPrimitive(QConvPlan& p, const ConvGeometry& g, DataType xType, bool channelsLast) {
  static const bool exact = exactInt8DotProducts();
  p.declined =
      !(exact || p.narrowWeights) ||
      !onednn::buildInt8Conv(p, g, int8Type(xType), int8Type(p.requantization.yType), p.hasBias,
                             requantizationAttr(p.requantization), channelsLast);
}

class OneDnnQLinearConv final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(ConvAttrs attrs, parseConvAttrs(b.node()));
    PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> reference,
                             makeQLinearReference("QLinearConv", b));
    return std::unique_ptr<Kernel>(new OneDnnQLinearConv(std::move(attrs), std::move(reference),
                                                         isChannelsLastQLinearConv(b.node())));
  }

  // com.microsoft QLinearConv with channels_last = 1: X and Y [N, spatial...,
  // C], oneDNN's own int8 layout, so no reorder runs around the primitive.
  Status run(KernelContext& ctx) override {
    if (!quantizationInvariant(ctx)) return runReference(ctx);
    const Tensor& x = ctx.input(kX);
    const Tensor& w = ctx.input(kW);
    const Tensor* bias = ctx.has(kBias) ? &ctx.input(kBias) : nullptr;
    // The reference reports malformed geometry and bias.
    auto geo =
        convGeometry(attrs_, channelsLast_ ? channelsFirstDims(x.dims()) : x.dims(), w.dims());
    if (!geo) return runReference(ctx);
    const ConvGeometry& g = *geo;
    if (bias && (bias->dtype() != DataType::kInt32 || bias->numel() != g.M))
      return runReference(ctx);
    if (g.spatial() > 3 || x.numel() == 0) return runReference(ctx);
    if (planIsStale(ctx, x, w, bias != nullptr)) plan_ = build(ctx, g, bias != nullptr);
    if (plan_->floatSums && ctx.invariantInput(kW)) {
      PASSLAB_ASSIGN_OR_RETURN(
          Tensor * y, ctx.allocate(0, plan_->floatSums->yType(),
                                   channelsLast_ ? channelsLastDims(g.outDims) : g.outDims));
      return plan_->floatSums->run(ctx, x, bias, *y);
    }
    if (plan_->int32Sums && ctx.invariantInput(kW)) {
      PASSLAB_ASSIGN_OR_RETURN(
          Tensor * y, ctx.allocate(0, plan_->int32Sums->yType(),
                                   channelsLast_ ? channelsLastDims(g.outDims) : g.outDims));
      PASSLAB_RETURN_IF_ERROR(plan_->int32Sums->run(ctx, x, bias, *y));
      if (plan_->int32Sums->holdsWeights()) ctx.holdsOwnCopy(kW);
      return Status::ok();
    }
    if (plan_->declined) return runReference(ctx);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y,
                             ctx.allocate(0, plan_->requantization.yType,
                                          channelsLast_ ? channelsLastDims(g.outDims) : g.outDims));
    if (plan_->depthwise && ctx.invariantInput(kW)) {
      plan_->depthwise->run(x.raw(), bias ? bias->data<int32_t>() : nullptr, y->mutableRaw(),
                            ctx.threads());
      ctx.holdsOwnCopy(kW);
      return Status::ok();
    }
    if (plan_->pointwise && ctx.invariantInput(kW)) {
      plan_->pointwise->run(x.raw(), bias ? bias->data<int32_t>() : nullptr, y->mutableRaw(),
                            ctx.threads());
      if (!plan_->kernelByPixels) ctx.holdsOwnCopy(kW);
      return Status::ok();
    }
    if (!plan_->prim) buildPrimitive(*plan_, g, x.dtype(), channelsLast_);
    if (plan_->declined) return runReference(ctx);
    const bool invariantW = ctx.invariantInput(kW);
    PASSLAB_RETURN_IF_ERROR(plan_->execute(ctx, x, w, bias, *y, invariantW));
    if (invariantW && plan_->holdsWeights() && !plan_->kernelByPixels) ctx.holdsOwnCopy(kW);
    return Status::ok();
  }

 private:
  OneDnnQLinearConv(ConvAttrs attrs, std::unique_ptr<Kernel> reference, bool channelsLast)
      : attrs_(std::move(attrs)), reference_(std::move(reference)), channelsLast_(channelsLast) {}

  // The reference reads W: an error instead once W was freed (held) and
  // the held form does not serve this run, unless Y has no elements (a batch
  // of 0), which reads no weight.
  Status runReference(KernelContext& ctx) {
    if (ctx.input(kW).dataFreed()) {
      if (std::optional<Status> empty = emptyOutput(ctx)) return *empty;
      return internalError("the new shape needs W, which was freed after it was held packed");
    }
    return channelsLast_ ? runChannelsFirst(*reference_, ctx) : reference_->run(ctx);
  }

  // The reference's Y where it has no elements, without the reference's read
  // of W (once W was freed); nullopt where Y is not empty.
  std::optional<Status> emptyOutput(KernelContext& ctx) const {
    const Tensor& x = ctx.input(kX);
    auto geo = convGeometry(attrs_, channelsLast_ ? channelsFirstDims(x.dims()) : x.dims(),
                            ctx.input(kW).dims());
    if (!geo) return std::nullopt;
    int64_t count = 1;
    for (int64_t d : geo->outDims) count *= d;
    if (count != 0) return std::nullopt;
    const DataType yType = ctx.has(kYZeroPoint) ? ctx.input(kYZeroPoint).dtype() : x.dtype();
    return ctx.allocate(0, yType, channelsLast_ ? channelsLastDims(geo->outDims) : geo->outDims)
        .status();
  }

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

  // The plan for the input shape of `ctx`. It takes what the plan it
  // replaces holds of W (the depthwise or pointwise kernel reshaped, the
  // primitive's packed weights), so W is read only where nothing holds it.
  std::unique_ptr<QConvPlan> build(const KernelContext& ctx, const ConvGeometry& g, bool hasBias) {
    std::unique_ptr<QConvPlan> old = std::move(plan_);
    const bool channelsLast = channelsLast_;
    const bool freed = ctx.input(kW).dataFreed();
    auto fresh = [&] {
      auto p = std::make_unique<QConvPlan>();
      p->xDims = ctx.input(kX).dims();
      p->wDims = ctx.input(kW).dims();
      p->hasBias = hasBias;
      p->threads = ctx.threads();
      return p;
    };
    std::unique_ptr<QConvPlan> p = fresh();
    // oneDNN's int8 kernels declined (no VNNI) unless the weights make them exact: the exact
    // float32 sums, or the reference.
    static const bool exactInt8 = exactInt8DotProducts();
    std::optional<Requantization> r;
    if (!exactInt8) {
      r = readRequantization(ctx, g.M);
      // A depthwise layer, any int8 weights: PassLab's own kernel, exact in 256-bit registers
      // too (qlinear_depthwise_nhwc_256.h).
      if (r && channelsLast && ctx.invariantInput(kW) && QLinearDepthwiseNhwc::covers(g)) {
        if (old && old->depthwise && old->depthwise->reshape(g)) {
          p->requantization = std::move(*r);
          p->depthwise = std::move(old->depthwise);
          return p;
        }
        if (!freed) {
          auto k = std::make_unique<QLinearDepthwiseNhwc>();
          if (k->prepare(g, ctx.input(kW).data<int8_t>(), *r, ctx.input(kX).dtype())) {
            p->requantization = std::move(*r);
            p->depthwise = std::move(k);
            return p;
          }
        }
      }
      // A pointwise layer: PassLab's own AVX2 kernel (qlinear_pointwise_nhwc.h), exact for any
      // weights (vpmaddubsw for weights in [-64, 64], `reduce_range`; int16 pairs else), and
      // faster than oneDNN's int8 convolution or the float32 sums.
      if (r && channelsLast && ctx.invariantInput(kW) && QLinearPointwiseNhwc::covers(g) &&
          QLinearPointwiseNhwc::preferredWithoutVnni(g)) {
        if (old && old->pointwise && old->pointwise->reshape(g)) {
          p->requantization = std::move(*r);
          p->pointwise = std::move(old->pointwise);
          return p;
        }
        if (!freed) {
          auto k = std::make_unique<QLinearPointwiseNhwc>();
          if (k->prepare(g, ctx.input(kW).data<int8_t>(), *r, ctx.input(kX).dtype())) {
            p->requantization = std::move(*r);
            p->pointwise = std::move(k);
            return p;
          }
        }
      }
      p->narrowWeights = r && narrowWeights(ctx, old.get());
      // NCHW: oneDNN's int32 sums (exact for these weights) and the reference's requantization,
      // as with VNNI below: the reference's bytes, where the primitive's float32 product may
      // round a near-tie the other way.
      if (p->narrowWeights && !channelsLast) {
        p->int32Sums =
            QLinearConvInt32::create(ctx, g, false, old ? old->int32Sums.get() : nullptr);
        if (p->int32Sums) {
          p->declined = true;
          countNarrowWeightInt8Plan();
          return p;
        }
      }
      if (p->narrowWeights) {
        p->requantization = std::move(*r);
        buildPrimitive(*p, g, ctx.input(kX).dtype(), channelsLast);
        if (!p->declined) {
          if (old) p->inheritWeights(*old);
          countNarrowWeightInt8Plan();
          return p;
        }
        // oneDNN offers no optimized kernel: the float32 sums below.
        p = fresh();
      }
      p->floatSums =
          QLinearConvFloatSums::create(ctx, g, channelsLast, old ? old->floatSums.get() : nullptr);
      p->declined = true;
      return p;
    }
    r = readRequantization(ctx, g.M);
    if (!r) {
      p->int32Sums =
          QLinearConvInt32::create(ctx, g, channelsLast, old ? old->int32Sums.get() : nullptr);
      p->declined = true;
      return p;
    }
    p->requantization = std::move(*r);
    const bool zeroPoints = p->requantization.xZeroPoint != 0 || p->requantization.yZeroPoint != 0;
    // With or without zero points: ppocr_cls's three 3x3 layers without them
    // took 4.7-5.0 us each on oneDNN's brdgmm_dw, 3.2-4.7 here (session 37).
    const bool depthwise =
        channelsLast && ctx.invariantInput(kW) && QLinearDepthwiseNhwc::covers(g);
    if (depthwise && old && old->depthwise && old->depthwise->reshape(g)) {
      p->depthwise = std::move(old->depthwise);
      return p;
    }
    if (depthwise && !freed) {
      p->depthwise = std::make_unique<QLinearDepthwiseNhwc>();
      if (p->depthwise->prepare(g, ctx.input(kW).data<int8_t>(), p->requantization,
                                ctx.input(kX).dtype()))
        return p;
      p->depthwise.reset();
    }
    // With few pixels also without zero points: oneDNN's per-call cost is the node's time.
    // Unless the layer takes the pointwise kernel on every shape (zero points and wide
    // enough), the kernel depends on the pixel count, and W stays for both (kernelByPixels).
    const bool pointwiseLayer =
        channelsLast && ctx.invariantInput(kW) && QLinearPointwiseNhwc::covers(g);
    p->kernelByPixels = pointwiseLayer && !(zeroPoints && QLinearPointwiseNhwc::wide(g));
    const bool pointwise = pointwiseLayer && (zeroPoints || QLinearPointwiseNhwc::fewPixels(g)) &&
                           QLinearPointwiseNhwc::preferred(g);
    if (pointwise && old && old->pointwise && old->pointwise->reshape(g)) {
      p->pointwise = std::move(old->pointwise);
      return p;
    }
    if (pointwise && !freed) {
      p->pointwise = std::make_unique<QLinearPointwiseNhwc>();
      if (p->pointwise->prepare(g, ctx.input(kW).data<int8_t>(), p->requantization,
                                ctx.input(kX).dtype()))
        return p;
      p->pointwise.reset();
    }
    // NCHW: oneDNN's int32 sums, then the reference's rounding of the exact product
    // (qlinear_conv_int32.h): bit for bit the reference, and faster than the primitive's own
    // requantization (which rounds the float32 product acc * scale, one step off at a near-tie:
    // picodet, sessions 37-38) with its reorder of Y from channels-last. Channels-last layers
    // keep the primitive: there the int32 sums cost 7-35% more (docs/precision.md).
    if (!channelsLast) {
      p->int32Sums = QLinearConvInt32::create(ctx, g, false, old ? old->int32Sums.get() : nullptr);
      if (p->int32Sums) {
        p->declined = true;
        return p;
      }
    }
    buildPrimitive(*p, g, ctx.input(kX).dtype(), channelsLast);
    if (old && !p->declined) p->inheritWeights(*old);
    return p;
  }

  // Without VNNI: whether oneDNN's int8 sums are exact for this node anyway
  // (narrow_int8_weights.h). Once W was freed the plan for another input
  // shape takes the answer from the one it replaces.
  static bool narrowWeights(const KernelContext& ctx, const QConvPlan* old) {
    const std::optional<bool> narrow = narrowInt8Weights(ctx);
    return narrow ? *narrow : old && old->narrowWeights && (!old->declined || old->int32Sums);
  }

  ConvAttrs attrs_;
  std::unique_ptr<Kernel> reference_;
  std::unique_ptr<QConvPlan> plan_;
  bool channelsLast_ = false;
};

constexpr TypeSet kInt8s{DataType::kInt8, DataType::kUInt8};

const KernelDef kRows[] = {
    {"", "QLinearConv", 10, kOpsetMax, kInt8s, 0, Tier::kOptimized, "onednn.QLinearConv",
     makeKernel<OneDnnQLinearConv>},
    // ONNX Runtime's com.microsoft QLinearConv (channels_last or not), and its
    // reference (qlinear_conv_channels_last.cpp).
    {"com.microsoft", "QLinearConv", 1, kOpsetMax, kInt8s, 0, Tier::kOptimized,
     "onednn.ms.QLinearConv", makeKernel<OneDnnQLinearConv>},
    {"com.microsoft", "QLinearConv", 1, kOpsetMax, kInt8s, 0, Tier::kReference,
     "cpu.ms.QLinearConv", makeMsQLinearConvReference},
    // qlinear_matmul_onednn.cpp
    {"", "QLinearMatMul", 10, kOpsetMax, kInt8s, 0, Tier::kOptimized, "onednn.QLinearMatMul",
     makeOneDnnQLinearMatMul},
    {"com.microsoft", "QGemm", 1, kOpsetMax, kInt8s, 0, Tier::kOptimized, "onednn.ms.QGemm",
     makeOneDnnQGemm},
};

}  // namespace

std::span<const KernelDef> qlinearOneDnnKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
