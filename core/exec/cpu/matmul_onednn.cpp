// MatMul and Gemm on oneDNN's matmul primitive (float32; float16 and
// bfloat16 on float32 copies, half_as_float.h). The primitive is
// built once per input shape (the last four shapes' kept); a right-hand side (weights) that is the
// same on every run (KernelContext::invariantInput) is reordered once into the layout oneDNN
// prefers and kept.
#include <memory>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/gemv_rows.h"
#include "core/exec/cpu/half_as_float.h"
#include "core/exec/cpu/matmul_ref.h"
#include "core/exec/cpu/matmul_shape.h"
#include "core/exec/cpu/onednn_stored_weights.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

using dnnl::memory;

// One matmul: src [batch.., M, K] x wei [batch.., K, N] -> dst [batch.., M, N],
// with optional transposition of the 2-D operands (Gemm), output scale and a
// bias broadcast over dst.
struct MatMulProblem {
  memory::dims src, wei, dst, bias;
  bool transA = false, transB = false;
  float alpha = 1.0f;
  bool constWeights = false;
  int threads = 0;
  bool operator==(const MatMulProblem&) const = default;
};

class MatMulPrimitive {
 public:
  // Builds the primitive; false when oneDNN has no implementation.
  bool build(const MatMulProblem& pb) {
    for (const Built& b : recent_)
      if (b.problem == pb) return restore(b);
    problem_ = pb;
    built_ = true;
    try {
      auto f32 = memory::data_type::f32;
      auto& eng = onednn::engine();
      userSrc_ = layout(pb.src, pb.transA);
      userWei_ = layout(pb.wei, pb.transB);
      dstDesc_ = memory::desc(pb.dst, f32, onednn::plainTag(pb.dst.size()));
      auto weiAny = pb.constWeights ? memory::desc(pb.wei, f32, memory::format_tag::any) : userWei_;
      dnnl::primitive_attr attr;
      if (pb.alpha != 1.0f) attr.set_output_scales(0, {pb.alpha});
      auto d = pb.bias.empty()
                   ? dnnl::matmul::desc(userSrc_, weiAny, dstDesc_)
                   : dnnl::matmul::desc(
                         userSrc_, weiAny,
                         memory::desc(pb.bias, f32, onednn::plainTag(pb.bias.size())), dstDesc_);
      auto pd = dnnl::matmul::primitive_desc(d, attr, eng);
      weiDesc_ = pd.weights_desc();
      biasDesc_ = pb.bias.empty() ? memory::desc() : pd.bias_desc();
      prim_ = dnnl::matmul(pd);
      reorderWei_ = weiDesc_ != userWei_;
      if (reorderWei_)
        toWei_ = dnnl::reorder(dnnl::reorder::primitive_desc(eng, userWei_, eng, weiDesc_));
      adoptHeld(pb);
      ok_ = true;
    } catch (const dnnl::error&) {
      ok_ = false;
    }
    remember();
    return ok_;
  }

  bool ok() const { return ok_; }
  bool built() const { return built_; }
  const MatMulProblem& problem() const { return problem_; }

  // Whether the primitive holds its own copy of the invariant weights
  // (KernelContext::holdsOwnCopy): packed into its layout, kept across runs
  // and across rebuilds for other shapes.
  bool holdsWeights() const { return held_ && heldValid_; }
  // The held copy (null when none) and the user's layout it was packed from.
  dnnl::memory heldWeights() const { return holdsWeights() ? held_ : memory(); }
  memory::desc heldPlainLayout() const { return layout(heldWei_, heldTrans_); }

