// ai.passlab FusedAttention: Y = Softmax(mask(scale * Q Kᵀ)) V per batch row
// (head), float32, in one kernel that holds at most a tile of rows of the
// scores (docs/fused-kernels.md).
//
// Inputs: Q [..., S, H], K [..., T, H] ([..., H, T] with k_transposed = 1, the
// right operand of the MatMul the pass replaces), V [..., T, Hv], then three
// optional masks, each broadcasting (numpy) to the scores [..., S, T]:
// mask_mul (float), mask_add (float), mask_bool (bool). Leading (batch) dims
// of Q, K and V broadcast as MatMul's do. Attributes: scale (default
// 1/sqrt(H)), k_transposed, mask_subtract (mask_add is subtracted),
// mask_filter_value (default -10000) and mask_keep (default 1): where
// mask_bool != mask_keep the score is mask_filter_value; mask_add_after_bool:
// mask_add is applied after the bool mask (Where(b, s, f) + a, GPT-2 with a
// padding mask); causal: key t is left out of query row s when t > s + T - S.
//
// Each score is x = scale * q·k, then x *= mask_mul, x +/-= mask_add, the
// bool mask, in that order (the order of the chain the pass matches: Where
// outermost; with mask_add_after_bool the Add is), then the softmax over t and
// the product with V.
//
// Kernel: the rows of one batch entry go in tiles of up to 16K scores. A tile
// with enough work runs its two products on oneDNN's sgemm (scale as its
// alpha); small ones (the decoder's one-row steps) run tight loops. The
// masks and the softmax are one pass over each row of the tile, in L1/L2, with
// a polynomial exp that vectorizes (within 2 ulp of expf). Y is written once.
// Threads take (batch entry, tile) pairs.
#include <oneapi/dnnl/dnnl.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/attention_shape.h"
#include "core/exec/cpu/onednn_util.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cpu/passlab_fused_math.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu::fused {

namespace {

struct AttentionAttrs {
  float scale = 0.0f;
  bool hasScale = false;
  bool kTransposed = false;
  bool subtract = false;
  float filter = -10000.0f;
  bool keep = true;
  bool causal = false;
  bool addAfterBool = false;  // GPT-2 with a padding mask: Where(b, s, f) + a
};

// Strides (in elements) of a tensor of dims `d` seen with `rank` dims (left
// padded with 1s); 0 along dims of size 1 (broadcast).
std::vector<int64_t> bcastStrides(const Dims& d, size_t rank) {
  std::vector<int64_t> s(rank, 0);
  int64_t acc = 1;
  for (size_t i = 0; i < d.size(); ++i) {
    size_t j = d.size() - 1 - i;
    size_t o = rank - 1 - i;
    s[o] = d[j] == 1 ? 0 : acc;
    acc *= d[j];
  }
  return s;
}

struct Mask {
  const float* f = nullptr;
  const bool* b = nullptr;
  std::vector<int64_t> strides;  // over the scores' dims
};

class FusedAttentionKernel final : public Kernel {
 public:
  explicit FusedAttentionKernel(const KernelBuild& b) {
    const ir::Node& n = b.node();
    a_.hasScale = n.hasAttr("scale");
    a_.scale = n.attrFloat("scale", 1.0f);
    a_.kTransposed = n.attrInt("k_transposed", 0) != 0;
    a_.subtract = n.attrInt("mask_subtract", 0) != 0;
    a_.filter = n.attrFloat("mask_filter_value", -10000.0f);
    a_.keep = n.attrInt("mask_keep", 1) != 0;
    a_.causal = n.attrInt("causal", 0) != 0;
    a_.addAfterBool = n.attrInt("mask_add_after_bool", 0) != 0;
  }

