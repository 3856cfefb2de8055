// The CPU backend: kernels of core/exec/cpu, OpenMP threads (the runtime
// oneDNN uses, so there is one thread pool in the process).
#pragma once

#include <memory>

#include "core/exec/backend.h"

namespace passlab::exec::cpu {

// The CPU kernel table (every family listed in cpu_kernels.cpp).
const KernelRegistry& kernelRegistry();
std::unique_ptr<Backend> makeCpuBackend();

}  // namespace passlab::exec::cpu
