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

#include "core/exec/cpu/contrib_attention_shape.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"
#include "core/support/cpu_isa.h"

#if defined(__SSE2__)
#include "core/support/x86_intrinsics.h"
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
    auto k = std::unique_ptr<Attention>(new Attention());
    PASSLAB_ASSIGN_OR_RETURN(k->a_, parseMsAttention(b.node()));
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
    PASSLAB_ASSIGN_OR_RETURN(MsAttentionShape sh, msAttentionShape(ctx, a_));
    const int64_t B = sh.B, S = sh.S, Hin = sh.Hin, N = sh.N, Dq = sh.Dq, Dk = sh.Dk, Dv = sh.Dv;
    const int64_t hq = sh.hq, hv = sh.hv, D3 = sh.D3, P = sh.P, T = sh.T;
    const Tensor* past = sh.past;
    const Tensor* bias2 = sh.bias2;
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> mask, msAttentionMask(ctx, a_, sh));

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
    const float scale = a_.scale ? *a_.scale : 1.0f / std::sqrt(static_cast<float>(hq));
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

  MsAttentionAttrs a_;
};

const KernelDef kRows[] = {
    {"com.microsoft", "Attention", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.ms.Attention", makeKernel<Attention>},
    {"com.microsoft", "Attention", 1, kOpsetMax, TypeSet{ir::DataType::kFloat}, 0, Tier::kOptimized,
     "cpu.ms.AttentionGemm", makeMsAttentionGemm},
};

}  // namespace

std::span<const KernelDef> contribAttentionKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
