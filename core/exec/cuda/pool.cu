// Device code of the pooling rows (pool_cudnn.cpp): direct kernels, one
// thread per output element, computing in float. See pool_launch.h.
#include <cfloat>

#include "core/exec/cuda/device_math.cuh"
#include "core/exec/cuda/pool_launch.h"

namespace passlab::exec::cuda {

namespace {

using device::blocksFor;
using device::FloatType;
using device::fromFloat;
using device::kThreads;
using device::toFloat;

template <class T>
__global__ void poolKernel(const T* __restrict__ x, T* __restrict__ y, int64_t planes,
                           PoolWindow3 w, int mode, bool includePad) {
  const int64_t outSize = w.out[0] * w.out[1] * w.out[2];
  const int64_t inSize = w.in[0] * w.in[1] * w.in[2];
  const int64_t total = planes * outSize;
  PASSLAB_GRID_STRIDE_LOOP(i, total) {
    const int64_t plane = i / outSize;
    int64_t r = i - plane * outSize;
    const int64_t o2 = r % w.out[2];
    r /= w.out[2];
    const int64_t o1 = r % w.out[1];
    const int64_t o0 = r / w.out[1];
    const int64_t o[3] = {o0, o1, o2};
    // Per axis: the first tap position and how many taps lie in the padded input.
    int64_t start[3], padded[3];
    for (int a = 0; a < 3; ++a) {
      start[a] = o[a] * w.stride[a] - w.padBegin[a];
      int64_t n = 0;
      for (int64_t k = 0; k < w.kernel[a]; ++k) {
        const int64_t p = start[a] + k * w.dilation[a];
        if (p >= -w.padBegin[a] && p < w.in[a] + w.padEnd[a]) ++n;
      }
      padded[a] = n;
    }
    const T* xp = x + plane * inSize;
    float best = -FLT_MAX, sum = 0.0f;
    bool have = false;
    int64_t valid = 0;
    for (int64_t k0 = 0; k0 < w.kernel[0]; ++k0) {
      const int64_t p0 = start[0] + k0 * w.dilation[0];
      if (p0 < 0 || p0 >= w.in[0]) continue;
      for (int64_t k1 = 0; k1 < w.kernel[1]; ++k1) {
        const int64_t p1 = start[1] + k1 * w.dilation[1];
        if (p1 < 0 || p1 >= w.in[1]) continue;
        const T* row = xp + (p0 * w.in[1] + p1) * w.in[2];
        for (int64_t k2 = 0; k2 < w.kernel[2]; ++k2) {
          const int64_t p2 = start[2] + k2 * w.dilation[2];
          if (p2 < 0 || p2 >= w.in[2]) continue;
          const float v = toFloat(row[p2]);
          if (!have || v > best) best = v;
          have = true;
          sum += v;
          ++valid;
        }
      }
    }
    float out;
    if (mode == static_cast<int>(PoolMode::kMax)) {
      out = best;
    } else {
      const int64_t n = includePad ? padded[0] * padded[1] * padded[2] : valid;
      out = n > 0 ? sum / static_cast<float>(n) : 0.0f;
    }
    y[i] = fromFloat<T>(out);
  }
}

// One block per plane: a strided pass per thread, then a tree in shared memory.
template <class T>
__global__ void globalPoolKernel(const T* __restrict__ x, T* __restrict__ y, int64_t planes,
                                 int64_t size, int mode) {
  __shared__ float part[kThreads];
  const bool isMax = mode == static_cast<int>(PoolMode::kMax);
  for (int64_t plane = blockIdx.x; plane < planes; plane += gridDim.x) {
    const T* xp = x + plane * size;
    float acc = isMax ? -FLT_MAX : 0.0f;
    for (int64_t j = threadIdx.x; j < size; j += blockDim.x) {
      const float v = toFloat(xp[j]);
      acc = isMax ? (v > acc ? v : acc) : acc + v;
    }
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
      if (static_cast<int>(threadIdx.x) < s) {
        const float u = part[threadIdx.x], v = part[threadIdx.x + s];
        part[threadIdx.x] = isMax ? (v > u ? v : u) : u + v;
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      float r = part[0];
      if (size == 0)
        r = 0.0f;
      else if (!isMax)
        r /= static_cast<float>(size);
      y[plane] = fromFloat<T>(r);
    }
    __syncthreads();
  }
}

template <class T>
__global__ void scaleShiftKernel(const T* __restrict__ x, T* __restrict__ y, int64_t n, int64_t P,
                                 int64_t inner, const float* __restrict__ a,
                                 const float* __restrict__ b) {
  PASSLAB_GRID_STRIDE_LOOP(i, n) {
    const int64_t p = (i / inner) % P;
    y[i] = fromFloat<T>(toFloat(x[i]) * a[p] + b[p]);
  }
}

}  // namespace

int launchPool(int floatType, PoolMode mode, bool countIncludePad, const void* x, void* y,
               int64_t planes, const PoolWindow3& w, cudaStream_t stream) {
  const int64_t total = planes * w.out[0] * w.out[1] * w.out[2];
  if (total == 0) return 0;
  device::withFloatType(static_cast<FloatType>(floatType), [&]<class T>() {
    poolKernel<T><<<blocksFor(total), kThreads, 0, stream>>>(
        static_cast<const T*>(x), static_cast<T*>(y), planes, w, static_cast<int>(mode),
        countIncludePad);
  });
  return static_cast<int>(cudaGetLastError());
}

int launchGlobalPool(int floatType, PoolMode mode, const void* x, void* y, int64_t planes,
                     int64_t size, cudaStream_t stream) {
  if (planes == 0) return 0;
  const unsigned int blocks = static_cast<unsigned int>(planes < 65535 * 8 ? planes : 65535 * 8);
  device::withFloatType(static_cast<FloatType>(floatType), [&]<class T>() {
    globalPoolKernel<T><<<blocks, kThreads, 0, stream>>>(
        static_cast<const T*>(x), static_cast<T*>(y), planes, size, static_cast<int>(mode));
  });
  return static_cast<int>(cudaGetLastError());
}

int launchScaleShift(int floatType, const void* x, void* y, int64_t N, int64_t P, int64_t inner,
                     const float* a, const float* b, cudaStream_t stream) {
  const int64_t n = N * P * inner;
  if (n == 0) return 0;
  device::withFloatType(static_cast<FloatType>(floatType), [&]<class T>() {
    scaleShiftKernel<T><<<blocksFor(n), kThreads, 0, stream>>>(
        static_cast<const T*>(x), static_cast<T*>(y), n, P, inner, a, b);
  });
  return static_cast<int>(cudaGetLastError());
}

}  // namespace passlab::exec::cuda
