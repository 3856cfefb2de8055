// Device code of the normalization family: softmax rows (Softmax, LogSoftmax,
// ai.passlab FusedSoftmax) and row normalizations (LayerNormalization,
// FusedLayerNorm, SkipLayerNormalization, InstanceNormalization). One block
// per row (grid-stride over rows), float accumulation, block reductions.
#include <cuda_runtime.h>

#include <cmath>

#include "core/exec/cuda/block_reduce.cuh"
#include "core/exec/cuda/device_math.cuh"
#include "core/exec/cuda/normalization_launch.h"

namespace passlab::exec::cuda {

namespace {

using device::blockReduce;
using device::fromFloat;
using device::MaxF;
using device::SumF;
using device::toFloat;

template <class T, bool kLog>
__global__ void softmaxKernel(const T* __restrict__ x, T* __restrict__ y, int64_t rows, int64_t len,
                              int64_t inner) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const int64_t base = (r / inner) * len * inner + r % inner;
    float mx = -INFINITY;
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x)
      mx = fmaxf(mx, toFloat(x[base + i * inner]));
    mx = blockReduce(mx, MaxF{});
    float sum = 0.0f;
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x)
      sum += expf(toFloat(x[base + i * inner]) - mx);
    sum = blockReduce(sum, SumF{});
    if constexpr (kLog) {
      const float logSum = logf(sum) + mx;
      for (int64_t i = threadIdx.x; i < len; i += blockDim.x)
        y[base + i * inner] = fromFloat<T>(toFloat(x[base + i * inner]) - logSum);
    } else {
      const float inv = 1.0f / sum;
      for (int64_t i = threadIdx.x; i < len; i += blockDim.x)
        y[base + i * inner] = fromFloat<T>(expf(toFloat(x[base + i * inner]) - mx) * inv);
    }
  }
}

template <class T>
__global__ void hardmaxKernel(const T* __restrict__ x, T* __restrict__ y, int64_t rows, int64_t len,
                              int64_t inner) {
  PASSLAB_GRID_STRIDE_LOOP(r, rows) {
    const int64_t base = (r / inner) * len * inner + r % inner;
    float mx = -INFINITY;
    int64_t arg = 0;
    for (int64_t i = 0; i < len; ++i) {
      const float v = toFloat(x[base + i * inner]);
      if (v > mx) {
        mx = v;
        arg = i;
      }
    }
    for (int64_t i = 0; i < len; ++i) y[base + i * inner] = fromFloat<T>(i == arg ? 1.0f : 0.0f);
  }
}

template <class T, bool kTanh>
__global__ void contribGeluKernel(const T* __restrict__ x, const T* __restrict__ bias, int64_t nb,
                                  T* __restrict__ y, int64_t n) {
  PASSLAB_GRID_STRIDE_LOOP(i, n) {
    float v = toFloat(x[i]);
    if (bias) v += toFloat(bias[i % nb]);
    float r;
    if constexpr (kTanh)
      r = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
    else
      r = 0.5f * v * (1.0f + erff(v * 0.70710678118654752440f));
    y[i] = fromFloat<T>(r);
  }
}

template <class T>
__global__ void fusedSoftmaxKernel(FusedSoftmaxArgs a) {
  const T* x = static_cast<const T*>(a.x);
  const T* m = static_cast<const T*>(a.mask);
  T* y = static_cast<T*>(a.y);
  const int64_t len = a.len;
  const int64_t lastStride = a.rank > 0 ? a.mask_strides[a.rank - 1] : 0;
  for (int64_t r = blockIdx.x; r < a.rows; r += gridDim.x) {
    int64_t moff = 0;
    if (m) {
      int64_t rem = r;
      for (int d = a.rank - 2; d >= 0; --d) {
        moff += (rem % a.dims[d]) * a.mask_strides[d];
        rem /= a.dims[d];
      }
    }
    const T* xr = x + r * len;
    T* yr = y + r * len;
    auto val = [&](int64_t i) -> float {
      float v = a.scale * toFloat(xr[i]);
      if (m) v += a.sign * toFloat(m[moff + i * lastStride]);
      return v;
    };
    float mx = -INFINITY;
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x) mx = fmaxf(mx, val(i));
    mx = blockReduce(mx, MaxF{});
    float sum = 0.0f;
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x) sum += expf(val(i) - mx);
    sum = blockReduce(sum, SumF{});
    const float inv = 1.0f / sum;
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x)
      yr[i] = fromFloat<T>(expf(val(i) - mx) * inv);
  }
}

