// com.microsoft Attention: multi-head self attention with the Q, K and V
// projections packed in one weight, an optional key/value cache (past ->
// present), the mask_index variants (1-D end positions, 1-D end and start
// positions, 2-D raw mask, 3-D mask, 4-D Megatron mask), unidirectional
// (causal) masking and an additive attention bias. Computed in float.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace passlab::exec::cpu {

namespace {

// o[j] += x * w[j] for j < n: a row of the QKV projection. Multiply, then
// add (no FMA), as the plain loop on the SSE2 baseline does: the same results
// on 16 lanes.
void addScaledRow(float x, const float* w, float* o, int64_t n, int64_t from = 0) {
  for (int64_t j = from; j < n; ++j) o[j] += x * w[j];
}

#if defined(__SSE2__)
__attribute__((target("avx512f"))) void addScaledRowAvx512(float x, const float* w, float* o,
                                                           int64_t n) {
  const __m512 xv = _mm512_set1_ps(x);
  int64_t j = 0;
  for (; j + 16 <= n; j += 16)
    _mm512_storeu_ps(
        o + j, _mm512_add_ps(_mm512_loadu_ps(o + j), _mm512_mul_ps(xv, _mm512_loadu_ps(w + j))));
  addScaledRow(x, w, o, n, j);
}
#endif

// One output row: bias + x · W for x of `k` values and W [k, n] row-major.
void projectRow(const float* x, const float* W, const float* bias, float* o, int64_t k, int64_t n) {
  std::copy(bias, bias + n, o);
#if defined(__SSE2__)
  static const bool avx512 = cpu_isa::hasAvx512f();
  if (avx512) {
    for (int64_t i = 0; i < k; ++i) addScaledRowAvx512(x[i], W + i * n, o, n);
    return;
  }
#endif
  for (int64_t i = 0; i < k; ++i) addScaledRow(x[i], W + i * n, o, n);
}

template <class S>
std::vector<float> floatsOf(const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(load(t.data<S>()[i]));
  return v;
}

class Attention final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    auto k = std::unique_ptr<Attention>(new Attention());
    k->heads_ = n.attrInt("num_heads", 0);
    if (k->heads_ < 1) return invalidModel("num_heads is required and must be positive");
    k->causal_ = n.attrInt("unidirectional", 0) != 0;
    k->maskFilter_ = n.attrFloat("mask_filter_value", -10000.0f);
    k->qkvSizes_ = n.attrInts("qkv_hidden_sizes");
    if (const ir::Attribute* s = n.attr("scale")) k->scale_ = s->f;
    if (n.attrInt("do_rotary", 0) != 0) return unsupported("Attention with do_rotary");
    if (!k->qkvSizes_.empty() && k->qkvSizes_.size() != 3)
      return invalidModel("qkv_hidden_sizes must have 3 values");
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      return runTyped<S>(ctx);
    });
  }

 private:
  Attention() = default;

  template <class ST>
  Status runTyped(KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    if (x.rank() != 3)
      return invalidArgument("input must be [batch, sequence, hidden], got " + x.describe());
    const int64_t B = x.dim(0), S = x.dim(1), Hin = x.dim(2), N = heads_;
    if (w.rank() != 2 || w.dim(0) != Hin || w.dtype() != x.dtype())
      return invalidArgument("weights " + w.describe() + " must be [" + std::to_string(Hin) +
                             ", q + k + v hidden]");
    int64_t Dq, Dk, Dv;
    if (qkvSizes_.empty()) {
      if (w.dim(1) % 3 != 0)
        return invalidArgument("weights " + w.describe() + " do not split into Q, K and V");
      Dq = Dk = Dv = w.dim(1) / 3;
    } else {
      Dq = qkvSizes_[0], Dk = qkvSizes_[1], Dv = qkvSizes_[2];
    }
    if (Dq + Dk + Dv != w.dim(1) || Dq != Dk || Dq % N != 0 || Dv % N != 0)
      return invalidArgument("hidden sizes " + std::to_string(Dq) + "/" + std::to_string(Dk) + "/" +
                             std::to_string(Dv) + " do not fit weights " + w.describe() + " and " +
                             std::to_string(N) + " heads");
    const int64_t hq = Dq / N, hv = Dv / N, D3 = Dq + Dk + Dv;
    if (ctx.has(2) && (ctx.input(2).numel() != D3 || ctx.input(2).dtype() != x.dtype()))
      return invalidArgument("bias " + ctx.input(2).describe() + " must hold " +
                             std::to_string(D3) + " values");
    // The key/value cache: [2, B, N, P, head].
    int64_t P = 0;
    const Tensor* past = ctx.has(4) ? &ctx.input(4) : nullptr;
    if (past) {
      if (past->rank() != 5 || past->dim(0) != 2 || past->dim(1) != B || past->dim(2) != N ||
          past->dim(4) != hq || hq != hv || past->dtype() != x.dtype())
        return invalidArgument("past " + past->describe() + " must be [2, " + std::to_string(B) +
                               ", " + std::to_string(N) + ", past_sequence, " + std::to_string(hq) +
                               "]");
      P = past->dim(3);
    }
    const int64_t T = P + S;
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> mask, buildMask(ctx, B, S, P, T));
    const Tensor* bias2 = ctx.has(5) ? &ctx.input(5) : nullptr;
    if (bias2 && (bias2->rank() != 4 || (bias2->dim(0) != B && bias2->dim(0) != 1) ||
                  (bias2->dim(1) != N && bias2->dim(1) != 1) || bias2->dim(2) != S ||
                  bias2->dim(3) != T || bias2->dtype() != x.dtype()))
      return invalidArgument("attention_bias " + bias2->describe() + " must be [" +
                             std::to_string(B) + ", " + std::to_string(N) + ", " +
                             std::to_string(S) + ", " + std::to_string(T) + "]");

    // QKV = X · W + bias, [B*S, D3].
    std::vector<float> X = floatsOf<ST>(x), W = floatsOf<ST>(w);
    std::vector<float> bias =
        ctx.has(2) ? floatsOf<ST>(ctx.input(2)) : std::vector<float>(static_cast<size_t>(D3), 0.f);
    std::vector<float> qkv(static_cast<size_t>(B * S * D3));
    parallelFor(B * S, ctx.threads(), 4, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r)
        projectRow(X.data() + r * Hin, W.data(), bias.data(), qkv.data() + r * D3, Hin, D3);
    });
    // K and V with the cache in front: [B, N, T, head].
    std::vector<float> K(static_cast<size_t>(B * N * T * hq)),
        V(static_cast<size_t>(B * N * T * hv));
    std::vector<float> pastF = past ? floatsOf<ST>(*past) : std::vector<float>();
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < N; ++h)
        for (int64_t t = 0; t < T; ++t) {
          float* kd = K.data() + ((b * N + h) * T + t) * hq;
          float* vd = V.data() + ((b * N + h) * T + t) * hv;
          if (t < P) {
            const float* pk = pastF.data() + ((b * N + h) * P + t) * hq;
            const float* pv = pastF.data() + (((B + b) * N + h) * P + t) * hv;
            std::copy(pk, pk + hq, kd);
            std::copy(pv, pv + hv, vd);
          } else {
            const float* row = qkv.data() + (b * S + (t - P)) * D3;
            std::copy(row + Dq + h * hq, row + Dq + (h + 1) * hq, kd);
            std::copy(row + Dq + Dk + h * hv, row + Dq + Dk + (h + 1) * hv, vd);
          }
        }
    const float scale = scale_ ? *scale_ : 1.0f / std::sqrt(static_cast<float>(hq));
    std::vector<float> biasF = bias2 ? floatsOf<ST>(*bias2) : std::vector<float>();
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), {B, S, Dv}));
    ST* Y = y->mutableData<ST>();
    parallelFor(B * N * S, ctx.threads(), 4, [&](int64_t begin, int64_t end) {
      std::vector<float> p(static_cast<size_t>(T));
      for (int64_t j = begin; j < end; ++j) {
        const int64_t b = j / (N * S), h = (j / S) % N, s = j % S;
        const float* q = qkv.data() + (b * S + s) * D3 + h * hq;
        float mx = -std::numeric_limits<float>::infinity();
        for (int64_t t = 0; t < T; ++t) {
          const float* kr = K.data() + ((b * N + h) * T + t) * hq;
          float dot = 0;
          for (int64_t i = 0; i < hq; ++i) dot += q[i] * kr[i];
          float v = dot * scale + mask[static_cast<size_t>((b * S + s) * T + t)];
          if (bias2) {
            const int64_t bb = bias2->dim(0) == 1 ? 0 : b, hh = bias2->dim(1) == 1 ? 0 : h;
            v += biasF[static_cast<size_t>(((bb * bias2->dim(1) + hh) * S + s) * T + t)];
          }
          p[static_cast<size_t>(t)] = v;
          mx = std::max(mx, v);
        }
        double sum = 0;
        for (float& v : p) {
          v = std::exp(v - mx);
          sum += v;
        }
        ST* out = Y + (b * S + s) * Dv + h * hv;
        for (int64_t i = 0; i < hv; ++i) {
          double acc = 0;
          for (int64_t t = 0; t < T; ++t)
            acc +=
                p[static_cast<size_t>(t)] * V[static_cast<size_t>(((b * N + h) * T + t) * hv + i)];
          out[i] = store<ST>(static_cast<float>(acc / sum));
        }
      }
    });
    if (ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
      if (hq != hv) return unsupported("a present output with different K and V head sizes");
      PASSLAB_ASSIGN_OR_RETURN(Tensor * pr, ctx.allocate(1, x.dtype(), {2, B, N, T, hq}));
      ST* o = pr->mutableData<ST>();
      const int64_t half = B * N * T * hq;
      for (int64_t i = 0; i < half; ++i) {
        o[i] = store<ST>(K[static_cast<size_t>(i)]);
        o[half + i] = store<ST>(V[static_cast<size_t>(i)]);
      }
    }
    return Status::ok();
  }

  // The additive mask, [B, S, T]: 0 where attention is allowed.
  Expected<std::vector<float>> buildMask(KernelContext& ctx, int64_t B, int64_t S, int64_t P,
                                         int64_t T) const {
    std::vector<float> m(static_cast<size_t>(B * S * T), 0.0f);
    const float lowest = std::numeric_limits<float>::lowest();
    auto at = [&](int64_t b, int64_t s, int64_t t) -> float& {
      return m[static_cast<size_t>((b * S + s) * T + t)];
    };
    bool causalFilter = false;  // 3-D and 4-D masks use mask_filter_value for causality
    if (ctx.has(3)) {
      const Tensor& mi = ctx.input(3);
      if (mi.dtype() != ir::DataType::kInt32)
        return invalidArgument("mask_index must be int32, got " + mi.describe());
      const int32_t* d = mi.data<int32_t>();
      if (mi.rank() == 1 && (mi.dim(0) == B || mi.dim(0) == 2 * B)) {
        for (int64_t b = 0; b < B; ++b) {
          const int64_t endPos = std::clamp<int64_t>(d[b], 0, T);
          const int64_t startPos = mi.dim(0) == 2 * B ? std::clamp<int64_t>(d[B + b], 0, T) : 0;
          for (int64_t s = 0; s < S; ++s) {
            for (int64_t t = endPos; t < T; ++t) at(b, s, t) = maskFilter_;
            for (int64_t t = 0; t < startPos; ++t) at(b, s, t) = maskFilter_;
          }
        }
      } else if (mi.rank() == 2 && mi.dim(0) == B && mi.dim(1) == T) {
        for (int64_t b = 0; b < B; ++b)
          for (int64_t s = 0; s < S; ++s)
            for (int64_t t = 0; t < T; ++t) at(b, s, t) = d[b * T + t] > 0 ? 0.0f : maskFilter_;
      } else if (mi.rank() == 3 && mi.dim(0) == B && mi.dim(1) == S && mi.dim(2) == T) {
        for (int64_t i = 0; i < B * S * T; ++i)
          m[static_cast<size_t>(i)] = d[i] > 0 ? 0.0f : maskFilter_;
        causalFilter = true;
      } else if (mi.rank() == 4 && mi.dim(0) == B && mi.dim(1) == 1 && mi.dim(2) == mi.dim(3) &&
                 mi.dim(2) >= T) {
        // Megatron: rows and columns index absolute positions up to a maximum length.
        const int64_t M = mi.dim(2);
        for (int64_t b = 0; b < B; ++b)
          for (int64_t s = 0; s < S; ++s)
            for (int64_t t = 0; t < T; ++t)
              at(b, s, t) = d[(b * M + P + s) * M + t] > 0 ? 0.0f : maskFilter_;
        causalFilter = true;
      } else {
        return invalidArgument("mask_index " + mi.describe() + " is none of [" + std::to_string(B) +
                               "], [" + std::to_string(2 * B) + "], [" + std::to_string(B) + ", " +
                               std::to_string(T) + "], [" + std::to_string(B) + ", " +
                               std::to_string(S) + ", " + std::to_string(T) + "] or [" +
                               std::to_string(B) + ", 1, max_sequence, max_sequence]");
      }
    }
    if (causal_)
      for (int64_t b = 0; b < B; ++b)
        for (int64_t s = 0; s < S; ++s)
          for (int64_t t = P + s + 1; t < T; ++t) at(b, s, t) = causalFilter ? maskFilter_ : lowest;
    return m;
  }

  int64_t heads_ = 0;
  bool causal_ = false;
  float maskFilter_ = -10000.0f;
  std::vector<int64_t> qkvSizes_;
  std::optional<float> scale_;
};

const KernelDef kRows[] = {
    {"com.microsoft", "Attention", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.ms.Attention", makeKernel<Attention>},
};

}  // namespace

std::span<const KernelDef> contribAttentionKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