  Status run(KernelContext& ctx) override {
    const Tensor& q = ctx.input(0);
    const Tensor& k = ctx.input(1);
    const Tensor& v = ctx.input(2);
    if (q.rank() < 2 || k.rank() < 2 || v.rank() < 2)
      return invalidArgument("FusedAttention needs Q, K and V of rank >= 2 (got " + q.describe() +
                             ", " + k.describe() + ", " + v.describe() + ")");
    PASSLAB_ASSIGN_OR_RETURN(
        AttentionShape shape,
        attentionShape(
            q.dims(), k.dims(), v.dims(), a_.kTransposed,
            [&] {
              return "Q " + q.describe() + ", K " + k.describe() +
                     (a_.kTransposed ? " (transposed)" : "") + " and V " + v.describe();
            },
            [&] {
              return "Q " + q.describe() + ", K " + k.describe() + " and V " + v.describe();
            }));
    const size_t R = shape.rank;
    const int64_t S = shape.S, H = shape.H, T = shape.T, Hv = shape.Hv;
    const Dims& batch = shape.batch;
    Dims scoreDims = batch;
    scoreDims.push_back(S);
    scoreDims.push_back(T);
    Dims outDims = batch;
    outDims.push_back(S);
    outDims.push_back(Hv);
    Mask masks[3];
    for (size_t i = 0; i < 3; ++i) {
      if (!ctx.has(3 + i)) continue;
      const Tensor& m = ctx.input(3 + i);
      const bool wantBool = i == 2;
      if ((m.dtype() == ir::DataType::kBool) != wantBool ||
          (!wantBool && m.dtype() != ir::DataType::kFloat))
        return invalidArgument(std::string("FusedAttention: ") +
                               (i == 0   ? "mask_mul"
                                : i == 1 ? "mask_add"
                                         : "mask_bool") +
                               " must be " + (wantBool ? "bool" : "float32") + ", got " +
                               m.describe());
      auto bc = broadcastShapes(m.dims(), scoreDims);
      if (!bc || *bc != scoreDims || m.rank() > R)
        return invalidArgument("FusedAttention: a mask " + m.describe() +
                               " does not broadcast to the scores " + describeDims(scoreDims));
      masks[i].strides = bcastStrides(m.dims(), R);
      if (wantBool)
        masks[i].b = m.data<bool>();
      else
        masks[i].f = m.data<float>();
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, outDims));
    if (y->numel() == 0) return Status::ok();
    const float scale = a_.hasScale ? a_.scale : 1.0f / std::sqrt(static_cast<float>(H));
    const auto qs = bcastStrides(q.dims(), R), ks = bcastStrides(k.dims(), R),
               vs = bcastStrides(v.dims(), R);
    int64_t nb = 1;
    for (int64_t d : batch) nb *= d;
    // Tiles of up to 16K scores (64 KB), at least one row.
    const int64_t tileRows = std::clamp<int64_t>(16384 / std::max<int64_t>(T, 1), 1, S);
    const int64_t tiles = (S + tileRows - 1) / tileRows;
    const float* Q = q.data<float>();
    const float* K = k.data<float>();
    const float* V = v.data<float>();
    float* Y = y->mutableData<float>();
    // Work per tile, in multiply-adds: the grain keeps small problems on one thread.
    const int64_t perTile = tileRows * T * (H + Hv);
    parallelFor(nb * tiles, ctx.threads(), std::max<int64_t>(1, 65536 / (perTile + 1)),
                [&](int64_t b0, int64_t e0) {
                  std::vector<float> buf(static_cast<size_t>(tileRows * T));
                  for (int64_t it = b0; it < e0; ++it) {
                    const int64_t bi = it / tiles, r0 = (it % tiles) * tileRows;
                    const int64_t rows = std::min(tileRows, S - r0);
                    // Offsets of this batch entry.
                    int64_t qo = 0, ko = 0, vo = 0, mo[3] = {0, 0, 0};
                    for (size_t d = R - 2, rem = static_cast<size_t>(bi); d-- > 0;) {
                      int64_t idx = static_cast<int64_t>(rem) % batch[d];
                      rem /= static_cast<size_t>(batch[d]);
                      qo += idx * qs[d];
                      ko += idx * ks[d];
                      vo += idx * vs[d];
                      for (size_t m = 0; m < 3; ++m)
                        if (!masks[m].strides.empty()) mo[m] += idx * masks[m].strides[d];
                    }
                    tile(Q + qo + r0 * H, K + ko, V + vo, Y + (bi * S + r0) * Hv, buf.data(), rows,
                         r0, S, T, H, Hv, scale, masks, mo, R);
                  }
                });
    return Status::ok();
  }

 private:
  static std::string describeDims(const Dims& d) {
    std::string s = "[";
    for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
    return s + "]";
  }

  void tile(const float* q, const float* k, const float* v, float* y, float* sc, int64_t rows,
            int64_t r0, int64_t S, int64_t T, int64_t H, int64_t Hv, float scale, const Mask* masks,
            const int64_t* mo, size_t R) const;

  AttentionAttrs a_;
};

