// Device code of the matmul family's separate epilogue (gemm_epilogue_launch.h):
// one thread per element of Y, computing in float.
#include "core/exec/cuda/device_math.cuh"
#include "core/exec/cuda/epilogue_act.cuh"
#include "core/exec/cuda/gemm_epilogue_launch.h"

namespace passlab::exec::cuda {

namespace {

using device::activate;
using device::blocksFor;
using device::FloatType;
using device::fromFloat;
using device::kThreads;
using device::toFloat;

struct Shape {
  int rank;
  int64_t dims[kGemmEpilogueMaxRank];
  int64_t cStrides[kGemmEpilogueMaxRank];
};

template <class T>
__global__ void gemmEpilogueKernel(T* __restrict__ y, const T* __restrict__ c,
                                   const T* __restrict__ z, int64_t n, float beta, GemmAct act,
                                   float actAlpha, float actBeta, Shape s) {
  PASSLAB_GRID_STRIDE_LOOP(i, n) {
    float v = toFloat(y[i]);
    if (c) {
      int64_t rest = i, off = 0;
      for (int d = s.rank - 1; d >= 0; --d) {
        const int64_t idx = rest % s.dims[d];
        rest /= s.dims[d];
        off += idx * s.cStrides[d];
      }
      v += beta * toFloat(c[off]);
    }
    if (z) v += toFloat(z[i]);
    y[i] = fromFloat<T>(activate(act, v, actAlpha, actBeta));
  }
}

}  // namespace

int launchGemmEpilogue(const GemmEpilogueArgs& a, cudaStream_t stream) {
  if (a.n <= 0) return 0;
  if (a.rank < 0 || a.rank > kGemmEpilogueMaxRank) return static_cast<int>(cudaErrorInvalidValue);
  Shape s{};
  s.rank = a.rank;
  for (int d = 0; d < a.rank; ++d) {
    s.dims[d] = a.dims[d] > 0 ? a.dims[d] : 1;
    s.cStrides[d] = a.cStrides[d];
  }
  device::withFloatType(static_cast<FloatType>(a.floatType), [&]<class T>() {
    gemmEpilogueKernel<T><<<blocksFor(a.n), kThreads, 0, stream>>>(
        static_cast<T*>(a.y), static_cast<const T*>(a.c), static_cast<const T*>(a.z), a.n, a.beta,
        a.act, a.actAlpha, a.actBeta, s);
  });
  return static_cast<int>(cudaGetLastError());
}

}  // namespace passlab::exec::cuda
