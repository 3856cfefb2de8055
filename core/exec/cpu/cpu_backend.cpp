#include "core/exec/cpu/cpu_backend.h"

#include <omp.h>

namespace passlab::exec::cpu {

namespace {

class CpuBackend final : public Backend {
 public:
  std::string_view name() const override { return "cpu"; }
  const KernelRegistry& kernels() const override { return kernelRegistry(); }
  int defaultThreads() const override { return omp_get_num_procs(); }
  void beginRun(int threads) override { omp_set_num_threads(threads); }
};

}  // namespace

std::unique_ptr<Backend> makeCpuBackend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace passlab::exec::cpu
