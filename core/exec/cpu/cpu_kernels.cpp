// The CPU kernel table: every family, listed once.
#include "core/exec/cpu/cpu_backend.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

const KernelRegistry& kernelRegistry() {
  static const KernelRegistry registry({
      unaryKernels(),        binaryKernels(),        clipKernels(),       matmulRefKernels(),
      matmulOneDnnKernels(), convRefKernels(),       convOneDnnKernels(), poolRefKernels(),
      poolOneDnnKernels(),   normalizationKernels(), softmaxKernels(),    shapeKernels(),
      generatorKernels(),    indexingKernels(),      transposeKernels(),  padKernels(),
      upsampleKernels(),     argMinMaxKernels(),     mlKernels(),         controlFlowKernels(),
  });
  return registry;
}

}  // namespace passlab::exec::cpu
