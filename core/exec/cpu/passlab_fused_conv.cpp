// ai.passlab FusedConv: Y = act(Conv(X, W) + B + Z), float32.
//
// Inputs X, W, B (optional) as Conv; Z (optional) the residual, of Y's shape.
// Attributes: Conv's (auto_pad, dilations, group, kernel_shape, pads,
// strides) and `activation` / `activation_params` (passlab_fused.h).
//
// The optimized kernel is oneDNN's. A 1x1 convolution (stride 1, no
// padding, one group) with at least 64 output positions runs as a matmul on
// the NCHW tensors, W [M, C] x X[n] [C, S], with the bias and the residual as
// binary-add post-ops and the activation as an eltwise post-op: no layout
// change of X or Y, and Y written once by the matmul's store loop. Other
// convolutions run oneDNN's convolution in the blocked layout it picks (as
// the unfused Conv kernel does), the bias in the primitive; without a residual
// the activation is an eltwise post-op (written once, by the convolution's
// store loop); with a residual (or HardSigmoid, which oneDNN 2.6 lacks) the
// output is reordered to NCHW and one pass adds Z and applies the activation.
// Measured alternatives that lost (docs/fused-kernels.md): a `sum` post-op
// fed by reordering Z into the blocked destination; a hand-written
// blocked-to-NCHW loop with the epilogue; the matmul form for thin GEMVs
// (resnet50's 7x7, squeeze-excite 1x1 on 1x1).
// 1x1 convolutions on 1x1 inputs (squeeze-excite) skip oneDNN (issue #26):
// GEMVs on W as stored (conv_gemv.h), in either layout (a blocked 1x1 image
// holds channel c at c), then one pass for the residual and the activation
// over the M real channels. Grouped 1x1 convolutions that runsInPlainNchw
// takes run oneDNN's GEMM convolution on the NCHW tensors without post-ops
// (isGemmConvolution: it applies post-ops element by element, which made
// shufflenet's fused file 7x slower), then one epilogue pass for the
// residual and the activation; so does any convolution for which oneDNN's
// own pick is that GEMM convolution (docs/exec-benchmark.md, "Blocked
// layouts across chains"). Depthwise convolutions ask for nChw16c or nChw8c
// (depthwiseBlock), whose reorders cost less than those to oneDNN's pick.
// Depthwise 3x3 convolutions on NCHW (strides 1 and 2, pads 0 or 1) where
// that measured faster (prefersDepthwise3x3) skip oneDNN and its reorders: a
// direct loop per channel plane, the epilogue on each plane as it is written
// (conv_depthwise_3x3.h).
// The reference kernel runs the reference Conv and then the epilogue loop.
//
// With the attribute `block` (b = 8 or 16; convert_to_blocked_layout, the
// layout in core/ir/passlab_ops.h) Y and Z are blocked [N, ceil(M/b), H, W, b]
// and X is blocked or NCHW (by its rank). blockedConvLayouts
// (blocked_conv_layouts.h) says which layouts the convolution asks for: for
// 1x1 kernels and first layers reading NCHW, the chain's own (oneDNN's direct
// JIT kernels on nChw{b}c, no reorder, the residual a binary post-op over Z
// in the store loop, then the activation); for wider kernels on one thread
// oneDNN's pick (its brgemm kernels on NHWC, X and Y reordered per call,
// faster all the same), on more the chain's layouts again. Weights are
// reordered once as before; oneDNN pads them with zeros, so the padding
// channels of X never reach Y. A residual not taken as a post-op and an
// activation oneDNN lacks are one pass over the blocked buffers
// (elementwise, layout-blind). Without AVX-512 a blocked grouped 1x1 that
// runsInPlainNchw takes runs the GEMM convolution on NCHW as above, X and Y
// reordered in the kernel (blockedRunsPlainGemm).
// The reference unblocks X and Z, runs the NCHW reference and blocks Y.
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "core/exec/cpu/blocked_conv_layouts.h"
#include "core/exec/cpu/conv_depthwise_3x3.h"
#include "core/exec/cpu/conv_few_outputs.h"
#include "core/exec/cpu/conv_gemv.h"
#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/conv_layout_choice.h"
#include "core/exec/cpu/conv_ref.h"
#include "core/exec/cpu/onednn_conv_dims.h"
#include "core/exec/cpu/onednn_conv_primitive.h"
#include "core/exec/cpu/onednn_stored_weights.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/passlab_blocked.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu::fused {

