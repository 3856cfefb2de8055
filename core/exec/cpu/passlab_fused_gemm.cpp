// ai.passlab FusedGemm: Y = act(alpha * A' * B' + beta * C + Z), float32.
//
// Inputs: A [..., M, K] (rank >= 2; leading dims are batch rows, as MatMul
// with a 2-D right-hand side; transA only for rank 2), B [K, N] ([N, K] with
// transB), C (optional) broadcasting unidirectionally to Y [..., M, N], Z
// (optional) the residual, of Y's shape. Attributes: Gemm's (transA, transB,
// alpha, beta) and `activation` / `activation_params` (passlab_fused.h).
//
// The optimized kernel is oneDNN's matmul with the epilogue in the primitive:
// C as its bias when it is a row or column vector (or a full matrix) and
// alpha = beta = 1, Z as a `binary add` post-op (or `sum` after copying Z into
// Y where oneDNN refuses the binary one), the activation as an `eltwise`
// post-op. Other cases (alpha or beta not 1 with C, a C that broadcasts
// otherwise, HardSigmoid) run the matmul and then one epilogue loop over Y.
// One row with B stored [N, K] (a classifier's Gemm and its Relu) is a GEMV
// over B as stored (gemv_rows.h), as Gemm's kernel runs it, and the epilogue
// loop: oneDNN's matmul at M = 1 read vgg19's 392 MiB first layer at 14 GB/s.
// B invariant across runs (KernelContext::invariantInput) is packed once
// into the primitive's layout and held, across rebuilds for other row counts
// too (reordered from the held copy), so the kernel says holdsOwnCopy and the
// executor may free the original (kept_values.h).
// The reference kernel is a plain triple loop and the same epilogue loop.
#include <cstring>
#include <memory>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/gemv_rows.h"
#include "core/exec/cpu/onednn_stored_weights.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu::fused {

namespace {

using dnnl::memory;

struct GemmAttrs {
  bool transA = false, transB = false;
  float alpha = 1.0f, beta = 1.0f;
  Activation act;
};

Expected<GemmAttrs> parseGemmAttrs(const ir::Node& n) {
  GemmAttrs a;
  a.transA = n.attrInt("transA", 0) != 0;
  a.transB = n.attrInt("transB", 0) != 0;
  a.alpha = n.attrFloat("alpha", 1.0f);
  a.beta = n.attrFloat("beta", 1.0f);
  PASSLAB_ASSIGN_OR_RETURN(a.act, parseActivation(n));
  return a;
}

// The problem as a 2-D product: Y[R, N] = A'[R, K] * B'[K, N].
struct Shape {
  int64_t R = 0, K = 0, N = 0;
  Dims out;
};

Expected<Shape> gemmShape(const GemmAttrs& at, const Tensor& a, const Tensor& b, const Tensor* c,
                          const Tensor* z) {
  if (a.rank() < 2 || b.rank() != 2)
    return invalidArgument("FusedGemm needs A of rank >= 2 and a 2-D B (got " + a.describe() +
                           " and " + b.describe() + ")");
  if (at.transA && a.rank() != 2)
    return invalidArgument("transA needs a 2-D A (got " + a.describe() + ")");
  Shape s;
  s.K = at.transA ? a.dim(0) : a.dim(a.rank() - 1);
  s.R = at.transA ? a.dim(1) : a.numel() / std::max<int64_t>(s.K, 1);
  if (!at.transA && s.K == 0) {
    s.R = 1;
    for (size_t i = 0; i + 1 < a.rank(); ++i) s.R *= a.dim(i);
  }
  int64_t kb = at.transB ? b.dim(1) : b.dim(0);
  s.N = at.transB ? b.dim(0) : b.dim(1);
  if (kb != s.K)
    return invalidArgument("FusedGemm inner dimensions differ: A " + a.describe() + ", B " +
                           b.describe());
  if (at.transA) {
    s.out = {s.R, s.N};
  } else {
    s.out.assign(a.dims().begin(), a.dims().end() - 1);
    s.out.push_back(s.N);
  }
  if (c) {
    auto bc = broadcastShapes(c->dims(), s.out);
    if (!bc || *bc != s.out)
      return invalidArgument("C " + c->describe() + " does not broadcast to the output's shape");
  }
  if (z && z->dims() != s.out)
    return invalidArgument("residual Z " + z->describe() + " does not have the output's shape");
  return s;
}

// Y = act(Y + beta * C + Z) with C broadcast to Y's shape: one pass over Y.
void epilogueWithC(const GemmAttrs& at, Tensor& y, const Tensor* c, const Tensor* z, int threads) {
  if (!c || at.beta == 0.0f) return epilogue(at.act, y, z, threads);
  float* Y = y.mutableData<float>();
  const float* C = c->data<float>();
  const float* Z = z ? z->data<float>() : nullptr;
  const float beta = at.beta;
  BroadcastWalker<2> walker(y.dims(), {&y.dims(), &c->dims()});
  parallelFor(walker.total(), threads, kElementwiseGrain, [&](int64_t b0, int64_t e0) {
    walker.walk(b0, e0,
                [&](int64_t o, const std::array<int64_t, 2>& off, int64_t n,
                    const std::array<int64_t, 2>& st) {
                  float* yp = Y + o;
                  const float* cp = C + off[1];
                  if (st[1] == 1) {
                    for (int64_t i = 0; i < n; ++i) yp[i] += beta * cp[i];
                  } else {
                    const float v = beta * cp[0];
                    for (int64_t i = 0; i < n; ++i) yp[i] += v;
                  }
                  epilogue(at.act, yp, Z ? Z + o : nullptr, n);
                });
  });
}

class FusedGemmRef final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(GemmAttrs a, parseGemmAttrs(b.node()));
    return std::unique_ptr<Kernel>(new FusedGemmRef(a));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    const Tensor* c = ctx.has(2) ? &ctx.input(2) : nullptr;
    const Tensor* z = ctx.has(3) ? &ctx.input(3) : nullptr;
    for (const Tensor* t : {&a, &b, c, z})
      if (t && t->dtype() != ir::DataType::kFloat)
        return invalidArgument("FusedGemm runs float32 only (got " + t->describe() + ")");
    PASSLAB_ASSIGN_OR_RETURN(Shape s, gemmShape(at_, a, b, c, z));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, s.out));
    const float* A = a.data<float>();
    const float* B = b.data<float>();
    float* Y = y->mutableData<float>();
    const bool ta = at_.transA, tb = at_.transB;
    const float alpha = at_.alpha;
    parallelFor(s.R, ctx.threads(), 1, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r)
        for (int64_t n = 0; n < s.N; ++n) {
          float acc = 0.0f;
          for (int64_t k = 0; k < s.K; ++k)
            acc += (ta ? A[k * s.R + r] : A[r * s.K + k]) * (tb ? B[n * s.K + k] : B[k * s.N + n]);
          Y[r * s.N + n] = alpha * acc;
        }
    });
    epilogueWithC(at_, *y, c, z, ctx.threads());
    return Status::ok();
  }

 private:
  explicit FusedGemmRef(GemmAttrs a) : at_(a) {}
  GemmAttrs at_;
};

