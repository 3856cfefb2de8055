// Device code of ai.passlab FusedAttention: one block per query row (grid-
// stride over rows), the row's scores in a per-block scratch row of global
// memory, the query row in shared memory; float accumulation. Simple and
// exact rather than fast (no tensor cores, no tiling of K/V).
#include <cuda_runtime.h>

#include <cmath>

#include "core/exec/cuda/attention_launch.h"
#include "core/exec/cuda/block_reduce.cuh"
#include "core/exec/cuda/device_math.cuh"

namespace passlab::exec::cuda {

namespace {

using device::blockReduce;
using device::fromFloat;
using device::MaxF;
using device::SumF;
using device::toFloat;

template <class T>
__global__ void attentionKernel(AttentionArgs a) {
  extern __shared__ float qrow[];
  const T* Q = static_cast<const T*>(a.q);
  const T* K = static_cast<const T*>(a.k);
  const T* V = static_cast<const T*>(a.v);
  T* Y = static_cast<T*>(a.y);
  float* sc = a.scores + static_cast<int64_t>(blockIdx.x) * a.T;
  const int64_t rows = a.batches * a.S;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t bi = row / a.S, s = row % a.S;
    int64_t qo = 0, ko = 0, vo = 0, mo[3] = {0, 0, 0};
    int64_t rem = bi;
    for (int d = a.batch_rank - 1; d >= 0; --d) {
      const int64_t idx = rem % a.batch_dims[d];
      rem /= a.batch_dims[d];
      qo += idx * a.q_strides[d];
      ko += idx * a.k_strides[d];
      vo += idx * a.v_strides[d];
      for (int m = 0; m < 3; ++m) mo[m] += idx * a.mask_strides[m][d];
    }
    for (int64_t h = threadIdx.x; h < a.H; h += blockDim.x) qrow[h] = toFloat(Q[qo + s * a.H + h]);
    __syncthreads();
    const int64_t limit =
        a.causal ? min(max(s + a.T - a.S + 1, static_cast<int64_t>(0)), a.T) : a.T;
    float mx = -INFINITY;
    for (int64_t t = threadIdx.x; t < limit; t += blockDim.x) {
      float acc = 0.0f;
      if (a.k_transposed) {
        for (int64_t h = 0; h < a.H; ++h) acc += qrow[h] * toFloat(K[ko + h * a.T + t]);
      } else {
        const T* kr = K + ko + t * a.H;
        for (int64_t h = 0; h < a.H; ++h) acc += qrow[h] * toFloat(kr[h]);
      }
      float x = a.scale * acc;
      if (a.mask_mul) x *= a.mask_mul[mo[0] + s * a.mask_row_stride[0] + t * a.mask_col_stride[0]];
      auto addMask = [&](float v) {
        if (a.mask_add) {
          const float m = a.mask_add[mo[1] + s * a.mask_row_stride[1] + t * a.mask_col_stride[1]];
          v = a.subtract ? v - m : v + m;
        }
        return v;
      };
      auto boolMask = [&](float v) {
        if (a.mask_bool &&
            a.mask_bool[mo[2] + s * a.mask_row_stride[2] + t * a.mask_col_stride[2]] != a.keep)
          v = a.filter;
        return v;
      };
      x = a.add_after_bool ? addMask(boolMask(x)) : boolMask(addMask(x));
      sc[t] = x;
      mx = fmaxf(mx, x);
    }
    mx = blockReduce(mx, MaxF{});
    float sum = 0.0f;
    for (int64_t t = threadIdx.x; t < limit; t += blockDim.x) {
      const float e = expf(sc[t] - mx);
      sc[t] = e;
      sum += e;
    }
    sum = blockReduce(sum, SumF{});  // also orders the sc writes before the reads below
    const float inv = limit > 0 ? 1.0f / sum : 0.0f;
    T* yr = Y + row * a.Hv;
    for (int64_t h = threadIdx.x; h < a.Hv; h += blockDim.x) {
      float acc = 0.0f;
      for (int64_t t = 0; t < limit; ++t) acc += sc[t] * toFloat(V[vo + t * a.Hv + h]);
      yr[h] = fromFloat<T>(acc * inv);
    }
    __syncthreads();  // qrow and sc are rewritten for the next row
  }
}

}  // namespace

int64_t attentionBlocks(int64_t rows) {
  const int64_t cap = 4096;
  return rows < 1 ? 1 : (rows > cap ? cap : rows);
}

int launchAttention(int float_type, const AttentionArgs& args, cudaStream_t stream) {
  const int64_t rows = args.batches * args.S;
  if (rows == 0 || args.Hv == 0) return 0;
  const unsigned int blocks = static_cast<unsigned int>(attentionBlocks(rows));
  const int threads = 128;
  const size_t shared = static_cast<size_t>(args.H > 0 ? args.H : 1) * sizeof(float);
  device::withFloatType(static_cast<device::FloatType>(float_type), [&]<class T>() {
    attentionKernel<T><<<blocks, threads, shared, stream>>>(args);
  });
  return static_cast<int>(cudaGetLastError());
}

}  // namespace passlab::exec::cuda
