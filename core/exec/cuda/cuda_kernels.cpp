// The CUDA kernel table: every family once.
#include <array>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/exec/cuda/cuda_families.h"

namespace passlab::exec::cuda {

namespace {

const std::vector<const CudaKernelDef*>& allRows() {
  static const std::vector<const CudaKernelDef*> rows = [] {
    const std::array families = {
        elementwiseKernels(), dataMovementKernels(),     convKernels(),
        poolKernels(),        matmulKernels(),           normalizationKernels(),
        reduceKernels(),      fusedElementwiseKernels(), attentionKernels(),
    };
    std::vector<const CudaKernelDef*> r;
    for (std::span<const CudaKernelDef> family : families)
      for (const CudaKernelDef& def : family) r.push_back(&def);
    return r;
  }();
  return rows;
}

const std::unordered_map<std::string, std::vector<const CudaKernelDef*>>& byOp() {
  static const auto index = [] {
    std::unordered_map<std::string, std::vector<const CudaKernelDef*>> m;
    for (const CudaKernelDef* def : allRows())
      m[std::string(def->domain) + ":" + std::string(def->op)].push_back(def);
    return m;
  }();
  return index;
}

}  // namespace

std::span<const CudaKernelDef* const> cudaKernelRows() {
  return allRows();
}

std::vector<const CudaKernelDef*> findCudaKernels(std::string_view domain, std::string_view op,
                                                  int64_t opset, ir::DataType dtype) {
  std::vector<const CudaKernelDef*> found;
  // ai.onnx is "" in the rows; models may spell it out.
  std::string d = domain == "ai.onnx" ? std::string() : std::string(domain);
  auto it = byOp().find(d + ":" + std::string(op));
  if (it == byOp().end()) return found;
  for (const CudaKernelDef* def : it->second) {
    if (opset < def->since || opset > def->until) continue;
    bool anyType = def->typeInput == kAnyType;
    if (dtype == ir::DataType::kUndefined ? !anyType : !(anyType || def->types.contains(dtype)))
      continue;
    found.push_back(def);
  }
  return found;
}

}  // namespace passlab::exec::cuda
