// Launch functions of conv.cu (no PassLab headers): the epilogue after a
// cuDNN convolution (bias, residual, activation in one pass) and the
// explicit zero padding of an input whose pads cuDNN cannot express
// (asymmetric). `floatType` is a LaunchFloat (float_type.h); each returns a
// cudaError_t as an int.
#pragma once

#include <cstdint>

#include "core/exec/cuda/epilogue_act.h"

typedef struct CUstream_st* cudaStream_t;

namespace passlab::exec::cuda {

// Y [N, M, S] = act(Y + bias[m] + Z) in place; bias (M elements) and Z (Y's
// shape) of Y's element type, either may be null.
int launchConvEpilogue(int floatType, void* y, const void* bias, const void* z, int64_t N,
                       int64_t M, int64_t S, EpilogueAct act, float alpha, float beta,
                       cudaStream_t stream);

// Y [planes, out0, out1, out2] = X [planes, in0, in1, in2] placed at offset
// padBegin on each axis, zeros around it (out = in + padBegin + padEnd).
int launchPadSpatial(int floatType, const void* x, void* y, int64_t planes, const int64_t in[3],
                     const int64_t out[3], const int64_t padBegin[3], cudaStream_t stream);

}  // namespace passlab::exec::cuda