  // `invariantB`: b holds the same values on every run of this node.
  Status run(const Tensor& a, const Tensor& b, const Tensor* bias, Tensor& y, bool invariantB) {
    dnnl::stream& s = onednn::stream();
    memory wei;
    if (invariantB && holdsWeights() && held_.get_desc() == weiDesc_) {
      wei = held_;
    } else if (b.dataFreed()) {
      return internalError("the weights were freed and the primitive holds no copy of them");
    } else if (!reorderWei_) {
      wei = onednn::over(userWei_, b);
    } else {
      // Invariant weights packed once and held; weights that change (a run
      // that overrides an initializer) packed per run, the held copy untouched.
      memory packed(weiDesc_, onednn::engine());
      memory user = onednn::over(userWei_, b);
      toWei_.execute(s, user, packed);
      if (invariantB) {
        held_ = packed;
        heldValid_ = true;
        heldWei_ = problem_.wei;
        heldTrans_ = problem_.transB;
      }
      wei = packed;
    }
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, onednn::over(userSrc_, a)},
                                            {DNNL_ARG_WEIGHTS, wei},
                                            {DNNL_ARG_DST, onednn::over(dstDesc_, y)}};
    if (bias) args[DNNL_ARG_BIAS] = onednn::over(biasDesc_, *bias);
    prim_.execute(s, args);
    s.wait();
    return Status::ok();
  }

 private:
  // After a rebuild with invariant weights: the held copy reordered into the
  // new primitive's layout (it may be its plain one), so the weights' data is
  // not needed again.
  void adoptHeld(const MatMulProblem& pb) {
    if (!holdsWeights() || !pb.constWeights || heldWei_ != pb.wei || heldTrans_ != pb.transB)
      return;
    if (held_.get_desc() == weiDesc_) return;
    memory moved(weiDesc_, onednn::engine());
    dnnl::stream& s = onednn::stream();
    dnnl::reorder(held_, moved).execute(s, held_, moved);
    s.wait();
    held_ = moved;
  }

  // What build() made for one problem. The last kRecentProblems are kept, so
  // a node whose shapes alternate (a decoder's first step and the next ones,
  // run again for every sequence) does not create its primitive descriptor
  // again on every switch.
  struct Built {
    MatMulProblem problem;
    bool ok = false;
    memory::desc userSrc, userWei, weiDesc, dstDesc, biasDesc;
    dnnl::primitive prim;
    bool reorderWei = false;
    dnnl::reorder toWei;
  };
  static constexpr size_t kRecentProblems = 4;

  void remember() {
    if (recent_.size() == kRecentProblems) recent_.erase(recent_.begin());
    recent_.push_back({problem_, ok_, userSrc_, userWei_, weiDesc_, dstDesc_, biasDesc_, prim_,
                       reorderWei_, toWei_});
  }

  // Back to what build() made for b.problem; the held weights follow its layout.
  bool restore(const Built& b) {
    problem_ = b.problem;
    built_ = true;
    ok_ = b.ok;
    userSrc_ = b.userSrc;
    userWei_ = b.userWei;
    weiDesc_ = b.weiDesc;
    dstDesc_ = b.dstDesc;
    biasDesc_ = b.biasDesc;
    prim_ = b.prim;
    reorderWei_ = b.reorderWei;
    toWei_ = b.toWei;
    if (!ok_) return false;
    try {
      adoptHeld(problem_);
    } catch (const dnnl::error&) {
      ok_ = false;
    }
    return ok_;
  }

  // Row-major dims, or the last two swapped in memory (a transposed operand).
  static memory::desc layout(const memory::dims& dims, bool transposed) {
    auto f32 = memory::data_type::f32;
    if (!transposed) return memory::desc(dims, f32, onednn::plainTag(dims.size()));
    return memory::desc(dims, f32, memory::format_tag::ba);  // 2-D only (Gemm)
  }

  MatMulProblem problem_;
  bool ok_ = false, built_ = false;
  memory::desc userSrc_, userWei_, weiDesc_, dstDesc_, biasDesc_;
  dnnl::primitive prim_;
  bool reorderWei_ = false;
  dnnl::reorder toWei_;
  memory held_;  // the invariant weights in the primitive's layout, kept across runs
  bool heldValid_ = false;
  memory::dims heldWei_;  // the weights' dims and transposition held_ was made for
  bool heldTrans_ = false;
  std::vector<Built> recent_;  // remember(), oldest first
};

// The reference kernel when oneDNN declines a shape, unless the weights it
// would read were freed (KernelContext::holdsOwnCopy): a clear error then.
Status fallbackOrFreed(Kernel& fallback, KernelContext& ctx, const Tensor& b) {
  if (b.dataFreed())
    return internalError("oneDNN declined the new shape and the weights were freed after packing");
  return fallback.run(ctx);
}

