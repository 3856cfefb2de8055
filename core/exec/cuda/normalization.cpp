// The normalization family on the GPU: Softmax, LogSoftmax and Hardmax (flattened to
// 2-D at the axis before opset 13, one axis from 13), LayerNormalization,
// SimplifiedLayerNormalization and RMSNormalization, InstanceNormalization,
// ai.passlab FusedSoftmax and FusedLayerNorm, com.microsoft
// SkipLayerNormalization, and com.microsoft Gelu / BiasGelu / FastGelu (the
// transformer contrib ops beside it). float32, float16 and bfloat16, statistics in float
// (the CPU kernels accumulate in double); one block per row
// (normalization.cu). Parameters must have X's element type and repeat over
// the normalized dims (Scale [C] for rows of [..., C]); statistics outputs are
// float (a LayerNormalization stash_type other than float is declined when
// Mean or InvStdDev is wanted).
#include <initializer_list>
#include <string>

#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/cuda_families.h"
#include "core/exec/cuda/float_type.h"
#include "core/exec/cuda/norm_reduce_plan.h"
#include "core/exec/cuda/normalization_launch.h"
#include "core/ir/passlab_ops.h"

namespace passlab::exec::cuda {

namespace {

bool outputNamed(const ir::Node& n, size_t i) {
  return i < n.outputs().size() && n.output(i) && !n.output(i)->name().empty();
}

Expected<int> floatTypeOf(const DeviceTensor& t, const char* what) {
  auto f = launchFloat(t.dtype());
  if (!f) return invalidArgument(std::string(what) + " " + t.describe() + " is not a float type");
  return static_cast<int>(*f);
}

Status sameType(const DeviceTensor& t, const DeviceTensor& x, const std::string& what) {
  if (t.dtype() != x.dtype())
    return invalidArgument(what + " " + t.describe() + " must have the type of X " + x.describe());
  return Status::ok();
}

// ---- Softmax / LogSoftmax / Hardmax ----

enum class SoftmaxKind { kSoftmax, kLogSoftmax, kHardmax };

template <SoftmaxKind kKind>
class SoftmaxKernel final : public CudaKernel {
 public:
  explicit SoftmaxKernel(const CudaBuild& b)
      : axis_(b.node().attrInt("axis", b.opset() >= 13 ? -1 : 1)), flattened_(b.opset() < 13) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int ft, floatTypeOf(x, "X"));
    PASSLAB_ASSIGN_OR_RETURN(SoftmaxRows r, softmaxRows(x.dims(), axis_, flattened_));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), x.dims()));
    if constexpr (kKind == SoftmaxKind::kHardmax) {
      PASSLAB_CUDA_TRY(
          launchHardmax(ft, x.raw(), y.mutableRaw(), r.outer, r.len, r.inner, ctx.stream()));
    } else {
      PASSLAB_CUDA_TRY(launchSoftmax(ft, kKind == SoftmaxKind::kLogSoftmax, x.raw(), y.mutableRaw(),
                                     r.outer, r.len, r.inner, ctx.stream()));
    }
    return Status::ok();
  }

 private:
  int64_t axis_;
  bool flattened_;
};

// ---- ai.passlab FusedSoftmax ----

class FusedSoftmaxKernel final : public CudaKernel {
 public:
  explicit FusedSoftmaxKernel(const CudaBuild& b)
      : scale_(b.node().attrFloat("scale", 1.0f)),
        subtract_(b.node().attrInt("mask_subtract", 0) != 0) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int ft, floatTypeOf(x, "FusedSoftmax: X"));
    if (x.rank() == 0) return invalidArgument("FusedSoftmax: X must have at least one dim");
    if (x.rank() > static_cast<size_t>(kMaxLaunchRank))
      return unsupported("FusedSoftmax: X " + x.describe() + " has more than " +
                         std::to_string(kMaxLaunchRank) + " dims");
    FusedSoftmaxArgs a;
    a.rank = static_cast<int>(x.rank());
    for (size_t i = 0; i < x.rank(); ++i) a.dims[i] = x.dim(i);
    a.len = x.dims().back();
    a.rows = a.len == 0 ? 0 : x.numel() / a.len;
    a.scale = scale_;
    a.sign = subtract_ ? -1.0f : 1.0f;
    DeviceTensor m;
    if (ctx.inputCount() > 1 && ctx.has(1)) {
      PASSLAB_ASSIGN_OR_RETURN(m, ctx.input(1));
      if (m.dtype() != x.dtype())
        return invalidArgument("FusedSoftmax: the mask " + m.describe() +
                               " must have the type of X " + x.describe() + " on CUDA");
      auto strides = broadcastStrides(m.dims(), x.dims());
      if (!strides)
        return invalidArgument("FusedSoftmax: the mask " + m.describe() +
                               " does not broadcast into X " + x.describe());
      for (size_t i = 0; i < x.rank(); ++i) a.mask_strides[i] = (*strides)[i];
      a.mask = m.raw();
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), x.dims()));
    a.x = x.raw();
    a.y = y.mutableRaw();
    PASSLAB_CUDA_TRY(launchFusedSoftmax(ft, a, ctx.stream()));
    return Status::ok();
  }

 private:
  float scale_;
  bool subtract_;
};

