#include "core/exec/cuda/cuda_check.h"

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include "core/exec/cuda/cublaslt_api.h"
#include "core/exec/cuda/nvrtc_api.h"

namespace passlab::exec::cuda {

namespace {

Error make(bool outOfMemory, const char* what, const std::string& message) {
  std::string m = std::string(what) + " failed: " + message;
  return outOfMemory ? limitError(m + " (the GPU's memory is full)") : internalError(m);
}

}  // namespace

Error fromCuda(int code, const char* what) {
  auto e = static_cast<cudaError_t>(code);
  return make(e == cudaErrorMemoryAllocation, what,
              std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e));
}

Error fromCublas(int code, const char* what) {
  auto s = static_cast<cublasStatus_t>(code);
  // A status comes from a loaded cuBLASLt; its names too (the number otherwise).
  auto lt = loadCublasLt();
  const std::string m =
      lt ? std::string((*lt)->cublasLtGetStatusName(s)) + ": " + (*lt)->cublasLtGetStatusString(s)
         : "cuBLAS status " + std::to_string(code);
  return make(s == CUBLAS_STATUS_ALLOC_FAILED, what, m);
}

Error fromCudnn(int code, const char* what) {
  auto s = static_cast<cudnnStatus_t>(code);
  char detail[512] = {0};
  cudnnGetLastErrorString(detail, sizeof detail);
  std::string m = cudnnGetErrorString(s);
  if (detail[0] != '\0') m += " (" + std::string(detail) + ")";
  return make(s == CUDNN_STATUS_ALLOC_FAILED, what, m);
}

Error fromNvrtc(int code, const char* what) {
  auto r = static_cast<nvrtcResult>(code);
  auto rtc = loadNvrtc();
  const std::string m =
      rtc ? std::string((*rtc)->nvrtcGetErrorString(r)) : "NVRTC result " + std::to_string(code);
  return make(r == NVRTC_ERROR_OUT_OF_MEMORY, what, m);
}

}  // namespace passlab::exec::cuda
