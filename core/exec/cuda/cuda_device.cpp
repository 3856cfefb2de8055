#include "core/exec/cuda/cuda_device.h"

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <cstdint>
#include <cstdio>

#include "core/exec/cuda/cublaslt_api.h"
#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/nvrtc_api.h"

namespace passlab::exec::cuda {

namespace {

// Why there is no usable device, in a user's words.
Error noDevice(cudaError_t e) {
  switch (e) {
    case cudaErrorNoDevice:
      return unsupported("no CUDA device found");
    case cudaErrorInsufficientDriver:
      return unsupported("the NVIDIA driver is missing or older than this build needs (CUDA " +
                         std::to_string(CUDART_VERSION / 1000) + "." +
                         std::to_string(CUDART_VERSION % 1000 / 10) + ")");
    default:
      return unsupported(std::string("no usable CUDA device: ") + cudaGetErrorName(e) + ": " +
                         cudaGetErrorString(e));
  }
}

std::string versionText(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// What a device cannot do for want of a library (loaded here: a GPU is present).
std::string missingLibraries() {
  std::string out;
  if (auto lt = loadCublasLt(); !lt)
    out += "; MatMul and Gemm run on the CPU: " + lt.error().message();
  if (auto rtc = loadNvrtc(); !rtc)
    out += "; FusedElementwise runs on the CPU: " + rtc.error().message();
  return out;
}

std::string gib(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1u << 30));
  return buf;
}

}  // namespace

Expected<std::vector<DeviceDescription>> listCudaDevices() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clears the sticky error
    return noDevice(e);
  }
  int driver = 0;
  cudaDriverGetVersion(&driver);
  std::vector<DeviceDescription> out;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    PASSLAB_CUDA_TRY(cudaGetDeviceProperties(&p, i));
    out.push_back({"cuda", i, p.name,
                   "compute " + std::to_string(p.major) + "." + std::to_string(p.minor) + ", " +
                       std::to_string(p.multiProcessorCount) + " SMs, " + gib(p.totalGlobalMem) +
                       ", driver " + versionText(driver) + ", runtime " +
                       versionText(CUDART_VERSION) + missingLibraries()});
  }
  return out;
}

Expected<std::shared_ptr<CudaDevice>> CudaDevice::open(int index) {
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    cudaGetLastError();
    return noDevice(e);
  }
  if (index >= count)
    return invalidArgument("cuda:" + std::to_string(index) + " does not exist (" +
                           std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s") + ")");
  std::shared_ptr<CudaDevice> d(new CudaDevice());
  PASSLAB_CUDA_TRY(cudaSetDevice(index));
  cudaDeviceProp p{};
  PASSLAB_CUDA_TRY(cudaGetDeviceProperties(&p, index));
  d->props_ = {index, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem, p.name};
  PASSLAB_CUDA_TRY(cudaStreamCreateWithFlags(&d->stream_, cudaStreamNonBlocking));
  // The stream-ordered pool (cudaMallocAsync) keeps what is freed: with its
  // default release threshold of 0 it returns every free byte to the driver
  // at each synchronization (the end of every run, each download), and the
  // next run maps all its memory again.
  cudaMemPool_t pool = nullptr;
  PASSLAB_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, index));
  uint64_t keep = UINT64_MAX;
  PASSLAB_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  // cuBLASLt is loaded here, not at start (cublaslt_api.h). Without it the
  // handle stays null and the MatMul kernels decline, saying why.
  if (auto lt = loadCublasLt(); lt) PASSLAB_CUBLAS_TRY((*lt)->cublasLtCreate(&d->cublasLt_));
  // Without a working cuDNN (its engine libraries missing, say) the cuDNN
  // kernels decline and their nodes run on the CPU; the reason is kept.
  if (cudnnStatus_t s = cudnnCreate(&d->cudnn_); s != CUDNN_STATUS_SUCCESS) {
    d->cudnn_ = nullptr;
    d->cudnnProblem_ = fromCudnn(s, "cudnnCreate").message();
  } else if (s = cudnnSetStream(d->cudnn_, d->stream_); s != CUDNN_STATUS_SUCCESS) {
    return fromCudnn(s, "cudnnSetStream");
  }
  return d;
}

Status CudaDevice::makeCurrent() const {
  PASSLAB_CUDA_TRY(cudaSetDevice(props_.index));
  // A non-sticky error a previous run returned (out of memory, a failed
  // launch it reported) or ignored (cudaEventElapsedTime in a profile) stays
  // the runtime's last error until read: the runner's cudaGetLastError after
  // this run's first CUDA step would report it again. Sticky errors (an
  // illegal address) are returned by every later call all the same.
  cudaGetLastError();
  return Status::ok();
}

CudaDevice::~CudaDevice() {
  if (cudnn_) cudnnDestroy(cudnn_);
  if (cublasLt_) cublasLtApi().cublasLtDestroy(cublasLt_);
  if (stream_) {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
}

}  // namespace passlab::exec::cuda
