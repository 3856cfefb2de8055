// The kernels of the blocked layout's own ops (core/ir/passlab_ops.h):
// ReorderToBlocked and ReorderFromBlocked (oneDNN's reorder; the reference
// loops), BlockedPool (oneDNN's pooling on nChw8c / nChw16c, where its JIT
// kernels are native, except for 2-D AveragePool, the 2-D MaxPools
// blocked_pool_choice.h picks and those oneDNN declines: the separable
// blocked kernels of blocked_pool_float.h; the reference unblocks, runs the
// NCHW pool and blocks the result). The blocked FusedConv is in
// passlab_fused_conv.cpp.
#include "core/exec/cpu/passlab_blocked.h"

#include <cstring>
#include <string>

#include "core/exec/cpu/blocked_pool_choice.h"
#include "core/exec/cpu/blocked_pool_float.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/cpu/pool_ref.h"
#include "core/exec/cpu/scratch_output_context.h"
#include "core/exec/parallel.h"
#include "core/ir/passlab_ops.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu::blocked {

namespace ops = ir::passlab_ops;
using dnnl::memory;

void toBlocked(const float* x, float* y, int64_t N, int64_t C, int64_t S, int64_t b, int threads) {
  const int64_t G = ops::blockedGroups(C, b);
  parallelFor(N * G, threads, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t ng = lo; ng < hi; ++ng) {
      const int64_t n = ng / G, g = ng % G;
      float* out = y + ng * S * b;
      for (int64_t l = 0; l < b; ++l) {
        const int64_t c = g * b + l;
        const float* in = c < C ? x + (n * C + c) * S : nullptr;
        for (int64_t s = 0; s < S; ++s) out[s * b + l] = in ? in[s] : 0.0f;
      }
    }
  });
}

void fromBlocked(const float* x, float* y, int64_t N, int64_t C, int64_t S, int64_t b,
                 int threads) {
  const int64_t G = ops::blockedGroups(C, b);
  parallelFor(N * C, threads, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t nc = lo; nc < hi; ++nc) {
      const int64_t n = nc / C, c = nc % C;
      const float* in = x + ((n * G + c / b) * S) * b + c % b;
      float* out = y + nc * S;
      for (int64_t s = 0; s < S; ++s) out[s] = in[s * b];
    }
  });
}

Dims plainDims(const Dims& d, int64_t channels) {
  return {d[0], channels, d[2], d[3]};
}
Dims blockedDims(const Dims& d, int64_t b) {
  return {d[0], ops::blockedGroups(d[1], b), d[2], d[3], b};
}

namespace {

int64_t spatialOf(const Dims& d) {
  return d[2] * d[3];
}

Status checkBlocked(const Tensor& x, int64_t b, const char* what) {
  if (x.dtype() != ir::DataType::kFloat)
    return invalidArgument(std::string(what) + " " + x.describe() + " is not float32");
  if (x.dims().size() != 5 || x.dims()[4] != b)
    return invalidArgument(std::string(what) + " " + x.describe() + " is not blocked [N, C/" +
                           std::to_string(b) + ", H, W, " + std::to_string(b) + "]");
  return Status::ok();
}

// The NCHW kernel sees unblocked copies of the blocked inputs and writes an
// NCHW scratch output.
class Unblocked final : public ScratchOutputContext {
 public:
  Unblocked(KernelContext& inner, std::vector<Value> inputs)
      : ScratchOutputContext(inner), inputs_(std::move(inputs)) {}

  const Value* value(size_t i) const override {
    return replaced(i) ? &inputs_[i] : inner_.value(i);
  }
  // An input the kernel holds a copy of may be freed by the executor, unless
  // it was replaced here: runUnblocked reads the blocked original on every
  // run to unblock it.
  void holdsOwnCopy(size_t i) override {
    if (!replaced(i)) inner_.holdsOwnCopy(i);
  }

 private:
  bool replaced(size_t i) const { return i < inputs_.size() && !inputs_[i].isNone(); }

  std::vector<Value> inputs_;
};

}  // namespace

