// The matrix-product family on the GPU, through cuBLASLt: MatMul, Gemm,
// ai.passlab FusedGemm and com.microsoft FusedMatMul, in float32, float16
// and bfloat16, always accumulating in float32 (CUBLAS_COMPUTE_32F: no TF32,
// so float32 matches the CPU at rtol 1e-3; PASSLAB_CUDA_TF32=1 allows TF32).
//
// Row-major tensors on a column-major library: each product is computed
// transposed, Yᵀ = op(B)ᵀ op(A)ᵀ, with cuBLASLt's first operand our B
// (matmul_plan.h explains the mapping; rowMajorGemm builds it).
//
// MatMul: numpy semantics (matmulPlan): batches fold into the rows when B is
// one matrix; otherwise strided batches (stride 0 for a broadcast operand),
// in a loop when the broadcast pattern needs more than one (and one call per
// product where cuBLASLt has no algorithm for a strided batch).
//
// Gemm / FusedGemm: Y = act(alpha * A' B' + beta * C + Z). Inside cuBLASLt:
// alpha; Z as its C matrix (beta 1), or C itself when it has Y's shape; and,
// with PASSLAB_CUDA_GEMM_EPILOGUE on (the default, "auto"), a row-vector C
// (beta 1) as the epilogue's bias and ReLU / tanh-GELU as its activation.
// What remains (a C broadcast otherwise, beta != 1 with a row vector, the
// other activations, GELU's erf form — cuBLASLt's GELU is the tanh
// approximation) runs as one separate pass over Y (gemm_epilogue.cu). When
// cuBLASLt has no algorithm for the epilogue, the plain product and the
// separate pass are used instead.
//
// Heuristics are asked once per problem (shapes, types, pointer alignments:
// cuBLASLt assumes 256-byte alignment unless told) and the chosen algorithm
// is kept by the kernel.
#include <cuda_runtime.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cuda/cublaslt_api.h"
#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/cuda_families.h"
#include "core/exec/cuda/float_type.h"
#include "core/exec/cuda/gemm_epilogue_launch.h"
#include "core/exec/cuda/matmul_plan.h"

namespace passlab::exec::cuda {

namespace {

// cuBLASLt's functions (cublaslt_api.h): loaded by then, since every kernel
// here is built only after loadCublasLt() succeeded (requireCublasLt).
const CublasLtApi& lt() {
  return cublasLtApi();
}

// Without cuBLASLt the products decline and run on the CPU, with the reason.
Status requireCublasLt() {
  return loadCublasLt().status();
}

// Read when a kernel is built (tests set it per case).
EpilogueMode epilogueMode() {
  return parseEpilogueMode(std::getenv("PASSLAB_CUDA_GEMM_EPILOGUE"));
}

bool allowTf32() {
  static const bool on = [] {
    const char* v = std::getenv("PASSLAB_CUDA_TF32");
    return v && std::string(v) == "1";
  }();
  return on;
}

Expected<cudaDataType_t> ltType(ir::DataType t) {
  switch (t) {
    case ir::DataType::kFloat:
      return CUDA_R_32F;
    case ir::DataType::kFloat16:
      return CUDA_R_16F;
    case ir::DataType::kBFloat16:
      return CUDA_R_16BF;
    default:
      return invalidArgument("cuBLASLt products take float32, float16 or bfloat16, not " +
                             std::string(ir::dtypeName(t)));
  }
}

int64_t elementBytes(ir::DataType t) {
  return t == ir::DataType::kFloat ? 4 : 2;
}

// ---- one cuBLASLt call: its descriptors and algorithm, kept per problem ----

struct LtKey {
  cudaDataType_t type = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  LtGemm g;
  int64_t batch = 1;
  int64_t strideFirst = 0, strideSecond = 0, strideOut = 0;  // elements
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  uint32_t alignFirst = 256, alignSecond = 256, alignC = 256, alignD = 256, alignBias = 256;
  bool operator==(const LtKey&) const = default;
};

struct LtPlan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t first = nullptr, second = nullptr, c = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  size_t workspace = 0;
  bool found = false;  // false: cuBLASLt has no algorithm for the problem