void FusedAttentionKernel::tile(const float* q, const float* k, const float* v, float* y, float* sc,
                                int64_t rows, int64_t r0, int64_t S, int64_t T, int64_t H,
                                int64_t Hv, float scale, const Mask* masks, const int64_t* mo,
                                size_t R) const {
  // Scores: sc[rows, T] = scale * q[rows, H] x K.
  // bench_fused_kernels: below 4K multiply-adds (a one-row step over up to
  // 16 keys) the loops beat sgemm's call; above, sgemm wins (loops only: 0.5-0.75x).
  const bool big = rows * T * H >= 4096;
  if (!big || dnnl_sgemm('N', a_.kTransposed ? 'N' : 'T', rows, T, H, scale, q, H, k,
                         a_.kTransposed ? T : H, 0.0f, sc, T) != dnnl_success) {
    for (int64_t r = 0; r < rows; ++r) {
      float* s = sc + r * T;
      const float* qr = q + r * H;
      if (a_.kTransposed) {  // s += q[h] * Kt[h, :]
        for (int64_t t = 0; t < T; ++t) s[t] = 0.0f;
        for (int64_t h = 0; h < H; ++h) {
          const float a = qr[h];
          const float* kr = k + h * T;
#pragma omp simd
          for (int64_t t = 0; t < T; ++t) s[t] += a * kr[t];
        }
        for (int64_t t = 0; t < T; ++t) s[t] *= scale;
      } else {
        for (int64_t t = 0; t < T; ++t) {
          const float* kr = k + t * H;
          float acc = 0.0f;
#pragma omp simd reduction(+ : acc)
          for (int64_t h = 0; h < H; ++h) acc += qr[h] * kr[h];
          s[t] = acc * scale;
        }
      }
    }
  }
  // Masks and the softmax, one row at a time.
  for (int64_t r = 0; r < rows; ++r) {
    float* s = sc + r * T;
    const int64_t row = r0 + r;
    const size_t order[2][3] = {{0, 1, 2}, {0, 2, 1}};
    for (size_t m : order[a_.addAfterBool ? 1 : 0]) {
      if (masks[m].strides.empty()) continue;
      const int64_t rs = masks[m].strides[R - 2], cs = masks[m].strides[R - 1];
      const int64_t base = mo[m] + row * rs;
      if (m == 2) {
        const bool* mb = masks[m].b + base;
        const bool keep = a_.keep;
        const float f = a_.filter;
        if (cs == 0) {
          if (mb[0] != keep)
            for (int64_t t = 0; t < T; ++t) s[t] = f;
        } else {
#pragma omp simd
          for (int64_t t = 0; t < T; ++t) s[t] = mb[t] == keep ? s[t] : f;
        }
        continue;
      }
      const float* mf = masks[m].f + base;
      if (m == 0) {
        if (cs == 0) {
          const float c = mf[0];
          for (int64_t t = 0; t < T; ++t) s[t] *= c;
        } else {
#pragma omp simd
          for (int64_t t = 0; t < T; ++t) s[t] *= mf[t];
        }
      } else {
        const float c = cs == 0 ? mf[0] : 0.0f;
        if (a_.subtract) {
          if (cs == 0)
            for (int64_t t = 0; t < T; ++t) s[t] -= c;
          else
#pragma omp simd
            for (int64_t t = 0; t < T; ++t) s[t] -= mf[t];
        } else {
          if (cs == 0)
            for (int64_t t = 0; t < T; ++t) s[t] += c;
          else
#pragma omp simd
            for (int64_t t = 0; t < T; ++t) s[t] += mf[t];
        }
      }
    }
    // Keys after `limit` are left out (causal).
    const int64_t limit = a_.causal ? std::clamp<int64_t>(row + T - S + 1, 0, T) : T;
    const float mx = rowMax(s, limit);
    const float sum = expShiftSum(s, limit, mx);
    const float inv = limit > 0 ? 1.0f / sum : 0.0f;
#pragma omp simd
    for (int64_t t = 0; t < limit; ++t) s[t] *= inv;
    for (int64_t t = limit; t < T; ++t) s[t] = 0.0f;
  }
  // Y[rows, Hv] = P[rows, T] x V[T, Hv].
  if (!big || dnnl_sgemm('N', 'N', rows, Hv, T, 1.0f, sc, T, v, Hv, 0.0f, y, Hv) != dnnl_success) {
    for (int64_t r = 0; r < rows; ++r) {
      float* yr = y + r * Hv;
      const float* p = sc + r * T;
      for (int64_t h = 0; h < Hv; ++h) yr[h] = 0.0f;
      for (int64_t t = 0; t < T; ++t) {
        const float a = p[t];
        const float* vr = v + t * Hv;
#pragma omp simd
        for (int64_t h = 0; h < Hv; ++h) yr[h] += a * vr[h];
      }
    }
  }
}

}  // namespace

Expected<std::unique_ptr<Kernel>> makeFusedAttention(const KernelBuild& b) {
  onednn::engine();  // oneDNN capped at PASSLAB_MAX_ISA before dnnl_sgemm looks at the CPU
  return std::unique_ptr<Kernel>(std::make_unique<FusedAttentionKernel>(b));
}

}  // namespace passlab::exec::cpu::fused
