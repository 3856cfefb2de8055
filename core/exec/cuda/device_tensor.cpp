#include "core/exec/cuda/device_tensor.h"

#include <cuda_runtime_api.h>

#include "core/exec/cuda/cuda_check.h"

namespace passlab::exec::cuda {

Expected<std::shared_ptr<DeviceStorage>> DeviceStorage::allocate(size_t bytes,
                                                                 cudaStream_t stream) {
  void* p = nullptr;
  if (bytes > 0) {
    if (cudaError_t e = cudaMallocAsync(&p, bytes, stream); e != cudaSuccess) {
      // Returned as an error value; also cleared from the runtime's last
      // error, which the runner checks after each step (cudaGetLastError):
      // a caller that recovers (cuDNN's next algorithm when a workspace does
      // not fit) must not have its step failed by it later.
      cudaGetLastError();
      return fromCuda(e, "cudaMallocAsync");
    }
  }
  return std::shared_ptr<DeviceStorage>(
      new DeviceStorage(static_cast<std::byte*>(p), bytes, stream));
}

DeviceStorage::~DeviceStorage() {
  // Stream-ordered: the bytes return to the pool after the work queued on
  // the stream before this point (which may still read them).
  if (data_ != nullptr) cudaFreeAsync(data_, stream_);
}

DeviceTensor::DeviceTensor(ir::DataType dtype, Dims dims, std::shared_ptr<DeviceStorage> storage,
                           size_t offset)
    : dtype_(dtype),
      dims_(std::move(dims)),
      numel_(numelOf(dims_)),
      storage_(std::move(storage)),
      offset_(offset) {}

size_t DeviceTensor::byteSize() const {
  return static_cast<size_t>(ir::dtypeStorageBytes(dtype_, static_cast<uint64_t>(numel_)));
}

DeviceTensor DeviceTensor::view(Dims dims) const {
  return DeviceTensor(dtype_, std::move(dims), storage_, offset_);
}

std::string DeviceTensor::describe() const {
  return std::string(ir::dtypeName(dtype_)) + dimsToString(dims_) + " (cuda)";
}

Expected<DeviceTensor> upload(const Tensor& host, cudaStream_t stream) {
  if (host.isString()) return unsupported("string tensors cannot be placed on the GPU");
  auto storage = DeviceStorage::allocate(host.byteSize(), stream);
  if (!storage) return storage.error();
  DeviceTensor d(host.dtype(), host.dims(), std::move(storage).value());
  if (host.byteSize() > 0)
    PASSLAB_CUDA_TRY(cudaMemcpyAsync(d.mutableRaw(), host.raw(), host.byteSize(),
                                     cudaMemcpyHostToDevice, stream));
  return d;
}

Expected<Tensor> download(const DeviceTensor& device, cudaStream_t stream) {
  Tensor host = Tensor::zeros(device.dtype(), device.dims());
  if (device.byteSize() > 0) {
    PASSLAB_CUDA_TRY(cudaMemcpyAsync(host.mutableRaw(), device.raw(), device.byteSize(),
                                     cudaMemcpyDeviceToHost, stream));
    PASSLAB_CUDA_TRY(cudaStreamSynchronize(stream));
  }
  return host;
}

}  // namespace passlab::exec::cuda
