// Device code: the epilogue activations in float, the CPU epilogue's formulas
// (core/exec/cpu/passlab_fused_kernels.cpp); used by conv.cu and
// gemm_epilogue.cu.
#pragma once

#include "core/exec/cuda/epilogue_act.h"

namespace passlab::exec::cuda::device {

__device__ __forceinline__ float activate(EpilogueAct act, float x, float alpha, float beta) {
  switch (act) {
    case EpilogueAct::kNone:
      return x;
    case EpilogueAct::kRelu:
      return x > 0.0f ? x : 0.0f;
    case EpilogueAct::kLeakyRelu:
      return x < 0.0f ? alpha * x : x;
    case EpilogueAct::kClip:
      return x < alpha ? alpha : (x > beta ? beta : x);
    case EpilogueAct::kSigmoid:
      return x >= 0.0f ? 1.0f / (1.0f + expf(-x)) : expf(x) / (1.0f + expf(x));
    case EpilogueAct::kTanh:
      return tanhf(x);
    case EpilogueAct::kHardSigmoid: {
      const float v = alpha * x + beta;
      return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
    }
    case EpilogueAct::kHardSwish: {
      float v = x / 6.0f + 0.5f;
      v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
      return x * v;
    }
    case EpilogueAct::kGelu:
      return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
    case EpilogueAct::kGeluTanh: {
      const float k = 0.79788456080286536f;  // sqrt(2 / pi)
      return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
    }
  }
  return x;
}

}  // namespace passlab::exec::cuda::device