Status runUnblocked(Kernel& plain, KernelContext& ctx, int64_t b,
                    const std::vector<std::pair<size_t, int64_t>>& blockedInputs) {
  std::vector<Value> inputs(ctx.inputCount());
  for (auto [i, channels] : blockedInputs) {
    if (!ctx.has(i)) continue;
    const Tensor& x = ctx.input(i);
    PASSLAB_RETURN_IF_ERROR(checkBlocked(x, b, "blocked input"));
    if (ops::blockedGroups(channels, b) != x.dims()[1])
      return invalidArgument("blocked input " + x.describe() + " does not hold " +
                             std::to_string(channels) + " channels");
    Dims d = plainDims(x.dims(), channels);
    PASSLAB_ASSIGN_OR_RETURN(Tensor t, ctx.scratch(ir::DataType::kFloat, d));
    fromBlocked(x.data<float>(), t.mutableData<float>(), d[0], d[1], spatialOf(d), b,
                ctx.threads());
    inputs[i] = Value(std::move(t));
  }
  Unblocked inner(ctx, std::move(inputs));
  PASSLAB_RETURN_IF_ERROR(plain.run(inner));
  if (!inner.allocated()) return internalError("the NCHW kernel gave no output");
  const Tensor& y = inner.output();
  if (y.dtype() != ir::DataType::kFloat || y.dims().size() != 4)
    return internalError("the NCHW kernel's output " + y.describe() + " is not float32 NCHW");
  PASSLAB_ASSIGN_OR_RETURN(Tensor * out,
                           ctx.allocate(0, ir::DataType::kFloat, blockedDims(y.dims(), b)));
  toBlocked(y.data<float>(), out->mutableData<float>(), y.dims()[0], y.dims()[1],
            spatialOf(y.dims()), b, ctx.threads());
  return Status::ok();
}

namespace {

Expected<int64_t> blockAttr(const ir::Node& n) {
  const int64_t b = n.attrInt(ops::kBlock, 0);
  if (!ops::validBlock(b)) return invalidArgument("block " + std::to_string(b) + " is not 8 or 16");
  return b;
}

// ---- the reorders ----

class Reorder final : public Kernel {
 public:
  // toBlocked: ReorderToBlocked, else ReorderFromBlocked; onednn: oneDNN's reorder.
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& kb, bool toBlocked,
                                                  bool onednn) {
    PASSLAB_ASSIGN_OR_RETURN(int64_t b, blockAttr(kb.node()));
    const int64_t c = kb.node().attrInt(ops::kChannels, 0);
    if (!toBlocked && c < 1)
      return invalidArgument("channels " + std::to_string(c) + " is not positive");
    return std::unique_ptr<Kernel>(new Reorder(b, c, toBlocked, onednn));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Dims plain;
    if (toBlocked_) {
      if (x.dtype() != ir::DataType::kFloat || x.dims().size() != 4)
        return invalidArgument("ReorderToBlocked takes a float32 NCHW tensor, got " + x.describe());
      plain = x.dims();
    } else {
      PASSLAB_RETURN_IF_ERROR(checkBlocked(x, b_, "ReorderFromBlocked's input"));
      if (x.dims()[1] != ops::blockedGroups(c_, b_))
        return invalidArgument("ReorderFromBlocked's input " + x.describe() + " does not hold " +
                               std::to_string(c_) + " channels");
      plain = plainDims(x.dims(), c_);
    }
    const Dims out = toBlocked_ ? blockedDims(plain, b_) : plain;
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, out));
    if (x.numel() == 0 || y->numel() == 0) return Status::ok();
    if (onednn_) return runOneDnn(x, *y, plain);
    const int64_t S = spatialOf(plain);
    if (toBlocked_)
      toBlocked(x.data<float>(), y->mutableData<float>(), plain[0], plain[1], S, b_, ctx.threads());
    else
      fromBlocked(x.data<float>(), y->mutableData<float>(), plain[0], plain[1], S, b_,
                  ctx.threads());
    return Status::ok();
  }

 private:
  Reorder(int64_t b, int64_t c, bool to, bool onednn)
      : b_(b), c_(c), toBlocked_(to), onednn_(onednn) {}

  Status runOneDnn(const Tensor& x, Tensor& y, const Dims& plain) {
    if (plain != dims_) {
      dims_ = plain;
      auto f32 = memory::data_type::f32;
      auto nchw = memory::desc(onednn::toDims(plain), f32, memory::format_tag::nchw);
      auto blk = memory::desc(onednn::toDims(plain), f32,
                              b_ == 16 ? memory::format_tag::nChw16c : memory::format_tag::nChw8c);
      src_ = toBlocked_ ? nchw : blk;
      dst_ = toBlocked_ ? blk : nchw;
      prim_ = dnnl::reorder(
          dnnl::reorder::primitive_desc(onednn::engine(), src_, onednn::engine(), dst_));
    }
    // The padding channels must be zero (oneDNN's reorder may leave them).
    if (toBlocked_ && plain[1] % b_ != 0)
      std::memset(y.mutableData<float>(), 0, sizeof(float) * y.numel());
    dnnl::stream& s = onednn::stream();
    auto src = onednn::over(src_, x);
    auto dst = onednn::over(dst_, y);
    prim_.execute(s, src, dst);
    s.wait();
    return Status::ok();
  }

  int64_t b_, c_;
  bool toBlocked_, onednn_;
  Dims dims_;
  memory::desc src_, dst_;
  dnnl::reorder prim_;
};

