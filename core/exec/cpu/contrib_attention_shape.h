// com.microsoft Attention's attributes, the shapes of one call and its
// additive mask, shared by the reference kernel (contrib_attention.cpp) and
// the sgemm kernel (contrib_attention_gemm.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

struct MsAttentionAttrs {
  int64_t heads = 0;
  bool causal = false;
  float maskFilter = -10000.0f;
  std::vector<int64_t> qkvSizes;
  std::optional<float> scale;
};

// num_heads, unidirectional, mask_filter_value, qkv_hidden_sizes, scale
// (do_rotary is unsupported).
Expected<MsAttentionAttrs> parseMsAttention(const ir::Node& n);

// One call's sizes: X [B, S, Hin], W [Hin, Dq + Dk + Dv], N heads of hq (Q,
// K) and hv (V) values, P cached positions, T = P + S keys.
struct MsAttentionShape {
  int64_t B = 0, S = 0, Hin = 0, N = 0, Dq = 0, Dk = 0, Dv = 0, hq = 0, hv = 0, D3 = 0;
  int64_t P = 0, T = 0;
  const Tensor* past = nullptr;   // [2, B, N, P, hq]
  const Tensor* bias2 = nullptr;  // attention_bias [B or 1, N or 1, S, T]
};

// Checks the inputs against each other; an error names the one that does not fit.
Expected<MsAttentionShape> msAttentionShape(KernelContext& ctx, const MsAttentionAttrs& a);

// The additive mask, [B, S, T]: 0 where attention is allowed, mask_filter_value
// (or float's lowest for causality without a 3-D/4-D mask) elsewhere.
Expected<std::vector<float>> msAttentionMask(KernelContext& ctx, const MsAttentionAttrs& a,
                                             const MsAttentionShape& sh);

// The float32 kernel on oneDNN's sgemm (contrib_attention_gemm.cpp).
Expected<std::unique_ptr<Kernel>> makeMsAttentionGemm(const KernelBuild& b);

}  // namespace passlab::exec::cpu
