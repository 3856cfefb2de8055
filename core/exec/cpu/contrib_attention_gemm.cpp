// com.microsoft Attention in float32 on oneDNN's sgemm: the QKV projection is
// one product [B*S, Hin] x [Hin, D3] (the bias copied into the rows first),
// then per (batch, head) and tile of query rows the scores scale * Q Kᵀ, the
// mask and attention_bias added, the vector softmax (softmax_rows.h), and the
// product with V written straight into Y. Q, K and V are read in place in the
// projection's rows (leading dimension D3); with a past cache K and V are
// first laid out [B, N, T, head] as the reference kernel does (straight into
// present when it is wanted: that is present's layout). Results within
// float rounding of the reference (contrib_attention.cpp), which sums in
// double; the reference stays for float16/bfloat16. Products of up to 2K
// multiply-adds (a small model's heads, one query row per decoding step) run
// as plain loops: a sgemm call costs about 1 us before any work.
#include <oneapi/dnnl/dnnl.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/exec/cpu/contrib_attention_shape.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/softmax_rows.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// A [rows, cols] block inside a larger row-major array.
struct Block {
  const float* data;
  int64_t ld;
};

// Scores of one tile kept in cache: about 16K floats.
constexpr int64_t kTileScores = 16384;

// Below this many multiply-adds a product of one (batch, head, tile) runs as a
// plain loop: tiny_gpt2's 4 heads of 8 at one query row and T <= 9 took 48
// sgemm calls of at most 72 multiply-adds each, 80 us a node. The loops (the
// scores' dot products not vectorized: no reassociation) break even with
// sgemm at 1-2K (head 64 x T 16 equal, head 64 x T 32 sgemm 10% faster).
constexpr int64_t kDirectProduct = 2048;

// scores[r, t] = scale * dot(q row r, k row t) over d.
void scoresDirect(int64_t rows, int64_t T, int64_t d, float scale, Block q, Block k,
                  float* scores) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t t = 0; t < T; ++t) {
      const float* a = q.data + r * q.ld;
      const float* b = k.data + t * k.ld;
      float acc = 0.0f;
      for (int64_t i = 0; i < d; ++i) acc += a[i] * b[i];
      scores[r * T + t] = scale * acc;
    }
}

// y row r = sum over t of p[r, t] * (v row t), d values a row.
void weightedValuesDirect(int64_t rows, int64_t T, int64_t d, const float* p, Block v, float* y,
                          int64_t ldy) {
  for (int64_t r = 0; r < rows; ++r) {
    float* out = y + r * ldy;
    std::fill(out, out + d, 0.0f);
    for (int64_t t = 0; t < T; ++t) {
      const float w = p[r * T + t];
      const float* vt = v.data + t * v.ld;
      for (int64_t i = 0; i < d; ++i) out[i] += w * vt[i];
    }
  }
}

// scale * Q Kᵀ for one tile: a plain loop when small, else oneDNN's sgemm.
bool tileScores(int64_t rows, int64_t T, int64_t d, float scale, Block q, Block k, float* scores) {
  if (rows * T * d < kDirectProduct) {
    scoresDirect(rows, T, d, scale, q, k, scores);
    return true;
  }
  return dnnl_sgemm('N', 'T', rows, T, d, scale, q.data, q.ld, k.data, k.ld, 0.0f, scores, T) ==
         dnnl_success;
}

// P V for one tile into Y's rows: a plain loop when small, else oneDNN's sgemm.
bool tileValues(int64_t rows, int64_t T, int64_t d, const float* p, Block v, float* y,
                int64_t ldy) {
  if (rows * T * d < kDirectProduct) {
    weightedValuesDirect(rows, T, d, p, v, y, ldy);
    return true;
  }
  return dnnl_sgemm('N', 'N', rows, d, T, 1.0f, p, T, v.data, v.ld, 0.0f, y, ldy) == dnnl_success;
}

