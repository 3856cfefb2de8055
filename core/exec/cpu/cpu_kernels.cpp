// The CPU kernel table: every family, listed once.
#include "core/exec/cpu/cpu_backend.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

const KernelRegistry& kernelRegistry() {
  static const KernelRegistry registry({
      unaryKernels(),
      binaryKernels(),
      matmulRefKernels(),
  });
  return registry;
}

}  // namespace passlab::exec::cpu
