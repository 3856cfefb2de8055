// LinearAttention (opset 27): the recurrent form of linear attention
// (Gated DeltaNet, GLA, RetNet, RWKV-6 decoding and prefill), token by token
// as the ONNX reference computes it, in float32 whatever the element types.
//
//   query [B, T, Hq * dk], key [B, T, Hkv * dk], value [B, T, Hkv * dv],
//   past_state [B, Hkv, dk, dv], decay [B, T, Hkv] or [B, T, Hkv * dk]
//   (log-space), beta [B, T, Hkv] or [B, T, 1]
//   -> output [B, T, Hq * dv], present_state [B, Hkv, dk, dv]
//
// Per key/value head and token t (update_rule):
//   gated, gated_delta:  S *= exp(g_t) (per head, or per key row)
//   delta, gated_delta:  v_t = beta_t * (v_t - S^T k_t)
//   all:                 S += k_t (x) v_t;  o_t = scale * q_t^T S
// Query head h reads key/value head h / (Hq / Hkv) (grouped-query).
// present_state has past_state's type, or the query's without it.
#include <cmath>
#include <string>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

constexpr TypeSet kTypes{ir::DataType::kFloat, ir::DataType::kFloat16, ir::DataType::kBFloat16};

enum class Rule { kLinear, kGated, kDelta, kGatedDelta };

Expected<std::vector<float>> floatsOf(const Tensor& t) {
  std::vector<float> out(static_cast<size_t>(t.numel()));
  PASSLAB_RETURN_IF_ERROR(dispatch<kTypes>(t.dtype(), [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    const S* p = t.data<S>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(load(p[i]));
    return Status::ok();
  }));
  return out;
}

Status storeFloats(const std::vector<float>& v, Tensor& t) {
  return dispatch<kTypes>(t.dtype(), [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    S* p = t.mutableData<S>();
    for (size_t i = 0; i < v.size(); ++i) p[i] = store<S>(v[i]);
    return Status::ok();
  });
}

// The sizes of one run, checked.
struct Heads {
  int64_t B = 0, T = 0, Hq = 0, Hkv = 0, dk = 0, dv = 0;
  int64_t decayLast = 0, betaLast = 0;  // 0: absent
};

Status expect3d(const Tensor& t, const char* name, int64_t B, int64_t T) {
  if (t.rank() == 3 && t.dim(0) == B && t.dim(1) == T) return Status::ok();
  return invalidArgument(std::string(name) + " " + t.describe() + " must be [" + std::to_string(B) +
                         ", " + std::to_string(T) + ", ...]");
}

