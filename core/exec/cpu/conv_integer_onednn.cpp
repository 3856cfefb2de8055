// ConvInteger on oneDNN's int8 convolution: the int32 result of
// conv(X - x_zero_point, W) for the dynamic INT8 form quantize_dynamic writes
// for Conv (DynamicQuantizeLinear -> ConvInteger -> Cast -> Mul).
//
// The activation's zero point comes from DynamicQuantizeLinear and so changes
// from run to run, and oneDNN 2.6 bakes zero points into the primitive; so the
// primitive computes conv(X, W) (u8 or s8 X, s8 W, s32 result: exact on CPUs
// with exact int8 dot products, exactInt8DotProducts) and the zero point is
// taken out after it:
//
//   conv(X - zx, W)[n, m, o] = conv(X, W)[n, m, o] - zx * S[m, o],
//   S[m, o] = the sum of W[m, c, k] over the channels c and the taps k of
//             output position o that fall inside the image
//
// (a tap in the padding reads zx in the reference, X - zx = 0 there, and 0
// in oneDNN's padding). S depends on the weights and the geometry only: it is
// computed once per input shape, so the weights must be the same on every run
// (KernelContext::invariantInput). uint8 weights run as W - 128 and the
// weights' zero points (one or one per channel, constant) come off as
// zw[m] * T[n, g(m), o] (conv_integer_zero_point.h), as older
// quantize_dynamic's QUInt8 weights need. The result equals the reference
// kernel's exactly (integer arithmetic throughout).
//
// Where oneDNN reorders the weights into its layout, the primitive holds
// them packed; the plan then lets go of W and the kernel says
// KernelContext::holdsOwnCopy, so the executor may free W. A plan for
// another input shape takes the held copy (ConvPrimitive::inheritWeights)
// and makes S from W's per-tap sums, kept from the first plan
// (conv_integer::tapWeightSums); where it could not (oneDNN declines the new
// shape), an error names the node instead of reading the freed W.
//
// On a CPU without exact int8 dot products (no VNNI) oneDNN's u8 x s8 pair
// sums saturate in int16, except for uint8 X and weights W as handed to it
// (W - 128 for uint8 W) all in [-64, 64] (narrow_signed_weights.h: what
// quantize_dynamic writes with reduce_range=true): those run here too, the
// same arithmetic, exact (qlinear::narrowWeightInt8Plans counts the plans).
// Below AVX-512 VNNI oneDNN also passes its int32 sums through float32 on the
// way out, so only layers whose sums stay below 2^24 (255 x the largest sum
// of |W'| of an output channel: qlinear::int8ConvSumsExact) run there.
//
// Anything else runs the reference ConvInteger (qlinear.cpp), so its errors
// and results hold: weights or weight zero points that vary between runs, a
// zero point that is not one value of X's type, wider weights or int8 X on a
// CPU without exact int8 dot products, a geometry oneDNN has no optimized
// implementation for.
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/conv_integer_zero_point.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/onednn_int8_conv.h"
#include "core/exec/cpu/qlinear_onednn_requantization.h"
#include "core/exec/cpu/qlinear_reference.h"
#include "core/exec/cpu/signed_weight_checks.h"
#include "core/exec/cpu/window_indirection.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

enum Input : size_t { kX = 0, kW = 1, kXZeroPoint = 2, kWZeroPoint = 3 };

// Everything built for one input shape.
struct ConvIntegerPlan : onednn::ConvPrimitive {
  Dims xDims, wDims;
  int threads = 0;
  bool declined = false;        // the reference kernel runs this configuration
  std::vector<int32_t> sums;    // S [M, output positions], or [M] when sumsPerChannel
  bool sumsPerChannel = false;  // every row of S is one value (compactSums)
  int64_t positions = 0;        // output positions per channel
  Tensor weights;           // the int8 weights oneDNN reads (signedWeights); empty once held packed
  std::vector<int32_t> zw;  // the weights' zero points in its terms, per output channel
  bool weightZeroPoints = false;  // some zw is not 0
  Indirection window;             // the taps of each output position (when weightZeroPoints)
};