template <class T>
__global__ void rowNormKernel(RowNormArgs a) {
  const T* x = static_cast<const T*>(a.x);
  const T* skip = static_cast<const T*>(a.skip);
  const T* addBias = static_cast<const T*>(a.add_bias);
  const T* scale = static_cast<const T*>(a.scale);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.y);
  T* sumOut = static_cast<T*>(a.sum);
  const int64_t cols = a.cols;
  const float invCols = 1.0f / static_cast<float>(cols);
  for (int64_t r = blockIdx.x; r < a.rows; r += gridDim.x) {
    const int64_t rowBase = r * cols;
    auto val = [&](int64_t c) -> float {
      const int64_t i = rowBase + c;
      float v = toFloat(x[i]);
      if (skip) v += toFloat(skip[i % a.skip_count]);
      if (addBias) v += toFloat(addBias[c]);
      return v;
    };
    float mean = 0.0f;
    if (!a.rms) {
      float s = 0.0f;
      for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += val(c);
      mean = blockReduce(s, SumF{}) * invCols;
    }
    float sq = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      const float d = val(c) - mean;
      sq += d * d;
    }
    const float var = blockReduce(sq, SumF{}) * invCols;
    const float inv = 1.0f / sqrtf(var + a.epsilon);
    if (threadIdx.x == 0) {
      if (a.mean_out) a.mean_out[r] = mean;
      if (a.inv_std_out) a.inv_std_out[r] = inv;
    }
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      const float v = val(c);
      if (sumOut) sumOut[rowBase + c] = fromFloat<T>(v);
      const int64_t si = a.channels > 0 ? r % a.channels : c % a.scale_count;
      float o = (v - mean) * inv * toFloat(scale[si]);
      if (bias) o += toFloat(bias[a.channels > 0 ? r % a.channels : c % a.bias_count]);
      y[rowBase + c] = fromFloat<T>(o);
    }
  }
}

}  // namespace

int launchSoftmax(int float_type, bool log_softmax, const void* x, void* y, int64_t outer,
                  int64_t len, int64_t inner, cudaStream_t stream) {
  const int64_t rows = outer * inner;
  if (rows == 0 || len == 0) return 0;
  const int threads = device::rowThreads(len);
  const unsigned int blocks = device::rowBlocks(rows);
  device::withFloatType(static_cast<device::FloatType>(float_type), [&]<class T>() {
    if (log_softmax)
      softmaxKernel<T, true><<<blocks, threads, 0, stream>>>(static_cast<const T*>(x),
                                                             static_cast<T*>(y), rows, len, inner);
    else
      softmaxKernel<T, false><<<blocks, threads, 0, stream>>>(static_cast<const T*>(x),
                                                              static_cast<T*>(y), rows, len, inner);
  });
  return static_cast<int>(cudaGetLastError());
}

int launchHardmax(int float_type, const void* x, void* y, int64_t outer, int64_t len, int64_t inner,
                  cudaStream_t stream) {
  const int64_t rows = outer * inner;
  if (rows == 0 || len == 0) return 0;
  device::withFloatType(static_cast<device::FloatType>(float_type), [&]<class T>() {
    hardmaxKernel<T><<<device::blocksFor(rows), device::kThreads, 0, stream>>>(
        static_cast<const T*>(x), static_cast<T*>(y), rows, len, inner);
  });
  return static_cast<int>(cudaGetLastError());
}

int launchContribGelu(int float_type, bool tanh_form, const void* x, const void* bias,
                      int64_t bias_count, void* y, int64_t n, cudaStream_t stream) {
  if (n == 0) return 0;
  const unsigned int blocks = device::blocksFor(n);
  device::withFloatType(static_cast<device::FloatType>(float_type), [&]<class T>() {
    if (tanh_form)
      contribGeluKernel<T, true><<<blocks, device::kThreads, 0, stream>>>(
          static_cast<const T*>(x), static_cast<const T*>(bias), bias_count, static_cast<T*>(y), n);
    else
      contribGeluKernel<T, false><<<blocks, device::kThreads, 0, stream>>>(
          static_cast<const T*>(x), static_cast<const T*>(bias), bias_count, static_cast<T*>(y), n);
  });
  return static_cast<int>(cudaGetLastError());
}

int launchFusedSoftmax(int float_type, const FusedSoftmaxArgs& args, cudaStream_t stream) {
  if (args.rows == 0 || args.len == 0) return 0;
  const int threads = device::rowThreads(args.len);
  const unsigned int blocks = device::rowBlocks(args.rows);
  device::withFloatType(static_cast<device::FloatType>(float_type), [&]<class T>() {
    fusedSoftmaxKernel<T><<<blocks, threads, 0, stream>>>(args);
  });
  return static_cast<int>(cudaGetLastError());
}

int launchRowNorm(int float_type, const RowNormArgs& args, cudaStream_t stream) {
  if (args.rows == 0 || args.cols == 0) return 0;
  const int threads = device::rowThreads(args.cols);
  const unsigned int blocks = device::rowBlocks(args.rows);
  device::withFloatType(static_cast<device::FloatType>(float_type),
                        [&]<class T>() { rowNormKernel<T><<<blocks, threads, 0, stream>>>(args); });
  return static_cast<int>(cudaGetLastError());
}

}  // namespace passlab::exec::cuda
