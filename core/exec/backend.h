// A backend: where kernels run. The CPU backend is always there; a CUDA
// backend (core/exec/cuda/, built only when CUDA is found) plugs in here with
// its own kernel table and memory.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/exec/kernel_registry.h"
#include "core/support/error.h"

namespace passlab::exec {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  virtual const KernelRegistry& kernels() const = 0;
  // Threads a run uses when RunOptions::threads is 0.
  virtual int defaultThreads() const = 0;
  // Called on the running thread before each run.
  virtual void beginRun(int threads) = 0;
};

// "cpu" (and "cuda" where built).
Expected<std::unique_ptr<Backend>> makeBackend(std::string_view name);
std::vector<std::string> availableBackends();

}  // namespace passlab::exec