  LtPlan() = default;
  LtPlan(const LtPlan&) = delete;
  LtPlan& operator=(const LtPlan&) = delete;
  ~LtPlan() {
    if (d) lt().cublasLtMatrixLayoutDestroy(d);
    if (c) lt().cublasLtMatrixLayoutDestroy(c);
    if (second) lt().cublasLtMatrixLayoutDestroy(second);
    if (first) lt().cublasLtMatrixLayoutDestroy(first);
    if (desc) lt().cublasLtMatmulDescDestroy(desc);
  }
};

struct PreferenceGuard {
  cublasLtMatmulPreference_t p = nullptr;
  ~PreferenceGuard() {
    if (p) lt().cublasLtMatmulPreferenceDestroy(p);
  }
};

Status makeLayout(cublasLtMatrixLayout_t* out, cudaDataType_t type, const LtOperand& op,
                  int64_t batch, int64_t stride) {
  PASSLAB_CUBLAS_TRY(lt().cublasLtMatrixLayoutCreate(out, type, op.rows, op.cols, op.ld));
  if (batch > 1) {
    const int32_t count = static_cast<int32_t>(batch);
    PASSLAB_CUBLAS_TRY(lt().cublasLtMatrixLayoutSetAttribute(
        *out, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)));
    PASSLAB_CUBLAS_TRY(lt().cublasLtMatrixLayoutSetAttribute(
        *out, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof(stride)));
  }
  return Status::ok();
}

// Largest workspace offered to the heuristic: NVIDIA recommends 32 MiB on
// Hopper and later, 4 MiB before. Only what the chosen algorithm needs is
// taken from the pool per call.
size_t maxWorkspace(const DeviceProperties& dev) {
  return dev.computeMajor >= 9 ? (size_t{32} << 20) : (size_t{4} << 20);
}

Status buildPlan(LtPlan& plan, cublasLtHandle_t handle, const LtKey& k, const void* bias,
                 size_t maxWs) {
  PASSLAB_CUBLAS_TRY(lt().cublasLtMatmulDescCreate(&plan.desc, k.compute, CUDA_R_32F));
  const cublasOperation_t opFirst = k.g.first.trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t opSecond = k.g.second.trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  PASSLAB_CUBLAS_TRY(lt().cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                                         &opFirst, sizeof(opFirst)));
  PASSLAB_CUBLAS_TRY(lt().cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_TRANSB,
                                                         &opSecond, sizeof(opSecond)));
  if (k.epilogue != CUBLASLT_EPILOGUE_DEFAULT) {
    PASSLAB_CUBLAS_TRY(lt().cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                                           &k.epilogue, sizeof(k.epilogue)));
    if (bias)
      PASSLAB_CUBLAS_TRY(lt().cublasLtMatmulDescSetAttribute(
          plan.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));
  }
  PASSLAB_RETURN_IF_ERROR(makeLayout(&plan.first, k.type, k.g.first, k.batch, k.strideFirst));
  PASSLAB_RETURN_IF_ERROR(makeLayout(&plan.second, k.type, k.g.second, k.batch, k.strideSecond));
  PASSLAB_RETURN_IF_ERROR(makeLayout(&plan.c, k.type, k.g.out, k.batch, k.strideOut));
  PASSLAB_RETURN_IF_ERROR(makeLayout(&plan.d, k.type, k.g.out, k.batch, k.strideOut));

  PreferenceGuard pref;
  PASSLAB_CUBLAS_TRY(lt().cublasLtMatmulPreferenceCreate(&pref.p));
  const uint64_t ws = maxWs;
  PASSLAB_CUBLAS_TRY(lt().cublasLtMatmulPreferenceSetAttribute(
      pref.p, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)));
  const std::pair<cublasLtMatmulPreferenceAttributes_t, uint32_t> aligns[] = {
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, k.alignFirst},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, k.alignSecond},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, k.alignC},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, k.alignD},
  };
  for (const auto& [attr, value] : aligns)
    PASSLAB_CUBLAS_TRY(
        lt().cublasLtMatmulPreferenceSetAttribute(pref.p, attr, &value, sizeof(value)));

  cublasLtMatmulHeuristicResult_t result{};
  int count = 0;
  const cublasStatus_t st = lt().cublasLtMatmulAlgoGetHeuristic(
      handle, plan.desc, plan.first, plan.second, plan.c, plan.d, pref.p, 1, &result, &count);
  // None found; with an epilogue, any refusal: the caller retries without it.
  if (st == CUBLAS_STATUS_NOT_SUPPORTED || (st == CUBLAS_STATUS_SUCCESS && count == 0) ||
      (st != CUBLAS_STATUS_SUCCESS && k.epilogue != CUBLASLT_EPILOGUE_DEFAULT)) {
    plan.found = false;
    return Status::ok();
  }
  PASSLAB_CUBLAS_TRY(st);
  if (result.state != CUBLAS_STATUS_SUCCESS) {
    plan.found = false;
    return Status::ok();
  }
  plan.algo = result.algo;
  plan.workspace = result.workspaceSize;
  plan.found = true;
  return Status::ok();
}

