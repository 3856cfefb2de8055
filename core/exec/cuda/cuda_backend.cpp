// The CUDA backend: registered at start-up by this object (the programs link
// passlab_cuda as objects, so it is always kept). Steps without a CUDA kernel
// use the CPU table, which is why kernels() is the CPU's.

#include <map>
#include <mutex>

#include "core/exec/cpu/cpu_backend.h"
#include "core/exec/cuda/cuda_device.h"
#include "core/exec/cuda/cuda_runner.h"
#include "core/exec/cuda/placement_plan.h"

namespace passlab::exec::cuda {

namespace {

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(std::shared_ptr<CudaDevice> device)
      : device_(std::move(device)), cpu_(cpu::makeCpuBackend()) {}
  std::string_view name() const override { return "cuda"; }
  const KernelRegistry& kernels() const override { return cpu::kernelRegistry(); }
  int defaultThreads() const override { return cpu_->defaultThreads(); }
  void beginRun(int threads) override { cpu_->beginRun(threads); }
  bool runsGraphs() const override { return true; }
  Expected<std::unique_ptr<GraphRunner>> makeRunner(const ir::Model& model,
                                                    const CompiledGraph& plan,
                                                    Compiler& compiler) override {
    return makeCudaRunner(device_, plan, compiler);
  }

 private:
  std::shared_ptr<CudaDevice> device_;
  std::unique_ptr<Backend> cpu_;  // threads of the CPU steps
};

// One CudaDevice per GPU for the process: executors share its stream and
// handles (making cuDNN's handle alone takes a while). Never destroyed: at
// exit the CUDA runtime may already be gone.
Expected<std::shared_ptr<CudaDevice>> sharedDevice(int index) {
  static std::mutex mutex;
  static auto* devices = new std::map<int, std::shared_ptr<CudaDevice>>();
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = devices->find(index); it != devices->end()) return it->second;
  auto device = CudaDevice::open(index);
  if (!device) return device.error();
  (*devices)[index] = *device;
  return device;
}

Expected<std::unique_ptr<Backend>> createCudaBackend(int index) {
  auto device = sharedDevice(index);
  if (!device) return device.error();
  return std::unique_ptr<Backend>(std::make_unique<CudaBackend>(std::move(device).value()));
}

const bool registered = [] {
  registerBackend({"cuda", createCudaBackend, listCudaDevices, planCudaPlacement});
  return true;
}();

}  // namespace

}  // namespace passlab::exec::cuda
