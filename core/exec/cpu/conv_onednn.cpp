// Conv and ConvTranspose on oneDNN (float32; float16 and bfloat16 are
// widened to float32 around the call, constant weights once). Activations stay NCHW between
// operators; each call reorders its input into the layout oneDNN picks for the
// problem and the result back (docs/exec-backends.md: cheaper than running the
// convolution itself in plain NCHW), except 1x1 convolutions that run faster
// as one SGEMM per group on plain NCHW (conv_layout_choice.h) and 1x1
// convolutions on 1x1 inputs, GEMVs on W as stored (conv_gemv.h) without
// oneDNN, convolutions with few input channels (first layers), which read
// plain NCHW and reorder only the result (readsPlainNchw), and those with
// few output channels, a direct loop without oneDNN (conv_few_outputs.h), 1-D
// ones of one input channel with long filters, dot products along the taps
// (conv_one_channel_1d.h), and
// depthwise 3x3 ones where it measured faster, a direct NCHW loop
// (conv_depthwise_3x3.h, prefersDepthwise3x3). The primitive is
// built once per input shape; weights that are the same on every run
// (KernelContext::invariantInput: initializers, or computed from constants
// only) are reordered once and kept.
#include <memory>
#include <string>

#include "core/exec/cpu/blocked_conv_layouts.h"
#include "core/exec/cpu/conv_depthwise_1d.h"
#include "core/exec/cpu/conv_depthwise_3x3.h"
#include "core/exec/cpu/conv_few_outputs.h"
#include "core/exec/cpu/conv_gemv.h"
#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/conv_layout_choice.h"
#include "core/exec/cpu/conv_one_channel_1d.h"
#include "core/exec/cpu/conv_ref.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/half_as_float.h"
#include "core/exec/cpu/onednn_conv_dims.h"
#include "core/exec/cpu/onednn_conv_primitive.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

using dnnl::memory;
using tag = memory::format_tag;

tag weightsTag(size_t spatial, bool grouped, bool transposed) {
  if (!transposed) return onednn::convWeightsTag(spatial, grouped);
  // ONNX ConvTranspose weights are [C_in, C_out/group, k...]: "io" order.
  if (grouped) return spatial == 1 ? tag::acbd : spatial == 2 ? tag::giohw : tag::giodhw;
  return spatial == 1 ? tag::bac : spatial == 2 ? tag::iohw : tag::iodhw;
}

// Everything built for one input shape.
struct ConvPlan : onednn::ConvPrimitive {
  Dims xDims, wDims;
  bool hasBias = false;
  int threads = 0;
  bool declined = false;  // oneDNN has no implementation: use the reference
};

