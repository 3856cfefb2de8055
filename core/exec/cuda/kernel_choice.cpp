#include "core/exec/cuda/kernel_choice.h"

#include <set>

namespace passlab::exec::cuda {

namespace {

// The element types the rows of (domain, op) take at any opset, as text.
std::string typesOf(std::string_view domain, std::string_view op) {
  std::set<std::string> names;
  for (const CudaKernelDef* def : cudaKernelRows())
    if (def->op == op && (def->domain == domain || (domain == "ai.onnx" && def->domain.empty())))
      for (int t = 0; t < 32; ++t)
        if (def->types.contains(static_cast<ir::DataType>(t)))
          names.insert(std::string(ir::dtypeName(static_cast<ir::DataType>(t))));
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string opName(const ir::Node& node) {
  const std::string& d = node.domain();
  return d.empty() || d == "ai.onnx" ? node.opType() : d + "." + node.opType();
}

}  // namespace

bool readsDimsOnly(const ir::Node& node) {
  bool onnx = node.domain().empty() || node.domain() == "ai.onnx";
  return onnx && (node.opType() == "Shape" || node.opType() == "Size");
}

RowChoice chooseRows(const ir::Node& node, int64_t opset, ir::DataType dtype) {
  RowChoice c;
  if (readsDimsOnly(node)) {
    c.placement = Placement::kHostDims;
    return c;
  }
  if (node.hasSubgraphs()) {
    c.reason = opName(node) + " has a subgraph: control flow runs on the CPU";
    return c;
  }
  c.rows = findCudaKernels(node.domain(), node.opType(), opset, dtype);
  if (!c.rows.empty()) {
    c.placement = Placement::kDevice;
    return c;
  }
  std::string types = typesOf(node.domain(), node.opType());
  if (types.empty())
    c.reason = "no CUDA kernel for " + opName(node);
  else if (!findCudaKernels(node.domain(), node.opType(), opset, ir::DataType::kUndefined)
                .empty() ||
           dtype != ir::DataType::kUndefined)
    c.reason = "no CUDA kernel for " + opName(node) + " on " + std::string(ir::dtypeName(dtype)) +
               " (it has: " + types + ")";
  else
    c.reason = "no CUDA kernel for " + opName(node) + " at opset " + std::to_string(opset);
  return c;
}

Expected<BuiltKernel> buildFirstAccepting(const std::vector<const CudaKernelDef*>& rows,
                                          const CudaBuild& build, const std::string& cudnnProblem) {
  BuiltKernel out;
  for (const CudaKernelDef* def : rows) {
    if (def->name.starts_with("cudnn.") && !cudnnProblem.empty()) {
      out.reason = "cuDNN is not usable: " + cudnnProblem;
      continue;
    }
    auto made = def->create(build);
    if (!made) {
      if (made.error().code() != ErrorCode::kUnsupported) return made.error();
      out.reason = std::string(def->name) + " declined: " + made.error().message();
      continue;
    }
    out.def = def;
    out.kernel = std::move(made).value();
    out.reason.clear();
    break;
  }
  return out;
}

}  // namespace passlab::exec::cuda