namespace {

using dnnl::memory;
using tag = memory::format_tag;

// X's and Y's float32 bytes (blockedConvLayouts' tensorBytes).
int64_t tensorBytes(const ConvGeometry& g) {
  int64_t in = g.N * g.C, out = g.N * g.M;
  for (int64_t d : g.in) in *= d;
  for (int64_t d : g.out) out *= d;
  return 4 * (in + out);
}

// Y's pixels per image (blockedConvLayouts' ConvChannels::pixels).
int64_t outPixels(const ConvGeometry& g) {
  int64_t pixels = 1;
  for (int64_t d : g.out) pixels *= d;
  return pixels;
}

// One input and one output channel per group (blockedConvLayouts' depthwise).
bool isDepthwise(const ConvGeometry& g) {
  return g.group > 1 && g.group == g.C && g.M == g.C;
}

// A blocked grouped 1x1 convolution that runsInPlainNchw takes on a CPU
// without AVX-512 (shufflenet's stage-4 544 -> 544 in 4 groups at 7x7, in
// the chains of the `fused` file): oneDNN's GEMM convolution on the NCHW
// tensors, X reordered out of the chain's layout and Y back into it. On the
// chain's nChw8c oneDNN has no 1x1 kernel for it, only its general direct
// one (jit:avx2), about twice the GEMM's time (docs/exec-benchmark.md,
// session 33). Whole blocks of output channels only: the epilogue after the
// GEMM would reach the padding channels.
bool blockedRunsPlainGemm(const ConvGeometry& g, int64_t block) {
  return block > 0 && g.group > 1 && !isDepthwise(g) && g.M % block == 0 &&
         !cpu_isa::hasAvx512f() && runsInPlainNchw(g, false);
}

Status checkResidual(const Tensor* z, const Dims& out) {
  if (z && z->dims() != out)
    return invalidArgument("residual Z " + z->describe() + " does not have the output's shape");
  return Status::ok();
}

// The reference: Conv's reference kernel, then the epilogue over its output.
class FusedConvRef final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto act = parseActivation(b.node());
    if (!act) return act.error();
    auto conv = makeConvRef(b);
    if (!conv) return conv.error();
    auto k = std::unique_ptr<FusedConvRef>(new FusedConvRef(*act, std::move(conv).value()));
    k->block_ = b.node().attrInt(ir::passlab_ops::kBlock, 0);
    k->group_ = b.node().attrInt("group", 1);
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    if (block_ && !unblocking_) return runBlocked(ctx);
    CaptureOutput capture(ctx);
    PASSLAB_RETURN_IF_ERROR(conv_->run(capture));
    Tensor* y = capture.output();
    if (!y) return internalError("the Conv kernel allocated no output");
    const Tensor* z = ctx.has(3) ? &ctx.input(3) : nullptr;
    PASSLAB_RETURN_IF_ERROR(checkResidual(z, y->dims()));
    if (z && z->dtype() != y->dtype())
      return invalidArgument("Z " + z->describe() + " has another element type than Y");
    epilogue(act_, *y, z, ctx.threads());
    return Status::ok();
  }

 private:
  FusedConvRef(Activation a, std::unique_ptr<Kernel> conv) : act_(a), conv_(std::move(conv)) {}

  // Unblocks X (when blocked) and Z, runs this kernel on NCHW, blocks Y.
  Status runBlocked(KernelContext& ctx) {
    const Dims& w = ctx.input(1).dims();
    if (w.size() != 4)
      return invalidArgument("a blocked FusedConv takes 2-D kernels, W is " +
                             ctx.input(1).describe());
    std::vector<std::pair<size_t, int64_t>> blockedInputs = {{3, w[0]}};
    if (ctx.input(0).dims().size() == 5) blockedInputs.push_back({0, w[1] * group_});
    unblocking_ = true;
    Status st = blocked::runUnblocked(*this, ctx, block_, blockedInputs);
    unblocking_ = false;
    return st;
  }

  Activation act_;
  std::unique_ptr<Kernel> conv_;
  int64_t block_ = 0, group_ = 1;
  bool unblocking_ = false;
};

// Everything built for one input shape.
struct Plan : onednn::ConvPrimitive {
  Dims xDims, wDims;
  bool hasBias = false, hasResidual = false;
  int threads = 0;
  bool postAct = false;         // the activation is an eltwise post-op
  bool residualPostOp = false;  // the residual is a binary post-op (binaryDesc)
  bool declined = false;
};