// ---- LayerNormalization, SimplifiedLayerNormalization, RMSNormalization ----

// Declines (kUnsupported) a node whose Scale or B shape, known before the run,
// broadcasts to the normalized dims other than by repeating (Scale [C, 1] for
// [C, W]): the CPU kernel takes those, the CUDA one does not.
Status checkStaticParams(const ir::Node& n, int64_t axis, std::initializer_list<size_t> params) {
  const ir::Value* x = n.input(0);
  if (!x || !x->type().shape()) return Status::ok();
  const ir::Shape& xs = *x->type().shape();
  const auto rank = static_cast<int64_t>(xs.rank());
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (rank == 0 || a < 0 || a >= rank) return Status::ok();  // the run reports it
  Dims normDims;
  for (int64_t d = a; d < rank; ++d) {
    if (!xs[static_cast<size_t>(d)].isStatic()) return Status::ok();
    normDims.push_back(xs[static_cast<size_t>(d)].value());
  }
  for (size_t i : params) {
    const ir::Value* p = i < n.inputs().size() ? n.input(i) : nullptr;
    if (!p || p->name().empty() || !p->type().shape()) continue;
    auto dims = p->type().shape()->staticDims();
    if (!dims) continue;
    auto count =
        repeatingParamCount(Dims(dims->begin(), dims->end()), normDims, i == 1 ? "scale" : "bias");
    if (!count.isOk()) return unsupported(count.error().message() + " (not by repeating)");
  }
  return Status::ok();
}

// Reads Scale (input 1) and B (input `biasIndex`, when present) into args as
// repeating parameters of x's type over normDims.
Status setParams(CudaContext& ctx, const DeviceTensor& x, const Dims& normDims, size_t biasIndex,
                 RowNormArgs& a, DeviceTensor& scale, DeviceTensor& bias) {
  PASSLAB_ASSIGN_OR_RETURN(scale, ctx.input(1));
  PASSLAB_RETURN_IF_ERROR(sameType(scale, x, "scale"));
  PASSLAB_ASSIGN_OR_RETURN(a.scale_count, repeatingParamCount(scale.dims(), normDims, "scale"));
  a.scale = scale.raw();
  if (biasIndex < ctx.inputCount() && ctx.has(biasIndex)) {
    PASSLAB_ASSIGN_OR_RETURN(bias, ctx.input(biasIndex));
    PASSLAB_RETURN_IF_ERROR(sameType(bias, x, "bias"));
    PASSLAB_ASSIGN_OR_RETURN(a.bias_count, repeatingParamCount(bias.dims(), normDims, "bias"));
    a.bias = bias.raw();
  }
  return Status::ok();
}

