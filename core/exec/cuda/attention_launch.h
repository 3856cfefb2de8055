// Launch function of attention.cu: ai.passlab FusedAttention, one block per
// query row. Plain types only (no PassLab headers).
#pragma once

#include <cstdint>

typedef struct CUstream_st* cudaStream_t;

namespace passlab::exec::cuda {

inline constexpr int kMaxAttentionBatchRank = 6;

// Y[b, s, :] = softmax_t(mask(scale * Q[b, s, :] . K[b, t, :])) V[b, t, :].
// Batch entries b (row-major over batch_dims) reach Q, K, V and the masks
// through per-dim strides (0 where broadcast); a mask's element for (b, s, t)
// is at its batch offset + s * mask_row_stride + t * mask_col_stride.
struct AttentionArgs {
  const void* q = nullptr;  // [.., S, H]       (element type: float_type)
  const void* k = nullptr;  // [.., T, H], or [.., H, T] when k_transposed
  const void* v = nullptr;  // [.., T, Hv]
  void* y = nullptr;        // [batch..., S, Hv], contiguous
  float* scores = nullptr;  // scratch: score_rows * T floats
  int64_t score_rows = 0;   // rows of scratch (= the blocks launched)
  const float* mask_mul = nullptr;
  const float* mask_add = nullptr;
  const bool* mask_bool = nullptr;
  int batch_rank = 0;
  int64_t batch_dims[kMaxAttentionBatchRank] = {};
  int64_t q_strides[kMaxAttentionBatchRank] = {};
  int64_t k_strides[kMaxAttentionBatchRank] = {};
  int64_t v_strides[kMaxAttentionBatchRank] = {};
  int64_t mask_strides[3][kMaxAttentionBatchRank] = {};
  int64_t mask_row_stride[3] = {};
  int64_t mask_col_stride[3] = {};
  int64_t batches = 1, S = 0, T = 0, H = 0, Hv = 0;
  float scale = 1.0f;
  float filter = -10000.0f;
  bool keep = true, subtract = false, causal = false, add_after_bool = false, k_transposed = false;
};

// Returns the CUDA status of the launch (0 = success). float_type as in
// normalization_launch.h. Needs H floats of shared memory per block.
int launchAttention(int float_type, const AttentionArgs& args, cudaStream_t stream);

// The blocks (and so scratch rows) launchAttention uses for `rows` query rows.
int64_t attentionBlocks(int64_t rows);

}  // namespace passlab::exec::cuda
