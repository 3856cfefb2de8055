// Launch functions of pool.cu (no PassLab headers): the direct pooling
// kernels (MaxPool, AveragePool on up to 3 spatial axes, the Global pools)
// and BatchNormalization's per-channel scale and shift. `floatType` is a
// LaunchFloat (float_type.h); each returns a cudaError_t as an int.
#pragma once

#include <cstdint>

typedef struct CUstream_st* cudaStream_t;

namespace passlab::exec::cuda {

// One pooling window on 3 spatial axes (lower ranks are padded in front with
// axes of extent 1): tap k of output position o on axis a reads input
// position o * stride - padBegin + k * dilation.
struct PoolWindow3 {
  int64_t in[3], out[3], kernel[3], stride[3], dilation[3], padBegin[3], padEnd[3];
};

enum class PoolMode : int { kMax = 0, kAverage = 1 };

// X [planes, in...] -> Y [planes, out...]. MaxPool: the largest tap inside
// the input (the lowest float when none is); AveragePool: the mean of the
// taps inside the input, or their sum over the taps inside the padded input
// with countIncludePad.
int launchPool(int floatType, PoolMode mode, bool countIncludePad, const void* x, void* y,
               int64_t planes, const PoolWindow3& w, cudaStream_t stream);

// Y[p] = mean (or max) of X[p, 0..size) for each of `planes` planes; 0 for an
// empty plane.
int launchGlobalPool(int floatType, PoolMode mode, const void* x, void* y, int64_t planes,
                     int64_t size, cudaStream_t stream);

// Y[n, p, i] = X[n, p, i] * a[p] + b[p], X viewed as [N, P, inner]; a and b
// float32 on the device.
int launchScaleShift(int floatType, const void* x, void* y, int64_t N, int64_t P, int64_t inner,
                     const float* a, const float* b, cudaStream_t stream);

}  // namespace passlab::exec::cuda