template <bool kRms>
class RowNormKernel final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    const ir::Node& n = b.node();
    const size_t firstStat = 1;
    bool stats = false;
    for (size_t i = firstStat; i < n.outputs().size(); ++i) stats = stats || outputNamed(n, i);
    if (stats && !kRms && n.attrInt("stash_type", 1) != static_cast<int64_t>(ir::DataType::kFloat))
      return unsupported("Mean or InvStdDev is wanted with a stash_type other than float");
    if (kRms) {
      PASSLAB_RETURN_IF_ERROR(checkStaticParams(n, n.attrInt("axis", -1), {1}));
    } else {
      PASSLAB_RETURN_IF_ERROR(checkStaticParams(n, n.attrInt("axis", -1), {1, 2}));
    }
    return std::unique_ptr<CudaKernel>(
        new RowNormKernel(n.attrInt("axis", -1), n.attrFloat("epsilon", 1e-5f)));
  }

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int ft, floatTypeOf(x, "X"));
    PASSLAB_ASSIGN_OR_RETURN(NormRows nr, normRows(x.dims(), axis_));
    RowNormArgs a;
    DeviceTensor scale, bias;
    PASSLAB_RETURN_IF_ERROR(
        setParams(ctx, x, nr.normDims, kRms ? size_t{99} : size_t{2}, a, scale, bias));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), x.dims()));
    Dims statDims = x.dims();
    for (size_t d = x.rank() - nr.normDims.size(); d < x.rank(); ++d) statDims[d] = 1;
    // LayerNormalization's Mean (1) and InvStdDev (2); Simplified's inv_std_var (1).
    DeviceTensor meanT, invT;
    const size_t invIndex = kRms ? 1 : 2;
    if (!kRms && ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(meanT, ctx.allocate(1, ir::DataType::kFloat, statDims));
      a.mean_out = meanT.mutableData<float>();
    }
    if (ctx.outputCount() > invIndex && ctx.wantsOutput(invIndex)) {
      PASSLAB_ASSIGN_OR_RETURN(invT, ctx.allocate(invIndex, ir::DataType::kFloat, statDims));
      a.inv_std_out = invT.mutableData<float>();
    }
    a.x = x.raw();
    a.y = y.mutableRaw();
    a.rows = nr.rows;
    a.cols = nr.cols;
    a.epsilon = epsilon_;
    a.rms = kRms;
    PASSLAB_CUDA_TRY(launchRowNorm(ft, a, ctx.stream()));
    return Status::ok();
  }

 private:
  RowNormKernel(int64_t axis, float epsilon) : axis_(axis), epsilon_(epsilon) {}
  int64_t axis_;
  float epsilon_;
};

// ---- ai.passlab FusedLayerNorm: X, Scale, B?, Skip? -> Y, Sum? ----

class FusedLayerNormKernel final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    PASSLAB_RETURN_IF_ERROR(checkStaticParams(b.node(), b.node().attrInt("axis", -1), {1, 2}));
    return std::unique_ptr<CudaKernel>(new FusedLayerNormKernel(b));
  }
  explicit FusedLayerNormKernel(const CudaBuild& b)
      : axis_(b.node().attrInt("axis", -1)), epsilon_(b.node().attrFloat("epsilon", 1e-5f)) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int ft, floatTypeOf(x, "FusedLayerNorm: X"));
    if (x.rank() == 0) return invalidArgument("FusedLayerNorm: X must have at least one dim");
    PASSLAB_ASSIGN_OR_RETURN(NormRows nr, normRows(x.dims(), axis_));
    RowNormArgs a;
    DeviceTensor scale, bias, skip, sum;
    PASSLAB_RETURN_IF_ERROR(setParams(ctx, x, nr.normDims, 2, a, scale, bias));
    if (ctx.inputCount() > 3 && ctx.has(3)) {
      PASSLAB_ASSIGN_OR_RETURN(skip, ctx.input(3));
      PASSLAB_RETURN_IF_ERROR(sameType(skip, x, "FusedLayerNorm: Skip"));
      if (skip.dims() != x.dims())
        return invalidArgument("FusedLayerNorm: Skip " + skip.describe() + " must have X's dims " +
                               x.describe());
      a.skip = skip.raw();
      a.skip_count = skip.numel();
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), x.dims()));
    if (a.skip && ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(sum, ctx.allocate(1, x.dtype(), x.dims()));
      a.sum = sum.mutableRaw();
    }
    a.x = x.raw();
    a.y = y.mutableRaw();
    a.rows = nr.rows;
    a.cols = nr.cols;
    a.epsilon = epsilon_;
    PASSLAB_CUDA_TRY(launchRowNorm(ft, a, ctx.stream()));
    return Status::ok();
  }

 private:
  int64_t axis_;
  float epsilon_;
};

// ---- com.microsoft SkipLayerNormalization: input, skip, gamma, beta?, bias?
//      -> output, mean?, inv_std_var?, input_skip_bias_sum? ----

