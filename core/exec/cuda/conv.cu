// Device code of the convolution rows (conv_cudnn.cpp): the epilogue and the
// explicit padding. See conv_launch.h.
#include "core/exec/cuda/conv_launch.h"
#include "core/exec/cuda/device_math.cuh"
#include "core/exec/cuda/epilogue_act.cuh"

namespace passlab::exec::cuda {

namespace {

using device::activate;
using device::blocksFor;
using device::FloatType;
using device::fromFloat;
using device::kThreads;
using device::toFloat;

template <class T>
__global__ void epilogueKernel(T* __restrict__ y, const T* __restrict__ bias,
                               const T* __restrict__ z, int64_t n, int64_t M, int64_t S, int act,
                               float alpha, float beta) {
  PASSLAB_GRID_STRIDE_LOOP(i, n) {
    float v = toFloat(y[i]);
    if (bias) v += toFloat(bias[(i / S) % M]);
    if (z) v += toFloat(z[i]);
    y[i] = fromFloat<T>(activate(static_cast<EpilogueAct>(act), v, alpha, beta));
  }
}

struct Extents3 {
  int64_t in[3], out[3], pb[3];
};

template <class T>
__global__ void padKernel(const T* __restrict__ x, T* __restrict__ y, int64_t planes, Extents3 e) {
  const int64_t outSize = e.out[0] * e.out[1] * e.out[2];
  const int64_t inSize = e.in[0] * e.in[1] * e.in[2];
  const int64_t total = planes * outSize;
  PASSLAB_GRID_STRIDE_LOOP(i, total) {
    const int64_t plane = i / outSize;
    int64_t r = i - plane * outSize;
    const int64_t o2 = r % e.out[2];
    r /= e.out[2];
    const int64_t o1 = r % e.out[1];
    const int64_t o0 = r / e.out[1];
    const int64_t p0 = o0 - e.pb[0], p1 = o1 - e.pb[1], p2 = o2 - e.pb[2];
    const bool inside =
        p0 >= 0 && p0 < e.in[0] && p1 >= 0 && p1 < e.in[1] && p2 >= 0 && p2 < e.in[2];
    y[i] = inside ? x[plane * inSize + (p0 * e.in[1] + p1) * e.in[2] + p2] : fromFloat<T>(0.0f);
  }
}

}  // namespace

int launchConvEpilogue(int floatType, void* y, const void* bias, const void* z, int64_t N,
                       int64_t M, int64_t S, EpilogueAct act, float alpha, float beta,
                       cudaStream_t stream) {
  const int64_t n = N * M * S;
  if (n == 0) return 0;
  device::withFloatType(static_cast<FloatType>(floatType), [&]<class T>() {
    epilogueKernel<T><<<blocksFor(n), kThreads, 0, stream>>>(
        static_cast<T*>(y), static_cast<const T*>(bias), static_cast<const T*>(z), n, M, S,
        static_cast<int>(act), alpha, beta);
  });
  return static_cast<int>(cudaGetLastError());
}

int launchPadSpatial(int floatType, const void* x, void* y, int64_t planes, const int64_t in[3],
                     const int64_t out[3], const int64_t padBegin[3], cudaStream_t stream) {
  Extents3 e;
  for (int a = 0; a < 3; ++a) {
    e.in[a] = in[a];
    e.out[a] = out[a];
    e.pb[a] = padBegin[a];
  }
  const int64_t total = planes * out[0] * out[1] * out[2];
  if (total == 0) return 0;
  device::withFloatType(static_cast<FloatType>(floatType), [&]<class T>() {
    padKernel<T><<<blocksFor(total), kThreads, 0, stream>>>(static_cast<const T*>(x),
                                                            static_cast<T*>(y), planes, e);
  });
  return static_cast<int>(cudaGetLastError());
}

}  // namespace passlab::exec::cuda