template <bool kTransposed>
class OneDnnConv final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto a = parseConvAttrs(b.node());
    if (!a) return a.error();
    auto fallback = kTransposed ? makeConvTransposeRef(b) : makeConvRef(b);
    if (!fallback) return fallback.error();
    return std::unique_ptr<Kernel>(new OneDnnConv(*a, std::move(fallback).value()));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Tensor* bias = ctx.has(2) ? &ctx.input(2) : nullptr;
    const ir::DataType dt = x.dtype();
    const bool half = dt == ir::DataType::kFloat16 || dt == ir::DataType::kBFloat16;
    // The reference reads W's data: an error instead when it was freed
    // (held packed, KernelContext::holdsOwnCopy) and oneDNN declines now.
    auto fallback = [&]() -> Status {
      if (w.dataFreed())
        return internalError("oneDNN declined the new shape and W was freed after packing");
      return fallback_->run(ctx);
    };
    if ((dt != ir::DataType::kFloat && !half) || w.dtype() != dt || (bias && bias->dtype() != dt))
      return fallback();
    auto geo = kTransposed ? convTransposeGeometry(attrs_, x.dims(), w.dims())
                           : convGeometry(attrs_, x.dims(), w.dims());
    if (!geo) return geo.error();
    const ConvGeometry& g = *geo;
    if (bias && bias->numel() != g.M)
      return invalidArgument("B has " + std::to_string(bias->numel()) + " elements, expected " +
                             std::to_string(g.M));
    if (g.spatial() > 3 || x.numel() == 0 || !consistent(g)) return fallback();
    // The direct paths read W as stored (storedWeights): chosen by the
    // shapes alone, so a reused executor runs the path a fresh one does.
    if (!kTransposed && !half && runsAsGemv(g)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sw, storedWeights(w));
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, g.outDims));
      const ConvGemvShape s{g.N, g.C, g.M, g.group, g.C, g.M};
      convGemv(s, x.data<float>(), sw->data<float>(), bias ? bias->data<float>() : nullptr,
               y->mutableData<float>(), ctx.threads());
      return Status::ok();
    }
    if (!kTransposed && !half && runsAsDepthwise1d(g)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sw, storedWeights(w));
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, g.outDims));
      const ConvDepthwise1dShape s{g.N,         g.C,         g.in[0],       g.out[0],
                                   g.kernel[0], g.stride[0], g.dilation[0], g.padBegin[0]};
      convDepthwise1d(s, x.data<float>(), sw->data<float>(), bias ? bias->data<float>() : nullptr,
                      y->mutableData<float>(), ctx.threads());
      return Status::ok();
    }
    if (!kTransposed && !half && runsAsOneChannel1d(g)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sw, storedWeights(w));
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, g.outDims));
      const ConvOneChannel1dShape s{g.N, g.M, g.in[0], g.out[0], g.kernel[0], g.stride[0]};
      convOneChannel1d(s, x.data<float>(), sw->data<float>(), bias ? bias->data<float>() : nullptr,
                       y->mutableData<float>(), ctx.threads());
      return Status::ok();
    }
    // NCHW depthwise 3x3: the direct kernel, no reorders to nChw16c and back.
    if (!kTransposed && !half && prefersDepthwise3x3(g)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sw, storedWeights(w));
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, g.outDims));
      convDepthwise3x3(depthwise3x3Shape(g), x.data<float>(), sw->data<float>(),
                       bias ? bias->data<float>() : nullptr, y->mutableData<float>(),
                       ctx.threads());
      return Status::ok();
    }
    if (!kTransposed && runsAsFewOutputs(g)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sw, storedWeights(w));
      return runFewOutputs(ctx, g, x, *sw, bias, half);
    }
    if (!plan_ || plan_->xDims != x.dims() || plan_->wDims != w.dims() ||
        plan_->hasBias != (bias != nullptr) || plan_->threads != ctx.threads()) {
      auto fresh = build(g, x.dims(), w.dims(), bias != nullptr, ctx.threads());
      if (plan_ && !fresh->declined && !half) fresh->inheritWeights(*plan_);
      plan_ = std::move(fresh);
    }
    if (plan_->declined) return fallback();
    if (!half) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, g.outDims));
      const bool invariantW = ctx.invariantInput(1);
      PASSLAB_RETURN_IF_ERROR(compute(ctx, x, w, bias, *y, invariantW));
      if (invariantW && plan_->holdsWeights()) ctx.holdsOwnCopy(1);
      return Status::ok();
    }
    // Half types: widen X (and B) per call, W once when it is constant.
    PASSLAB_ASSIGN_OR_RETURN(Tensor x32, ctx.scratch(ir::DataType::kFloat, x.dims()));
    widenToFloat(x, x32, ctx.threads());
    const bool invariantW = ctx.invariantInput(1);
    if (widenWeights(ctx, w)) plan_->packedValid = false;
    const Tensor b32 = widenedBias(bias);
    PASSLAB_ASSIGN_OR_RETURN(Tensor y32, ctx.scratch(ir::DataType::kFloat, g.outDims));
    PASSLAB_RETURN_IF_ERROR(compute(ctx, x32, wide_, bias ? &b32 : nullptr, y32, invariantW));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dt, g.outDims));
    narrowFromFloat(y32, *y, ctx.threads());
    return Status::ok();
  }

 private:
  // Few output channels (conv_few_outputs.h): the direct loop, on float32
  // copies for the half types as the oneDNN path does.
  Status runFewOutputs(KernelContext& ctx, const ConvGeometry& g, const Tensor& x, const Tensor& w,
                       const Tensor* bias, bool half) {
    const ConvFewOutputsShape s = fewOutputsShape(g);
    PASSLAB_ASSIGN_OR_RETURN(Tensor scratch,
                             ctx.scratch(ir::DataType::kFloat, {fewOutputsScratchFloats(s)}));
    if (!half) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, g.outDims));
      convFewOutputs(s, x.data<float>(), w.data<float>(), bias ? bias->data<float>() : nullptr,
                     y->mutableData<float>(), scratch.mutableData<float>(), ctx.threads());
      return Status::ok();
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor x32, ctx.scratch(ir::DataType::kFloat, x.dims()));
    widenToFloat(x, x32, ctx.threads());
    widenWeights(ctx, w);
    const Tensor b32 = widenedBias(bias);
    PASSLAB_ASSIGN_OR_RETURN(Tensor y32, ctx.scratch(ir::DataType::kFloat, g.outDims));
    convFewOutputs(s, x32.data<float>(), wide_.data<float>(), bias ? b32.data<float>() : nullptr,
                   y32.mutableData<float>(), scratch.mutableData<float>(), ctx.threads());
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), g.outDims));
    narrowFromFloat(y32, *y, ctx.threads());
    return Status::ok();
  }

  // W as the direct paths read it: W itself, or, once W's data was freed
  // (the plan of an earlier shape holds it packed: holdsOwnCopy), its values
  // unpacked from that copy (the same bits), kept for the later runs.
  Expected<const Tensor*> storedWeights(const Tensor& w) {
    if (!w.dataFreed()) return &w;
    if (!unpackedValid_) {
      if (!plan_ || !plan_->holdsWeights())
        return internalError("W was freed and no oneDNN plan holds a copy of it");
      unpacked_ = Tensor::zeros(ir::DataType::kFloat, w.dims());
      plan_->unpackWeights(unpacked_);
      unpackedValid_ = true;
    }
    return &unpacked_;
  }

  // Widens half-type W into wide_ unless wide_ holds it already (constant W,
  // kept across runs); true when it widened.
  bool widenWeights(KernelContext& ctx, const Tensor& w) {
    const bool invariantW = ctx.invariantInput(1);
    if (invariantW && wideValid_ && wide_.dims() == w.dims()) return false;
    wide_ = Tensor::zeros(ir::DataType::kFloat, w.dims());
    widenToFloat(w, wide_, 1);
    wideValid_ = invariantW;
    return true;
  }
  static Tensor widenedBias(const Tensor* bias) {
    Tensor b32;
    if (!bias) return b32;
    b32 = Tensor::zeros(ir::DataType::kFloat, bias->dims());
    widenToFloat(*bias, b32, 1);
    return b32;
  }

  // Runs the primitive of plan_ on float32 tensors.
  // `invariantWeights`: w holds the same values on every run of this node
  // (KernelContext::invariantInput), so its reordered copy may be kept.
  Status compute(KernelContext& ctx, const Tensor& x, const Tensor& w, const Tensor* bias,
                 Tensor& y, bool invariantWeights) {
    return plan_->execute(ctx, x, w, bias, y, invariantWeights);
  }

  OneDnnConv(ConvAttrs a, std::unique_ptr<Kernel> fallback)
      : attrs_(std::move(a)), fallback_(std::move(fallback)) {}

  // oneDNN needs the output size to follow from the pads (ConvTranspose with
  // an output_shape larger than the full size does not).
  static bool consistent(const ConvGeometry& g) {
    if (!kTransposed) return true;
    for (size_t i = 0; i < g.spatial(); ++i) {
      int64_t span = (g.kernel[i] - 1) * g.dilation[i] + 1;
      int64_t full = g.stride[i] * (g.in[i] - 1) + span;
      if (g.padBegin[i] < 0 || full - g.padBegin[i] - g.out[i] < 0) return false;
    }
    return true;
  }

  // The convolution on these src/weights/dst layouts (`any` lets oneDNN
  // choose); throws dnnl::error when oneDNN has none.
  static dnnl::convolution_forward::primitive_desc convolution(
      const ConvPlan& p, const memory::desc& src, const memory::desc& wei, const memory::desc& dst,
      const memory::dims& strides, const memory::dims& dil, const memory::dims& padL,
      const memory::dims& padR, bool hasBias) {
    auto d = hasBias ? dnnl::convolution_forward::desc(
                           dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                           src, wei, p.biasDesc, dst, strides, dil, padL, padR)
                     : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                       dnnl::algorithm::convolution_direct, src,
                                                       wei, dst, strides, dil, padL, padR);
    return dnnl::convolution_forward::primitive_desc(d, onednn::engine());
  }
  static void adoptConvolution(ConvPlan& p, const dnnl::convolution_forward::primitive_desc& pd) {
    p.adopt(dnnl::convolution_forward(pd), pd.src_desc(), pd.weights_desc(), pd.dst_desc());
  }

  std::unique_ptr<ConvPlan> build(const ConvGeometry& g, const Dims& x, const Dims& w, bool hasBias,
                                  int threads) {
    auto p = std::make_unique<ConvPlan>();
    p->xDims = x;
    p->wDims = w;
    p->hasBias = hasBias;
    p->threads = threads;
    try {
      const size_t sp = g.spatial();
      const bool grouped = g.group > 1;
      onednn::ConvDims cd = onednn::convDims(g);
      if (kTransposed) {
        for (size_t i = 0; i < sp; ++i) {
          // oneDNN derives the output size from the right pad: fold output_padding into it.
          int64_t span = (g.kernel[i] - 1) * g.dilation[i] + 1;
          int64_t full = g.stride[i] * (g.in[i] - 1) + span;
          cd.padR[i] = full - g.padBegin[i] - g.out[i];
        }
      }
      const memory::dims& wDims = cd.weights;
      auto f32 = memory::data_type::f32;
      p->userSrc = memory::desc(onednn::toDims(x), f32, onednn::convDataTag(sp));
      p->userWei = memory::desc(wDims, f32, weightsTag(sp, grouped, kTransposed));
      p->userDst = memory::desc(onednn::toDims(g.outDims), f32, onednn::convDataTag(sp));
      p->biasDesc = memory::desc({g.M}, f32, tag::x);
      auto anyWei = memory::desc(wDims, f32, tag::any);
      auto anySrc = memory::desc(onednn::toDims(x), f32, tag::any);
      auto anyDst = memory::desc(onednn::toDims(g.outDims), f32, tag::any);
      if (!kTransposed && runsInPlainNchw(g)) {
        try {
          // oneDNN's GEMM-based kernel adds the bias in a parallel region of
          // its own: on the calling thread instead where that is cheaper.
          const bool biasAfter = hasBias && onednn::biasAddedAlone(p->userDst, threads);
          adoptConvolution(*p, convolution(*p, p->userSrc, anyWei, p->userDst, cd.strides,
                                           cd.dilation, cd.padL, cd.padR, hasBias && !biasAfter));
          p->biasAfter = biasAfter;
          return p;
        } catch (const dnnl::error&) {
          // no plain implementation: let oneDNN choose the layout below
        }
      }
      if (!kTransposed && readsPlainNchw(g)) {
        try {
          auto pd = convolution(*p, p->userSrc, anyWei, anyDst, cd.strides, cd.dilation, cd.padL,
                                cd.padR, hasBias);
          // Only its direct JIT kernel ("jit:avx512_core") is faster on plain
          // NCHW; not its GEMM-based ("x64:gemm:jit") or reference one.
          if (std::string(pd.impl_info_str()).rfind("jit", 0) == 0) {
            adoptConvolution(*p, pd);
            return p;
          }
        } catch (const dnnl::error&) {
          // none for plain src: let oneDNN choose the layout below
        }
      }
      // Depthwise: oneDNN's direct depthwise kernel ("jit_dw:...") on
      // nChw16c or nChw8c (depthwiseBlock), whose reorders from and to NCHW
      // cost less than those to its own pick (NHWC); nothing slower. The
      // same for a layer widening few channels (wideningBlock), on its
      // direct kernel ("jit:..."): directKernelBlock; on its Winograd kernel
      // first where fused::blockedConvWinograd says so (3x3 onto more than
      // 14x14 pixels, one thread, AVX-512: blocked_conv_layouts.h).
      if (const int64_t b = kTransposed ? 0 : directKernelBlock(g)) {
        int64_t inBytes = 4 * g.N * g.C, outBytes = 4 * g.N * g.M, pixels = 1;
        for (int64_t d : g.in) inBytes *= d;
        for (int64_t d : g.out) pixels *= d;
        outBytes *= pixels;
        const bool winograd =
            fused::blockedConvWinograd(g.kernel, g.stride, g.dilation,
                                       {g.group == 1 ? g.C : 0, g.group == 1 ? g.M : 0, b, pixels},
                                       inBytes + outBytes, threads);
        for (auto algo :
             {dnnl::algorithm::convolution_winograd, dnnl::algorithm::convolution_direct}) {
          if (algo == dnnl::algorithm::convolution_winograd && !winograd) continue;
          try {
            const tag t = b == 16 ? tag::nChw16c : tag::nChw8c;
            const memory::desc src(onednn::toDims(x), f32, t),
                dst(onednn::toDims(g.outDims), f32, t);
            const auto kind = dnnl::prop_kind::forward_inference;
            auto d =
                hasBias ? dnnl::convolution_forward::desc(kind, algo, src, anyWei, p->biasDesc, dst,
                                                          cd.strides, cd.dilation, cd.padL, cd.padR)
                        : dnnl::convolution_forward::desc(kind, algo, src, anyWei, dst, cd.strides,
                                                          cd.dilation, cd.padL, cd.padR);
            dnnl::convolution_forward::primitive_desc pd(d, onednn::engine());
            if (std::string(pd.impl_info_str()).rfind("jit", 0) == 0) {
              p->adopt(dnnl::convolution_forward(pd), pd.src_desc(), pd.weights_desc(),
                       pd.dst_desc());
              return p;
            }
          } catch (const dnnl::error&) {
            // none for that layout and algorithm: the next, or oneDNN chooses below
          }
        }
      }
      if constexpr (kTransposed) {
        auto d =
            hasBias ? dnnl::deconvolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                        dnnl::algorithm::deconvolution_direct,
                                                        anySrc, anyWei, p->biasDesc, anyDst,
                                                        cd.strides, cd.dilation, cd.padL, cd.padR)
                    : dnnl::deconvolution_forward::desc(
                          dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                          anySrc, anyWei, anyDst, cd.strides, cd.dilation, cd.padL, cd.padR);
        auto pd = dnnl::deconvolution_forward::primitive_desc(d, onednn::engine());
        p->adopt(dnnl::deconvolution_forward(pd), pd.src_desc(), pd.weights_desc(), pd.dst_desc());
      } else {
        adoptConvolution(*p, convolution(*p, anySrc, anyWei, anyDst, cd.strides, cd.dilation,
                                         cd.padL, cd.padR, hasBias));
      }
      return p;
    } catch (const dnnl::error&) {
      p->declined = true;  // the reference kernel takes this configuration
      return p;
    }
  }

  ConvAttrs attrs_;
  std::unique_ptr<Kernel> fallback_;
  std::unique_ptr<ConvPlan> plan_;
  Tensor wide_;                 // half-type weights widened to float32
  bool wideValid_ = false;      // wide_ holds the invariant weights (kept across runs)
  Tensor unpacked_;             // W unpacked from a plan's held copy (storedWeights)
  bool unpackedValid_ = false;  // made once: W's values do not change once freed
};

constexpr TypeSet kConvTypes{ir::DataType::kFloat, ir::DataType::kFloat16, ir::DataType::kBFloat16};

const KernelDef kRows[] = {
    {"", "Conv", 1, kOpsetMax, kConvTypes, 0, Tier::kOptimized, "onednn.Conv",
     makeKernel<OneDnnConv<false>>},
    {"", "ConvTranspose", 1, kOpsetMax, kConvTypes, 0, Tier::kOptimized, "onednn.ConvTranspose",
     makeKernel<OneDnnConv<true>>},
};

}  // namespace

std::span<const KernelDef> convOneDnnKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