class SkipLayerNormKernel final : public CudaKernel {
 public:
  explicit SkipLayerNormKernel(const CudaBuild& b)
      : epsilon_(b.node().attrFloat("epsilon", 1e-12f)) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int ft, floatTypeOf(x, "input"));
    if (x.rank() < 2) return invalidArgument("input must have rank 2 or more, got " + x.describe());
    const int64_t h = x.dim(x.rank() - 1);
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor skip, ctx.input(1));
    if (skip.dtype() != x.dtype() || skip.numel() == 0 || x.numel() % skip.numel() != 0 ||
        skip.dim(skip.rank() - 1) != h)
      return invalidArgument("skip " + skip.describe() + " does not match input " + x.describe());
    auto vec = [&](size_t i, const char* what, DeviceTensor& t) -> Status {
      PASSLAB_ASSIGN_OR_RETURN(t, ctx.input(i));
      if (t.dtype() != x.dtype() || t.numel() != h)
        return invalidArgument(std::string(what) + " " + t.describe() + " must be " +
                               std::string(ir::dtypeName(x.dtype())) + " with " +
                               std::to_string(h) + " values");
      return Status::ok();
    };
    RowNormArgs a;
    DeviceTensor gamma, beta, bias, meanT, invT, sumT;
    PASSLAB_RETURN_IF_ERROR(vec(2, "gamma", gamma));
    a.scale = gamma.raw();
    a.scale_count = h;
    if (ctx.inputCount() > 3 && ctx.has(3)) {
      PASSLAB_RETURN_IF_ERROR(vec(3, "beta", beta));
      a.bias = beta.raw();
      a.bias_count = h;
    }
    if (ctx.inputCount() > 4 && ctx.has(4)) {
      PASSLAB_RETURN_IF_ERROR(vec(4, "bias", bias));
      a.add_bias = bias.raw();
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), x.dims()));
    Dims statDims = x.dims();
    statDims.back() = 1;
    if (ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(meanT, ctx.allocate(1, ir::DataType::kFloat, statDims));
      a.mean_out = meanT.mutableData<float>();
    }
    if (ctx.outputCount() > 2 && ctx.wantsOutput(2)) {
      PASSLAB_ASSIGN_OR_RETURN(invT, ctx.allocate(2, ir::DataType::kFloat, statDims));
      a.inv_std_out = invT.mutableData<float>();
    }
    if (ctx.outputCount() > 3 && ctx.wantsOutput(3)) {
      PASSLAB_ASSIGN_OR_RETURN(sumT, ctx.allocate(3, x.dtype(), x.dims()));
      a.sum = sumT.mutableRaw();
    }
    a.x = x.raw();
    a.skip = skip.raw();
    a.skip_count = skip.numel();
    a.y = y.mutableRaw();
    a.cols = h;
    a.rows = h == 0 ? 0 : x.numel() / h;
    a.epsilon = epsilon_;
    PASSLAB_CUDA_TRY(launchRowNorm(ft, a, ctx.stream()));
    return Status::ok();
  }

 private:
  float epsilon_;
};

// ---- com.microsoft Gelu, BiasGelu (erf form), FastGelu (tanh form): X, bias? ----
// (transformer contrib ops, kept with SkipLayerNormalization; contrib_gelu.cpp)

template <bool kTanh>
class ContribGeluKernel final : public CudaKernel {
 public:
  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int ft, floatTypeOf(x, "X"));
    DeviceTensor bias;
    if (ctx.inputCount() > 1 && ctx.has(1)) {
      PASSLAB_ASSIGN_OR_RETURN(bias, ctx.input(1));
      const int64_t last = x.rank() == 0 ? 1 : x.dim(x.rank() - 1);
      if (bias.dtype() != x.dtype() || bias.numel() != last)
        return invalidArgument("the bias " + bias.describe() + " must be " +
                               std::string(ir::dtypeName(x.dtype())) + " with one value per " +
                               "element of the last dim of " + x.describe());
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), x.dims()));
    PASSLAB_CUDA_TRY(launchContribGelu(ft, kTanh, x.raw(), bias.defined() ? bias.raw() : nullptr,
                                       bias.defined() ? bias.numel() : 1, y.mutableRaw(), x.numel(),
                                       ctx.stream()));
    return Status::ok();
  }
};

// ---- InstanceNormalization: X [N, C, ...], scale [C], B [C] ----

