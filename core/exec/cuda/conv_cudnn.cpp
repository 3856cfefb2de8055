// The convolution family on the GPU: Conv and ai.passlab FusedConv
// (Y = act(Conv(X, W) + B + Z)) with cuDNN's legacy API.
//
// The geometry is the CPU's (cpu::convGeometry: auto_pad, pads, strides,
// dilations, groups), mapped by cudnnConvShape: 1-D convolutions as 2-D with
// a leading axis of extent 1; asymmetric pads (SAME_UPPER on even extents)
// by padding X explicitly first (conv.cu), as cuDNN's pads are symmetric.
// Per input shape the kernel keeps the descriptors and the algorithm: the
// heuristics' candidates (cudnnGetConvolutionForwardAlgorithm_v7, no
// benchmarking) in their order, the first that runs kept. float32 computes
// with FMA math only (no TF32: results within the CPU's rtol 1e-3);
// float16 and bfloat16 with tensor ops, accumulating in float. The bias, the
// residual Z and the activation are one epilogue pass over Y (conv.cu) with
// the CPU's formulas, except FusedConv's ReLU with a bias (float32, float16):
// cudnnConvolutionBiasActivationForward, Z as its z input, unless
// PASSLAB_CUDA_CONV_EPILOGUE=off or it fails for the shape (then the
// epilogue kernel, from then on). ConvTranspose is cuDNN's backward-data
// convolution into the full image, Y cut from it (pads, output_padding,
// output_shape).
// Declined: FusedConv's blocked layout (`block`), more than 3 spatial axes,
// tensors beyond cuDNN's int dims.
#include <cudnn.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cuda/conv_launch.h"
#include "core/exec/cuda/conv_plan.h"
#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/cuda_families.h"
#include "core/exec/cuda/float_type.h"
#include "core/ir/passlab_ops.h"

