// Tensors in GPU memory. Storage comes from the stream-ordered pool of the
// backend's stream (cudaMallocAsync): freeing a tensor returns its bytes to
// the pool after the work queued before it, so values released after their
// last use are reused by later steps without a device synchronization.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/exec/tensor.h"
#include "core/support/error.h"

typedef struct CUstream_st* cudaStream_t;

namespace passlab::exec::cuda {

// Device bytes, freed on the stream they were allocated on.
class DeviceStorage {
 public:
  static Expected<std::shared_ptr<DeviceStorage>> allocate(size_t bytes, cudaStream_t stream);
  ~DeviceStorage();
  DeviceStorage(const DeviceStorage&) = delete;
  DeviceStorage& operator=(const DeviceStorage&) = delete;

  std::byte* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  DeviceStorage(std::byte* data, size_t size, cudaStream_t stream)
      : data_(data), size_(size), stream_(stream) {}
  std::byte* data_;
  size_t size_;
  cudaStream_t stream_;
};

class DeviceTensor {
 public:
  DeviceTensor() = default;
  DeviceTensor(ir::DataType dtype, Dims dims, std::shared_ptr<DeviceStorage> storage,
               size_t offset = 0);

  bool defined() const { return dtype_ != ir::DataType::kUndefined; }
  ir::DataType dtype() const { return dtype_; }
  const Dims& dims() const { return dims_; }
  size_t rank() const { return dims_.size(); }
  int64_t dim(size_t i) const { return dims_[i]; }
  int64_t numel() const { return numel_; }
  size_t byteSize() const;

  // Device pointers (nullptr for an empty tensor).
  const void* raw() const { return storage_ ? storage_->data() + offset_ : nullptr; }
  void* mutableRaw() const { return storage_ ? storage_->data() + offset_ : nullptr; }
  template <class T>
  const T* data() const {
    return static_cast<const T*>(raw());
  }
  template <class T>
  T* mutableData() const {
    return static_cast<T*>(mutableRaw());
  }

  // The same bytes seen with other dims (same element count): Reshape & co.
  DeviceTensor view(Dims dims) const;
  // "float[1,3,224,224] (cuda)".
  std::string describe() const;

 private:
  ir::DataType dtype_ = ir::DataType::kUndefined;
  Dims dims_;
  int64_t numel_ = 0;
  std::shared_ptr<DeviceStorage> storage_;
  size_t offset_ = 0;
};

// Host <-> device copies on `stream`. download waits for the stream.
Expected<DeviceTensor> upload(const Tensor& host, cudaStream_t stream);
Expected<Tensor> download(const DeviceTensor& device, cudaStream_t stream);

}  // namespace passlab::exec::cuda