class OneDnnMatMul final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto fallback = makeMatMulRef(b);
    if (!fallback) return fallback.error();
    return std::unique_ptr<Kernel>(new OneDnnMatMul(std::move(fallback).value()));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (a.dtype() != ir::DataType::kFloat || b.dtype() != ir::DataType::kFloat)
      return fallbackOrFreed(*fallback_, ctx, b);
    PASSLAB_ASSIGN_OR_RETURN(MatMulShape s, matmulShape(a.dims(), b.dims()));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, s.out));
    if (y->numel() == 0) return Status::ok();
    if (s.K == 0) {
      std::fill(y->mutableData<float>(), y->mutableData<float>() + y->numel(), 0.0f);
      return Status::ok();
    }
    MatMulProblem pb;
    auto withBatch = [&](const Dims& batch, int64_t r, int64_t c) {
      memory::dims d(batch.begin(), batch.end());
      d.push_back(r);
      d.push_back(c);
      return d;
    };
    pb.src = withBatch(s.aBatch, s.M, s.K);
    pb.wei = withBatch(s.bBatch, s.K, s.N);
    pb.dst = withBatch(s.batch, s.M, s.N);
    pb.constWeights = ctx.invariantInput(1);
    pb.threads = ctx.threads();
    if (pb.dst.size() > 12) return fallbackOrFreed(*fallback_, ctx, b);
    if (!(prim_.problem() == pb) || !prim_.built()) prim_.build(pb);
    if (!prim_.ok()) return fallbackOrFreed(*fallback_, ctx, b);
    PASSLAB_RETURN_IF_ERROR(prim_.run(a, b, nullptr, *y, pb.constWeights));
    if (pb.constWeights && prim_.holdsWeights()) ctx.holdsOwnCopy(1);
    return Status::ok();
  }

 private:
  explicit OneDnnMatMul(std::unique_ptr<Kernel> fallback) : fallback_(std::move(fallback)) {}
  std::unique_ptr<Kernel> fallback_;
  MatMulPrimitive prim_;
};

