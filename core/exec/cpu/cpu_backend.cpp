#include "core/exec/cpu/cpu_backend.h"

#include <omp.h>

#include <algorithm>

#include "core/exec/thread_limit.h"

namespace passlab::exec::cpu {

namespace {

class CpuBackend final : public Backend {
 public:
  std::string_view name() const override { return "cpu"; }
  const KernelRegistry& kernels() const override { return kernelRegistry(); }
  // Every core, or the calling thread's cap (core/exec/thread_limit.h).
  int defaultThreads() const override {
    const int cores = omp_get_num_procs();
    return threadLimit() > 0 ? std::min(cores, threadLimit()) : cores;
  }
  void beginRun(int threads) override { omp_set_num_threads(threads); }
};

}  // namespace

std::unique_ptr<Backend> makeCpuBackend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace passlab::exec::cpu
