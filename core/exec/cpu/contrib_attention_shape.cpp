#include "core/exec/cpu/contrib_attention_shape.h"

#include <algorithm>
#include <limits>
#include <string>

namespace passlab::exec::cpu {

Expected<MsAttentionAttrs> parseMsAttention(const ir::Node& n) {
  MsAttentionAttrs a;
  a.heads = n.attrInt("num_heads", 0);
  if (a.heads < 1) return invalidModel("num_heads is required and must be positive");
  a.causal = n.attrInt("unidirectional", 0) != 0;
  a.maskFilter = n.attrFloat("mask_filter_value", -10000.0f);
  a.qkvSizes = n.attrInts("qkv_hidden_sizes");
  if (const ir::Attribute* s = n.attr("scale")) a.scale = s->f;
  if (n.attrInt("do_rotary", 0) != 0) return unsupported("Attention with do_rotary");
  if (!a.qkvSizes.empty() && a.qkvSizes.size() != 3)
    return invalidModel("qkv_hidden_sizes must have 3 values");
  return a;
}

Expected<MsAttentionShape> msAttentionShape(KernelContext& ctx, const MsAttentionAttrs& a) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  if (x.rank() != 3)
    return invalidArgument("input must be [batch, sequence, hidden], got " + x.describe());
  MsAttentionShape sh;
  sh.B = x.dim(0), sh.S = x.dim(1), sh.Hin = x.dim(2), sh.N = a.heads;
  if (w.rank() != 2 || w.dim(0) != sh.Hin || w.dtype() != x.dtype())
    return invalidArgument("weights " + w.describe() + " must be [" + std::to_string(sh.Hin) +
                           ", q + k + v hidden]");
  if (a.qkvSizes.empty()) {
    if (w.dim(1) % 3 != 0)
      return invalidArgument("weights " + w.describe() + " do not split into Q, K and V");
    sh.Dq = sh.Dk = sh.Dv = w.dim(1) / 3;
  } else {
    sh.Dq = a.qkvSizes[0], sh.Dk = a.qkvSizes[1], sh.Dv = a.qkvSizes[2];
  }
  if (sh.Dq + sh.Dk + sh.Dv != w.dim(1) || sh.Dq != sh.Dk || sh.Dq % sh.N != 0 || sh.Dv % sh.N != 0)
    return invalidArgument("hidden sizes " + std::to_string(sh.Dq) + "/" + std::to_string(sh.Dk) +
                           "/" + std::to_string(sh.Dv) + " do not fit weights " + w.describe() +
                           " and " + std::to_string(sh.N) + " heads");
  sh.hq = sh.Dq / sh.N, sh.hv = sh.Dv / sh.N, sh.D3 = sh.Dq + sh.Dk + sh.Dv;
  if (ctx.has(2) && (ctx.input(2).numel() != sh.D3 || ctx.input(2).dtype() != x.dtype()))
    return invalidArgument("bias " + ctx.input(2).describe() + " must hold " +
                           std::to_string(sh.D3) + " values");
  // The key/value cache: [2, B, N, P, head].
  sh.past = ctx.has(4) ? &ctx.input(4) : nullptr;
  if (const Tensor* past = sh.past) {
    if (past->rank() != 5 || past->dim(0) != 2 || past->dim(1) != sh.B || past->dim(2) != sh.N ||
        past->dim(4) != sh.hq || sh.hq != sh.hv || past->dtype() != x.dtype())
      return invalidArgument("past " + past->describe() + " must be [2, " + std::to_string(sh.B) +
                             ", " + std::to_string(sh.N) + ", past_sequence, " +
                             std::to_string(sh.hq) + "]");
    sh.P = past->dim(3);
  }
  sh.T = sh.P + sh.S;
  sh.bias2 = ctx.has(5) ? &ctx.input(5) : nullptr;
  if (const Tensor* bias2 = sh.bias2) {
    if (bias2->rank() != 4 || (bias2->dim(0) != sh.B && bias2->dim(0) != 1) ||
        (bias2->dim(1) != sh.N && bias2->dim(1) != 1) || bias2->dim(2) != sh.S ||
        bias2->dim(3) != sh.T || bias2->dtype() != x.dtype())
      return invalidArgument("attention_bias " + bias2->describe() + " must be [" +
                             std::to_string(sh.B) + ", " + std::to_string(sh.N) + ", " +
                             std::to_string(sh.S) + ", " + std::to_string(sh.T) + "]");
  }
  return sh;
}

Expected<std::vector<float>> msAttentionMask(KernelContext& ctx, const MsAttentionAttrs& a,
                                             const MsAttentionShape& sh) {
  const int64_t B = sh.B, S = sh.S, P = sh.P, T = sh.T;
  const float maskFilter = a.maskFilter;
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
          for (int64_t t = endPos; t < T; ++t) at(b, s, t) = maskFilter;
          for (int64_t t = 0; t < startPos; ++t) at(b, s, t) = maskFilter;
        }
      }
    } else if (mi.rank() == 2 && mi.dim(0) == B && mi.dim(1) == T) {
      for (int64_t b = 0; b < B; ++b)
        for (int64_t s = 0; s < S; ++s)
          for (int64_t t = 0; t < T; ++t) at(b, s, t) = d[b * T + t] > 0 ? 0.0f : maskFilter;
    } else if (mi.rank() == 3 && mi.dim(0) == B && mi.dim(1) == S && mi.dim(2) == T) {
      for (int64_t i = 0; i < B * S * T; ++i)
        m[static_cast<size_t>(i)] = d[i] > 0 ? 0.0f : maskFilter;
      causalFilter = true;
    } else if (mi.rank() == 4 && mi.dim(0) == B && mi.dim(1) == 1 && mi.dim(2) == mi.dim(3) &&
               mi.dim(2) >= T) {
      // Megatron: rows and columns index absolute positions up to a maximum length.
      const int64_t M = mi.dim(2);
      for (int64_t b = 0; b < B; ++b)
        for (int64_t s = 0; s < S; ++s)
          for (int64_t t = 0; t < T; ++t)
            at(b, s, t) = d[(b * M + P + s) * M + t] > 0 ? 0.0f : maskFilter;
      causalFilter = true;
    } else {
      return invalidArgument("mask_index " + mi.describe() + " is none of [" + std::to_string(B) +
                             "], [" + std::to_string(2 * B) + "], [" + std::to_string(B) + ", " +
                             std::to_string(T) + "], [" + std::to_string(B) + ", " +
                             std::to_string(S) + ", " + std::to_string(T) + "] or [" +
                             std::to_string(B) + ", 1, max_sequence, max_sequence]");
    }
  }
  if (a.causal)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t s = 0; s < S; ++s)
        for (int64_t t = P + s + 1; t < T; ++t) at(b, s, t) = causalFilter ? maskFilter : lowest;
  return m;
}

}  // namespace passlab::exec::cpu