memory::format_tag blockedTag(int64_t b) {
  return b == 16 ? tag::nChw16c : tag::nChw8c;
}

class FusedConvOneDnn final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto a = parseConvAttrs(b.node());
    if (!a) return a.error();
    auto act = parseActivation(b.node());
    if (!act) return act.error();
    auto fallback = makeFusedConvRef(b);
    if (!fallback) return fallback.error();
    auto k = std::unique_ptr<FusedConvOneDnn>(
        new FusedConvOneDnn(std::move(a).value(), *act, std::move(fallback).value()));
    k->block_ = b.node().attrInt(ir::passlab_ops::kBlock, 0);
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    if (block_) return runBlocked(ctx);
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Tensor* bias = ctx.has(2) ? &ctx.input(2) : nullptr;
    const Tensor* z = ctx.has(3) ? &ctx.input(3) : nullptr;
    const auto f32 = ir::DataType::kFloat;
    if (x.dtype() != f32 || w.dtype() != f32 || (bias && bias->dtype() != f32) ||
        (z && z->dtype() != f32))
      return runFallback(ctx);
    PASSLAB_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(attrs_, x.dims(), w.dims()));
    if (bias && bias->numel() != g.M)
      return invalidArgument("B has " + std::to_string(bias->numel()) + " elements, expected " +
                             std::to_string(g.M));
    PASSLAB_RETURN_IF_ERROR(checkResidual(z, g.outDims));
    if (g.spatial() > 3 || x.numel() == 0) return runFallback(ctx);
    // The GEMV, the depthwise 3x3 and the matmul read W as stored
    // (storedWeights): chosen by the shapes alone, so a reused executor runs
    // the path a fresh one does.
    if (runsAsGemv(g)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sw, storedWeights(w));
      return runGemv(ctx, x, *sw, bias, z, g, g.C, g.M, g.outDims);
    }
    // NCHW depthwise 3x3: the direct kernel, the epilogue per plane.
    if (prefersDepthwise3x3(g)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sw, storedWeights(w));
      return runDepthwise3x3(ctx, x, *sw, bias, z, g);
    }
    if (pointwise(g) && numelOf(g.out) >= kMatMulMinSpatial) {
      if (!mm_ || mm_->xDims != x.dims() || mm_->wDims != w.dims() ||
          mm_->hasBias != (bias != nullptr) || mm_->hasResidual != (z != nullptr) ||
          mm_->threads != ctx.threads())
        mm_ = buildMatMul(g, x.dims(), w.dims(), bias != nullptr, z != nullptr, ctx.threads());
      if (mm_->ok) {
        PASSLAB_ASSIGN_OR_RETURN(const Tensor* sw, storedWeights(w));
        return runMatMul(ctx, *mm_, x, *sw, bias, z, g);
      }
    }
    if (!plan_ || plan_->xDims != x.dims() || plan_->wDims != w.dims() ||
        plan_->hasBias != (bias != nullptr) || plan_->hasResidual != (z != nullptr) ||
        plan_->threads != ctx.threads())
      plan_ =
          inheriting(build(g, x.dims(), w.dims(), bias != nullptr, z != nullptr, ctx.threads()));
    if (plan_->declined) return runFallback(ctx);

    Plan& p = *plan_;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, f32, g.outDims));
    if (p.residualPostOp && z->raw() == y->raw())
      return internalError("FusedConv's output shares the residual's memory");
    PASSLAB_RETURN_IF_ERROR(
        p.execute(ctx, x, w, bias, *y, ctx.invariantInput(1), p.residualPostOp ? z : nullptr));
    if (ctx.invariantInput(1) && p.holdsWeights()) ctx.holdsOwnCopy(1);
    // What the primitive did not apply: the residual, and the activation when
    // it is not a post-op (it comes after the residual), in one pass over Y.
    const Activation rest = p.postAct ? Activation{} : act_;
    const Tensor* restZ = p.residualPostOp ? nullptr : z;
    if (restZ || rest.kind != ActKind::kNone) epilogue(rest, *y, restZ, ctx.threads());
    return Status::ok();
  }

 private:
  FusedConvOneDnn(ConvAttrs a, Activation act, std::unique_ptr<Kernel> fallback)
      : attrs_(std::move(a)), act_(act), fallback_(std::move(fallback)) {
    eltwise_ = act_.kind == ActKind::kNone || onednnEltwise(act_, alg_, alpha_, beta_);
  }

  // The reference reads W's data: an error instead when it was freed (held
  // packed, KernelContext::holdsOwnCopy) and oneDNN declines now.
  Status runFallback(KernelContext& ctx) {
    if (ctx.has(1) && ctx.input(1).dataFreed())
      return internalError("oneDNN declined the new shape and W was freed after packing");
    return fallback_->run(ctx);
  }

  // W as the direct paths (and the matmul) read it: W itself, or once W's
  // data was freed (the plan of an earlier shape holds it packed:
  // holdsOwnCopy), its values unpacked once from that copy (the same bits)
  // and kept (onednn::StoredWeights).
  Expected<const Tensor*> storedWeights(const Tensor& w) {
    return storedW_.of(
        w, [&] { return plan_ && plan_->holdsWeights() ? plan_->packedWei : dnnl::memory(); },
        [&] { return plan_->userWei; });
  }

  // A plan built for another input shape takes the packed weights the old
  // one holds (W's data may have been freed since).
  std::unique_ptr<Plan> inheriting(std::unique_ptr<Plan> fresh) const {
    if (plan_ && !fresh->declined) fresh->inheritWeights(*plan_);
    return fresh;
  }

  // ---- the blocked layout: X (rank 5, or NCHW), Y and Z in nChw{b}c ----
  Status runBlocked(KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Tensor* bias = ctx.has(2) ? &ctx.input(2) : nullptr;
    const Tensor* z = ctx.has(3) ? &ctx.input(3) : nullptr;
    const auto f32 = ir::DataType::kFloat;
    if (x.dtype() != f32 || w.dtype() != f32 || (bias && bias->dtype() != f32) ||
        (z && z->dtype() != f32) || w.dims().size() != 4)
      return runFallback(ctx);
    const bool blockedX = x.dims().size() == 5;
    Dims plainX = x.dims();
    if (blockedX) {
      const int64_t channels = w.dims()[1] * attrs_.group;
      if (x.dims()[4] != block_ || x.dims()[1] != ir::passlab_ops::blockedGroups(channels, block_))
        return invalidArgument("X " + x.describe() + " is not " + std::to_string(channels) +
                               " channels blocked by " + std::to_string(block_));
      plainX = blocked::plainDims(x.dims(), channels);
    }
    PASSLAB_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(attrs_, plainX, w.dims()));
    if (bias && bias->numel() != g.M)
      return invalidArgument("B has " + std::to_string(bias->numel()) + " elements, expected " +
                             std::to_string(g.M));
    const Dims outDims = blocked::blockedDims(g.outDims, block_);
    PASSLAB_RETURN_IF_ERROR(checkResidual(z, outDims));
    if (x.numel() == 0) return runFallback(ctx);
    if (runsAsGemv(g)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sw, storedWeights(w));
      const int64_t xStride = blockedX ? x.numel() / g.N : g.C;
      return runGemv(ctx, x, *sw, bias, z, g, xStride, outDims[1] * block_, outDims);
    }
    if (block_ == kFewOutputsYBlock && !pointwise(g) && runsAsFewOutputs(g)) {
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sw, storedWeights(w));
      return runFewOutputs(ctx, x, *sw, bias, z, g, blockedX, outDims);
    }
    if (!plan_ || plan_->xDims != x.dims() || plan_->wDims != w.dims() ||
        plan_->hasBias != (bias != nullptr) || plan_->hasResidual != (z != nullptr) ||
        plan_->threads != ctx.threads())
      plan_ = inheriting(
          build(g, x.dims(), w.dims(), bias != nullptr, z != nullptr, ctx.threads(), blockedX));
    if (plan_->declined) return runFallback(ctx);
    Plan& p = *plan_;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, f32, outDims));
    // A reorder into Y might leave its padding channels as they were.
    if (p.reorderDst && g.M % block_ != 0)
      std::memset(y->mutableData<float>(), 0, sizeof(float) * y->numel());
    // The residual post-op reads Z where Y is written: never the same memory
    // (FusedConv does not run in place), checked all the same.
    if (p.residualPostOp && z->raw() == y->raw())
      return internalError("FusedConv's output shares the residual's memory");
    PASSLAB_RETURN_IF_ERROR(
        p.execute(ctx, x, w, bias, *y, ctx.invariantInput(1), p.residualPostOp ? z : nullptr));
    if (ctx.invariantInput(1) && p.holdsWeights()) ctx.holdsOwnCopy(1);
    const Activation rest = p.postAct ? Activation{} : act_;
    const Tensor* restZ = p.residualPostOp ? nullptr : z;
    if (restZ || rest.kind != ActKind::kNone) epilogue(rest, *y, restZ, ctx.threads());
    return Status::ok();
  }

  // ---- few output channels (conv_few_outputs.h): the direct loop ----
  // oneDNN pads M to the block: super_resolution's last layer (32 -> 9, 3x3
  // on 224x224) took 2-3x onnxruntime's time on jit:avx512_core. The loop
  // reads the blocked (or NCHW) X into its padded copy and writes Y blocked;
  // then the epilogue over Y (the activation of the padding channels'
  // zeros, as the oneDNN path's post-ops). Not 1x1 ones: oneDNN's jit_1x1
  // reads the chain's layout as it is, where the loop copies X first
  // (ultraface's 64 -> 8 1x1 on 60x80: 0.029 ms against 0.023).
  Status runFewOutputs(KernelContext& ctx, const Tensor& x, const Tensor& w, const Tensor* bias,
                       const Tensor* z, const ConvGeometry& g, bool blockedX, const Dims& outDims) {
    const auto f32 = ir::DataType::kFloat;
    ConvFewOutputsShape s = fewOutputsShape(g);
    s.xBlock = blockedX ? block_ : 0;
    s.yBlock = block_;
    PASSLAB_ASSIGN_OR_RETURN(Tensor scratch, ctx.scratch(f32, {fewOutputsScratchFloats(s)}));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, f32, outDims));
    convFewOutputs(s, x.data<float>(), w.data<float>(), bias ? bias->data<float>() : nullptr,
                   y->mutableData<float>(), scratch.mutableData<float>(), ctx.threads());
    if (z || act_.kind != ActKind::kNone) epilogue(act_, *y, z, ctx.threads());
    return Status::ok();
  }

  // ---- 1x1 convolutions on 1x1 inputs: GEMVs (conv_gemv.h), then the epilogue ----
  // Image n's channel c at n * xStride + c in X (NCHW, or blocked with one
  // pixel) and at n * yStride + c in Y and Z; Y's padding channels (blocked)
  // are written zero.
  Status runGemv(KernelContext& ctx, const Tensor& x, const Tensor& w, const Tensor* bias,
                 const Tensor* z, const ConvGeometry& g, int64_t xStride, int64_t yStride,
                 const Dims& outDims) {
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, outDims));
    const ConvGemvShape s{g.N, g.C, g.M, g.group, xStride, yStride};
    float* out = y->mutableData<float>();
    convGemv(s, x.data<float>(), w.data<float>(), bias ? bias->data<float>() : nullptr, out,
             ctx.threads());
    for (int64_t n = 0; n < g.N; ++n) {
      float* yn = out + n * yStride;
      if (z || act_.kind != ActKind::kNone)
        epilogue(act_, yn, z ? z->data<float>() + n * yStride : nullptr, g.M);
      for (int64_t c = g.M; c < yStride; ++c) yn[c] = 0.0f;
    }
    return Status::ok();
  }

  // ---- NCHW depthwise 3x3 (conv_depthwise_3x3.h), the epilogue per plane ----
  // Each plane gets the residual and the activation right after the thread
  // that computed it wrote it (still in cache): no reorder, one pass.
  Status runDepthwise3x3(KernelContext& ctx, const Tensor& x, const Tensor& w, const Tensor* bias,
                         const Tensor* z, const ConvGeometry& g) {
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, g.outDims));
    if ((z && z->raw() == y->raw()) || x.raw() == y->raw())
      return internalError("FusedConv's output shares an input's memory");
    const int64_t plane = numelOf(g.out);
    const float* zd = z ? z->data<float>() : nullptr;
    PlaneEpilogue after;
    if (z || act_.kind != ActKind::kNone)
      after = [&](int64_t p, float* yp) {
        epilogue(act_, yp, zd ? zd + p * plane : nullptr, plane);
      };
    convDepthwise3x3(depthwise3x3Shape(g), x.data<float>(), w.data<float>(),
                     bias ? bias->data<float>() : nullptr, y->mutableData<float>(), ctx.threads(),
                     after);
    return Status::ok();
  }

  // ---- 1x1 convolutions as a matmul on NCHW, the epilogue in its post-ops ----
  // Y[n] (M x S) = W (M x C) * X[n] (C x S) + B, then + Z[n], then act: no
  // layout change of X or Y at all, and the bias and the residual (binary add
  // post-ops) and the activation (eltwise) in the matmul's store loop.
  struct MatMulPlan {
    Dims xDims, wDims;
    bool hasBias = false, hasResidual = false;
    int threads = 0;
    bool ok = false;
    bool postAct = false;
    dnnl::primitive prim;
    memory::desc wDesc, xDesc, yDesc, bDesc;
  };

  // Below this many output positions per channel the matmul is a thin GEMV
  // and the blocked convolution is faster (bench_fused_kernels: resnet50's
  // 7x7 and ppocr's 1x1 squeeze-excite convolutions).
  static constexpr int64_t kMatMulMinSpatial = 64;

  static bool pointwise(const ConvGeometry& g) {
    if (g.group != 1) return false;
    for (size_t i = 0; i < g.spatial(); ++i)
      if (g.kernel[i] != 1 || g.stride[i] != 1 || g.dilation[i] != 1 || g.padBegin[i] != 0 ||
          g.padEnd[i] != 0)
        return false;
    return true;
  }

  std::unique_ptr<MatMulPlan> buildMatMul(const ConvGeometry& g, const Dims& x, const Dims& w,
                                          bool hasBias, bool hasResidual, int threads) {
    auto p = std::make_unique<MatMulPlan>();
    p->xDims = x;
    p->wDims = w;
    p->hasBias = hasBias;
    p->hasResidual = hasResidual;
    p->threads = threads;
    const int64_t S = numelOf(g.out);
    auto f32 = memory::data_type::f32;
    p->wDesc = memory::desc({1, g.M, g.C}, f32, tag::abc);
    p->xDesc = memory::desc({g.N, g.C, S}, f32, tag::abc);
    p->yDesc = memory::desc({g.N, g.M, S}, f32, tag::abc);
    p->bDesc = memory::desc({1, g.M, 1}, f32, tag::abc);
    try {
      // The bias as a per-row binary add: oneDNN 2.6 has no optimized matmul
      // with a bias along M (it picks ref:any), but one with this post-op.
      dnnl::post_ops ops;
      if (hasBias) ops.append_binary(dnnl::algorithm::binary_add, p->bDesc);
      if (hasResidual) ops.append_binary(dnnl::algorithm::binary_add, p->yDesc);
      p->postAct = act_.kind != ActKind::kNone && eltwise_;
      if (p->postAct) ops.append_eltwise(1.0f, alg_, alpha_, beta_);
      dnnl::primitive_attr attr;
      attr.set_post_ops(ops);
      auto pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(p->wDesc, p->xDesc, p->yDesc), attr,
                                             onednn::engine());
      // A reference implementation would be far slower than the convolution.
      p->ok = std::string(pd.impl_info_str()).rfind("ref", 0) != 0;
      if (p->ok) p->prim = dnnl::matmul(pd);
    } catch (const dnnl::error&) {
      p->ok = false;  // the convolution path takes it
    }
    return p;
  }

  Status runMatMul(KernelContext& ctx, const MatMulPlan& p, const Tensor& x, const Tensor& w,
                   const Tensor* bias, const Tensor* z, const ConvGeometry& g) {
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, g.outDims));
    dnnl::stream& s = onednn::stream();
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, onednn::over(p.wDesc, w)},
                                            {DNNL_ARG_WEIGHTS, onednn::over(p.xDesc, x)},
                                            {DNNL_ARG_DST, onednn::over(p.yDesc, *y)}};
    if (bias)
      args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = onednn::over(p.bDesc, *bias);
    if (z)
      args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(bias ? 1 : 0) | DNNL_ARG_SRC_1] =
          onednn::over(p.yDesc, *z);
    p.prim.execute(s, args);
    s.wait();
    if (!p.postAct && act_.kind != ActKind::kNone) epilogue(act_, *y, nullptr, ctx.threads());
    return Status::ok();
  }

  // blockedX: x is blocked [N, C/b, H, W, b] (the layout's user tags; the
  // output is blocked whenever the node has `block`).
  std::unique_ptr<Plan> build(const ConvGeometry& g, const Dims& x, const Dims& w, bool hasBias,
                              bool hasResidual, int threads, bool blockedX = false) {
    auto p = std::make_unique<Plan>();
    p->xDims = x;
    p->wDims = w;
    p->hasBias = hasBias;
    p->hasResidual = hasResidual;
    p->threads = threads;
    try {
      const size_t sp = g.spatial();
      const bool grouped = g.group > 1;
      const onednn::ConvDims cd = onednn::convDims(g);
      const memory::dims& wDims = cd.weights;
      auto f32 = memory::data_type::f32;
      const Dims plainX = blockedX ? blocked::plainDims(x, g.C) : x;
      p->userSrc = memory::desc(onednn::toDims(plainX), f32,
                                blockedX ? blockedTag(block_) : onednn::convDataTag(sp));
      p->userWei = memory::desc(wDims, f32, onednn::convWeightsTag(sp, grouped));
      p->userDst = memory::desc(onednn::toDims(g.outDims), f32,
                                block_ ? blockedTag(block_) : onednn::convDataTag(sp));
      p->biasDesc = memory::desc({g.M}, f32, tag::x);
      auto anySrc = memory::desc(onednn::toDims(plainX), f32, tag::any);
      auto anyWei = memory::desc(wDims, f32, tag::any);
      auto anyDst = memory::desc(onednn::toDims(g.outDims), f32, tag::any);
      auto& eng = onednn::engine();
      auto kind = dnnl::prop_kind::forward_inference;
      auto algo = dnnl::algorithm::convolution_direct;
      // residualPostOp: Z is added in the convolution's store loop (a binary
      // post-op over Z in Y's layout), then the activation; otherwise the
      // activation is a post-op when nothing comes before it, and with a
      // residual both are one pass over Y after the convolution (and the
      // reorder of its output).
      // withPostOps false: none at all (the epilogue pass applies both).
      auto primitiveDesc = [&](const memory::desc& src, const memory::desc& dst,
                               bool residualPostOp, bool withPostOps = true) {
        dnnl::post_ops ops;
        if (residualPostOp) ops.append_binary(dnnl::algorithm::binary_add, p->userDst);
        if (withPostOps && (residualPostOp || !hasResidual) && act_.kind != ActKind::kNone &&
            eltwise_)
          ops.append_eltwise(1.0f, alg_, alpha_, beta_);
        dnnl::primitive_attr attr;
        attr.set_post_ops(ops);
        auto d = hasBias
                     ? dnnl::convolution_forward::desc(kind, algo, src, anyWei, p->biasDesc, dst,
                                                       cd.strides, cd.dilation, cd.padL, cd.padR)
                     : dnnl::convolution_forward::desc(kind, algo, src, anyWei, dst, cd.strides,
                                                       cd.dilation, cd.padL, cd.padR);
        return dnnl::convolution_forward::primitive_desc(d, attr, eng);
      };
      // Blocked, the chain's layouts where blockedConvLayouts says so and
      // oneDNN has a direct JIT kernel for them (with the residual as a
      // post-op, or without when it declines that); anything else (a
      // reference or GEMM-based convolution) would lose to oneDNN's own pick.
      // Unblocked, the 1x1 convolutions runsInPlainNchw takes (grouped ones:
      // a group-1 1x1 with that many positions took the matmul above) on the
      // NCHW tensors, where oneDNN has a GEMM-based convolution for them,
      // asked for without post-ops (isGemmConvolution), the epilogue pass
      // after it.
      std::optional<dnnl::convolution_forward::primitive_desc> pd;
      bool residualPostOp = false, withPostOps = true;
      if (blockedRunsPlainGemm(g, block_)) {
        try {
          pd = primitiveDesc(memory::desc(onednn::toDims(plainX), f32, onednn::convDataTag(sp)),
                             memory::desc(onednn::toDims(g.outDims), f32, onednn::convDataTag(sp)),
                             false, false);
          if (!isGemmConvolution(pd->impl_info_str())) pd.reset();
        } catch (const dnnl::error&) {
          pd.reset();
        }
        withPostOps = !pd;
      }
      if (pd) {
        // the GEMM on NCHW (blockedRunsPlainGemm)
      } else if (block_ &&
                 blockedConvLayouts(g.kernel, blockedX, tensorBytes(g), isDepthwise(g), threads,
                                    {g.group == 1 ? g.C : 0, g.M, block_, outPixels(g)}) ==
                     ConvLayouts::kTheChains) {
        // Winograd first where blockedConvWinograd says so (oneDNN's
        // jit_wino kernels), else or where oneDNN declines, the direct kernel.
        const bool winograd = blockedConvWinograd(
            g.kernel, g.stride, g.dilation,
            {g.group == 1 ? g.C : 0, g.group == 1 ? g.M : 0, block_, outPixels(g)}, tensorBytes(g),
            threads);
        for (auto a :
             {dnnl::algorithm::convolution_winograd, dnnl::algorithm::convolution_direct}) {
          if (a == dnnl::algorithm::convolution_winograd && !winograd) continue;
          algo = a;
          for (bool withResidual : {hasResidual, false}) {
            try {
              pd = primitiveDesc(p->userSrc, p->userDst, withResidual);
              if (std::string(pd->impl_info_str()).rfind("jit", 0) == 0) {
                residualPostOp = withResidual;
                break;
              }
            } catch (const dnnl::error&) {
            }
            pd.reset();
            if (!hasResidual) break;
          }
          if (pd) break;
        }
        algo = dnnl::algorithm::convolution_direct;
      } else if (!block_ && runsInPlainNchw(g)) {
        try {
          pd = primitiveDesc(p->userSrc, p->userDst, false, false);
          if (!isGemmConvolution(pd->impl_info_str())) pd.reset();
        } catch (const dnnl::error&) {
          pd.reset();
        }
        withPostOps = !pd;
      } else if (const int64_t b = block_ ? 0 : directKernelBlock(g)) {
        // Depthwise, or widening few channels: oneDNN's direct kernel on
        // nChw{b}c (conv_layout_choice.h); Winograd first where
        // blockedConvWinograd says so (inception_v1's 64 -> 192 on 55x55,
        // outside a blocked chain).
        const bool winograd =
            blockedConvWinograd(g.kernel, g.stride, g.dilation,
                                {g.group == 1 ? g.C : 0, g.group == 1 ? g.M : 0, b, outPixels(g)},
                                tensorBytes(g), threads);
        for (auto a :
             {dnnl::algorithm::convolution_winograd, dnnl::algorithm::convolution_direct}) {
          if (a == dnnl::algorithm::convolution_winograd && !winograd) continue;
          algo = a;
          try {
            pd = primitiveDesc(memory::desc(onednn::toDims(plainX), f32, blockedTag(b)),
                               memory::desc(onednn::toDims(g.outDims), f32, blockedTag(b)), false);
            if (std::string(pd->impl_info_str()).rfind("jit", 0) != 0) pd.reset();
          } catch (const dnnl::error&) {
            pd.reset();
          }
          if (pd) break;
        }
        algo = dnnl::algorithm::convolution_direct;
      }
      if (!pd) {
        pd = primitiveDesc(anySrc, anyDst, false);
        // oneDNN's own pick may be its GEMM convolution too (shufflenet's
        // 24->112 at 56x56). Not blocked: an activation applied after the
        // primitive would reach Y's padding channels, which stay zero.
        if (!block_ && isGemmConvolution(pd->impl_info_str())) {
          pd = primitiveDesc(anySrc, anyDst, false, false);
          withPostOps = false;
        }
      }
      p->residualPostOp = residualPostOp;
      p->postAct = withPostOps && (residualPostOp || !hasResidual) && act_.kind != ActKind::kNone &&
                   eltwise_;
      if (residualPostOp) p->binaryDesc = p->userDst;
      p->adopt(dnnl::convolution_forward(*pd), pd->src_desc(), pd->weights_desc(), pd->dst_desc());
    } catch (const dnnl::error&) {
      p->declined = true;  // the reference takes this configuration
    }
    return p;
  }

  ConvAttrs attrs_;
  Activation act_;
  bool eltwise_ = true;  // the activation is a oneDNN post-op (or there is none)
  dnnl::algorithm alg_ = dnnl::algorithm::eltwise_relu;
  float alpha_ = 0.0f, beta_ = 0.0f;
  std::unique_ptr<Kernel> fallback_;
  std::unique_ptr<Plan> plan_;
  std::unique_ptr<MatMulPlan> mm_;
  onednn::StoredWeights storedW_;  // W as the direct paths read it (storedWeights)
  int64_t block_ = 0;              // the blocked layout's b; 0: NCHW
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeFusedConv(const KernelBuild& b) {
  return FusedConvOneDnn::create(b);
}
Expected<std::unique_ptr<Kernel>> makeFusedConvRef(const KernelBuild& b) {
  return FusedConvRef::create(b);
}

}  // namespace passlab::exec::cpu::fused
