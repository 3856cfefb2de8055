// The GPU a CUDA backend runs on: its properties, one stream, and the
// cuBLASLt and cuDNN handles bound to that stream. Made once per backend;
// the runner and the kernel builds share it.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/exec/backend.h"
#include "core/exec/cuda/cuda_kernel.h"
#include "core/support/error.h"

namespace passlab::exec::cuda {

class CudaDevice {
 public:
  // Selects device `index`, makes the stream and the library handles; an
  // error says why not (no driver, no device, index out of range).
  static Expected<std::shared_ptr<CudaDevice>> open(int index);
  ~CudaDevice();
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;

  const DeviceProperties& properties() const { return props_; }
  cudaStream_t stream() const { return stream_; }
  cublasLtHandle_t cublasLt() const { return cublasLt_; }
  // nullptr when cuDNN could not be started; cudnnProblem() says why.
  cudnnHandle_t cudnn() const { return cudnn_; }
  const std::string& cudnnProblem() const { return cudnnProblem_; }
  // Held by a run for its whole length: the stream and handles are shared by
  // every executor on this GPU.
  std::mutex& runMutex() const { return runMutex_; }
  // Makes this device current on the calling thread (each run calls it) and
  // clears the runtime's last error left by an earlier run.
  Status makeCurrent() const;

 private:
  CudaDevice() = default;
  DeviceProperties props_;
  cudaStream_t stream_ = nullptr;
  cublasLtHandle_t cublasLt_ = nullptr;
  cudnnHandle_t cudnn_ = nullptr;
  std::string cudnnProblem_;
  mutable std::mutex runMutex_;
};

// The CUDA devices present, or an error saying why there are none.
Expected<std::vector<DeviceDescription>> listCudaDevices();

}  // namespace passlab::exec::cuda
