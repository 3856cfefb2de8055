// Device-code helpers shared by the *.cu files (no PassLab headers here):
// launch geometry for grid-stride loops, and float16 / bfloat16 read and
// written as float (kernels compute in float and round once on store).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace passlab::exec::cuda::device {

// Element types of the float kernels, as the launch functions take them (an
// int in *_launch.h; LaunchFloat in float_type.h has the same values).
enum class FloatType : int { kFloat32 = 0, kFloat16 = 1, kBFloat16 = 2 };

constexpr int kThreads = 256;

// Blocks for a grid-stride loop over n elements (capped: the loop covers the rest).
inline unsigned int blocksFor(int64_t n, int threads = kThreads) {
  int64_t b = (n + threads - 1) / threads;
  if (b < 1) b = 1;
  if (b > 65535LL * 8) b = 65535LL * 8;
  return static_cast<unsigned int>(b);
}

__device__ __forceinline__ float toFloat(float v) {
  return v;
}
__device__ __forceinline__ float toFloat(__half v) {
  return __half2float(v);
}
__device__ __forceinline__ float toFloat(__nv_bfloat16 v) {
  return __bfloat162float(v);
}

template <class T>
__device__ __forceinline__ T fromFloat(float v);
template <>
__device__ __forceinline__ float fromFloat<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ __half fromFloat<__half>(float v) {
  return __float2half_rn(v);
}
template <>
__device__ __forceinline__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

// Calls f.template operator()<T>() with T the device type of `t`.
template <class F>
void withFloatType(FloatType t, F&& f) {
  switch (t) {
    case FloatType::kFloat32:
      f.template operator()<float>();
      break;
    case FloatType::kFloat16:
      f.template operator()<__half>();
      break;
    case FloatType::kBFloat16:
      f.template operator()<__nv_bfloat16>();
      break;
  }
}

}  // namespace passlab::exec::cuda::device

#define PASSLAB_GRID_STRIDE_LOOP(i, n)                                                   \
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<int64_t>(blockDim.x) * gridDim.x)
