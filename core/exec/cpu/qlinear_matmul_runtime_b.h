// QLinearMatMul whose B is fed at run time (an attention's Q * K^T or
// attn * V after quantize_static), on oneDNN's int8 matmul; the path of the
// oneDNN QLinearMatMul kernel (qlinear_matmul_onednn.cpp) when B is not
// invariant.
#pragma once

#include <memory>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

class RuntimeBQLinearMatMul {
 public:
  RuntimeBQLinearMatMul();
  ~RuntimeBQLinearMatMul();
  // Runs ctx's QLinearMatMul on oneDNN, or `reference` where it cannot
  // match it (see the .cpp).
  Status run(KernelContext& ctx, Kernel& reference);

 private:
  struct Plan;
  std::unique_ptr<Plan> build(const KernelContext& ctx) const;
  std::unique_ptr<Plan> plan_;
};

}  // namespace passlab::exec::cpu