// Y = alpha * A' * B' + beta * C, C broadcast to [M, N].
class OneDnnGemm final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto fallback = makeGemmRef(b);
    if (!fallback) return fallback.error();
    return std::unique_ptr<Kernel>(new OneDnnGemm(b, std::move(fallback).value()));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    const Tensor* c = ctx.has(2) ? &ctx.input(2) : nullptr;
    if (a.rank() != 2 || b.rank() != 2)
      return invalidArgument("Gemm needs 2-D A and B (got " + a.describe() + " and " +
                             b.describe() + ")");
    if (a.dtype() != ir::DataType::kFloat || b.dtype() != a.dtype() ||
        (c && c->dtype() != a.dtype()))
      return fallbackOrFreed(*fallback_, ctx, b);
    int64_t M = transA_ ? a.dim(1) : a.dim(0), K = transA_ ? a.dim(0) : a.dim(1);
    int64_t Kb = transB_ ? b.dim(1) : b.dim(0), N = transB_ ? b.dim(0) : b.dim(1);
    if (K != Kb)
      return invalidArgument("Gemm inner dimensions differ: A' is [" + std::to_string(M) + "," +
                             std::to_string(K) + "], B' is [" + std::to_string(Kb) + "," +
                             std::to_string(N) + "]");
    Dims out = {M, N};
    if (c) {
      auto bc = broadcastShapes(c->dims(), out);
      if (!bc || *bc != out)
        return invalidArgument("C " + c->describe() + " does not broadcast to [" +
                               std::to_string(M) + "," + std::to_string(N) + "]");
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, out));
    float* Y = y->mutableData<float>();
    if (y->numel() == 0) return Status::ok();
    // C as matmul bias when it is a plain "+ C" (beta 1, alpha 1) of rank 2 or less.
    bool fuseBias = c && beta_ == 1.0f && alpha_ == 1.0f && c->numel() > 0;
    if (K == 0) {
      std::fill(Y, Y + y->numel(), 0.0f);
    } else if (M == 1 && transB_) {
      // Batch 1 with B stored [N, K]: a GEMV over B as stored (gemv_rows.h;
      // unpacked from the primitive's copy once B was freed, so a reused
      // executor runs it as a fresh one does), then alpha and "+ beta * C"
      // below.
      PASSLAB_ASSIGN_OR_RETURN(const Tensor* sb, storedB_.of(
                                                     b, [&] { return prim_.heldWeights(); },
                                                     [&] { return prim_.heldPlainLayout(); }));
      gemvRows(a.data<float>(), sb->data<float>(), N, K, Y, ctx.threads());
      if (alpha_ != 1.0f)
        for (int64_t n = 0; n < N; ++n) Y[n] *= alpha_;
    } else {
      MatMulProblem pb;
      pb.src = {M, K};
      pb.wei = {K, N};
      pb.dst = {M, N};
      pb.transA = transA_;
      pb.transB = transB_;
      pb.alpha = alpha_;
      pb.constWeights = ctx.invariantInput(1);
      pb.threads = ctx.threads();
      if (fuseBias) {
        Dims cd = c->dims();
        while (cd.size() < 2) cd.insert(cd.begin(), 1);
        pb.bias = {cd[0], cd[1]};
      }
      if (!(prim_.problem() == pb) || !prim_.built()) prim_.build(pb);
      if (!prim_.ok()) return fallbackOrFreed(*fallback_, ctx, b);
      PASSLAB_RETURN_IF_ERROR(prim_.run(a, b, fuseBias ? c : nullptr, *y, pb.constWeights));
      if (pb.constWeights && prim_.holdsWeights()) ctx.holdsOwnCopy(1);
      if (fuseBias) return Status::ok();
    }
    if (c && beta_ != 0.0f) {
      // Y += beta * C, broadcast over [M, N].
      BroadcastWalker<2> walker(out, {&out, &c->dims()});
      const float* C = c->data<float>();
      const float beta = beta_;
      parallelFor(walker.total(), ctx.threads(), kElementwiseGrain, [&](int64_t b0, int64_t e0) {
        walker.walk(b0, e0,
                    [&](int64_t o, const std::array<int64_t, 2>& off, int64_t n,
                        const std::array<int64_t, 2>& st) {
                      const float* cp = C + off[1];
                      if (st[1] == 1) {
                        for (int64_t i = 0; i < n; ++i) Y[o + i] += beta * cp[i];
                      } else {
                        float v = beta * cp[0];
                        for (int64_t i = 0; i < n; ++i) Y[o + i] += v;
                      }
                    });
      });
    }
    return Status::ok();
  }

 private:
  OneDnnGemm(const KernelBuild& b, std::unique_ptr<Kernel> fallback)
      : transA_(b.node().attrInt("transA", 0) != 0),
        transB_(b.node().attrInt("transB", 0) != 0),
        alpha_(b.node().attrFloat("alpha", 1.0f)),
        beta_(b.node().attrFloat("beta", 1.0f)),
        fallback_(std::move(fallback)) {}

  bool transA_, transB_;
  float alpha_, beta_;
  std::unique_ptr<Kernel> fallback_;
  MatMulPrimitive prim_;
  onednn::StoredWeights storedB_;  // B as the GEMV reads it
};

// The float32 kernel K for a float16 or bfloat16 node.
template <class K>
Expected<std::unique_ptr<Kernel>> makeHalfAsFloatKernel(const KernelBuild& b) {
  PASSLAB_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> inner, K::create(b));
  return makeHalfAsFloat(std::move(inner));
}

constexpr TypeSet kHalfTypes{ir::DataType::kFloat16, ir::DataType::kBFloat16};

const KernelDef kRows[] = {
    {"", "MatMul", 1, kOpsetMax, types::kFloat32, 0, Tier::kOptimized, "onednn.MatMul",
     makeKernel<OneDnnMatMul>},
    {"", "Gemm", 6, kOpsetMax, types::kFloat32, 0, Tier::kOptimized, "onednn.Gemm",
     makeKernel<OneDnnGemm>},
    {"", "MatMul", 1, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "onednn.MatMul.widened",
     makeHalfAsFloatKernel<OneDnnMatMul>},
    {"", "Gemm", 6, kOpsetMax, kHalfTypes, 0, Tier::kOptimized, "onednn.Gemm.widened",
     makeHalfAsFloatKernel<OneDnnGemm>},
};

}  // namespace

std::span<const KernelDef> matmulOneDnnKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
