// Device code of the Reduce* family: one block per output element (grid-stride
// over outputs), the block's threads walking the reduced elements; float
// accumulation. Max and Min propagate NaN; ReduceLogSumExp shifts by the
// largest finite element (0 when none), as the CPU kernel does.
#include <cuda_runtime.h>

#include <cmath>

#include "core/exec/cuda/block_reduce.cuh"
#include "core/exec/cuda/device_math.cuh"
#include "core/exec/cuda/reduce_launch.h"

namespace passlab::exec::cuda {

namespace {

using device::blockReduce;
using device::fromFloat;
using device::toFloat;

struct AddF {
  __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
};
struct MulF {
  __device__ __forceinline__ float operator()(float a, float b) const { return a * b; }
};
template <bool kMax>
struct ExtremeF {  // NaN wins
  __device__ __forceinline__ float operator()(float a, float b) const {
    if (a != a) return a;
    if (b != b) return b;
    return kMax ? (b > a ? b : a) : (b < a ? b : a);
  }
};
struct FiniteMaxF {  // infinities and NaN skipped
  __device__ __forceinline__ float operator()(float a, float b) const {
    if (!isfinite(b)) return a;
    if (!isfinite(a)) return b;
    return b > a ? b : a;
  }
};

__device__ __forceinline__ int64_t baseOffset(const ReduceGeometry& g, int64_t o) {
  int64_t off = 0;
  for (int d = g.kept_rank - 1; d >= 0; --d) {
    off += (o % g.kept_dims[d]) * g.kept_strides[d];
    o /= g.kept_dims[d];
  }
  return off;
}

__device__ __forceinline__ int64_t reducedOffset(const ReduceGeometry& g, int64_t r) {
  int64_t off = 0;
  for (int d = g.reduced_rank - 1; d >= 0; --d) {
    off += (r % g.reduced_dims[d]) * g.reduced_strides[d];
    r /= g.reduced_dims[d];
  }
  return off;
}

// acc over the reduced elements of `base` of pre(x), combined by f from init:
// by the block's threads together (kSerial false; every thread gets it), or by
// one thread alone (kSerial true).
template <bool kSerial, class T, class Pre, class F>
__device__ __forceinline__ float reduceOne(const T* x, const ReduceGeometry& g, int64_t base,
                                           float init, Pre pre, F f) {
  float acc = init;
  if constexpr (kSerial) {
    for (int64_t r = 0; r < g.reduced_count; ++r)
      acc = f(acc, pre(toFloat(x[base + reducedOffset(g, r)])));
    return acc;
  } else {
    for (int64_t r = threadIdx.x; r < g.reduced_count; r += blockDim.x)
      acc = f(acc, pre(toFloat(x[base + reducedOffset(g, r)])));
    return blockReduce(acc, f);
  }
}

// kSerial: one thread per output element (few reduced elements each); else
// one block per output element.
template <class T, ReduceOp kOp, bool kSerial>
__global__ void reduceKernel(const T* __restrict__ x, T* __restrict__ y, ReduceGeometry g) {
  auto id = [](float v) { return v; };
  const int64_t first =
      kSerial ? static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x : blockIdx.x;
  const int64_t step = kSerial ? static_cast<int64_t>(gridDim.x) * blockDim.x : gridDim.x;
  for (int64_t o = first; o < g.out_count; o += step) {
    const int64_t base = baseOffset(g, o);
    float result;
    if constexpr (kOp == ReduceOp::kSum || kOp == ReduceOp::kMean || kOp == ReduceOp::kLogSum) {
      result = reduceOne<kSerial>(x, g, base, 0.0f, id, AddF{});
      if constexpr (kOp == ReduceOp::kMean) result = result / static_cast<float>(g.reduced_count);
      if constexpr (kOp == ReduceOp::kLogSum) result = logf(result);
    } else if constexpr (kOp == ReduceOp::kSumSquare || kOp == ReduceOp::kL2) {
      result = reduceOne<kSerial>(
          x, g, base, 0.0f, [](float v) { return v * v; }, AddF{});
      if constexpr (kOp == ReduceOp::kL2) result = sqrtf(result);
    } else if constexpr (kOp == ReduceOp::kL1) {
      result = reduceOne<kSerial>(
          x, g, base, 0.0f, [](float v) { return fabsf(v); }, AddF{});
    } else if constexpr (kOp == ReduceOp::kProd) {
      result = reduceOne<kSerial>(x, g, base, 1.0f, id, MulF{});
    } else if constexpr (kOp == ReduceOp::kMax) {
      result = reduceOne<kSerial>(x, g, base, -INFINITY, id, ExtremeF<true>{});
    } else if constexpr (kOp == ReduceOp::kMin) {
      result = reduceOne<kSerial>(x, g, base, INFINITY, id, ExtremeF<false>{});
    } else {  // kLogSumExp
      float shift = reduceOne<kSerial>(x, g, base, -INFINITY, id, FiniteMaxF{});
      if (!isfinite(shift)) shift = 0.0f;
      const float s = reduceOne<kSerial>(
          x, g, base, 0.0f, [shift](float v) { return expf(v - shift); }, AddF{});
      result = logf(s) + shift;
    }
    if (kSerial || threadIdx.x == 0) y[o] = fromFloat<T>(result);
  }
}

// Up to this many reduced elements per output: one thread per output.
constexpr int64_t kSerialReduce = 16;

template <class T, ReduceOp kOp>
void launchOne(const void* x, void* y, const ReduceGeometry& g, cudaStream_t stream) {
  if (g.reduced_count <= kSerialReduce) {
    reduceKernel<T, kOp, true><<<device::blocksFor(g.out_count), device::kThreads, 0, stream>>>(
        static_cast<const T*>(x), static_cast<T*>(y), g);
    return;
  }
  const int threads = device::rowThreads(g.reduced_count);
  const unsigned int blocks = device::rowBlocks(g.out_count);
  reduceKernel<T, kOp, false>
      <<<blocks, threads, 0, stream>>>(static_cast<const T*>(x), static_cast<T*>(y), g);
}

template <class T, bool kMax>
__global__ void argKernel(const T* __restrict__ x, int64_t* __restrict__ y, int64_t rows,
                          int64_t len, int64_t inner, bool last) {
  PASSLAB_GRID_STRIDE_LOOP(r, rows) {
    const T* p = x + (r / inner) * len * inner + r % inner;
    float best = toFloat(p[0]);
    int64_t at = 0;
    for (int64_t i = 1; i < len; ++i) {
      const float v = toFloat(p[i * inner]);
      const bool better = kMax ? (last ? v >= best : v > best) : (last ? v <= best : v < best);
      if (better) {
        best = v;
        at = i;
      }
    }
    y[r] = at;
  }
}

}  // namespace

int launchArgMinMax(int float_type, bool is_max, bool select_last, const void* x, int64_t* y,
                    int64_t outer, int64_t len, int64_t inner, cudaStream_t stream) {
  const int64_t rows = outer * inner;
  if (rows == 0 || len == 0) return 0;
  const unsigned int blocks = device::blocksFor(rows);
  device::withFloatType(static_cast<device::FloatType>(float_type), [&]<class T>() {
    if (is_max)
      argKernel<T, true><<<blocks, device::kThreads, 0, stream>>>(static_cast<const T*>(x), y, rows,
                                                                  len, inner, select_last);
    else
      argKernel<T, false><<<blocks, device::kThreads, 0, stream>>>(static_cast<const T*>(x), y,
                                                                   rows, len, inner, select_last);
  });
  return static_cast<int>(cudaGetLastError());
}

int launchReduce(int float_type, ReduceOp op, const void* x, void* y, const ReduceGeometry& g,
                 cudaStream_t stream) {
  if (g.out_count == 0) return 0;
  device::withFloatType(static_cast<device::FloatType>(float_type), [&]<class T>() {
    switch (op) {
      case ReduceOp::kSum:
        launchOne<T, ReduceOp::kSum>(x, y, g, stream);
        break;
      case ReduceOp::kMean:
        launchOne<T, ReduceOp::kMean>(x, y, g, stream);
        break;
      case ReduceOp::kMax:
        launchOne<T, ReduceOp::kMax>(x, y, g, stream);
        break;
      case ReduceOp::kMin:
        launchOne<T, ReduceOp::kMin>(x, y, g, stream);
        break;
      case ReduceOp::kProd:
        launchOne<T, ReduceOp::kProd>(x, y, g, stream);
        break;
      case ReduceOp::kL1:
        launchOne<T, ReduceOp::kL1>(x, y, g, stream);
        break;
      case ReduceOp::kL2:
        launchOne<T, ReduceOp::kL2>(x, y, g, stream);
        break;
      case ReduceOp::kLogSum:
        launchOne<T, ReduceOp::kLogSum>(x, y, g, stream);
        break;
      case ReduceOp::kLogSumExp:
        launchOne<T, ReduceOp::kLogSumExp>(x, y, g, stream);
        break;
      case ReduceOp::kSumSquare:
        launchOne<T, ReduceOp::kSumSquare>(x, y, g, stream);
        break;
    }
  });
  return static_cast<int>(cudaGetLastError());
}

}  // namespace passlab::exec::cuda
