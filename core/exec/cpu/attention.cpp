// ONNX Attention (opset 23+): scaled dot-product attention as the ONNX
// reference computes it.
//
// Q, K, V are 4-D [batch, heads, sequence, head size] or 3-D [batch, sequence,
// heads * head size] (with q_num_heads and kv_num_heads). past_key/past_value
// are concatenated in front of K and V (and returned as present_key/value).
// Fewer KV heads than Q heads is grouped-query attention: Q head h reads KV
// head h / (q heads / kv heads).
//
// Scores are (Q * sqrt(scale)) (K * sqrt(scale))^T, optionally soft-capped
// (softcap * tanh(x / softcap)), plus an additive bias made of: the attention
// mask (bool: true attends, false is -inf; float: added; broadcast right-aligned
// to [batch, heads, q, kv], padded with -inf when shorter than kv), the causal
// frontier (a query at i sees keys j <= i + offset, offset being the past
// length, or nonpad_kv_seqlen[b] - q length without a past), the sliding
// window (opset 25) and nonpad_kv_seqlen (keys from nonpad_kv_seqlen[b] on are
// padding). A row whose bias is -inf everywhere attends to nothing: its
// probabilities are 0. qk_matmul_output_mode picks the optional fourth output:
// 0 the (capped) scores, 1 the same, 2 with the bias, 3 the probabilities.
//
// Computed in float (double for double inputs); rows run in parallel.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

