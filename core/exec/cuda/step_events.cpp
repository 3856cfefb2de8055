#include "core/exec/cuda/step_events.h"

#include <cuda_runtime_api.h>

#include "core/exec/cuda/cuda_check.h"

namespace passlab::exec::cuda {

StepEvents::~StepEvents() {
  for (cudaEvent_t e : start_) cudaEventDestroy(e);
  for (cudaEvent_t e : stop_) cudaEventDestroy(e);
}

Status StepEvents::prepare(size_t steps) {
  while (start_.size() < steps) {
    cudaEvent_t a = nullptr, b = nullptr;
    PASSLAB_CUDA_TRY(cudaEventCreate(&a));
    if (cudaError_t e = cudaEventCreate(&b); e != cudaSuccess) {
      cudaEventDestroy(a);
      return fromCuda(e, "cudaEventCreate");
    }
    start_.push_back(a);
    stop_.push_back(b);
  }
  recorded_.assign(steps, false);
  return Status::ok();
}

Status StepEvents::begin(size_t step, cudaStream_t stream) {
  PASSLAB_CUDA_TRY(cudaEventRecord(start_[step], stream));
  return Status::ok();
}

Status StepEvents::end(size_t step, cudaStream_t stream) {
  PASSLAB_CUDA_TRY(cudaEventRecord(stop_[step], stream));
  recorded_[step] = true;
  return Status::ok();
}

double StepEvents::micros(size_t step) const {
  if (step >= recorded_.size() || !recorded_[step]) return 0;
  float ms = 0;
  if (cudaEventElapsedTime(&ms, start_[step], stop_[step]) != cudaSuccess) return 0;
  return static_cast<double>(ms) * 1000.0;
}

}  // namespace passlab::exec::cuda