class OneDnnConvInteger final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(ConvAttrs attrs, parseConvAttrs(b.node()));
    PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> reference,
                             makeQLinearReference("ConvInteger", b));
    return std::unique_ptr<Kernel>(new OneDnnConvInteger(std::move(attrs), std::move(reference)));
  }

  Status run(KernelContext& ctx) override {
    static const bool exact = qlinear::exactInt8DotProducts();
    const Tensor& x = ctx.input(kX);
    const Tensor& w = ctx.input(kW);
    if (!qlinear::isInt8(x.dtype()) || !qlinear::isInt8(w.dtype()) || !ctx.invariantInput(kW) ||
        x.numel() == 0 || (ctx.has(kWZeroPoint) && !ctx.invariantInput(kWZeroPoint)) ||
        !(exact || narrowWeights(ctx)) || !sumsExact(ctx))
      return runReference(ctx);
    std::optional<int32_t> zx = conv_integer::activationZeroPoint(ctx, kX, kXZeroPoint);
    auto geo = convGeometry(attrs_, x.dims(), w.dims());  // the reference reports bad geometry
    if (!zx || !geo || geo->spatial() > 3 ||
        !conv_integer::weightZeroPoints(ctx, kW, kWZeroPoint, geo->M))
      return runReference(ctx);
    const ConvGeometry& g = *geo;
    if (planIsStale(ctx, x, w)) plan_ = build(ctx, g, std::move(plan_));
    if (plan_->declined) return runReference(ctx);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, DataType::kInt32, g.outDims));
    PASSLAB_RETURN_IF_ERROR(plan_->execute(ctx, x, plan_->weights, nullptr, *y, true));
    holdIfPacked(ctx);
    if (*zx != 0) subtractZeroPoint(*y, g, *zx);
    if (plan_->weightZeroPoints)
      conv_integer::subtractWeightZeroPoint(
          y->mutableData<int32_t>(), false, g, plan_->positions, plan_->zw,
          conv_integer::activationWindowSums(x, *zx, g, plan_->window), ctx.threads());
    return Status::ok();
  }

 private:
  OneDnnConvInteger(ConvAttrs attrs, std::unique_ptr<Kernel> reference)
      : attrs_(std::move(attrs)), reference_(std::move(reference)) {}

  // Without VNNI: whether oneDNN's int8 sums are exact for this node anyway
  // (narrow_signed_weights.h: uint8 X, W' in [-64, 64]). W's values decide
  // it once: a later plan may run after W was freed (held packed).
  bool narrowWeights(const KernelContext& ctx) {
    return ctx.input(kX).dtype() == DataType::kUInt8 && weightChecks_.narrow(ctx.input(kW));
  }

  // Whether oneDNN's int32 sums of X and W' come out exact on this CPU
  // (qlinear::int8ConvSumsExact: below 2^24 unless AVX-512 VNNI). W's values
  // decide it once, as narrowWeights.
  bool sumsExact(const KernelContext& ctx) { return weightChecks_.sumsExact(ctx.input(kW)); }

  // The reference reads W: an error instead once W was freed (held packed)
  // and oneDNN declines now.
  Status runReference(KernelContext& ctx) {
    if (ctx.input(kW).dataFreed())
      return internalError("oneDNN declined the new shape and W was freed after packing");
    return reference_->run(ctx);
  }

  // Once the primitive holds W packed, the plan lets go of W (or of its copy
  // W - 128) and the executor may free it.
  void holdIfPacked(KernelContext& ctx) {
    if (!plan_->holdsWeights()) return;
    plan_->weights = Tensor();
    ctx.holdsOwnCopy(kW);
  }

  bool planIsStale(const KernelContext& ctx, const Tensor& x, const Tensor& w) const {
    return !plan_ || plan_->xDims != x.dims() || plan_->wDims != w.dims() ||
           plan_->threads != ctx.threads();
  }

  // The plan for the input shape of `ctx`; it takes the weights `old` (the
  // plan it replaces) holds packed, and reads W only where it holds none.
  std::unique_ptr<ConvIntegerPlan> build(const KernelContext& ctx, const ConvGeometry& g,
                                         std::unique_ptr<ConvIntegerPlan> old) {
    auto p = std::make_unique<ConvIntegerPlan>();
    const Tensor& w = ctx.input(kW);
    p->xDims = ctx.input(kX).dims();
    p->wDims = w.dims();
    p->threads = ctx.threads();
    p->declined = !onednn::buildInt8Conv(*p, g, qlinear::int8Type(ctx.input(kX).dtype()),
                                         dnnl::memory::data_type::s32, false, {});
    if (p->declined) return p;
    if (!conv_integer::takeWeightsAndSums(*p, old.get(), w, g, tapSums_)) {
      p->declined = true;  // runReference reports it
      return p;
    }
    compactSums(*p, g.M);
    static const bool exact = qlinear::exactInt8DotProducts();
    if (!exact) qlinear::countNarrowWeightInt8Plan();
    p->zw = *conv_integer::weightZeroPoints(ctx, kW, kWZeroPoint, g.M);
    p->weightZeroPoints = std::any_of(p->zw.begin(), p->zw.end(), [](int32_t z) { return z; });
    if (p->weightZeroPoints) p->window = buildIndirection(g.window);
    return p;
  }

  // S with every row one value (no output position has a tap in the
  // padding, as in any convolution without pads: resnet50's 36 1x1s) kept as
  // that value per channel; S is the size of the node's output otherwise,
  // 42 MiB over resnet50's 53 ConvIntegers (docs/memory.md).
  static void compactSums(ConvIntegerPlan& p, int64_t M) {
    p.sumsPerChannel = conv_integer::sumsToOnePerChannel(p.sums, M, p.positions);
  }

  // y[n, m, o] -= zx * S[m, o].
  void subtractZeroPoint(Tensor& y, const ConvGeometry& g, int32_t zx) const {
    int32_t* out = y.mutableData<int32_t>();
    const int32_t* s = plan_->sums.data();
    const int64_t P = plan_->positions, plane = g.M * P;
    if (plan_->sumsPerChannel) {
      for (int64_t n = 0; n < g.N; ++n)
        for (int64_t m = 0; m < g.M; ++m) {
          const int32_t d = zx * s[m];
          int32_t* row = out + n * plane + m * P;
          for (int64_t o = 0; o < P; ++o) row[o] -= d;
        }
      return;
    }
    for (int64_t n = 0; n < g.N; ++n)
      for (int64_t i = 0; i < plane; ++i) out[n * plane + i] -= zx * s[i];
  }

  ConvAttrs attrs_;
  std::unique_ptr<Kernel> reference_;
  std::unique_ptr<ConvIntegerPlan> plan_;
  conv_integer::KeptTapSums tapSums_;         // for S of every plan
  qlinear::SignedWeightChecks weightChecks_;  // narrowWeights, sumsExact
};

constexpr TypeSet kInt8s{DataType::kInt8, DataType::kUInt8};

const KernelDef kRows[] = {
    {"", "ConvInteger", 10, kOpsetMax, kInt8s, 0, Tier::kOptimized, "onednn.ConvInteger",
     makeKernel<OneDnnConvInteger>},
};

}  // namespace

std::span<const KernelDef> convIntegerOneDnnKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
