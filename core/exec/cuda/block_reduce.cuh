// A block-wide reduction of one float per thread (device code, no PassLab
// headers): warp shuffles, then the warps' results through shared memory.
// blockDim.x must be a multiple of 32 (at most 1024); every thread of the
// block must call it, and every thread gets the result.
#pragma once

#include <cuda_runtime.h>

namespace passlab::exec::cuda::device {

struct SumF {
  __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
};
struct MaxF {  // ignores NaN (fmaxf), as Softmax's "v > max" does
  __device__ __forceinline__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

template <class F>
__device__ __forceinline__ float blockReduce(float v, F f) {
  __shared__ float partial[32];
  for (int o = 16; o > 0; o >>= 1) v = f(v, __shfl_xor_sync(0xffffffffu, v, o));
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  __syncthreads();  // the previous call's readers are done with `partial`
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  const int warps = static_cast<int>(blockDim.x + 31) / 32;
  float r = partial[0];
  for (int w = 1; w < warps; ++w) r = f(r, partial[w]);
  return r;
}

// Threads per block for rows of `len` elements: 32..256, a multiple of 32.
inline int rowThreads(int64_t len) {
  if (len <= 32) return 32;
  if (len <= 64) return 64;
  if (len <= 128) return 128;
  return 256;
}

// Blocks for `rows` rows walked with a grid-stride loop.
inline unsigned int rowBlocks(int64_t rows) {
  const int64_t cap = int64_t{1} << 20;
  return static_cast<unsigned int>(rows < 1 ? 1 : (rows > cap ? cap : rows));
}

}  // namespace passlab::exec::cuda::device
