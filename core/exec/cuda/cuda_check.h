// CUDA, cuBLASLt, cuDNN and NVRTC status codes as PassLab errors: the call
// that failed and the library's own message.
#pragma once

#include <string>

#include "core/support/error.h"

namespace passlab::exec::cuda {

// A nonzero `code` of a call as an error "what failed: the library's message"
// (kLimit for out-of-memory codes, kInternal otherwise).
Error fromCuda(int code, const char* what);
Error fromCublas(int code, const char* what);
Error fromCudnn(int code, const char* what);
Error fromNvrtc(int code, const char* what);

}  // namespace passlab::exec::cuda

// Returns from the enclosing function (Status or Expected) when a call fails:
//   PASSLAB_CUDA_TRY(cudaMemcpyAsync(...));
#define PASSLAB_CUDA_TRY(call)                                                    \
  do {                                                                            \
    if (int passlab_cuda_code_ = static_cast<int>(call); passlab_cuda_code_ != 0) \
      return ::passlab::exec::cuda::fromCuda(passlab_cuda_code_, #call);          \
  } while (0)
#define PASSLAB_CUBLAS_TRY(call)                                                  \
  do {                                                                            \
    if (int passlab_cuda_code_ = static_cast<int>(call); passlab_cuda_code_ != 0) \
      return ::passlab::exec::cuda::fromCublas(passlab_cuda_code_, #call);        \
  } while (0)
#define PASSLAB_CUDNN_TRY(call)                                                   \
  do {                                                                            \
    if (int passlab_cuda_code_ = static_cast<int>(call); passlab_cuda_code_ != 0) \
      return ::passlab::exec::cuda::fromCudnn(passlab_cuda_code_, #call);         \
  } while (0)
#define PASSLAB_NVRTC_TRY(call)                                                   \
  do {                                                                            \
    if (int passlab_cuda_code_ = static_cast<int>(call); passlab_cuda_code_ != 0) \
      return ::passlab::exec::cuda::fromNvrtc(passlab_cuda_code_, #call);         \
  } while (0)