// The operands of one call (device pointers), alpha and beta on the host.
struct LtArgs {
  const void* first = nullptr;   // our B
  const void* second = nullptr;  // our A
  const void* c = nullptr;       // C matrix (beta != 0) or nullptr
  void* d = nullptr;
  const void* bias = nullptr;
  float alpha = 1.0f, beta = 0.0f;
};

// The kernel's cuBLASLt calls, planned once per problem.
class LtMatmul {
 public:
  // false when cuBLASLt has no algorithm for the problem.
  Expected<bool> run(CudaContext& ctx, LtKey key, const LtArgs& a) {
    const int64_t es = key.type == CUDA_R_32F ? 4 : 2;
    key.alignFirst = ltAlignment(reinterpret_cast<uintptr_t>(a.first), key.strideFirst * es);
    key.alignSecond = ltAlignment(reinterpret_cast<uintptr_t>(a.second), key.strideSecond * es);
    key.alignD = ltAlignment(reinterpret_cast<uintptr_t>(a.d), key.strideOut * es);
    key.alignC =
        a.c ? ltAlignment(reinterpret_cast<uintptr_t>(a.c), key.strideOut * es) : key.alignD;
    key.alignBias = a.bias ? ltAlignment(reinterpret_cast<uintptr_t>(a.bias)) : 256;
    LtPlan* plan = nullptr;
    for (auto& [k, p] : cache_)
      if (k == key) plan = p.get();
    if (!plan) {
      auto p = std::make_unique<LtPlan>();
      PASSLAB_RETURN_IF_ERROR(
          buildPlan(*p, ctx.cublasLt(), key, a.bias, maxWorkspace(ctx.device())));
      if (cache_.size() >= kCacheSize) cache_.erase(cache_.begin());
      cache_.emplace_back(key, std::move(p));
      plan = cache_.back().second.get();
    }
    if (!plan->found) return false;
    if (a.bias)
      PASSLAB_CUBLAS_TRY(lt().cublasLtMatmulDescSetAttribute(
          plan->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &a.bias, sizeof(a.bias)));
    DeviceTensor workspace;  // held until the product is queued
    if (plan->workspace > 0) {
      PASSLAB_ASSIGN_OR_RETURN(workspace, ctx.scratch(plan->workspace));
    }
    void* ws = workspace.mutableRaw();
    const float beta = a.c ? a.beta : 0.0f;
    const void* c = a.c ? a.c : a.d;
    const cublasStatus_t st = lt().cublasLtMatmul(
        ctx.cublasLt(), plan->desc, &a.alpha, a.first, plan->first, a.second, plan->second, &beta,
        c, plan->c, a.d, plan->d, &plan->algo, ws, plan->workspace, ctx.stream());
    if (st == CUBLAS_STATUS_NOT_SUPPORTED) {
      plan->found = false;  // not asked again for this problem
      return false;
    }
    PASSLAB_CUBLAS_TRY(st);
    return true;
  }

 private:
  static constexpr size_t kCacheSize = 8;
  std::vector<std::pair<LtKey, std::unique_ptr<LtPlan>>> cache_;
};