namespace passlab::exec::cuda {

Expected<CudnnConvShape> cudnnConvShape(const cpu::ConvGeometry& g) {
  const size_t r = g.spatial();
  if (r < 1 || r > 3)
    return unsupported("convolution over " + std::to_string(r) +
                       " spatial axes (1 to 3 on the GPU)");
  // Spatial lists on cuDNN's axes (a leading axis of extent 1 for 1-D).
  const size_t cr = r == 1 ? 2 : r;
  const size_t lead = cr - r;
  auto spatial = [&](const Dims& d, int64_t fill) {
    Dims out(cr, fill);
    for (size_t i = 0; i < r; ++i) out[lead + i] = d[i];
    return out;
  };
  const Dims in = spatial(g.in, 1), kernel = spatial(g.kernel, 1), stride = spatial(g.stride, 1),
             dil = spatial(g.dilation, 1), pb = spatial(g.padBegin, 0), pe = spatial(g.padEnd, 0),
             out = spatial(g.out, 1);
  CudnnConvShape s;
  s.groups = static_cast<int>(g.group);
  for (size_t a = 0; a < cr; ++a) s.prePad = s.prePad || pb[a] != pe[a];
  Dims x = {g.N, g.C}, w = {g.M, g.group > 0 ? g.C / g.group : g.C}, y = {g.N, g.M};
  const size_t off3 = 3 - cr;  // cuDNN's spatial axes on the 3 axes of the padding
  for (size_t a = 0; a < cr; ++a) {
    const int64_t padded = in[a] + pb[a] + pe[a];
    x.push_back(s.prePad ? padded : in[a]);
    w.push_back(kernel[a]);
    y.push_back(out[a]);
    s.pads.push_back(static_cast<int>(s.prePad ? 0 : pb[a]));
    s.strides.push_back(static_cast<int>(stride[a]));
    s.dilations.push_back(static_cast<int>(dil[a]));
    s.in[off3 + a] = in[a];
    s.paddedIn[off3 + a] = padded;
    s.padBegin[off3 + a] = pb[a];
  }
  for (const Dims* d : {&x, &w, &y}) {
    if (numelOf(*d) >= int64_t{INT_MAX})
      return unsupported("a convolution tensor of " + dimsToString(*d) +
                         " (2^31 elements or more; cuDNN's dims are int)");
  }
  for (size_t a = 0; a < cr; ++a)
    if (pb[a] > INT_MAX || stride[a] > INT_MAX || dil[a] > INT_MAX)
      return unsupported("convolution attributes beyond int");
  auto toInt = [](const Dims& d) {
    std::vector<int> v;
    for (int64_t e : d) v.push_back(static_cast<int>(e));
    return v;
  };
  s.x = toInt(x);
  s.w = toInt(w);
  s.y = toInt(y);
  return s;
}

Expected<CudnnConvShape> cudnnConvTransposeShape(const cpu::ConvGeometry& g) {
  const size_t r = g.spatial();
  if (r < 1 || r > 3)
    return unsupported("ConvTranspose over " + std::to_string(r) +
                       " spatial axes (1 to 3 on the GPU)");
  const size_t cr = r == 1 ? 2 : r;
  const size_t lead = cr - r;
  auto spatial = [&](const Dims& d, int64_t fill) {
    Dims out(cr, fill);
    for (size_t i = 0; i < r; ++i) out[lead + i] = d[i];
    return out;
  };
  // For ConvTranspose the geometry's `in` is X's side (the grid), `out` Y's.
  const Dims in = spatial(g.in, 1), kernel = spatial(g.kernel, 1), stride = spatial(g.stride, 1),
             dil = spatial(g.dilation, 1), pb = spatial(g.padBegin, 0), out = spatial(g.out, 1);
  CudnnConvShape s;
  s.groups = static_cast<int>(g.group);
  Dims x = {g.N, g.C}, w = {g.C, g.group > 0 ? g.M / g.group : g.M}, y = {g.N, g.M};
  const size_t off3 = 3 - cr;
  for (size_t a = 0; a < cr; ++a) {
    const int64_t full = (in[a] - 1) * stride[a] + (kernel[a] - 1) * dil[a] + 1;
    x.push_back(in[a]);
    w.push_back(kernel[a]);
    y.push_back(full);
    s.pads.push_back(0);
    s.strides.push_back(static_cast<int>(stride[a]));
    s.dilations.push_back(static_cast<int>(dil[a]));
    s.in[off3 + a] = full;
    s.paddedIn[off3 + a] = out[a];
    s.padBegin[off3 + a] = -pb[a];
  }
  Dims yOut = {g.N, g.M};
  yOut.insert(yOut.end(), out.begin(), out.end());
  for (const Dims* d : {&x, &w, &y, &yOut}) {
    if (numelOf(*d) >= int64_t{INT_MAX})
      return unsupported("a ConvTranspose tensor of " + dimsToString(*d) +
                         " (2^31 elements or more; cuDNN's dims are int)");
  }
  for (size_t a = 0; a < cr; ++a)
    if (stride[a] > INT_MAX || dil[a] > INT_MAX)
      return unsupported("ConvTranspose attributes beyond int");
  auto toInt = [](const Dims& d) {
    std::vector<int> v;
    for (int64_t e : d) v.push_back(static_cast<int>(e));
    return v;
  };
  s.x = toInt(x);
  s.w = toInt(w);
  s.y = toInt(y);
  return s;
}

EpilogueAct epilogueAct(const cpu::fused::Activation& a) {
  using cpu::fused::ActKind;
  switch (a.kind) {
    case ActKind::kNone:
      return EpilogueAct::kNone;
    case ActKind::kRelu:
      return EpilogueAct::kRelu;
    case ActKind::kLeakyRelu:
      return EpilogueAct::kLeakyRelu;
    case ActKind::kClip:
      return EpilogueAct::kClip;
    case ActKind::kSigmoid:
      return EpilogueAct::kSigmoid;
    case ActKind::kTanh:
      return EpilogueAct::kTanh;
    case ActKind::kHardSigmoid:
      return EpilogueAct::kHardSigmoid;
    case ActKind::kHardSwish:
      return EpilogueAct::kHardSwish;
    case ActKind::kGelu:
      return EpilogueAct::kGelu;
    case ActKind::kGeluTanh:
      return EpilogueAct::kGeluTanh;
  }
  return EpilogueAct::kNone;
}

namespace {

// ---- cuDNN descriptors, destroyed with their owner ----
struct TensorDesc {
  cudnnTensorDescriptor_t d = nullptr;
  ~TensorDesc() {
    if (d) cudnnDestroyTensorDescriptor(d);
  }
};
struct FilterDesc {
  cudnnFilterDescriptor_t d = nullptr;
  ~FilterDesc() {
    if (d) cudnnDestroyFilterDescriptor(d);
  }
};
struct ConvDesc {
  cudnnConvolutionDescriptor_t d = nullptr;
  ~ConvDesc() {
    if (d) cudnnDestroyConvolutionDescriptor(d);
  }
};

struct ActivationDesc {
  cudnnActivationDescriptor_t d = nullptr;
  ~ActivationDesc() {
    if (d) cudnnDestroyActivationDescriptor(d);
  }
};

std::vector<int> packedStrides(const std::vector<int>& dims) {
  std::vector<int> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

Status setTensor(TensorDesc& t, cudnnDataType_t type, const std::vector<int>& dims) {
  PASSLAB_CUDNN_TRY(cudnnCreateTensorDescriptor(&t.d));
  const std::vector<int> strides = packedStrides(dims);
  PASSLAB_CUDNN_TRY(cudnnSetTensorNdDescriptor(t.d, type, static_cast<int>(dims.size()),
                                               dims.data(), strides.data()));
  return Status::ok();
}

// cuDNN's element type of `dt` and the math the descriptor starts with
// (float32: FMA only, no TF32); `op` names the operator in the error.
struct CudnnTypes {
  cudnnDataType_t data = CUDNN_DATA_FLOAT;
  cudnnMathType_t math = CUDNN_TENSOR_OP_MATH;
};
Expected<CudnnTypes> cudnnTypes(ir::DataType dt, const char* op) {
  CudnnTypes t;
  switch (dt) {
    case ir::DataType::kFloat:
      t.data = CUDNN_DATA_FLOAT;
      t.math = CUDNN_FMA_MATH;
      break;
    case ir::DataType::kFloat16:
      t.data = CUDNN_DATA_HALF;
      break;
    case ir::DataType::kBFloat16:
      t.data = CUDNN_DATA_BFLOAT16;
      break;
    default:
      return invalidArgument(std::string(op) + " of element type " +
                             std::string(ir::dtypeName(dt)));
  }
  return t;
}

// The filter and convolution descriptors of `s` (cross-correlation, float
// accumulation, its groups, `t.math`).
Status setConvDescriptors(FilterDesc& w, ConvDesc& conv, const CudnnTypes& t,
                          const CudnnConvShape& s) {
  const int nb = static_cast<int>(s.x.size());
  PASSLAB_CUDNN_TRY(cudnnCreateFilterDescriptor(&w.d));
  PASSLAB_CUDNN_TRY(cudnnSetFilterNdDescriptor(w.d, t.data, CUDNN_TENSOR_NCHW, nb, s.w.data()));
  PASSLAB_CUDNN_TRY(cudnnCreateConvolutionDescriptor(&conv.d));
  PASSLAB_CUDNN_TRY(cudnnSetConvolutionNdDescriptor(conv.d, nb - 2, s.pads.data(), s.strides.data(),
                                                    s.dilations.data(), CUDNN_CROSS_CORRELATION,
                                                    CUDNN_DATA_FLOAT));
  PASSLAB_CUDNN_TRY(cudnnSetConvolutionGroupCount(conv.d, s.groups));
  PASSLAB_CUDNN_TRY(cudnnSetConvolutionMathType(conv.d, t.math));
  return Status::ok();
}

// The heuristics' candidates that ran their check, without tensor-op (TF32)
// ones for float32.
template <class Perf>
std::vector<Perf> usableCandidates(const std::vector<Perf>& perf, int returned, ir::DataType dt) {
  std::vector<Perf> out;
  for (int i = 0; i < returned; ++i) {
    const Perf& c = perf[static_cast<size_t>(i)];
    if (c.status != CUDNN_STATUS_SUCCESS) continue;
    if (dt == ir::DataType::kFloat &&
        (c.mathType == CUDNN_TENSOR_OP_MATH || c.mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION))
      continue;
    out.push_back(c);
  }
  return out;
}

// Runs the first of `candidates` that works (only the kept one, `chosen`,
// once one ran): for each, the math type (not for float32), the workspace
// size from `workspace(algo, &bytes)`, the workspace (a candidate whose
// workspace does not fit is passed over) and `run(algo, ws, bytes)`; the one
// that succeeds is kept. `call` names the cuDNN call in its error, `none` the
// error when no candidate ran.
template <class Perf, class Workspace, class Run>
Status runFirstCandidate(CudaContext& ctx, const std::vector<Perf>& candidates, int& chosen,
                         cudnnDataType_t dataType, cudnnConvolutionDescriptor_t conv,
                         const char* call, const char* none, Workspace workspace, Run run) {
  const int first = chosen >= 0 ? chosen : 0;
  const int last = chosen >= 0 ? chosen + 1 : static_cast<int>(candidates.size());
  Status failed = Status::ok();
  for (int i = first; i < last; ++i) {
    const Perf& c = candidates[static_cast<size_t>(i)];
    if (dataType != CUDNN_DATA_FLOAT)
      PASSLAB_CUDNN_TRY(cudnnSetConvolutionMathType(conv, c.mathType));
    size_t wsBytes = 0;
    cudnnStatus_t st = workspace(c.algo, &wsBytes);
    if (st == CUDNN_STATUS_SUCCESS) {
      DeviceTensor ws;
      if (wsBytes > 0) {
        auto scratch = ctx.scratch(wsBytes);
        if (!scratch) {
          failed = scratch.error();
          continue;  // too much workspace: the next candidate
        }
        ws = std::move(scratch).value();
      }
      st = run(c.algo, ws.defined() ? ws.mutableRaw() : nullptr, wsBytes);
    }
    if (st == CUDNN_STATUS_SUCCESS) {
      chosen = i;
      return Status::ok();
    }
    failed = fromCudnn(static_cast<int>(st), call);
    if (chosen >= 0) break;  // the kept algorithm failed: report it
  }
  if (failed) return internalError(none);
  return failed;
}

// Everything built for one (X dims, W dims, element type).
struct Plan {
  CudnnConvShape shape;
  cudnnDataType_t dataType = CUDNN_DATA_FLOAT;
  TensorDesc x, y;
  FilterDesc w;
  ConvDesc conv;
  // The heuristics' candidates in order, and the one that ran (-1: none yet):
  // for the plain convolution and for cudnnConvolutionBiasActivationForward.
  std::vector<cudnnConvolutionFwdAlgoPerf_t> candidates;
  int chosen = -1, chosenFused = -1;
  // The fused call's bias [1, M, 1, 1] and ReLU, made on first use; off once
  // it failed for this shape (the epilogue kernel does the work then).
  TensorDesc bias;
  ActivationDesc relu;
  bool fusedUsable = true;
};

// What cudnnConvolutionBiasActivationForward adds: Y = relu(conv + Z + B).
struct FusedRelu {
  const void* bias = nullptr;
  const void* z = nullptr;  // null: no residual
};

// PASSLAB_CUDA_CONV_EPILOGUE=off keeps the bias and ReLU out of cuDNN (the
// epilogue kernel applies them); auto and on (the default) let FusedConv's
// ReLU with a bias run as cudnnConvolutionBiasActivationForward.
bool cudnnEpilogueEnabled() {
  const char* v = std::getenv("PASSLAB_CUDA_CONV_EPILOGUE");
  return !(v && std::string_view(v) == "off");
}

using PlanKey = std::tuple<Dims, Dims, ir::DataType>;

// Declines more than 3 spatial axes when kernel_shape or a constant W tells.
Status checkSpatialAxes(const CudaBuild& b, const ir::WindowAttrs& w, const char* what) {
  size_t axes = w.kernel.size();
  if (const ir::Tensor* weights = b.constantInput(1); weights && weights->dims().size() >= 2)
    axes = std::max(axes, weights->dims().size() - 2);
  if (axes > 3)
    return unsupported(std::string(what) + " over " + std::to_string(axes) +
                       " spatial axes (1 to 3 on the GPU)");
  return Status::ok();
}

class ConvKernel final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    const ir::Node& n = b.node();
    const bool fused = n.domain() == ir::passlab_ops::kDomain;
    if (fused && n.attrInt(ir::passlab_ops::kBlock, 0) != 0)
      return unsupported("FusedConv in the blocked layout (attribute block)");
    auto a = cpu::parseConvAttrs(n);
    if (!a) return a.error();
    PASSLAB_RETURN_IF_ERROR(checkSpatialAxes(b, a->window, "convolution"));
    auto k = std::unique_ptr<ConvKernel>(new ConvKernel(std::move(a).value()));
    k->fused_ = fused;
    if (fused) {
      auto act = cpu::fused::parseActivation(n);
      if (!act) return act.error();
      k->act_ = epilogueAct(*act);
      k->alpha_ = act->alpha;
      k->beta_ = act->beta;
    }
    return std::unique_ptr<CudaKernel>(std::move(k));
  }

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor w, ctx.input(1));
    const ir::DataType dt = x.dtype();
    auto lf = launchFloat(dt);
    if (!lf) return invalidArgument("Conv of element type " + std::string(ir::dtypeName(dt)));
    const int ft = static_cast<int>(*lf);
    if (w.dtype() != dt) return invalidArgument("W " + w.describe() + " is not of X's type");
    PASSLAB_ASSIGN_OR_RETURN(cpu::ConvGeometry g, cpu::convGeometry(attrs_, x.dims(), w.dims()));
    DeviceTensor bias, z;
    if (ctx.has(2)) {
      PASSLAB_ASSIGN_OR_RETURN(bias, ctx.input(2));
      if (bias.dtype() != dt)
        return invalidArgument("B " + bias.describe() + " is not of X's type");
      if (bias.numel() != g.M)
        return invalidArgument("B has " + std::to_string(bias.numel()) + " elements, expected " +
                               std::to_string(g.M));
    }
    if (fused_ && ctx.inputCount() > 3 && ctx.has(3)) {
      PASSLAB_ASSIGN_OR_RETURN(z, ctx.input(3));
      if (z.dims() != g.outDims)
        return invalidArgument("residual Z " + z.describe() + " does not have the output's shape");
      if (z.dtype() != dt) return invalidArgument("Z " + z.describe() + " is not of X's type");
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, dt, g.outDims));
    if (y.numel() == 0) return Status::ok();
    if (x.numel() == 0 || w.numel() == 0) {
      // Nothing to sum: Y = act(B + Z).
      PASSLAB_CUDA_TRY(cudaMemsetAsync(y.mutableRaw(), 0, y.byteSize(), ctx.stream()));
    } else {
      PASSLAB_ASSIGN_OR_RETURN(Plan * p, plan(ctx, g, x.dims(), w.dims(), dt));
      // ReLU(conv + Z + B) in one cuDNN call where it runs (float32, float16).
      if (act_ == EpilogueAct::kRelu && bias.defined() && cudnnEpilogue_ && p->fusedUsable &&
          (dt == ir::DataType::kFloat || dt == ir::DataType::kFloat16)) {
        Status st = prepareFused(*p, g);
        if (st) {
          FusedRelu f{bias.raw(), z.defined() ? z.raw() : nullptr};
          st = convolve(ctx, *p, ft, x, w, y, &f);
        }
        if (st) return Status::ok();
        p->fusedUsable = false;  // the plain convolution and the epilogue kernel from now on
      }
      PASSLAB_RETURN_IF_ERROR(convolve(ctx, *p, ft, x, w, y, nullptr));
    }
    const int64_t S = g.N * g.M == 0 ? 0 : y.numel() / (g.N * g.M);
    if (bias.defined() || z.defined() || act_ != EpilogueAct::kNone)
      PASSLAB_CUDA_TRY(launchConvEpilogue(ft, y.mutableRaw(), bias.defined() ? bias.raw() : nullptr,
                                          z.defined() ? z.raw() : nullptr, g.N, g.M, S, act_,
                                          alpha_, beta_, ctx.stream()));
    return Status::ok();
  }

 private:
  explicit ConvKernel(cpu::ConvAttrs a) : attrs_(std::move(a)) {}

  Expected<Plan*> plan(CudaContext& ctx, const cpu::ConvGeometry& g, const Dims& xd, const Dims& wd,
                       ir::DataType dt) {
    PlanKey key{xd, wd, dt};
    if (auto it = plans_.find(key); it != plans_.end()) return it->second.get();
    auto p = std::make_unique<Plan>();
    PASSLAB_ASSIGN_OR_RETURN(p->shape, cudnnConvShape(g));
    const CudnnConvShape& s = p->shape;
    PASSLAB_ASSIGN_OR_RETURN(CudnnTypes types, cudnnTypes(dt, "Conv"));
    p->dataType = types.data;
    const int nb = static_cast<int>(s.x.size());
    PASSLAB_RETURN_IF_ERROR(setTensor(p->x, p->dataType, s.x));
    PASSLAB_RETURN_IF_ERROR(setTensor(p->y, p->dataType, s.y));
    PASSLAB_RETURN_IF_ERROR(setConvDescriptors(p->w, p->conv, types, s));
    // cuDNN's output dims must be the geometry's.
    std::vector<int> outDims(s.y.size());
    PASSLAB_CUDNN_TRY(
        cudnnGetConvolutionNdForwardOutputDim(p->conv.d, p->x.d, p->w.d, nb, outDims.data()));
    if (outDims != s.y)
      return internalError("cuDNN's convolution output dims differ from the geometry's " +
                           dimsToString(g.outDims));
    int maxCount = 0;
    PASSLAB_CUDNN_TRY(cudnnGetConvolutionForwardAlgorithmMaxCount(ctx.cudnn(), &maxCount));
    std::vector<cudnnConvolutionFwdAlgoPerf_t> perf(static_cast<size_t>(std::max(maxCount, 1)));
    int returned = 0;
    PASSLAB_CUDNN_TRY(cudnnGetConvolutionForwardAlgorithm_v7(ctx.cudnn(), p->x.d, p->w.d, p->conv.d,
                                                             p->y.d, static_cast<int>(perf.size()),
                                                             &returned, perf.data()));
    p->candidates = usableCandidates(perf, returned, dt);
    if (p->candidates.empty())
      return unsupported("cuDNN has no forward algorithm for this convolution");
    Plan* raw = p.get();
    plans_.emplace(std::move(key), std::move(p));
    return raw;
  }

  // The bias and activation descriptors of the fused call.
  static Status prepareFused(Plan& p, const cpu::ConvGeometry& g) {
    if (p.relu.d) return Status::ok();
    std::vector<int> dims(p.shape.y.size(), 1);
    dims[1] = static_cast<int>(g.M);
    PASSLAB_RETURN_IF_ERROR(setTensor(p.bias, p.dataType, dims));
    PASSLAB_CUDNN_TRY(cudnnCreateActivationDescriptor(&p.relu.d));
    PASSLAB_CUDNN_TRY(
        cudnnSetActivationDescriptor(p.relu.d, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0));
    return Status::ok();
  }

  // Y = Conv(X, W) (after the explicit padding of X when the plan needs it);
  // with `f`, Y = relu(Conv(X, W) + Z + B) in one call.
  Status convolve(CudaContext& ctx, Plan& p, int ft, const DeviceTensor& x, const DeviceTensor& w,
                  DeviceTensor& y, const FusedRelu* f) {
    int& chosen = f ? p.chosenFused : p.chosen;
    const CudnnConvShape& s = p.shape;
    const void* xData = x.raw();
    DeviceTensor padded;
    if (s.prePad) {
      const int64_t planes = static_cast<int64_t>(s.x[0]) * s.x[1];
      const size_t bytes =
          static_cast<size_t>(planes * s.paddedIn[0] * s.paddedIn[1] * s.paddedIn[2]) *
          (x.numel() > 0 ? x.byteSize() / static_cast<size_t>(x.numel()) : 0);
      PASSLAB_ASSIGN_OR_RETURN(padded, ctx.scratch(bytes));
      PASSLAB_CUDA_TRY(launchPadSpatial(ft, x.raw(), padded.mutableRaw(), planes, s.in, s.paddedIn,
                                        s.padBegin, ctx.stream()));
      xData = padded.raw();
    }
    const float one = 1.0f, zero = 0.0f;
    auto workspace = [&](cudnnConvolutionFwdAlgo_t algo, size_t* bytes) {
      return cudnnGetConvolutionForwardWorkspaceSize(ctx.cudnn(), p.x.d, p.w.d, p.conv.d, p.y.d,
                                                     algo, bytes);
    };
    auto run = [&](cudnnConvolutionFwdAlgo_t algo, void* wsData, size_t wsBytes) {
      if (f) {
        // Without a residual Z aliases Y, weighted 0.
        return cudnnConvolutionBiasActivationForward(
            ctx.cudnn(), &one, p.x.d, xData, p.w.d, w.raw(), p.conv.d, algo, wsData, wsBytes,
            f->z ? &one : &zero, p.y.d, f->z ? f->z : y.raw(), p.bias.d, f->bias, p.relu.d, p.y.d,
            y.mutableRaw());
      }
      return cudnnConvolutionForward(ctx.cudnn(), &one, p.x.d, xData, p.w.d, w.raw(), p.conv.d,
                                     algo, wsData, wsBytes, &zero, p.y.d, y.mutableRaw());
    };
    return runFirstCandidate(
        ctx, p.candidates, chosen, p.dataType, p.conv.d,
        f ? "cudnnConvolutionBiasActivationForward" : "cudnnConvolutionForward",
        "cuDNN ran no forward algorithm", workspace, run);
  }

  cpu::ConvAttrs attrs_;
  bool fused_ = false;
  bool cudnnEpilogue_ = cudnnEpilogueEnabled();
  EpilogueAct act_ = EpilogueAct::kNone;
  float alpha_ = 0.0f, beta_ = 0.0f;
  std::map<PlanKey, std::unique_ptr<Plan>> plans_;
};

