// Launch functions of normalization.cu (softmax rows, row normalizations):
// plain pointers and int64 sizes, no PassLab headers. Each returns the CUDA
// status of its launch (0 = cudaSuccess). float_type: device::FloatType /
// LaunchFloat (0 float32, 1 float16, 2 bfloat16); values are computed in float.
#pragma once

#include <cstdint>

typedef struct CUstream_st* cudaStream_t;

namespace passlab::exec::cuda {

inline constexpr int kMaxLaunchRank = 8;

// Softmax (log_softmax = false) or LogSoftmax over `len` elements of each of
// outer * inner rows: element i of row r is at
// (r / inner) * len * inner + r % inner + i * inner.
int launchSoftmax(int float_type, bool log_softmax, const void* x, void* y, int64_t outer,
                  int64_t len, int64_t inner, cudaStream_t stream);

// Hardmax: 1 at the first largest element of each row (rows as launchSoftmax;
// compared as the CPU does: "v > max" from -inf, so NaN is never chosen and a
// row of NaN / -inf gets index 0), 0 elsewhere. One thread per row.
int launchHardmax(int float_type, const void* x, void* y, int64_t outer, int64_t len, int64_t inner,
                  cudaStream_t stream);

// com.microsoft Gelu / BiasGelu (erf form) and FastGelu (tanh form, tanh_form
// true): y[i] = gelu(x[i] (+ bias[i % bias_count] when bias)) over n elements.
int launchContribGelu(int float_type, bool tanh_form, const void* x, const void* bias,
                      int64_t bias_count, void* y, int64_t n, cudaStream_t stream);

// ai.passlab FusedSoftmax: y = softmax(scale * x + sign * mask) over the last
// dim (`len`) of each of `rows` rows. The mask (same element type as x, or
// nullptr) is read at offset sum_d index_d * mask_strides[d] over x's dims
// (strides 0 where it broadcasts).
struct FusedSoftmaxArgs {
  const void* x = nullptr;
  const void* mask = nullptr;
  void* y = nullptr;
  int rank = 0;
  int64_t dims[kMaxLaunchRank] = {};
  int64_t mask_strides[kMaxLaunchRank] = {};
  int64_t rows = 0, len = 0;
  float scale = 1.0f, sign = 1.0f;
};
int launchFusedSoftmax(int float_type, const FusedSoftmaxArgs& args, cudaStream_t stream);

// Row normalization over `cols` contiguous elements of each of `rows` rows:
//   v = x [+ skip[i % skip_count]] [+ add_bias[col]]   (sum, when given, gets v)
//   y = (v - mean) * inv_std * scale + bias  (mean = 0 when rms)
// with inv_std = 1 / sqrt(var + epsilon). Parameters (element type of x) are
// read at col % scale_count (bias_count), or at row % channels when channels > 0
// (InstanceNormalization). mean_out / inv_std_out (float, one per row) when given.
struct RowNormArgs {
  const void* x = nullptr;
  const void* skip = nullptr;
  int64_t skip_count = 0;
  const void* add_bias = nullptr;
  const void* scale = nullptr;
  int64_t scale_count = 0;
  const void* bias = nullptr;
  int64_t bias_count = 0;
  int64_t channels = 0;
  void* y = nullptr;
  void* sum = nullptr;
  float* mean_out = nullptr;
  float* inv_std_out = nullptr;
  int64_t rows = 0, cols = 0;
  float epsilon = 1e-5f;
  bool rms = false;
};
int launchRowNorm(int float_type, const RowNormArgs& args, cudaStream_t stream);

}  // namespace passlab::exec::cuda