cublasComputeType_t computeFor(cudaDataType_t t) {
  return t == CUDA_R_32F && allowTf32() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

std::string problemText(const LtKey& k) {
  return "[" + std::to_string(k.g.n) + "x" + std::to_string(k.g.k) + "] x [" +
         std::to_string(k.g.k) + "x" + std::to_string(k.g.m) + "]" +
         (k.batch > 1 ? " batch " + std::to_string(k.batch) : "");
}

// ---- MatMul, com.microsoft FusedMatMul ----

class MatMulLt final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    PASSLAB_RETURN_IF_ERROR(requireCublasLt());
    auto k = std::unique_ptr<MatMulLt>(new MatMulLt());
    const ir::Node& n = b.node();
    if (n.domain() == "com.microsoft") {
      if (n.attrInt("transBatchA", 0) != 0 || n.attrInt("transBatchB", 0) != 0)
        return unsupported("FusedMatMul with transBatchA / transBatchB");
      k->alpha_ = n.attrFloat("alpha", 1.0f);
      k->transA_ = n.attrInt("transA", 0) != 0;
      k->transB_ = n.attrInt("transB", 0) != 0;
    }
    return std::unique_ptr<CudaKernel>(std::move(k));
  }

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor a, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor b, ctx.input(1));
    if (a.dtype() != b.dtype())
      return invalidArgument("inputs have different element types (" + a.describe() + " and " +
                             b.describe() + ")");
    PASSLAB_ASSIGN_OR_RETURN(cudaDataType_t type, ltType(a.dtype()));
    const bool ta = transA_ && a.rank() >= 2, tb = transB_ && b.rank() >= 2;
    PASSLAB_ASSIGN_OR_RETURN(MatMulPlan p, matmulPlan(a.dims(), b.dims(), ta, tb));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, a.dtype(), p.out));
    if (p.calls.empty() || y.numel() == 0) return Status::ok();
    if (p.K == 0) {
      PASSLAB_CUDA_TRY(cudaMemsetAsync(y.mutableRaw(), 0, y.byteSize(), ctx.stream()));
      return Status::ok();
    }
    const int64_t es = elementBytes(a.dtype());
    const int64_t matA = p.M * p.K, matB = p.K * p.N, matY = p.M * p.N;
    LtKey key;
    key.type = type;
    key.compute = computeFor(type);
    key.g = rowMajorGemm(p.rows, p.N, p.K, ta, tb);
    key.batch = p.inner;
    if (p.inner > 1) {
      key.strideFirst = p.bStride * matB;
      key.strideSecond = p.aStride * matA;
      key.strideOut = matY;
    }
    const auto* pa = static_cast<const std::byte*>(a.raw());
    const auto* pb = static_cast<const std::byte*>(b.raw());
    auto* py = static_cast<std::byte*>(y.mutableRaw());
    for (const MatMulCall& call : p.calls) {
      LtArgs args;
      args.first = pb + call.bMat * matB * es;
      args.second = pa + call.aMat * matA * es;
      args.d = py + call.yMat * matY * es;
      args.alpha = alpha_;
      PASSLAB_ASSIGN_OR_RETURN(bool ran, lt_.run(ctx, key, args));
      if (!ran && key.batch > 1) {
        // No algorithm for the strided batch (a stride of 0, say): one call per product.
        LtKey one = key;
        one.batch = 1;
        one.strideFirst = one.strideSecond = one.strideOut = 0;
        for (int64_t i = 0; i < p.inner; ++i) {
          LtArgs ai = args;
          ai.first = pb + (call.bMat + i * p.bStride) * matB * es;
          ai.second = pa + (call.aMat + i * p.aStride) * matA * es;
          ai.d = py + (call.yMat + i) * matY * es;
          PASSLAB_ASSIGN_OR_RETURN(ran, lt_.run(ctx, one, ai));
          if (!ran) break;
        }
      }
      if (!ran)
        return internalError("cuBLASLt has no algorithm for MatMul " + a.describe() + " x " +
                             b.describe() + " (" + problemText(key) + ")");
    }
    return Status::ok();
  }

 private:
  MatMulLt() = default;
  float alpha_ = 1.0f;
  bool transA_ = false, transB_ = false;
  LtMatmul lt_;
};

// ---- Gemm, ai.passlab FusedGemm ----

Expected<GemmAct> gemmAct(const cpu::fused::Activation& a) {
  using cpu::fused::ActKind;
  switch (a.kind) {
    case ActKind::kNone:
      return GemmAct::kNone;
    case ActKind::kRelu:
      return GemmAct::kRelu;
    case ActKind::kLeakyRelu:
      return GemmAct::kLeakyRelu;
    case ActKind::kClip:
      return GemmAct::kClip;
    case ActKind::kSigmoid:
      return GemmAct::kSigmoid;
    case ActKind::kTanh:
      return GemmAct::kTanh;
    case ActKind::kHardSigmoid:
      return GemmAct::kHardSigmoid;
    case ActKind::kHardSwish:
      return GemmAct::kHardSwish;
    case ActKind::kGelu:
      return GemmAct::kGelu;
    case ActKind::kGeluTanh:
      return GemmAct::kGeluTanh;
  }
  return unsupported("an activation the GPU epilogue does not know");
}

