// Where a node runs under the CUDA backend: a CUDA row, the host (Shape and
// Size read dims only), or its CPU kernel with copies, and why. The choice
// for the rows is pure host logic (no device needed); building the chosen
// kernel may still decline, which also sends the node to the CPU.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/exec/cuda/cuda_kernel.h"
#include "core/ir/node.h"

namespace passlab::exec::cuda {

enum class Placement : uint8_t {
  kDevice,       // a CUDA kernel
  kHostDims,     // computed on the host from dims alone (Shape, Size)
  kCpuFallback,  // the CPU kernel, inputs copied to the host
};

struct RowChoice {
  Placement placement = Placement::kCpuFallback;
  std::vector<const CudaKernelDef*> rows;  // kDevice: candidates in table order
  std::string reason;                      // kCpuFallback: why ("no CUDA kernel for Loop")
};

// `dtype`: the element type of the node's dispatch input (kUndefined when the
// node's kernels take any type or it is not known).
RowChoice chooseRows(const ir::Node& node, int64_t opset, ir::DataType dtype);

// "Shape" and "Size": their outputs need only the input's dims.
bool readsDimsOnly(const ir::Node& node);

// The kernel of the first of `rows` whose factory accepts the node, or none
// with the reason of the last refusal. `cudnnProblem` non-empty: cuDNN cannot
// be used (why), so cudnn.* rows are passed over. A factory error other than
// kUnsupported is returned as an error.
struct BuiltKernel {
  const CudaKernelDef* def = nullptr;  // null: every row declined
  std::unique_ptr<CudaKernel> kernel;
  std::string reason;  // why not, when def is null
};
Expected<BuiltKernel> buildFirstAccepting(const std::vector<const CudaKernelDef*>& rows,
                                          const CudaBuild& build, const std::string& cudnnProblem);

}  // namespace passlab::exec::cuda