class InstanceNormKernel final : public CudaKernel {
 public:
  explicit InstanceNormKernel(const CudaBuild& b)
      : epsilon_(b.node().attrFloat("epsilon", 1e-5f)) {}

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(int ft, floatTypeOf(x, "X"));
    if (x.rank() < 3) return invalidArgument("X must have rank 3 or more, got " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor scale, ctx.input(1));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor bias, ctx.input(2));
    const int64_t N = x.dim(0), C = x.dim(1);
    if (scale.numel() != C || bias.numel() != C)
      return invalidArgument("scale and B must have " + std::to_string(C) + " elements");
    PASSLAB_RETURN_IF_ERROR(sameType(scale, x, "scale"));
    PASSLAB_RETURN_IF_ERROR(sameType(bias, x, "B"));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, x.dtype(), x.dims()));
    RowNormArgs a;
    a.x = x.raw();
    a.y = y.mutableRaw();
    a.scale = scale.raw();
    a.bias = bias.raw();
    a.scale_count = a.bias_count = C;
    a.channels = C;
    a.rows = N * C;
    a.cols = N * C == 0 ? 0 : x.numel() / (N * C);
    a.epsilon = epsilon_;
    PASSLAB_CUDA_TRY(launchRowNorm(ft, a, ctx.stream()));
    return Status::ok();
  }

 private:
  float epsilon_;
};

constexpr std::string_view kPasslab = ir::passlab_ops::kDomain;

const CudaKernelDef kRows[] = {
    {"", "Softmax", 1, kOpsetMax, kCudaFloats, 0, "cuda.Softmax",
     makeCudaKernel<SoftmaxKernel<SoftmaxKind::kSoftmax>>},
    {"", "LogSoftmax", 1, kOpsetMax, kCudaFloats, 0, "cuda.LogSoftmax",
     makeCudaKernel<SoftmaxKernel<SoftmaxKind::kLogSoftmax>>},
    {"", "Hardmax", 1, kOpsetMax, kCudaFloats, 0, "cuda.Hardmax",
     makeCudaKernel<SoftmaxKernel<SoftmaxKind::kHardmax>>},
    {"", "LayerNormalization", 1, kOpsetMax, kCudaFloats, 0, "cuda.LayerNormalization",
     makeCudaKernel<RowNormKernel<false>>},
    {"", "RMSNormalization", 23, kOpsetMax, kCudaFloats, 0, "cuda.RMSNormalization",
     makeCudaKernel<RowNormKernel<true>>},
    {"", "SimplifiedLayerNormalization", 1, kOpsetMax, kCudaFloats, 0,
     "cuda.SimplifiedLayerNormalization", makeCudaKernel<RowNormKernel<true>>},
    {"", "InstanceNormalization", 6, kOpsetMax, kCudaFloats, 0, "cuda.InstanceNormalization",
     makeCudaKernel<InstanceNormKernel>},
    {"com.microsoft", "SkipLayerNormalization", 1, kOpsetMax, kCudaFloats, 0,
     "cuda.ms.SkipLayerNormalization", makeCudaKernel<SkipLayerNormKernel>},
    {"com.microsoft", "Gelu", 1, kOpsetMax, kCudaFloats, 0, "cuda.ms.Gelu",
     makeCudaKernel<ContribGeluKernel<false>>},
    {"com.microsoft", "BiasGelu", 1, kOpsetMax, kCudaFloats, 0, "cuda.ms.BiasGelu",
     makeCudaKernel<ContribGeluKernel<false>>},
    {"com.microsoft", "FastGelu", 1, kOpsetMax, kCudaFloats, 0, "cuda.ms.FastGelu",
     makeCudaKernel<ContribGeluKernel<true>>},
    {kPasslab, ir::passlab_ops::kFusedLayerNorm, 1, kOpsetMax, kCudaFloats, 0,
     "cuda.passlab.FusedLayerNorm", makeCudaKernel<FusedLayerNormKernel>},
    {kPasslab, ir::passlab_ops::kFusedSoftmax, 1, kOpsetMax, kCudaFloats, 0,
     "cuda.passlab.FusedSoftmax", makeCudaKernel<FusedSoftmaxKernel>},
};

}  // namespace

std::span<const CudaKernelDef> normalizationKernels() {
  return kRows;
}

}  // namespace passlab::exec::cuda