template <bool Fused>
class GemmLt final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    PASSLAB_RETURN_IF_ERROR(requireCublasLt());
    auto k = std::unique_ptr<GemmLt>(new GemmLt());
    const ir::Node& n = b.node();
    k->transA_ = n.attrInt("transA", 0) != 0;
    k->transB_ = n.attrInt("transB", 0) != 0;
    k->alpha_ = n.attrFloat("alpha", 1.0f);
    k->beta_ = n.attrFloat("beta", 1.0f);
    if constexpr (Fused) {
      PASSLAB_ASSIGN_OR_RETURN(cpu::fused::Activation act, cpu::fused::parseActivation(n));
      PASSLAB_ASSIGN_OR_RETURN(k->act_, gemmAct(act));
      k->actAlpha_ = act.alpha;
      k->actBeta_ = act.beta;
    }
    k->ltEpilogue_ = useLtEpilogue(epilogueMode());
    return std::unique_ptr<CudaKernel>(std::move(k));
  }

  Status run(CudaContext& ctx) override {
    const char* op = Fused ? "FusedGemm" : "Gemm";
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor a, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor b, ctx.input(1));
    DeviceTensor c, z;
    if (ctx.inputCount() > 2 && ctx.has(2)) {
      PASSLAB_ASSIGN_OR_RETURN(c, ctx.input(2));
    }
    if (Fused && ctx.inputCount() > 3 && ctx.has(3)) {
      PASSLAB_ASSIGN_OR_RETURN(z, ctx.input(3));
    }
    for (const DeviceTensor* t : {&b, &c, &z})
      if (t->defined() && t->dtype() != a.dtype())
        return invalidArgument(std::string(op) + ": A, B, C (and Z) must have one element type (" +
                               a.describe() + ", " + t->describe() + ")");
    PASSLAB_ASSIGN_OR_RETURN(cudaDataType_t type, ltType(a.dtype()));
    const int ft = static_cast<int>(launchFloat(a.dtype()).value_or(LaunchFloat::kFloat32));

    int64_t R = 0, N = 0, K = 0;
    Dims out;
    if constexpr (Fused) {
      PASSLAB_ASSIGN_OR_RETURN(FusedGemmDims s, fusedGemmDims(a.dims(), b.dims(), transA_, transB_,
                                                              c.defined() ? &c.dims() : nullptr,
                                                              z.defined() ? &z.dims() : nullptr));
      R = s.R;
      N = s.N;
      K = s.K;
      out = s.out;
    } else {
      PASSLAB_ASSIGN_OR_RETURN(GemmDims s, gemmDims(a.dims(), b.dims(), transA_, transB_));
      R = s.M;
      N = s.N;
      K = s.K;
      out = {R, N};
      if (c.defined()) {
        auto bc = broadcastShapes(c.dims(), out);
        if (!bc || *bc != out)
          return invalidArgument("C " + c.describe() + " does not broadcast to [" +
                                 std::to_string(R) + "," + std::to_string(N) + "]");
      }
    }
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, a.dtype(), out));
    if (y.numel() == 0) return Status::ok();

    // Who adds what: cuBLASLt's C matrix, its bias epilogue, or the separate pass.
    const bool useC = c.defined() && beta_ != 0.0f;
    const AddendKind cKind = useC ? classifyAddend(c.dims(), out) : AddendKind::kOther;
    Pass pass;  // what the separate pass still does
    pass.act = act_;
    LtArgs args;
    args.alpha = alpha_;
    if (z.defined()) {
      args.c = z.raw();
      args.beta = 1.0f;
    } else if (useC && cKind == AddendKind::kFull) {
      args.c = c.raw();
      args.beta = beta_;
    }
    const bool cInMatrix = useC && !z.defined() && cKind == AddendKind::kFull;
    if (useC && !cInMatrix) pass.c = &c;
    cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    if (ltEpilogue_) {
      bool bias = false;
      if (pass.c && cKind == AddendKind::kRowVector && beta_ == 1.0f) {
        args.bias = c.raw();
        pass.c = nullptr;
        bias = true;
      }
      // The activation goes in only when nothing is added after the product.
      if (!pass.c) {
        if (act_ == GemmAct::kRelu) {
          epilogue = bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
          pass.act = GemmAct::kNone;
        } else if (act_ == GemmAct::kGeluTanh) {
          epilogue = bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
          pass.act = GemmAct::kNone;
        } else if (bias) {
          epilogue = CUBLASLT_EPILOGUE_BIAS;
        }
      } else if (bias) {
        epilogue = CUBLASLT_EPILOGUE_BIAS;
      }
    }

    if (K == 0) {
      // No product: Y = act(beta * C + Z) by the separate pass alone.
      PASSLAB_CUDA_TRY(cudaMemsetAsync(y.mutableRaw(), 0, y.byteSize(), ctx.stream()));
      Pass all;
      all.c = useC ? &c : nullptr;
      all.z = z.defined() ? &z : nullptr;
      all.act = act_;
      return runPass(ctx, ft, y, out, all);
    }

    LtKey key;
    key.type = type;
    key.compute = computeFor(type);
    key.g = rowMajorGemm(R, N, K, transA_, transB_);
    key.epilogue = epilogue;
    args.first = b.raw();
    args.second = a.raw();
    args.d = y.mutableRaw();
    PASSLAB_ASSIGN_OR_RETURN(bool ran, lt_.run(ctx, key, args));
    if (!ran && epilogue != CUBLASLT_EPILOGUE_DEFAULT) {
      // No algorithm with the epilogue: the plain product, the rest separately.
      if (args.bias) pass.c = &c;
      args.bias = nullptr;
      pass.act = act_;
      key.epilogue = CUBLASLT_EPILOGUE_DEFAULT;
      PASSLAB_ASSIGN_OR_RETURN(ran, lt_.run(ctx, key, args));
    }
    if (!ran)
      return internalError(std::string("cuBLASLt has no algorithm for ") + op + " " + a.describe() +
                           " x " + b.describe() + " (" + problemText(key) + ")");
    return runPass(ctx, ft, y, out, pass);
  }

 private:
  struct Pass {
    const DeviceTensor* c = nullptr;  // added times beta, broadcast
    const DeviceTensor* z = nullptr;  // added as it is
    GemmAct act = GemmAct::kNone;
  };

  Status runPass(CudaContext& ctx, int ft, const DeviceTensor& y, const Dims& out, const Pass& p) {
    if (!p.c && !p.z && p.act == GemmAct::kNone) return Status::ok();
    GemmEpilogueArgs e;
    e.floatType = ft;
    e.y = y.mutableRaw();
    e.n = y.numel();
    e.beta = beta_;
    e.act = p.act;
    e.actAlpha = actAlpha_;
    e.actBeta = actBeta_;
    e.z = p.z ? p.z->raw() : nullptr;
    if (p.c) {
      // C's broadcast over Y, in at most kGemmEpilogueMaxRank dims: Y's
      // leading dims where C is 1 merge into one.
      std::vector<int64_t> strides = broadcastStrides(p.c->dims(), out);
      Dims dims = out;
      while (dims.size() > static_cast<size_t>(kGemmEpilogueMaxRank) && strides[0] == 0 &&
             strides[1] == 0) {
        dims[1] *= dims[0];
        dims.erase(dims.begin());
        strides.erase(strides.begin());
      }
      if (dims.size() > static_cast<size_t>(kGemmEpilogueMaxRank))
        return invalidArgument("C " + p.c->describe() + " broadcast over an output of rank " +
                               std::to_string(out.size()) + " (the GPU epilogue takes up to " +
                               std::to_string(kGemmEpilogueMaxRank) + ")");
      e.c = p.c->raw();
      e.rank = static_cast<int>(dims.size());
      for (size_t d = 0; d < dims.size(); ++d) {
        e.dims[d] = dims[d];
        e.cStrides[d] = strides[d];
      }
    }
    PASSLAB_CUDA_TRY(launchGemmEpilogue(e, ctx.stream()));
    return Status::ok();
  }

  GemmLt() = default;
  bool transA_ = false, transB_ = false;
  float alpha_ = 1.0f, beta_ = 1.0f;
  GemmAct act_ = GemmAct::kNone;
  float actAlpha_ = 0.0f, actBeta_ = 0.0f;
  bool ltEpilogue_ = true;
  LtMatmul lt_;
};

const CudaKernelDef kRows[] = {
    {"", "MatMul", 1, kOpsetMax, kCudaFloats, 0, "cublaslt.MatMul", makeCudaKernel<MatMulLt>},
    {"", "Gemm", 7, kOpsetMax, kCudaFloats, 0, "cublaslt.Gemm", makeCudaKernel<GemmLt<false>>},
    {ir::passlab_ops::kDomain, ir::passlab_ops::kFusedGemm, 1, kOpsetMax, kCudaFloats, 0,
     "cublaslt.FusedGemm", makeCudaKernel<GemmLt<true>>},
    {"com.microsoft", "FusedMatMul", 1, kOpsetMax, kCudaFloats, 0, "cublaslt.FusedMatMul",
     makeCudaKernel<MatMulLt>},
};

}  // namespace

std::span<const CudaKernelDef> matmulKernels() {
  return kRows;
}

}  // namespace passlab::exec::cuda
