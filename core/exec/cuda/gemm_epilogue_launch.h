// Launch function of gemm_epilogue.cu (no PassLab headers): what a cuBLASLt
// product leaves for a separate pass over Y when no cuBLASLt epilogue does it
// (an addend broadcast otherwise than as a row vector, an activation
// cuBLASLt lacks, PASSLAB_CUDA_GEMM_EPILOGUE=off, K = 0).
#pragma once

#include <cstdint>

#include "core/exec/cuda/epilogue_act.h"

typedef struct CUstream_st* cudaStream_t;

namespace passlab::exec::cuda {

// The activation, as ai.passlab's `activation` names it: the fused epilogues' one enum.
using GemmAct = EpilogueAct;

inline constexpr int kGemmEpilogueMaxRank = 8;

// y[i] = act(y[i] + beta * c[C's offset for i] + z[i]) over Y's `n` elements
// (Y row-major of dims `dims[0..rank)`). c (may be null) is read through
// `cStrides` (element strides per Y dim, 0 where C is broadcast); z (may be
// null) has Y's dims. `floatType` is a LaunchFloat (float_type.h). Returns a
// cudaError_t as an int.
struct GemmEpilogueArgs {
  int floatType = 0;
  void* y = nullptr;
  const void* c = nullptr;
  const void* z = nullptr;
  int64_t n = 0;
  float beta = 1.0f;
  GemmAct act = GemmAct::kNone;
  float actAlpha = 0.0f, actBeta = 0.0f;
  int rank = 0;
  int64_t dims[kGemmEpilogueMaxRank] = {};
  int64_t cStrides[kGemmEpilogueMaxRank] = {};
};
int launchGemmEpilogue(const GemmEpilogueArgs& args, cudaStream_t stream);

}  // namespace passlab::exec::cuda
