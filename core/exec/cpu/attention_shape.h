// ai.passlab FusedAttention's shapes, one contract for the CPU kernel
// (passlab_fused_attention.cpp) and the CUDA plan (core/exec/cuda/
// norm_reduce_plan.cpp): Q [..., S, H], K [..., T, H] (or [..., H, T]
// transposed), V [..., T, Hv] padded to one rank, batch dims broadcast.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

struct AttentionShape {
  size_t rank = 0;  // R: the largest of the three ranks
  Dims qd, kd, vd;  // padded to R with leading 1s
  int64_t S = 0, H = 0, T = 0, Hv = 0;
  Dims batch;  // the broadcast leading R - 2 dims
};

// Q, K, V of rank >= 2 (checked by the caller). `chainText` and `batchText`
// name the three inputs in the errors ("FusedAttention: <chainText> do not
// chain", "FusedAttention: batch dims of <batchText> do not broadcast").
Expected<AttentionShape> attentionShape(const Dims& q, const Dims& k, const Dims& v,
                                        bool kTransposed,
                                        const std::function<std::string()>& chainText,
                                        const std::function<std::string()>& batchText);

// `d` with leading 1s up to `rank` dims.
Dims padDims(const Dims& d, size_t rank);

}  // namespace passlab::exec::cpu