// What the primitive was built for.
struct Problem {
  int64_t R = 0, K = 0, N = 0;
  memory::dims bias;  // empty: C not in the primitive
  bool hasC = false;
  bool residual = false;
  bool constWeights = false;
  int threads = 0;
  bool operator==(const Problem&) const = default;
};

class FusedGemmOneDnn final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(GemmAttrs a, parseGemmAttrs(b.node()));
    auto fallback = makeFusedGemmRef(b);
    if (!fallback) return fallback.error();
    return std::unique_ptr<Kernel>(new FusedGemmOneDnn(a, std::move(fallback).value()));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    const Tensor* c = ctx.has(2) ? &ctx.input(2) : nullptr;
    const Tensor* z = ctx.has(3) ? &ctx.input(3) : nullptr;
    for (const Tensor* t : {&a, &b, c, z})
      if (t && t->dtype() != ir::DataType::kFloat) return fallbackOrFreed(ctx, b);
    PASSLAB_ASSIGN_OR_RETURN(Shape s, gemmShape(at_, a, b, c, z));
    if (s.R == 0 && b.dataFreed()) return ctx.allocate(0, ir::DataType::kFloat, s.out).status();
    if (s.R == 0 || s.N == 0 || s.K == 0) return fallbackOrFreed(ctx, b);
    if (s.R == 1 && at_.transB) return runGemv(ctx, a, b, c, z, s);
    Problem pb;
    pb.R = s.R;
    pb.K = s.K;
    pb.N = s.N;
    pb.hasC = c != nullptr;
    pb.residual = z != nullptr;
    pb.constWeights = ctx.invariantInput(1);
    pb.threads = ctx.threads();
    if (c && at_.alpha == 1.0f && at_.beta == 1.0f) pb.bias = biasDims(*c, s);
    if (!(pb == problem_) || !built_) build(pb);
    if (!ok_) return fallbackOrFreed(ctx, b);

    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, s.out));
    dnnl::stream& st = onednn::stream();
    memory wei;
    if (pb.constWeights && holdsWeights() && held_.get_desc() == weiDesc_) {
      wei = held_;
    } else if (b.dataFreed()) {
      return internalError("FusedGemm's weights were freed and it holds no copy of them");
    } else if (!reorderWei_) {
      wei = onednn::over(userWei_, b);
    } else {
      // Invariant weights packed once and held (never by address); weights
      // that change (a run that overrides an initializer) packed per run into
      // packed_, the held copy untouched.
      if (!pb.constWeights && !packed_) packed_ = memory(weiDesc_, onednn::engine());
      memory into = pb.constWeights ? memory(weiDesc_, onednn::engine()) : packed_;
      memory user = onednn::over(userWei_, b);
      toWei_.execute(st, user, into);
      if (pb.constWeights) {
        held_ = into;
        heldK_ = pb.K;
        heldN_ = pb.N;
      }
      wei = into;
    }
    if (z && inPrimitive_ && sumResidual_) std::memcpy(y->mutableRaw(), z->raw(), z->byteSize());
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, onednn::over(userSrc_, a)},
                                            {DNNL_ARG_WEIGHTS, wei},
                                            {DNNL_ARG_DST, onednn::over(dstDesc_, *y)}};
    if (!pb.bias.empty()) args[DNNL_ARG_BIAS] = onednn::over(biasDesc_, *c);
    if (z && inPrimitive_ && !sumResidual_)
      args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = onednn::over(dstDesc_, *z);
    prim_.execute(st, args);
    st.wait();
    if (!inPrimitive_) epilogueWithC(at_, *y, pb.bias.empty() ? c : nullptr, z, ctx.threads());
    if (pb.constWeights && holdsWeights()) ctx.holdsOwnCopy(1);
    return Status::ok();
  }

 private:
  FusedGemmOneDnn(GemmAttrs a, std::unique_ptr<Kernel> fallback)
      : at_(a), fallback_(std::move(fallback)) {}

  // Whether held_ is the invariant B packed (in the current layout or one
  // adoptHeld reorders from).
  bool holdsWeights() const { return static_cast<bool>(held_); }

  // The reference kernel, unless the weights it would read were freed.
  Status fallbackOrFreed(KernelContext& ctx, const Tensor& b) {
    if (b.dataFreed())
      return internalError(
          "FusedGemm's weights were freed after packing and oneDNN declined this shape");
    return fallback_->run(ctx);
  }

  // After a rebuild for invariant weights of the same shape: the held copy
  // reordered into the new primitive's layout (it may be the plain one), so
  // B's data is not read again.
  void adoptHeld(const Problem& pb) {
    if (!holdsWeights() || !pb.constWeights || heldK_ != pb.K || heldN_ != pb.N) return;
    if (held_.get_desc() == weiDesc_) return;
    memory moved(weiDesc_, onednn::engine());
    dnnl::stream& st = onednn::stream();
    dnnl::reorder(held_, moved).execute(st, held_, moved);
    st.wait();
    held_ = moved;
  }

  // One row of A (K contiguous floats, transposed or not) times B stored
  // [N, K]: the GEMV, alpha, then C, Z and the activation in one pass. B as
  // stored: unpacked from the held copy once B was freed, so a reused
  // executor runs the GEMV as a fresh one does.
  Status runGemv(KernelContext& ctx, const Tensor& a, const Tensor& b, const Tensor* c,
                 const Tensor* z, const Shape& s) {
    PASSLAB_ASSIGN_OR_RETURN(
        const Tensor* sb,
        storedB_.of(
            b, [&] { return held_; },
            [&] {
              return memory::desc({heldK_, heldN_}, memory::data_type::f32, memory::format_tag::ba);
            }));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, s.out));
    float* Y = y->mutableData<float>();
    gemvRows(a.data<float>(), sb->data<float>(), s.N, s.K, Y, ctx.threads());
    if (at_.alpha != 1.0f)
      for (int64_t n = 0; n < s.N; ++n) Y[n] *= at_.alpha;
    epilogueWithC(at_, *y, c, z, ctx.threads());
    return Status::ok();
  }

  // C as a 2-D oneDNN bias [1 or R, 1 or N]; empty when its broadcast is not one of those.
  static memory::dims biasDims(const Tensor& c, const Shape& s) {
    Dims cd = c.dims();
    while (cd.size() < s.out.size()) cd.insert(cd.begin(), 1);
    int64_t lead = 1;
    bool allOne = true, allSame = true;
    for (size_t i = 0; i + 1 < cd.size(); ++i) {
      lead *= cd[i];
      allOne = allOne && cd[i] == 1;
      allSame = allSame && cd[i] == s.out[i];
    }
    if (!allOne && !allSame) return {};
    return {allOne ? 1 : lead, cd.back()};
  }

  void build(const Problem& pb) {
    problem_ = pb;
    built_ = true;
    ok_ = false;
    auto f32 = memory::data_type::f32;
    auto& eng = onednn::engine();
    userSrc_ = memory::desc({pb.R, pb.K}, f32,
                            at_.transA ? memory::format_tag::ba : memory::format_tag::ab);
    userWei_ = memory::desc({pb.K, pb.N}, f32,
                            at_.transB ? memory::format_tag::ba : memory::format_tag::ab);
    dstDesc_ = memory::desc({pb.R, pb.N}, f32, memory::format_tag::ab);
    auto weiAny =
        pb.constWeights ? memory::desc({pb.K, pb.N}, f32, memory::format_tag::any) : userWei_;
    dnnl::algorithm alg = dnnl::algorithm::eltwise_relu;
    float ea = 0.0f, eb = 0.0f;
    const bool eltwise = onednnEltwise(at_.act, alg, ea, eb);
    // The residual and the activation go into the primitive when C is its
    // bias (or absent) and oneDNN has the activation; otherwise the epilogue
    // loop applies what the primitive did not (C, Z, the activation, in order).
    // Tries, in order: Z as a binary post-op; Z as `sum` (copied into Y
    // first); the plain matmul and the epilogue loop. A try with post-ops is
    // skipped when oneDNN would run it on its reference matmul (far slower).
    struct Try {
      bool inPrimitive, sum;
    };
    std::vector<Try> tries;
    if ((at_.act.kind == ActKind::kNone || eltwise) && (!pb.hasC || !pb.bias.empty())) {
      tries.push_back({true, false});
      if (pb.residual) tries.push_back({true, true});
    }
    tries.push_back({false, false});
    for (const Try& t : tries) {
      try {
        dnnl::primitive_attr attr;
        if (at_.alpha != 1.0f) attr.set_output_scales(0, {at_.alpha});
        dnnl::post_ops ops;
        if (t.inPrimitive) {
          if (pb.residual) {
            if (t.sum)
              ops.append_sum(1.0f);
            else
              ops.append_binary(dnnl::algorithm::binary_add, dstDesc_);
          }
          if (eltwise) ops.append_eltwise(1.0f, alg, ea, eb);
        }
        attr.set_post_ops(ops);
        auto d =
            pb.bias.empty()
                ? dnnl::matmul::desc(userSrc_, weiAny, dstDesc_)
                : dnnl::matmul::desc(userSrc_, weiAny,
                                     memory::desc(pb.bias, f32, memory::format_tag::ab), dstDesc_);
        auto pd = dnnl::matmul::primitive_desc(d, attr, eng);
        if (t.inPrimitive && ops.len() > 0 && std::string(pd.impl_info_str()).rfind("ref", 0) == 0)
          continue;
        weiDesc_ = pd.weights_desc();
        biasDesc_ = pb.bias.empty() ? memory::desc() : pd.bias_desc();
        prim_ = dnnl::matmul(pd);
        inPrimitive_ = t.inPrimitive;
        sumResidual_ = t.inPrimitive && pb.residual && t.sum;
        reorderWei_ = weiDesc_ != userWei_;
        if (reorderWei_)
          toWei_ = dnnl::reorder(dnnl::reorder::primitive_desc(eng, userWei_, eng, weiDesc_));
        packed_ = memory();
        adoptHeld(pb);
        ok_ = true;
        return;
      } catch (const dnnl::error&) {
        ok_ = false;
      }
    }
  }

  GemmAttrs at_;
  std::unique_ptr<Kernel> fallback_;
  Problem problem_;
  bool built_ = false, ok_ = false;
  bool inPrimitive_ = true;   // the epilogue (residual, activation) is in the primitive
  bool sumResidual_ = false;  // Z goes in as `sum`: copied into Y first
  memory::desc userSrc_, userWei_, weiDesc_, dstDesc_, biasDesc_;
  dnnl::primitive prim_;
  bool reorderWei_ = false;
  dnnl::reorder toWei_;
  memory packed_;  // B packed per run when it is not invariant
  memory held_;    // the invariant B in the primitive's layout, kept across runs and rebuilds
  int64_t heldK_ = 0, heldN_ = 0;  // the problem held_ was packed for
  onednn::StoredWeights storedB_;  // B as the GEMV reads it (runGemv)
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeFusedGemm(const KernelBuild& b) {
  return FusedGemmOneDnn::create(b);
}
Expected<std::unique_ptr<Kernel>> makeFusedGemmRef(const KernelBuild& b) {
  return FusedGemmRef::create(b);
}

}  // namespace passlab::exec::cpu::fused
