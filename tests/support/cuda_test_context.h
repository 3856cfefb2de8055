// A minimal CudaBuild and CudaContext for the CUDA device tests and benches
// (one node's kernel built and run outside the runner): the node, its opset
// and dispatch type, the inputs the test gives, the outputs kept for it to
// read. Linked only into the CUDA test targets (tests/CMakeLists.txt).
#pragma once

#include <cublasLt.h>
#include <cudnn.h>

#include <optional>
#include <string>
#include <vector>

#include "core/exec/cuda/cuda_kernel.h"
#include "core/exec/cuda/device_tensor.h"
#include "core/exec/tensor.h"
#include "core/ir/node.h"

namespace passlab::exec::cuda::test_support {

// Whether a CUDA device is usable; `why` (when given) says why not. A failed
// query is cleared (it does not stay the runtime's last error).
bool haveCudaDevice(std::string* why = nullptr);

class TestBuild final : public CudaBuild {
 public:
  TestBuild(const ir::Node& n, int64_t opset, ir::DataType t, cudaStream_t s = nullptr,
            DeviceProperties props = {})
      : node_(n), opset_(opset), type_(t), stream_(s), props_(std::move(props)) {}
  const ir::Node& node() const override { return node_; }
  int64_t opset() const override { return opset_; }
  ir::DataType dtype() const override { return type_; }
  const ir::Tensor* constantInput(size_t) const override { return nullptr; }
  const DeviceProperties& device() const override { return props_; }
  cudaStream_t stream() const override { return stream_; }

 private:
  const ir::Node& node_;
  int64_t opset_;
  ir::DataType type_;
  cudaStream_t stream_;
  DeviceProperties props_;
};

class TestContext final : public CudaContext {
 public:
  // Device inputs (an undefined one is absent); hostInput downloads them.
  TestContext(std::vector<DeviceTensor> in, size_t outputs, cudaStream_t s)
      : in_(std::move(in)), out_(outputs), stream_(s) {}
  // Host inputs (nullopt: absent), uploaded at each input(); hostInput gives
  // them back as they are.
  TestContext(std::vector<std::optional<Tensor>> in, size_t outputs, cudaStream_t s)
      : hostIn_(std::move(in)), host_(true), out_(outputs), stream_(s) {}

  // Optional settings (defaults: no handles, inputs not invariant, default device).
  TestContext& withCublasLt(cublasLtHandle_t h) {
    lt_ = h;
    return *this;
  }
  TestContext& withCudnn(cudnnHandle_t h) {
    cudnn_ = h;
    return *this;
  }
  TestContext& withInvariantInputs(bool invariant = true) {
    invariant_ = invariant;
    return *this;
  }
  TestContext& withDevice(DeviceProperties p) {
    props_ = std::move(p);
    return *this;
  }

  size_t inputCount() const override { return host_ ? hostIn_.size() : in_.size(); }
  bool has(size_t i) const override;
  Expected<DeviceTensor> input(size_t i) override;
  Expected<Tensor> hostInput(size_t i) override;
  ir::DataType inputType(size_t i) const override;
  const Dims& inputDims(size_t i) const override;
  bool invariantInput(size_t) const override { return invariant_; }
  size_t outputCount() const override { return out_.size(); }
  bool wantsOutput(size_t i) const override { return i < out_.size(); }
  Expected<DeviceTensor> allocate(size_t i, ir::DataType dtype, Dims dims) override;
  void setOutput(size_t i, DeviceTensor t) override { out_[i] = std::move(t); }
  Expected<DeviceTensor> scratch(size_t bytes) override;
  cudaStream_t stream() const override { return stream_; }
  cublasLtHandle_t cublasLt() override { return lt_; }
  cudnnHandle_t cudnn() override { return cudnn_; }
  const DeviceProperties& device() const override { return props_; }

  // The outputs the kernel allocated or set.
  const std::vector<DeviceTensor>& outputs() const { return out_; }
  const DeviceTensor& output(size_t i = 0) const { return out_[i]; }

 private:
  std::vector<DeviceTensor> in_;
  std::vector<std::optional<Tensor>> hostIn_;
  bool host_ = false;
  std::vector<DeviceTensor> out_;
  cudaStream_t stream_;
  cublasLtHandle_t lt_ = nullptr;
  cudnnHandle_t cudnn_ = nullptr;
  bool invariant_ = false;
  DeviceProperties props_;
};

}  // namespace passlab::exec::cuda::test_support

// In a GoogleTest body: skips the test where there is no CUDA device.
#define PASSLAB_REQUIRE_CUDA_DEVICE()                                        \
  do {                                                                       \
    std::string passlab_why_;                                                \
    if (!::passlab::exec::cuda::test_support::haveCudaDevice(&passlab_why_)) \
      GTEST_SKIP() << "no CUDA device: " << passlab_why_;                    \
  } while (0)