class OnnxAttention final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    auto k = std::unique_ptr<OnnxAttention>(new OnnxAttention());
    k->causal_ = n.attrInt("is_causal", 0) != 0;
    if (n.hasAttr("q_num_heads")) k->qHeadsAttr_ = n.attrInt("q_num_heads", 0);
    if (n.hasAttr("kv_num_heads")) k->kvHeadsAttr_ = n.attrInt("kv_num_heads", 0);
    if (n.hasAttr("scale")) k->scale_ = n.attrFloat("scale", 1.0f);
    k->softcap_ = n.attrFloat("softcap", 0.0f);
    k->mode_ = n.attrInt("qk_matmul_output_mode", 0);
    k->leftWindow_ = n.attrInt("left_window_size", -1);
    k->rightWindow_ = n.attrInt("right_window_size", -1);
    if (k->mode_ < 0 || k->mode_ > 3)
      return invalidModel("qk_matmul_output_mode must be 0, 1, 2 or 3, got " +
                          std::to_string(k->mode_));
    if (k->leftWindow_ < -1 || k->rightWindow_ < -1)
      return invalidModel("left_window_size and right_window_size must be -1 or non-negative");
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& q = ctx.input(0);
    return dispatch<types::kFloats>(q.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = std::conditional_t<std::is_same_v<S, double>, double, float>;
      return runTyped<S, C>(ctx);
    });
  }

 private:
  OnnxAttention() = default;

  // A view of Q, K or V as [batch, heads, sequence, head size] over its data.
  struct View {
    int64_t B = 0, H = 0, S = 0, D = 0;
    bool threeD = false;
    int64_t offset(int64_t b, int64_t h, int64_t s) const {
      return threeD ? ((b * S + s) * H + h) * D : ((b * H + h) * S + s) * D;
    }
  };

  Expected<View> viewOf(const Tensor& t, const char* what, std::optional<int64_t> heads) const {
    View v;
    if (t.rank() == 4) {
      v = {t.dim(0), t.dim(1), t.dim(2), t.dim(3), false};
    } else if (t.rank() == 3) {
      if (!heads || *heads <= 0)
        return invalidArgument(std::string(what) + " " + t.describe() +
                               " is 3-D: q_num_heads and kv_num_heads must be set");
      if (t.dim(2) % *heads != 0)
        return invalidArgument(std::string(what) + " " + t.describe() + ": hidden size " +
                               std::to_string(t.dim(2)) + " is not a multiple of " +
                               std::to_string(*heads) + " heads");
      v = {t.dim(0), *heads, t.dim(1), t.dim(2) / *heads, true};
    } else {
      return invalidArgument(std::string(what) + " must be 3-D or 4-D, got " + t.describe());
    }
    return v;
  }

  template <class S, class C>
  static std::vector<C> floats(const Tensor& t) {
    std::vector<C> out(static_cast<size_t>(t.numel()));
    const S* p = t.data<S>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<C>(load(p[i]));
    return out;
  }

  template <class S, class C>
  Status runTyped(KernelContext& ctx) {
    const Tensor& qt = ctx.input(0);
    const Tensor& kt = ctx.input(1);
    const Tensor& vt = ctx.input(2);
    if (qt.rank() != kt.rank() || qt.rank() != vt.rank())
      return invalidArgument("Q " + qt.describe() + ", K " + kt.describe() + " and V " +
                             vt.describe() + " must have the same rank");
    for (const Tensor* t : {&kt, &vt})
      if (t->dtype() != qt.dtype())
        return invalidArgument("K and V must have Q's element type " + qt.describe());
    PASSLAB_ASSIGN_OR_RETURN(View Q, viewOf(qt, "Q", qHeadsAttr_));
    PASSLAB_ASSIGN_OR_RETURN(View K, viewOf(kt, "K", kvHeadsAttr_));
    PASSLAB_ASSIGN_OR_RETURN(View V, viewOf(vt, "V", kvHeadsAttr_));
    const int64_t B = Q.B, qH = Q.H, qS = Q.S, hd = Q.D, kvH = K.H, vd = V.D;
    if (K.B != B || V.B != B || V.H != kvH || K.S != V.S || K.D != hd)
      return invalidArgument("Q " + qt.describe() + ", K " + kt.describe() + " and V " +
                             vt.describe() + " do not fit together");
    if (kvH <= 0 || qH % kvH != 0)
      return invalidArgument(std::to_string(qH) + " query heads are not a multiple of " +
                             std::to_string(kvH) + " key/value heads");
    const bool hasPastK = ctx.has(4), hasPastV = ctx.has(5);
    if (hasPastK != hasPastV) return invalidArgument("past_key and past_value go together");
    int64_t past = 0;
    if (hasPastK) {
      const Tensor& pk = ctx.input(4);
      const Tensor& pv = ctx.input(5);
      if (pk.rank() != 4 || pk.dim(0) != B || pk.dim(1) != kvH || pk.dim(3) != hd ||
          pv.rank() != 4 || pv.dim(0) != B || pv.dim(1) != kvH || pv.dim(3) != vd ||
          pv.dim(2) != pk.dim(2) || pk.dtype() != qt.dtype() || pv.dtype() != qt.dtype())
        return invalidArgument("past_key " + pk.describe() + " and past_value " + pv.describe() +
                               " do not fit K " + kt.describe() + " and V " + vt.describe());
      past = pk.dim(2);
    }
    const int64_t kvS = past + K.S;
    std::optional<std::vector<int64_t>> nonpad;
    if (ctx.has(6)) {
      if (hasPastK) return invalidArgument("nonpad_kv_seqlen cannot be combined with past_key");
      PASSLAB_ASSIGN_OR_RETURN(auto np, readInts(ctx.input(6), "nonpad_kv_seqlen"));
      if (static_cast<int64_t>(np.size()) != B)
        return invalidArgument("nonpad_kv_seqlen must have " + std::to_string(B) + " values");
      nonpad = std::move(np);
    }

    // present_key / present_value: [B, kvH, kvS, d], past first.
    std::vector<C> kAll(static_cast<size_t>(B * kvH * kvS * hd));
    std::vector<C> vAll(static_cast<size_t>(B * kvH * kvS * vd));
    {
      std::vector<C> kIn = floats<S, C>(kt), vIn = floats<S, C>(vt);
      std::vector<C> pkIn, pvIn;
      if (hasPastK) {
        pkIn = floats<S, C>(ctx.input(4));
        pvIn = floats<S, C>(ctx.input(5));
      }
      for (int64_t b = 0; b < B; ++b)
        for (int64_t h = 0; h < kvH; ++h)
          for (int64_t s = 0; s < kvS; ++s) {
            C* kd = &kAll[static_cast<size_t>(((b * kvH + h) * kvS + s) * hd)];
            C* vdst = &vAll[static_cast<size_t>(((b * kvH + h) * kvS + s) * vd)];
            if (s < past) {
              const size_t pi = static_cast<size_t>((b * kvH + h) * past + s);
              std::copy_n(&pkIn[pi * static_cast<size_t>(hd)], hd, kd);
              std::copy_n(&pvIn[pi * static_cast<size_t>(vd)], vd, vdst);
            } else {
              std::copy_n(&kIn[static_cast<size_t>(K.offset(b, h, s - past))], hd, kd);
              std::copy_n(&vIn[static_cast<size_t>(V.offset(b, h, s - past))], vd, vdst);
            }
          }
    }
    std::vector<C> qIn = floats<S, C>(qt);

    // The attention mask, broadcast right-aligned to [B, qH, qS, maskKv].
    const bool hasMask = ctx.has(3);
    Dims maskDims;
    std::vector<C> mask;
    std::vector<int64_t> maskStride(4, 0);
    int64_t maskKv = 0;
    if (hasMask) {
      const Tensor& m = ctx.input(3);
      if (m.rank() < 1 || m.rank() > 4)
        return invalidArgument("attn_mask must have rank 1 to 4, got " + m.describe());
      if (m.dtype() != ir::DataType::kBool && m.dtype() != qt.dtype())
        return invalidArgument("attn_mask " + m.describe() + " must be bool or Q's type");
      maskDims = Dims(4 - m.rank(), 1);
      maskDims.insert(maskDims.end(), m.dims().begin(), m.dims().end());
      const Dims full{B, qH, qS, maskDims[3]};
      for (size_t d = 0; d < 3; ++d)
        if (maskDims[d] != 1 && maskDims[d] != full[d])
          return invalidArgument("attn_mask " + m.describe() + " does not broadcast to " +
                                 dimsToString(Dims{B, qH, qS, kvS}));
      maskKv = maskDims[3];
      if (maskKv > kvS)
        return invalidArgument("attn_mask " + m.describe() + " is longer than the " +
                               std::to_string(kvS) + " keys");
      int64_t stride = 1;
      for (size_t d = 4; d-- > 0;) {
        maskStride[d] = maskDims[d] == 1 ? 0 : stride;
        stride *= maskDims[d];
      }
      mask.resize(static_cast<size_t>(m.numel()));
      if (m.dtype() == ir::DataType::kBool) {
        for (size_t i = 0; i < mask.size(); ++i)
          mask[i] = m.data<bool>()[i] ? C(0) : -std::numeric_limits<C>::infinity();
      } else {
        mask = floats<S, C>(m);
      }
    }
    const C negInf = -std::numeric_limits<C>::infinity();
    auto bias = [&](int64_t b, int64_t h, int64_t i, int64_t j) -> C {
      C v = 0;
      if (hasMask) {
        if (j >= maskKv) return negInf;
        v = mask[static_cast<size_t>(b * maskStride[0] + h * maskStride[1] + i * maskStride[2] +
                                     j * maskStride[3])];
      }
      // Offset of the causal frontier and the window: the past length, or
      // nonpad_kv_seqlen[b] - q length for an external cache.
      const int64_t offset = nonpad && !hasPastK ? (*nonpad)[static_cast<size_t>(b)] - qS : past;
      if (causal_ && j > i + offset) v += negInf;
      const int64_t diff = i + offset - j;
      if (leftWindow_ >= 0 && diff > leftWindow_) v += negInf;
      if (rightWindow_ >= 0 && -diff > rightWindow_) v += negInf;
      if (nonpad && j >= (*nonpad)[static_cast<size_t>(b)]) v += negInf;
      return v;
    };

    const double scale = scale_ ? *scale_ : 1.0 / std::sqrt(static_cast<double>(hd));
    const C sq = static_cast<C>(std::sqrt(scale));
    const C cap = static_cast<C>(softcap_);

    // Outputs.
    Dims yDims = Q.threeD ? Dims{B, qS, qH * vd} : Dims{B, qH, qS, vd};
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, qt.dtype(), yDims));
    Tensor* qkOut = nullptr;
    if (ctx.outputCount() > 3 && ctx.wantsOutput(3)) {
      PASSLAB_ASSIGN_OR_RETURN(qkOut, ctx.allocate(3, qt.dtype(), Dims{B, qH, qS, kvS}));
    }
    S* Y = y->mutableData<S>();
    S* QK = qkOut ? qkOut->mutableData<S>() : nullptr;
    const int64_t rows = B * qH * qS;
    const int64_t group = qH / kvH;
    parallelFor(rows, ctx.threads(), 4, [&](int64_t r0, int64_t r1) {
      std::vector<C> scores(static_cast<size_t>(kvS)), biasRow(static_cast<size_t>(kvS));
      std::vector<C> qs(static_cast<size_t>(hd)), acc(static_cast<size_t>(vd));
      for (int64_t r = r0; r < r1; ++r) {
        const int64_t i = r % qS, h = (r / qS) % qH, b = r / (qS * qH);
        const int64_t kh = h / group;
        const C* qrow = &qIn[static_cast<size_t>(Q.offset(b, h, i))];
        for (int64_t d = 0; d < hd; ++d) qs[static_cast<size_t>(d)] = qrow[d] * sq;
        bool anyAttended = false;
        for (int64_t j = 0; j < kvS; ++j) {
          const C* krow = &kAll[static_cast<size_t>(((b * kvH + kh) * kvS + j) * hd)];
          C dot = 0;
          for (int64_t d = 0; d < hd; ++d) dot += qs[static_cast<size_t>(d)] * (krow[d] * sq);
          if (softcap_ > 0) dot = cap * std::tanh(dot / cap);
          const C bj = bias(b, h, i, j);
          biasRow[static_cast<size_t>(j)] = bj;
          anyAttended = anyAttended || bj != negInf;
          if (QK && mode_ <= 1) QK[r * kvS + j] = store<S>(dot);
          scores[static_cast<size_t>(j)] = dot + bj;
          if (QK && mode_ == 2) QK[r * kvS + j] = store<S>(scores[static_cast<size_t>(j)]);
        }
        // Softmax; a row with no attendable key gives zeros.
        if (!anyAttended) {
          std::fill(scores.begin(), scores.end(), C(0));
        } else {
          C mx = negInf;
          for (C s : scores) mx = std::max(mx, s);
          if (mx == negInf) mx = 0;
          C sum = 0;
          for (C& s : scores) {
            s = std::exp(s - mx);
            sum += s;
          }
          if (sum == 0) sum = 1;
          for (C& s : scores) s /= sum;
        }
        if (QK && mode_ == 3)
          for (int64_t j = 0; j < kvS; ++j)
            QK[r * kvS + j] = store<S>(scores[static_cast<size_t>(j)]);
        std::fill(acc.begin(), acc.end(), C(0));
        for (int64_t j = 0; j < kvS; ++j) {
          // As the reference: probabilities in the input type before P x V.
          const C p = static_cast<C>(load(store<S>(scores[static_cast<size_t>(j)])));
          if (p == 0) continue;
          const C* vrow = &vAll[static_cast<size_t>(((b * kvH + kh) * kvS + j) * vd)];
          for (int64_t d = 0; d < vd; ++d) acc[static_cast<size_t>(d)] += p * vrow[d];
        }
        S* yrow = Q.threeD ? Y + ((b * qS + i) * qH + h) * vd : Y + r * vd;
        for (int64_t d = 0; d < vd; ++d) yrow[d] = store<S>(acc[static_cast<size_t>(d)]);
      }
    });
    for (int out = 1; out <= 2; ++out) {
      if (ctx.outputCount() <= static_cast<size_t>(out) || !ctx.wantsOutput(out)) continue;
      const std::vector<C>& src = out == 1 ? kAll : vAll;
      const int64_t d = out == 1 ? hd : vd;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * p, ctx.allocate(out, qt.dtype(), Dims{B, kvH, kvS, d}));
      S* dst = p->mutableData<S>();
      for (size_t k = 0; k < src.size(); ++k) dst[k] = store<S>(src[k]);
    }
    return Status::ok();
  }

  bool causal_ = false;
  std::optional<int64_t> qHeadsAttr_, kvHeadsAttr_;
  std::optional<double> scale_;
  double softcap_ = 0;
  int64_t mode_ = 0;
  int64_t leftWindow_ = -1, rightWindow_ = -1;
};

const KernelDef kRows[] = {
    {"", "Attention", 23, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Attention",
     makeKernel<OnnxAttention>},
};

}  // namespace

std::span<const KernelDef> attentionKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