// ---- BlockedPool ----

class BlockedPoolRef final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& kb) {
    PASSLAB_ASSIGN_OR_RETURN(int64_t b, blockAttr(kb.node()));
    const std::string pool = kb.node().attrString(ops::kPool, "");
    if (!ops::validBlockedPool(pool))
      return invalidArgument("pool '" + pool +
                             "' is not MaxPool, AveragePool or GlobalAveragePool");
    std::unique_ptr<Kernel> plain;
    if (pool != "GlobalAveragePool") {
      auto k = pool == "MaxPool" ? makeMaxPoolRef(kb) : makeAveragePoolRef(kb);
      if (!k) return k.error();
      plain = std::move(k).value();
    }
    return std::unique_ptr<Kernel>(new BlockedPoolRef(b, std::move(plain)));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_RETURN_IF_ERROR(checkBlocked(x, b_, "BlockedPool's input"));
    if (plain_) return runUnblocked(*plain_, ctx, b_, {{0, x.dims()[1] * b_}});
    // GlobalAveragePool: the mean over H x W, lane by lane.
    const Dims& d = x.dims();
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y,
                             ctx.allocate(0, ir::DataType::kFloat, {d[0], d[1], 1, 1, b_}));
    const int64_t S = d[2] * d[3];
    const float* px = x.data<float>();
    float* py = y->mutableData<float>();
    for (int64_t ng = 0; ng < d[0] * d[1]; ++ng)
      for (int64_t l = 0; l < b_; ++l) {
        double sum = 0;
        for (int64_t s = 0; s < S; ++s) sum += px[(ng * S + s) * b_ + l];
        py[ng * b_ + l] = S ? static_cast<float>(sum / static_cast<double>(S)) : 0.0f;
      }
    return Status::ok();
  }

 private:
  BlockedPoolRef(int64_t b, std::unique_ptr<Kernel> plain) : b_(b), plain_(std::move(plain)) {}
  int64_t b_;
  std::unique_ptr<Kernel> plain_;  // null: GlobalAveragePool
};

// Whether 2-D MaxPool `g` takes the separable blocked kernel rather than
// oneDNN's (blocked_pool_choice.h; PASSLAB_MAX_ISA caps the flags).
bool separableMaxPool(const PoolGeometry& g) {
  return separableMaxPoolIsFaster(g, {cpu_isa::hasAvx2Fma(), cpu_isa::hasAvx512f()});
}

