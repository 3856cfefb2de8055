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

  // The shapes and operands of one call, in the compute type C.
  template <class C>
  struct Problem {
    View Q, K, V;
    int64_t B = 0, qH = 0, qS = 0, hd = 0, kvH = 0, vd = 0;
    int64_t past = 0, kvS = 0;  // past length; keys including the past
    bool hasPastK = false;
    std::optional<std::vector<int64_t>> nonpad;
    std::vector<C> qIn;
    std::vector<C> kAll, vAll;  // present_key / present_value: [B, kvH, kvS, d], past first
    // The attention mask, broadcast right-aligned to [B, qH, qS, maskKv].
    bool hasMask = false;
    std::vector<C> mask;
    std::vector<int64_t> maskStride = std::vector<int64_t>(4, 0);
    int64_t maskKv = 0;
  };

  // Per-thread rows of scores, bias, scaled query and accumulated output.
  template <class C>
  struct RowScratch {
    std::vector<C> scores, biasRow, qs, acc;
  };

  // Q, K, V, past_key/past_value and nonpad_kv_seqlen: views, sizes and their checks.
  template <class C>
  Status readShapes(KernelContext& ctx, Problem<C>& p) const {
    const Tensor& qt = ctx.input(0);
    const Tensor& kt = ctx.input(1);
    const Tensor& vt = ctx.input(2);
    if (qt.rank() != kt.rank() || qt.rank() != vt.rank())
      return invalidArgument("Q " + qt.describe() + ", K " + kt.describe() + " and V " +
                             vt.describe() + " must have the same rank");
    for (const Tensor* t : {&kt, &vt})
      if (t->dtype() != qt.dtype())
        return invalidArgument("K and V must have Q's element type " + qt.describe());
    PASSLAB_ASSIGN_OR_RETURN(p.Q, viewOf(qt, "Q", qHeadsAttr_));
    PASSLAB_ASSIGN_OR_RETURN(p.K, viewOf(kt, "K", kvHeadsAttr_));
    PASSLAB_ASSIGN_OR_RETURN(p.V, viewOf(vt, "V", kvHeadsAttr_));
    p.B = p.Q.B, p.qH = p.Q.H, p.qS = p.Q.S, p.hd = p.Q.D, p.kvH = p.K.H, p.vd = p.V.D;
    const int64_t B = p.B, qH = p.qH, hd = p.hd, kvH = p.kvH, vd = p.vd;
    if (p.K.B != B || p.V.B != B || p.V.H != kvH || p.K.S != p.V.S || p.K.D != hd)
      return invalidArgument("Q " + qt.describe() + ", K " + kt.describe() + " and V " +
                             vt.describe() + " do not fit together");
    if (kvH <= 0 || qH % kvH != 0)
      return invalidArgument(std::to_string(qH) + " query heads are not a multiple of " +
                             std::to_string(kvH) + " key/value heads");
    const bool hasPastK = ctx.has(4), hasPastV = ctx.has(5);
    if (hasPastK != hasPastV) return invalidArgument("past_key and past_value go together");
    p.hasPastK = hasPastK;
    if (hasPastK) {
      const Tensor& pk = ctx.input(4);
      const Tensor& pv = ctx.input(5);
      if (pk.rank() != 4 || pk.dim(0) != B || pk.dim(1) != kvH || pk.dim(3) != hd ||
          pv.rank() != 4 || pv.dim(0) != B || pv.dim(1) != kvH || pv.dim(3) != vd ||
          pv.dim(2) != pk.dim(2) || pk.dtype() != qt.dtype() || pv.dtype() != qt.dtype())
        return invalidArgument("past_key " + pk.describe() + " and past_value " + pv.describe() +
                               " do not fit K " + kt.describe() + " and V " + vt.describe());
      p.past = pk.dim(2);
    }
    p.kvS = p.past + p.K.S;
    if (ctx.has(6)) {
      if (hasPastK) return invalidArgument("nonpad_kv_seqlen cannot be combined with past_key");
      PASSLAB_ASSIGN_OR_RETURN(auto np, readInts(ctx.input(6), "nonpad_kv_seqlen"));
      if (static_cast<int64_t>(np.size()) != B)
        return invalidArgument("nonpad_kv_seqlen must have " + std::to_string(B) + " values");
      p.nonpad = std::move(np);
    }
    return Status::ok();
  }

  // present_key / present_value: [B, kvH, kvS, d], past first.
  template <class S, class C>
  static void gatherKeysAndValues(KernelContext& ctx, Problem<C>& p) {
    const int64_t B = p.B, kvH = p.kvH, kvS = p.kvS, hd = p.hd, vd = p.vd, past = p.past;
    p.kAll.assign(static_cast<size_t>(B * kvH * kvS * hd), C());
    p.vAll.assign(static_cast<size_t>(B * kvH * kvS * vd), C());
    std::vector<C> kIn = floats<S, C>(ctx.input(1)), vIn = floats<S, C>(ctx.input(2));
    std::vector<C> pkIn, pvIn;
    if (p.hasPastK) {
      pkIn = floats<S, C>(ctx.input(4));
      pvIn = floats<S, C>(ctx.input(5));
    }
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < kvH; ++h)
        for (int64_t s = 0; s < kvS; ++s) {
          C* kd = &p.kAll[static_cast<size_t>(((b * kvH + h) * kvS + s) * hd)];
          C* vdst = &p.vAll[static_cast<size_t>(((b * kvH + h) * kvS + s) * vd)];
          if (s < past) {
            const size_t pi = static_cast<size_t>((b * kvH + h) * past + s);
            std::copy_n(&pkIn[pi * static_cast<size_t>(hd)], hd, kd);
            std::copy_n(&pvIn[pi * static_cast<size_t>(vd)], vd, vdst);
          } else {
            std::copy_n(&kIn[static_cast<size_t>(p.K.offset(b, h, s - past))], hd, kd);
            std::copy_n(&vIn[static_cast<size_t>(p.V.offset(b, h, s - past))], vd, vdst);
          }
        }
  }

  // The attention mask, broadcast right-aligned to [B, qH, qS, maskKv].
  template <class S, class C>
  static Status readMask(KernelContext& ctx, Problem<C>& p) {
    p.hasMask = ctx.has(3);
    if (!p.hasMask) return Status::ok();
    const Tensor& qt = ctx.input(0);
    const Tensor& m = ctx.input(3);
    if (m.rank() < 1 || m.rank() > 4)
      return invalidArgument("attn_mask must have rank 1 to 4, got " + m.describe());
    if (m.dtype() != ir::DataType::kBool && m.dtype() != qt.dtype())
      return invalidArgument("attn_mask " + m.describe() + " must be bool or Q's type");
    Dims maskDims(4 - m.rank(), 1);
    maskDims.insert(maskDims.end(), m.dims().begin(), m.dims().end());
    const Dims full{p.B, p.qH, p.qS, maskDims[3]};
    for (size_t d = 0; d < 3; ++d)
      if (maskDims[d] != 1 && maskDims[d] != full[d])
        return invalidArgument("attn_mask " + m.describe() + " does not broadcast to " +
                               dimsToString(Dims{p.B, p.qH, p.qS, p.kvS}));
    p.maskKv = maskDims[3];
    if (p.maskKv > p.kvS)
      return invalidArgument("attn_mask " + m.describe() + " is longer than the " +
                             std::to_string(p.kvS) + " keys");
    int64_t stride = 1;
    for (size_t d = 4; d-- > 0;) {
      p.maskStride[d] = maskDims[d] == 1 ? 0 : stride;
      stride *= maskDims[d];
    }
    p.mask.resize(static_cast<size_t>(m.numel()));
    if (m.dtype() == ir::DataType::kBool) {
      for (size_t i = 0; i < p.mask.size(); ++i)
        p.mask[i] = m.data<bool>()[i] ? C(0) : -std::numeric_limits<C>::infinity();
    } else {
      p.mask = floats<S, C>(m);
    }
    return Status::ok();
  }

  // The additive bias of query i and key j: mask, causal frontier, window, padding.
  template <class C>
  C bias(const Problem<C>& p, int64_t b, int64_t h, int64_t i, int64_t j) const {
    const C negInf = -std::numeric_limits<C>::infinity();
    C v = 0;
    if (p.hasMask) {
      if (j >= p.maskKv) return negInf;
      v = p.mask[static_cast<size_t>(b * p.maskStride[0] + h * p.maskStride[1] +
                                     i * p.maskStride[2] + j * p.maskStride[3])];
    }
    // Offset of the causal frontier and the window: the past length, or
    // nonpad_kv_seqlen[b] - q length for an external cache.
    const int64_t offset =
        p.nonpad && !p.hasPastK ? (*p.nonpad)[static_cast<size_t>(b)] - p.qS : p.past;
    if (causal_ && j > i + offset) v += negInf;
    const int64_t diff = i + offset - j;
    if (leftWindow_ >= 0 && diff > leftWindow_) v += negInf;
    if (rightWindow_ >= 0 && -diff > rightWindow_) v += negInf;
    if (p.nonpad && j >= (*p.nonpad)[static_cast<size_t>(b)]) v += negInf;
    return v;
  }

  // Softmax in place; a row with no attendable key gives zeros.
  template <class C>
  static void softmaxRow(std::vector<C>& scores, bool anyAttended) {
    const C negInf = -std::numeric_limits<C>::infinity();
    if (!anyAttended) {
      std::fill(scores.begin(), scores.end(), C(0));
      return;
    }
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

  // Output row r (= (b * qH + h) * qS + i) of Y, and of the optional QK output.
  template <class S, class C>
  void attendRow(const Problem<C>& p, int64_t r, C sq, C cap, RowScratch<C>& w, S* Y, S* QK) const {
    const C negInf = -std::numeric_limits<C>::infinity();
    const int64_t qS = p.qS, qH = p.qH, hd = p.hd, vd = p.vd, kvS = p.kvS, kvH = p.kvH;
    const int64_t i = r % qS, h = (r / qS) % qH, b = r / (qS * qH);
    const int64_t kh = h / (qH / kvH);
    const C* qrow = &p.qIn[static_cast<size_t>(p.Q.offset(b, h, i))];
    for (int64_t d = 0; d < hd; ++d) w.qs[static_cast<size_t>(d)] = qrow[d] * sq;
    bool anyAttended = false;
    for (int64_t j = 0; j < kvS; ++j) {
      const C* krow = &p.kAll[static_cast<size_t>(((b * kvH + kh) * kvS + j) * hd)];
      C dot = 0;
      for (int64_t d = 0; d < hd; ++d) dot += w.qs[static_cast<size_t>(d)] * (krow[d] * sq);
      if (softcap_ > 0) dot = cap * std::tanh(dot / cap);
      const C bj = bias(p, b, h, i, j);
      w.biasRow[static_cast<size_t>(j)] = bj;
      anyAttended = anyAttended || bj != negInf;
      if (QK && mode_ <= 1) QK[r * kvS + j] = store<S>(dot);
      w.scores[static_cast<size_t>(j)] = dot + bj;
      if (QK && mode_ == 2) QK[r * kvS + j] = store<S>(w.scores[static_cast<size_t>(j)]);
    }
    softmaxRow(w.scores, anyAttended);
    if (QK && mode_ == 3)
      for (int64_t j = 0; j < kvS; ++j)
        QK[r * kvS + j] = store<S>(w.scores[static_cast<size_t>(j)]);
    std::fill(w.acc.begin(), w.acc.end(), C(0));
    for (int64_t j = 0; j < kvS; ++j) {
      // As the reference: probabilities in the input type before P x V.
      const C pj = static_cast<C>(load(store<S>(w.scores[static_cast<size_t>(j)])));
      if (pj == 0) continue;
      const C* vrow = &p.vAll[static_cast<size_t>(((b * kvH + kh) * kvS + j) * vd)];
      for (int64_t d = 0; d < vd; ++d) w.acc[static_cast<size_t>(d)] += pj * vrow[d];
    }
    S* yrow = p.Q.threeD ? Y + ((b * qS + i) * qH + h) * vd : Y + r * vd;
    for (int64_t d = 0; d < vd; ++d) yrow[d] = store<S>(w.acc[static_cast<size_t>(d)]);
  }

  // present_key (output 1) and present_value (output 2), when wanted.
  template <class S, class C>
  static Status writePresent(KernelContext& ctx, const Problem<C>& p) {
    for (int out = 1; out <= 2; ++out) {
      if (ctx.outputCount() <= static_cast<size_t>(out) || !ctx.wantsOutput(out)) continue;
      const std::vector<C>& src = out == 1 ? p.kAll : p.vAll;
      const int64_t d = out == 1 ? p.hd : p.vd;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * t,
                               ctx.allocate(out, ctx.input(0).dtype(), Dims{p.B, p.kvH, p.kvS, d}));
      S* dst = t->mutableData<S>();
      for (size_t k = 0; k < src.size(); ++k) dst[k] = store<S>(src[k]);
    }
    return Status::ok();
  }

  template <class S, class C>
  Status runTyped(KernelContext& ctx) {
    Problem<C> p;
    PASSLAB_RETURN_IF_ERROR(readShapes(ctx, p));
    gatherKeysAndValues<S, C>(ctx, p);
    p.qIn = floats<S, C>(ctx.input(0));
    PASSLAB_RETURN_IF_ERROR((readMask<S, C>(ctx, p)));

    const double scale = scale_ ? *scale_ : 1.0 / std::sqrt(static_cast<double>(p.hd));
    const C sq = static_cast<C>(std::sqrt(scale));
    const C cap = static_cast<C>(softcap_);

    // Outputs.
    const Tensor& qt = ctx.input(0);
    Dims yDims = p.Q.threeD ? Dims{p.B, p.qS, p.qH * p.vd} : Dims{p.B, p.qH, p.qS, p.vd};
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, qt.dtype(), yDims));
    Tensor* qkOut = nullptr;
    if (ctx.outputCount() > 3 && ctx.wantsOutput(3)) {
      PASSLAB_ASSIGN_OR_RETURN(qkOut, ctx.allocate(3, qt.dtype(), Dims{p.B, p.qH, p.qS, p.kvS}));
    }
    S* Y = y->mutableData<S>();
    S* QK = qkOut ? qkOut->mutableData<S>() : nullptr;
    const int64_t rows = p.B * p.qH * p.qS;
    parallelFor(rows, ctx.threads(), 4, [&](int64_t r0, int64_t r1) {
      RowScratch<C> w{
          std::vector<C>(static_cast<size_t>(p.kvS)), std::vector<C>(static_cast<size_t>(p.kvS)),
          std::vector<C>(static_cast<size_t>(p.hd)), std::vector<C>(static_cast<size_t>(p.vd))};
      for (int64_t r = r0; r < r1; ++r) attendRow<S, C>(p, r, sq, cap, w, Y, QK);
    });
    return writePresent<S, C>(ctx, p);
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
