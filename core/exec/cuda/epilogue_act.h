// The activation of the fused epilogues (ai.passlab FusedConv / FusedGemm, as
// the CPU's fused::ActKind in core/exec/cpu/passlab_fused.h names them), one
// enum for the launch headers of conv.cu and gemm_epilogue.cu; the device
// formulas are in epilogue_act.cuh. No PassLab includes (nvcc compiles it).
#pragma once

namespace passlab::exec::cuda {

enum class EpilogueAct : int {
  kNone = 0,
  kRelu,
  kLeakyRelu,  // alpha
  kClip,       // [alpha, beta]
  kSigmoid,
  kTanh,
  kHardSigmoid,  // alpha, beta
  kHardSwish,
  kGelu,      // erf form
  kGeluTanh,  // tanh approximation
};

}  // namespace passlab::exec::cuda
