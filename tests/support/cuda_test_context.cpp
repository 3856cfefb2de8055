#include "tests/support/cuda_test_context.h"

#include <cuda_runtime.h>

#include <algorithm>

#include "core/exec/kernel.h"

namespace passlab::exec::cuda::test_support {

bool haveCudaDevice(std::string* why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  cudaGetLastError();
  if (e != cudaSuccess) {
    if (why) *why = cudaGetErrorString(e);
    return false;
  }
  if (n == 0) {
    if (why) *why = "no devices";
    return false;
  }
  return true;
}

bool TestContext::has(size_t i) const {
  if (host_) return i < hostIn_.size() && hostIn_[i].has_value();
  return i < in_.size() && in_[i].defined();
}

Expected<DeviceTensor> TestContext::input(size_t i) {
  if (host_) return upload(*hostIn_[i], stream_);
  return in_[i];
}

Expected<Tensor> TestContext::hostInput(size_t i) {
  if (host_) return *hostIn_[i];
  return download(in_[i], stream_);
}

ir::DataType TestContext::inputType(size_t i) const {
  return host_ ? hostIn_[i]->dtype() : in_[i].dtype();
}

const Dims& TestContext::inputDims(size_t i) const {
  return host_ ? hostIn_[i]->dims() : in_[i].dims();
}

Expected<DeviceTensor> TestContext::allocate(size_t i, ir::DataType dtype, Dims dims) {
  const auto bytes = static_cast<size_t>(
      ir::dtypeStorageBytes(dtype, static_cast<uint64_t>(std::max<int64_t>(numelOf(dims), 0))));
  PASSLAB_ASSIGN_OR_RETURN(auto st, DeviceStorage::allocate(bytes, stream_));
  out_[i] = DeviceTensor(dtype, std::move(dims), std::move(st));
  return out_[i];
}

Expected<DeviceTensor> TestContext::scratch(size_t bytes) {
  PASSLAB_ASSIGN_OR_RETURN(auto st, DeviceStorage::allocate(bytes, stream_));
  return DeviceTensor(ir::DataType::kUInt8, {static_cast<int64_t>(bytes)}, std::move(st));
}

}  // namespace passlab::exec::cuda::test_support