class AttentionGemm final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto k = std::unique_ptr<AttentionGemm>(new AttentionGemm());
    PASSLAB_ASSIGN_OR_RETURN(k->a_, parseMsAttention(b.node()));
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(MsAttentionShape sh, msAttentionShape(ctx, a_));
    PASSLAB_ASSIGN_OR_RETURN(std::vector<float> mask, msAttentionMask(ctx, a_, sh));
    std::vector<float> qkv(static_cast<size_t>(sh.B * sh.S * sh.D3));
    PASSLAB_RETURN_IF_ERROR(project(ctx, sh, qkv.data()));
    const bool wantsPresent = ctx.outputCount() > 1 && ctx.wantsOutput(1);
    std::vector<float> cache;
    float* K = nullptr;  // with a past: [B, N, T, head] keys, then the values V
    float* V = nullptr;
    if (sh.past) {
      PASSLAB_ASSIGN_OR_RETURN(K, cacheTarget(ctx, sh, wantsPresent, cache));
      V = K + sh.B * sh.N * sh.T * sh.hq;
      layOutCache(sh, qkv.data(), K, V);
    }
    auto keys = [&](int64_t b, int64_t h) -> Block {
      if (sh.past) return {K + (b * sh.N + h) * sh.T * sh.hq, sh.hq};
      return {qkv.data() + b * sh.S * sh.D3 + sh.Dq + h * sh.hq, sh.D3};
    };
    auto values = [&](int64_t b, int64_t h) -> Block {
      if (sh.past) return {V + (b * sh.N + h) * sh.T * sh.hv, sh.hv};
      return {qkv.data() + b * sh.S * sh.D3 + sh.Dq + sh.Dk + h * sh.hv, sh.D3};
    };
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y,
                             ctx.allocate(0, ctx.input(0).dtype(), {sh.B, sh.S, sh.Dv}));
    float* Y = y->mutableData<float>();
    const float scale = a_.scale ? *a_.scale : 1.0f / std::sqrt(static_cast<float>(sh.hq));
    const int64_t tileRows = std::clamp<int64_t>(kTileScores / std::max<int64_t>(sh.T, 1), 1, sh.S);
    const int64_t tiles = (sh.S + tileRows - 1) / tileRows;
    bool failed = false;
    parallelFor(sh.B * sh.N * tiles, ctx.threads(), 1, [&](int64_t begin, int64_t end) {
      std::vector<float> scores(static_cast<size_t>(tileRows * sh.T));
      std::vector<float> scratch(static_cast<size_t>(softmaxRowScratch(sh.T)));
      for (int64_t j = begin; j < end; ++j) {
        const int64_t b = j / (sh.N * tiles), h = (j / tiles) % sh.N, s0 = (j % tiles) * tileRows;
        const int64_t rows = std::min(tileRows, sh.S - s0);
        const Block q{qkv.data() + (b * sh.S + s0) * sh.D3 + h * sh.hq, sh.D3};
        const Block k = keys(b, h), v = values(b, h);
        if (!tileScores(rows, sh.T, sh.hq, scale, q, k, scores.data())) {
          failed = true;
          return;
        }
        for (int64_t r = 0; r < rows; ++r)
          maskedSoftmaxRow(sh, mask.data(), b, h, s0 + r, scores.data() + r * sh.T, scratch.data());
        if (!tileValues(rows, sh.T, sh.hv, scores.data(), v,
                        Y + (b * sh.S + s0) * sh.Dv + h * sh.hv, sh.Dv)) {
          failed = true;
          return;
        }
      }
    });
    if (failed) return internalError("oneDNN's sgemm refused Attention's products");
    // With a past, present is the cache laid out above.
    if (wantsPresent && !sh.past) return writePresent(ctx, sh, keys, values);
    return Status::ok();
  }

 private:
  AttentionGemm() = default;

  // qkv = X · W + bias, [B*S, D3].
  static Status project(KernelContext& ctx, const MsAttentionShape& sh, float* qkv) {
    const int64_t M = sh.B * sh.S;
    float beta = 0.0f;
    if (ctx.has(2)) {
      const float* bias = ctx.input(2).data<float>();
      for (int64_t r = 0; r < M; ++r) std::memcpy(qkv + r * sh.D3, bias, sh.D3 * sizeof(float));
      beta = 1.0f;
    }
    if (M == 0 || sh.D3 == 0) return Status::ok();
    if (dnnl_sgemm('N', 'N', M, sh.D3, sh.Hin, 1.0f, ctx.input(0).data<float>(), sh.Hin,
                   ctx.input(1).data<float>(), sh.D3, beta, qkv, sh.D3) != dnnl_success)
      return internalError("oneDNN's sgemm refused Attention's projection");
    return Status::ok();
  }

  // Where the cache goes: present's buffer when it is wanted (present is
  // [2, B, N, T, head], the cache's layout), else `own`.
  static Expected<float*> cacheTarget(KernelContext& ctx, const MsAttentionShape& sh,
                                      bool wantsPresent, std::vector<float>& own) {
    if (!wantsPresent) {
      own.resize(static_cast<size_t>(2 * sh.B * sh.N * sh.T * sh.hq));
      return own.data();
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor * pr,
                             ctx.allocate(1, ctx.input(0).dtype(), {2, sh.B, sh.N, sh.T, sh.hq}));
    return pr->mutableData<float>();
  }

  // K and V with the cache in front: [B, N, T, head] each (a past has hq = hv).
  static void layOutCache(const MsAttentionShape& sh, const float* qkv, float* K, float* V) {
    const float* past = sh.past->data<float>();
    const int64_t hd = sh.hq, block = sh.P * hd;
    for (int64_t b = 0; b < sh.B; ++b)
      for (int64_t h = 0; h < sh.N; ++h) {
        float* kd = K + (b * sh.N + h) * sh.T * hd;
        float* vd = V + (b * sh.N + h) * sh.T * hd;
        const float* pk = past + (b * sh.N + h) * block;
        const float* pv = past + ((sh.B + b) * sh.N + h) * block;
        std::copy(pk, pk + block, kd);
        std::copy(pv, pv + block, vd);
        for (int64_t s = 0; s < sh.S; ++s) {
          const float* row = qkv + (b * sh.S + s) * sh.D3;
          std::copy_n(row + sh.Dq + h * hd, hd, kd + block + s * hd);
          std::copy_n(row + sh.Dq + sh.Dk + h * hd, hd, vd + block + s * hd);
        }
      }
  }

  // One row of scores (query s of head h): + mask + attention_bias, then the softmax.
  static void maskedSoftmaxRow(const MsAttentionShape& sh, const float* mask, int64_t b, int64_t h,
                               int64_t s, float* row, float* scratch) {
    const float* m = mask + (b * sh.S + s) * sh.T;
    for (int64_t t = 0; t < sh.T; ++t) row[t] += m[t];
    if (const Tensor* bias2 = sh.bias2) {
      const int64_t bb = bias2->dim(0) == 1 ? 0 : b, hh = bias2->dim(1) == 1 ? 0 : h;
      const float* a = bias2->data<float>() + ((bb * bias2->dim(1) + hh) * sh.S + s) * sh.T;
      for (int64_t t = 0; t < sh.T; ++t) row[t] += a[t];
    }
    softmaxRow(row, row, sh.T, false, scratch);
  }

  // present = [2, B, N, T, head]: the keys, then the values.
  template <class Keys, class Values>
  static Status writePresent(KernelContext& ctx, const MsAttentionShape& sh, Keys keys,
                             Values values) {
    if (sh.hq != sh.hv) return unsupported("a present output with different K and V head sizes");
    PASSLAB_ASSIGN_OR_RETURN(Tensor * pr,
                             ctx.allocate(1, ctx.input(0).dtype(), {2, sh.B, sh.N, sh.T, sh.hq}));
    float* o = pr->mutableData<float>();
    const int64_t half = sh.B * sh.N * sh.T * sh.hq;
    for (int64_t b = 0; b < sh.B; ++b)
      for (int64_t h = 0; h < sh.N; ++h) {
        const Block k = keys(b, h), v = values(b, h);
        for (int64_t t = 0; t < sh.T; ++t) {
          const int64_t at = ((b * sh.N + h) * sh.T + t) * sh.hq;
          std::memcpy(o + at, k.data + t * k.ld, sh.hq * sizeof(float));
          std::memcpy(o + half + at, v.data + t * v.ld, sh.hq * sizeof(float));
        }
      }
    return Status::ok();
  }

  MsAttentionAttrs a_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeMsAttentionGemm(const KernelBuild& b) {
  return AttentionGemm::create(b);
}

}  // namespace passlab::exec::cpu
