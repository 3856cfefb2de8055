// (no kernels yet: the nodes of this family run on the CPU)
#include "core/exec/cuda/cuda_families.h"

namespace passlab::exec::cuda {

std::span<const CudaKernelDef> reduceKernels() {
  return {};
}

}  // namespace passlab::exec::cuda
