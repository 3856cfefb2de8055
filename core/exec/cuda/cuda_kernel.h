// The CUDA kernel interface: how an operator runs on the GPU.
//
// Like the CPU's (core/exec/kernel.h): a kernel is an object bound to one
// node; its factory runs once per executor (reads and checks attributes, may
// upload or pre-pack constant inputs) and `run` is called once per run. A
// factory that returns kUnsupported ("auto_pad SAME_LOWER with dilations")
// sends the node to its CPU kernel instead; the reason is shown in the profile
// and by `passlab-cli run --device cuda --explain-fallback`.
//
// Registration is one row in the table of the family's .cpp file, the table
// listed once in cuda_kernels.cpp:
//
//   {"", "Relu", 6, kOpsetMax, kCudaFloats, 0, "cuda.Relu", makeCudaKernel<UnaryKernel>},
//
// Values live on the device or the host: outputs of CPU steps (shape
// arithmetic) stay on the host until a CUDA kernel reads them. input(i) gives
// the device tensor (uploading when needed); hostInput(i) the host tensor
// (downloading and waiting when needed): for small inputs read as numbers
// (Reshape's shape, Slice's starts, Resize's scales).
//
// Device code goes in *.cu files with plain launch functions (declared in a
// *_launch.h with no PassLab headers); the kernel classes in *.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>

#include "core/exec/cuda/device_tensor.h"
#include "core/exec/dtype_traits.h"
#include "core/exec/kernel.h"
#include "core/ir/node.h"
#include "core/ir/tensor.h"
#include "core/support/error.h"

typedef struct cublasLtContext* cublasLtHandle_t;
typedef struct cudnnContext* cudnnHandle_t;

namespace passlab::exec::cuda {

// The element types of GPU float kernels.
inline constexpr TypeSet kCudaFloats{ir::DataType::kFloat, ir::DataType::kFloat16,
                                     ir::DataType::kBFloat16};

// The GPU the backend runs on.
struct DeviceProperties {
  int index = 0;
  int computeMajor = 0, computeMinor = 0;
  int multiprocessors = 0;
  size_t totalBytes = 0;
  std::string name;
};

// What a factory is given.
class CudaBuild {
 public:
  virtual ~CudaBuild() = default;
  virtual const ir::Node& node() const = 0;
  // The version of the node's domain the model imports.
  virtual int64_t opset() const = 0;
  // The element type of the row's dispatch input (kUndefined when unknown
  // before the first run; the factory is then called again once it is known).
  virtual ir::DataType dtype() const = 0;
  // Input i's data when it is constant for every run (initializer, Constant):
  // host memory, to read attributes-as-inputs or to upload once.
  virtual const ir::Tensor* constantInput(size_t i) const = 0;
  virtual const DeviceProperties& device() const = 0;
  virtual cudaStream_t stream() const = 0;
};

// What a kernel sees while it runs. Every call on the device goes on stream().
class CudaContext {
 public:
  virtual ~CudaContext() = default;

  // ---- inputs ----
  virtual size_t inputCount() const = 0;
  // Present (not omitted, not an empty optional).
  virtual bool has(size_t i) const = 0;
  // Input i in device memory (uploaded when it was on the host).
  virtual Expected<DeviceTensor> input(size_t i) = 0;
  // Input i in host memory (downloaded, waiting for the stream, when it was
  // on the device). For small inputs read as numbers.
  virtual Expected<Tensor> hostInput(size_t i) = 0;
  // Input i's element type and dims, wherever it lives (no copy).
  virtual ir::DataType inputType(size_t i) const = 0;
  virtual const Dims& inputDims(size_t i) const = 0;
  // The same dims and values on every run (see KernelContext::invariantInput):
  // what the kernel derives from it may be kept for the next runs.
  virtual bool invariantInput(size_t i) const = 0;

  // ---- outputs ----
  virtual size_t outputCount() const = 0;
  virtual bool wantsOutput(size_t i) const = 0;
  // A new device tensor for output i (contents undefined).
  virtual Expected<DeviceTensor> allocate(size_t i, ir::DataType dtype, Dims dims) = 0;
  // Output i is `t` (a view of an input, as Reshape gives).
  virtual void setOutput(size_t i, DeviceTensor t) = 0;
  // Working memory for this call (released after the call, stream-ordered).
  virtual Expected<DeviceTensor> scratch(size_t bytes) = 0;

  // ---- the device ----
  virtual cudaStream_t stream() const = 0;
  virtual cublasLtHandle_t cublasLt() = 0;
  virtual cudnnHandle_t cudnn() = 0;
  virtual const DeviceProperties& device() const = 0;

  // ---- checks ----
  // Zeroed device words (device_checks.h) for a range check of indices into
  // `axis` of size `size` of `data`, reported after the step; null where the
  // context keeps no checks (an index out of range then gives zeros only).
  virtual Expected<int64_t*> rangeCheck(int64_t axis, int64_t size, const DeviceTensor& data) {
    (void)axis, (void)size, (void)data;
    return static_cast<int64_t*>(nullptr);
  }
};

class CudaKernel {
 public:
  virtual ~CudaKernel() = default;
  virtual Status run(CudaContext& ctx) = 0;
};

using CudaKernelFactory = Expected<std::unique_ptr<CudaKernel>> (*)(const CudaBuild&);

// One row of the CUDA kernel table.
struct CudaKernelDef {
  std::string_view domain;  // "" = ai.onnx, "ai.passlab", "com.microsoft"
  std::string_view op;
  int since;  // first opset version this row implements
  int until;  // last one (inclusive), kOpsetMax when current
  TypeSet types;
  int typeInput;          // the input whose element type selects the row, or kAnyType
  std::string_view name;  // shown in profiles: "cudnn.Conv", "cuda.Add"
  CudaKernelFactory create;
};

// Factory for a kernel class K: K::create(build) when K declares it, else K(build), else K().
template <class K>
Expected<std::unique_ptr<CudaKernel>> makeCudaKernel(const CudaBuild& b) {
  if constexpr (requires { K::create(b); }) {
    return K::create(b);
  } else if constexpr (std::is_constructible_v<K, const CudaBuild&>) {
    return std::unique_ptr<CudaKernel>(std::make_unique<K>(b));
  } else {
    return std::unique_ptr<CudaKernel>(std::make_unique<K>());
  }
}

// Every row of every family (cuda_kernels.cpp).
std::span<const CudaKernelDef* const> cudaKernelRows();
// Rows for (domain, op, opset) that take `dtype` (kUndefined: rows of any type).
std::vector<const CudaKernelDef*> findCudaKernels(std::string_view domain, std::string_view op,
                                                  int64_t opset, ir::DataType dtype);

}  // namespace passlab::exec::cuda