class BlockedPoolOneDnn final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& kb) {
    PASSLAB_ASSIGN_OR_RETURN(int64_t b, blockAttr(kb.node()));
    auto fallback = BlockedPoolRef::create(kb);
    if (!fallback) return fallback.error();
    const std::string pool = kb.node().attrString(ops::kPool, "");
    PoolAttrs attrs;
    if (pool != "GlobalAveragePool") {
      auto a = parsePoolAttrs(kb.node());
      if (!a) return a.error();
      attrs = *a;
    }
    return std::unique_ptr<Kernel>(
        new BlockedPoolOneDnn(b, pool, std::move(attrs), std::move(fallback).value()));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_RETURN_IF_ERROR(checkBlocked(x, b_, "BlockedPool's input"));
    if (x.numel() == 0) return fallback_->run(ctx);
    const Dims plain = plainDims(x.dims(), x.dims()[1] * b_);
    PoolGeometry g;
    if (!global_) {
      PASSLAB_ASSIGN_OR_RETURN(g, poolGeometry(attrs_, plain));
    } else {
      g.outDims = {plain[0], plain[1], 1, 1};
    }
    // 2-D windows: the separable blocked kernels (blocked_pool_float.h) for
    // every AveragePool (oneDNN's took 0.27 ms where they take 0.03, 576x14x14
    // 3x3/1), for a MaxPool where the measured rule picks them (on AVX2
    // machines every one, with AVX-512 overlapping windows or short rows;
    // blocked_pool_choice.h), and for a MaxPool oneDNN declines.
    const bool separable = !global_ && g.spatial() == 2;
    if (separable && (!max_ || separableMaxPool(g))) return runSeparable(ctx, x, g);
    if (x.dims() != xDims_ || threads_ != ctx.threads()) build(g, plain, ctx.threads());
    if (!ok_) return separable ? runSeparable(ctx, x, g) : fallback_->run(ctx);
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y,
                             ctx.allocate(0, ir::DataType::kFloat, blockedDims(g.outDims, b_)));
    dnnl::stream& s = onednn::stream();
    prim_.execute(
        s, {{DNNL_ARG_SRC, onednn::over(srcDesc_, x)}, {DNNL_ARG_DST, onednn::over(dstDesc_, *y)}});
    s.wait();
    return Status::ok();
  }

 private:
  BlockedPoolOneDnn(int64_t b, const std::string& pool, PoolAttrs a,
                    std::unique_ptr<Kernel> fallback)
      : b_(b),
        global_(pool == "GlobalAveragePool"),
        max_(pool == "MaxPool"),
        attrs_(std::move(a)),
        fallback_(std::move(fallback)) {}

  Status runSeparable(KernelContext& ctx, const Tensor& x, const PoolGeometry& g) {
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y,
                             ctx.allocate(0, ir::DataType::kFloat, blockedDims(g.outDims, b_)));
    if (max_)
      blockedMaxPool(g, b_, x.data<float>(), y->mutableData<float>(), ctx.threads());
    else
      blockedAveragePool(g, attrs_.window.countIncludePad, b_, x.data<float>(),
                         y->mutableData<float>(), ctx.threads());
    return Status::ok();
  }

  void build(const PoolGeometry& g, const Dims& plain, int threads) {
    xDims_ = blockedDims(plain, b_);
    threads_ = threads;
    ok_ = false;
    memory::dims strides{1, 1}, kernel{plain[2], plain[3]}, dil{0, 0}, padL{0, 0}, padR{0, 0};
    if (!global_) {
      if (g.spatial() != 2) return;
      strides.assign(g.stride.begin(), g.stride.end());
      kernel.assign(g.kernel.begin(), g.kernel.end());
      padL.assign(g.padBegin.begin(), g.padBegin.end());
      for (size_t i = 0; i < 2; ++i) {
        dil[i] = g.dilation[i] - 1;
        // oneDNN derives the output size from the right pad (ceil_mode may need more).
        int64_t span = (g.kernel[i] - 1) * g.dilation[i] + 1;
        padR[i] = (g.out[i] - 1) * g.stride[i] + span - g.in[i] - g.padBegin[i];
        // Averages that count padding must not count padding ceil_mode added.
        if (!max_ && attrs_.window.countIncludePad && padR[i] != g.padEnd[i]) return;
        if (padR[i] < 0) return;
      }
    }
    auto alg = max_ ? dnnl::algorithm::pooling_max
               : (!global_ && attrs_.window.countIncludePad)
                   ? dnnl::algorithm::pooling_avg_include_padding
                   : dnnl::algorithm::pooling_avg_exclude_padding;
    const Dims out = global_ ? Dims{plain[0], plain[1], 1, 1} : g.outDims;
    auto tag = b_ == 16 ? memory::format_tag::nChw16c : memory::format_tag::nChw8c;
    try {
      srcDesc_ = memory::desc(onednn::toDims(plain), memory::data_type::f32, tag);
      dstDesc_ = memory::desc(onednn::toDims(out), memory::data_type::f32, tag);
      auto d = dnnl::pooling_v2_forward::desc(dnnl::prop_kind::forward_inference, alg, srcDesc_,
                                              dstDesc_, strides, kernel, dil, padL, padR);
      auto pd = dnnl::pooling_v2_forward::primitive_desc(d, onednn::engine());
      prim_ = dnnl::pooling_v2_forward(pd);
      ok_ = std::string(pd.impl_info_str()).rfind("ref", 0) != 0;
    } catch (const dnnl::error&) {
      ok_ = false;
    }
  }

  int64_t b_;
  bool global_, max_;
  PoolAttrs attrs_;
  std::unique_ptr<Kernel> fallback_;
  Dims xDims_;
  int threads_ = 0;
  bool ok_ = false;
  memory::desc srcDesc_, dstDesc_;
  dnnl::primitive prim_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeReorderToBlocked(const KernelBuild& b) {
  return Reorder::create(b, true, true);
}
Expected<std::unique_ptr<Kernel>> makeReorderToBlockedRef(const KernelBuild& b) {
  return Reorder::create(b, true, false);
}
Expected<std::unique_ptr<Kernel>> makeReorderFromBlocked(const KernelBuild& b) {
  return Reorder::create(b, false, true);
}
Expected<std::unique_ptr<Kernel>> makeReorderFromBlockedRef(const KernelBuild& b) {
  return Reorder::create(b, false, false);
}
Expected<std::unique_ptr<Kernel>> makeBlockedPool(const KernelBuild& b) {
  return BlockedPoolOneDnn::create(b);
}
Expected<std::unique_ptr<Kernel>> makeBlockedPoolRef(const KernelBuild& b) {
  return BlockedPoolRef::create(b);
}

}  // namespace passlab::exec::cpu::blocked