class LinearAttention final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& node = b.node();
    const int64_t hq = node.attrInt("q_num_heads", 0), hkv = node.attrInt("kv_num_heads", 0);
    if (hq <= 0 || hkv <= 0 || hq % hkv != 0)
      return invalidArgument("q_num_heads (" + std::to_string(hq) +
                             ") must be a positive multiple of kv_num_heads (" +
                             std::to_string(hkv) + ")");
    const std::string rule = node.attrString("update_rule", "gated_delta");
    Rule r;
    if (rule == "linear")
      r = Rule::kLinear;
    else if (rule == "gated")
      r = Rule::kGated;
    else if (rule == "delta")
      r = Rule::kDelta;
    else if (rule == "gated_delta")
      r = Rule::kGatedDelta;
    else
      return invalidArgument("update_rule must be linear, gated, delta or gated_delta, got '" +
                             rule + "'");
    return std::unique_ptr<Kernel>(new LinearAttention(hq, hkv, r, node.attrFloat("scale", 0.0f)));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& q = ctx.input(0);
    const Tensor& k = ctx.input(1);
    const Tensor& v = ctx.input(2);
    const Tensor* past = ctx.has(3) ? &ctx.input(3) : nullptr;
    const Tensor* decay = ctx.has(4) ? &ctx.input(4) : nullptr;
    const Tensor* beta = ctx.has(5) ? &ctx.input(5) : nullptr;
    PASSLAB_ASSIGN_OR_RETURN(Heads h, checkShapes(q, k, v, past, decay, beta));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> Q, floatsOf(q));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> K, floatsOf(k));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> V, floatsOf(v));
    std::vector<float> S(static_cast<size_t>(h.B * h.Hkv * h.dk * h.dv), 0.0f), G, Be;
    if (past) {
      PASSLAB_ASSIGN_OR_RETURN(S, floatsOf(*past));
    }
    if (decay) {
      PASSLAB_ASSIGN_OR_RETURN(G, floatsOf(*decay));
    }
    if (beta) {
      PASSLAB_ASSIGN_OR_RETURN(Be, floatsOf(*beta));
    }
    std::vector<float> O(static_cast<size_t>(h.B * h.T * h.Hq * h.dv));
    const float scale = scale_ != 0.0f ? scale_ : 1.0f / std::sqrt(static_cast<float>(h.dk));
    parallelFor(h.B * h.Hkv, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
      std::vector<float> vt(static_cast<size_t>(h.dv));
      for (int64_t bh = b0; bh < e0; ++bh)
        recur(h, bh / h.Hkv, bh % h.Hkv, scale, Q, K, V, G, Be, S.data() + bh * h.dk * h.dv,
              vt.data(), O);
    });
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, q.dtype(), {h.B, h.T, h.Hq * h.dv}));
    PASSLAB_RETURN_IF_ERROR(storeFloats(O, *y));
    if (ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(
          Tensor * st, ctx.allocate(1, past ? past->dtype() : q.dtype(), {h.B, h.Hkv, h.dk, h.dv}));
      PASSLAB_RETURN_IF_ERROR(storeFloats(S, *st));
    }
    return Status::ok();
  }

 private:
  LinearAttention(int64_t hq, int64_t hkv, Rule r, float scale)
      : hq_(hq), hkv_(hkv), rule_(r), scale_(scale) {}

  bool gated() const { return rule_ == Rule::kGated || rule_ == Rule::kGatedDelta; }
  bool delta() const { return rule_ == Rule::kDelta || rule_ == Rule::kGatedDelta; }

  Expected<Heads> checkShapes(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor* past,
                              const Tensor* decay, const Tensor* beta) const {
    if (q.rank() != 3) return invalidArgument("query " + q.describe() + " must be [B, T, H * D]");
    Heads h;
    h.B = q.dim(0), h.T = q.dim(1), h.Hq = hq_, h.Hkv = hkv_;
    PASSLAB_RETURN_IF_ERROR(expect3d(k, "key", h.B, h.T));
    PASSLAB_RETURN_IF_ERROR(expect3d(v, "value", h.B, h.T));
    if (q.dim(2) % hq_ != 0 || v.dim(2) % hkv_ != 0)
      return invalidArgument("query " + q.describe() + " and value " + v.describe() +
                             " must divide into " + std::to_string(hq_) + " and " +
                             std::to_string(hkv_) + " heads");
    h.dk = q.dim(2) / hq_, h.dv = v.dim(2) / hkv_;
    if (k.dim(2) != hkv_ * h.dk)
      return invalidArgument("key " + k.describe() + " must be [B, T, kv_num_heads * " +
                             std::to_string(h.dk) + "]");
    if (k.dtype() != q.dtype() || v.dtype() != q.dtype() ||
        (decay && decay->dtype() != q.dtype()) || (beta && beta->dtype() != q.dtype()))
      return invalidArgument("query, key, value, decay and beta must have one element type");
    if (gated() != (decay != nullptr))
      return invalidArgument(std::string("update_rule ") + (gated() ? "needs" : "forbids") +
                             " the decay input");
    if (delta() != (beta != nullptr))
      return invalidArgument(std::string("update_rule ") + (delta() ? "needs" : "forbids") +
                             " the beta input");
    if (decay) {
      PASSLAB_RETURN_IF_ERROR(expect3d(*decay, "decay", h.B, h.T));
      h.decayLast = decay->dim(2);
      if (h.decayLast != hkv_ && h.decayLast != hkv_ * h.dk)
        return invalidArgument("decay " + decay->describe() +
                               " must end in kv_num_heads or kv_num_heads * d_k");
    }
    if (beta) {
      PASSLAB_RETURN_IF_ERROR(expect3d(*beta, "beta", h.B, h.T));
      h.betaLast = beta->dim(2);
      if (h.betaLast != hkv_ && h.betaLast != 1)
        return invalidArgument("beta " + beta->describe() + " must end in kv_num_heads or 1");
    }
    const Dims stateDims{h.B, hkv_, h.dk, h.dv};
    if (past && past->dims() != stateDims)
      return invalidArgument("past_state " + past->describe() + " must be " +
                             dimsToString(stateDims));
    return h;
  }

  // The recurrence of key/value head kh of batch item b over all tokens:
  // updates its state S [dk, dv] and writes the outputs of its query heads.
  void recur(const Heads& h, int64_t b, int64_t kh, float scale, const std::vector<float>& Q,
             const std::vector<float>& K, const std::vector<float>& V, const std::vector<float>& G,
             const std::vector<float>& Be, float* S, float* vt, std::vector<float>& O) const {
    const int64_t dk = h.dk, dv = h.dv, group = h.Hq / h.Hkv;
    for (int64_t t = 0; t < h.T; ++t) {
      const int64_t bt = b * h.T + t;
      const float* kt = K.data() + (bt * h.Hkv + kh) * dk;
      const float* vIn = V.data() + (bt * h.Hkv + kh) * dv;
      if (gated()) {
        for (int64_t d = 0; d < dk; ++d) {
          const float g = h.decayLast == h.Hkv ? G[static_cast<size_t>(bt * h.Hkv + kh)]
                                               : G[static_cast<size_t>((bt * h.Hkv + kh) * dk + d)];
          const float e = std::exp(g);
          for (int64_t m = 0; m < dv; ++m) S[d * dv + m] *= e;
        }
      }
      for (int64_t m = 0; m < dv; ++m) vt[m] = vIn[m];
      if (delta()) {
        const float bv = Be[static_cast<size_t>(bt * h.betaLast + (h.betaLast == 1 ? 0 : kh))];
        for (int64_t m = 0; m < dv; ++m) {
          float retrieved = 0;
          for (int64_t d = 0; d < dk; ++d) retrieved += S[d * dv + m] * kt[d];
          vt[m] = bv * (vt[m] - retrieved);
        }
      }
      for (int64_t d = 0; d < dk; ++d)
        for (int64_t m = 0; m < dv; ++m) S[d * dv + m] += kt[d] * vt[m];
      for (int64_t qh = kh * group; qh < (kh + 1) * group; ++qh) {
        const float* qt = Q.data() + (bt * h.Hq + qh) * dk;
        float* ot = O.data() + (bt * h.Hq + qh) * dv;
        for (int64_t m = 0; m < dv; ++m) {
          float acc = 0;
          for (int64_t d = 0; d < dk; ++d) acc += qt[d] * S[d * dv + m];
          ot[m] = scale * acc;
        }
      }
    }
  }

  int64_t hq_, hkv_;
  Rule rule_;
  float scale_;
};

const KernelDef kRows[] = {
    {"", "LinearAttention", 27, kOpsetMax, kTypes, 0, Tier::kReference, "cpu.LinearAttention",
     makeKernel<LinearAttention>},
};

}  // namespace

std::span<const KernelDef> linearAttentionKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