// ConvTranspose: cuDNN's backward-data convolution into the full image (no
// pads), then Y cut from it (conv.cu's launchPadSpatial with negative
// offsets) and the bias added by the epilogue kernel.
struct TransposePlan {
  CudnnConvShape shape;
  cudnnDataType_t dataType = CUDNN_DATA_FLOAT;
  TensorDesc dy, dx;
  FilterDesc w;
  ConvDesc conv;
  std::vector<cudnnConvolutionBwdDataAlgoPerf_t> candidates;
  int chosen = -1;
};

class ConvTransposeKernel final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    auto a = cpu::parseConvAttrs(b.node());
    if (!a) return a.error();
    PASSLAB_RETURN_IF_ERROR(checkSpatialAxes(b, a->window, "ConvTranspose"));
    return std::unique_ptr<CudaKernel>(new ConvTransposeKernel(std::move(a).value()));
  }

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor x, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor w, ctx.input(1));
    const ir::DataType dt = x.dtype();
    auto lf = launchFloat(dt);
    if (!lf)
      return invalidArgument("ConvTranspose of element type " + std::string(ir::dtypeName(dt)));
    const int ft = static_cast<int>(*lf);
    if (w.dtype() != dt) return invalidArgument("W " + w.describe() + " is not of X's type");
    PASSLAB_ASSIGN_OR_RETURN(cpu::ConvGeometry g,
                             cpu::convTransposeGeometry(attrs_, x.dims(), w.dims()));
    DeviceTensor bias;
    if (ctx.has(2)) {
      PASSLAB_ASSIGN_OR_RETURN(bias, ctx.input(2));
      if (bias.dtype() != dt)
        return invalidArgument("B " + bias.describe() + " is not of X's type");
      if (bias.numel() != g.M)
        return invalidArgument("B has " + std::to_string(bias.numel()) + " elements, expected " +
                               std::to_string(g.M));
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, dt, g.outDims));
    if (y.numel() == 0) return Status::ok();
    if (x.numel() == 0 || w.numel() == 0) {
      PASSLAB_CUDA_TRY(cudaMemsetAsync(y.mutableRaw(), 0, y.byteSize(), ctx.stream()));
    } else {
      PASSLAB_ASSIGN_OR_RETURN(TransposePlan * p, plan(ctx, g, x.dims(), w.dims(), dt));
      const CudnnConvShape& s = p->shape;
      const size_t elem = y.byteSize() / static_cast<size_t>(y.numel());
      PASSLAB_ASSIGN_OR_RETURN(
          DeviceTensor full,
          ctx.scratch(static_cast<size_t>(numelOf(Dims(s.y.begin(), s.y.end()))) * elem));
      PASSLAB_RETURN_IF_ERROR(convolve(ctx, *p, x, w, full));
      const int64_t planes = g.N * g.M;
      PASSLAB_CUDA_TRY(launchPadSpatial(ft, full.raw(), y.mutableRaw(), planes, s.in, s.paddedIn,
                                        s.padBegin, ctx.stream()));
    }
    if (bias.defined()) {
      const int64_t S = y.numel() / (g.N * g.M);
      PASSLAB_CUDA_TRY(launchConvEpilogue(ft, y.mutableRaw(), bias.raw(), nullptr, g.N, g.M, S,
                                          EpilogueAct::kNone, 0.0f, 0.0f, ctx.stream()));
    }
    return Status::ok();
  }

 private:
  explicit ConvTransposeKernel(cpu::ConvAttrs a) : attrs_(std::move(a)) {}

  Expected<TransposePlan*> plan(CudaContext& ctx, const cpu::ConvGeometry& g, const Dims& xd,
                                const Dims& wd, ir::DataType dt) {
    PlanKey key{xd, wd, dt};
    if (auto it = plans_.find(key); it != plans_.end()) return it->second.get();
    auto p = std::make_unique<TransposePlan>();
    PASSLAB_ASSIGN_OR_RETURN(p->shape, cudnnConvTransposeShape(g));
    const CudnnConvShape& s = p->shape;
    PASSLAB_ASSIGN_OR_RETURN(CudnnTypes types, cudnnTypes(dt, "ConvTranspose"));
    p->dataType = types.data;
    const int nb = static_cast<int>(s.x.size());
    PASSLAB_RETURN_IF_ERROR(setTensor(p->dy, p->dataType, s.x));
    PASSLAB_RETURN_IF_ERROR(setTensor(p->dx, p->dataType, s.y));
    PASSLAB_RETURN_IF_ERROR(setConvDescriptors(p->w, p->conv, types, s));
    // The forward convolution of the full image must give X's dims.
    std::vector<int> fwd(s.x.size());
    PASSLAB_CUDNN_TRY(
        cudnnGetConvolutionNdForwardOutputDim(p->conv.d, p->dx.d, p->w.d, nb, fwd.data()));
    if (fwd != s.x)
      return internalError("cuDNN's ConvTranspose image does not map back to X " +
                           dimsToString(xd));
    int maxCount = 0;
    PASSLAB_CUDNN_TRY(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(ctx.cudnn(), &maxCount));
    std::vector<cudnnConvolutionBwdDataAlgoPerf_t> perf(static_cast<size_t>(std::max(maxCount, 1)));
    int returned = 0;
    PASSLAB_CUDNN_TRY(cudnnGetConvolutionBackwardDataAlgorithm_v7(
        ctx.cudnn(), p->w.d, p->dy.d, p->conv.d, p->dx.d, static_cast<int>(perf.size()), &returned,
        perf.data()));
    p->candidates = usableCandidates(perf, returned, dt);
    if (p->candidates.empty())
      return unsupported("cuDNN has no backward-data algorithm for this ConvTranspose");
    TransposePlan* raw = p.get();
    plans_.emplace(std::move(key), std::move(p));
    return raw;
  }

  Status convolve(CudaContext& ctx, TransposePlan& p, const DeviceTensor& x, const DeviceTensor& w,
                  DeviceTensor& full) {
    const float one = 1.0f, zero = 0.0f;
    auto workspace = [&](cudnnConvolutionBwdDataAlgo_t algo, size_t* bytes) {
      return cudnnGetConvolutionBackwardDataWorkspaceSize(ctx.cudnn(), p.w.d, p.dy.d, p.conv.d,
                                                          p.dx.d, algo, bytes);
    };
    auto run = [&](cudnnConvolutionBwdDataAlgo_t algo, void* wsData, size_t wsBytes) {
      return cudnnConvolutionBackwardData(ctx.cudnn(), &one, p.w.d, w.raw(), p.dy.d, x.raw(),
                                          p.conv.d, algo, wsData, wsBytes, &zero, p.dx.d,
                                          full.mutableRaw());
    };
    return runFirstCandidate(ctx, p.candidates, p.chosen, p.dataType, p.conv.d,
                             "cudnnConvolutionBackwardData", "cuDNN ran no backward-data algorithm",
                             workspace, run);
  }

  cpu::ConvAttrs attrs_;
  std::map<PlanKey, std::unique_ptr<TransposePlan>> plans_;
};

const CudaKernelDef kRows[] = {
    {"", "Conv", 1, kOpsetMax, kCudaFloats, 0, "cudnn.Conv", makeCudaKernel<ConvKernel>},
    {ir::passlab_ops::kDomain, ir::passlab_ops::kFusedConv, 1, kOpsetMax, kCudaFloats, 0,
     "cudnn.passlab.FusedConv", makeCudaKernel<ConvKernel>},
    {"", "ConvTranspose", 1, kOpsetMax, kCudaFloats, 0, "cudnn.ConvTranspose",
     makeCudaKernel<ConvTransposeKernel>},
};

}  // namespace

std::span<const CudaKernelDef> convKernels() {
  return kRows;
}

}  // namespace passlab::exec::cuda
