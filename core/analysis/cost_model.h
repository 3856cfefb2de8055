// A static cost model: floating-point operations and bytes moved per node,
// computed from the value types (run inferShapes first).
//
// Conventions: a multiply-add is 2 FLOPs (Conv, ConvTranspose, Gemm, MatMul,
// Einsum-free attention and recurrent gates); element-wise ops and ops without
// a formula count one FLOP per output element; reductions and global pools one
// per input element; pools one per output element and window position; ops
// that only move data (Reshape, Transpose, Gather, Concat, Cast, ...) cost no
// FLOPs. Bytes are the sizes of the tensors a node reads and writes (weights
// included). A cost is known when every tensor the node touches has a known
// element type and a static shape.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/ir/model.h"

namespace passlab::analysis {

struct NodeCost {
  double flops = 0;
  uint64_t bytesRead = 0;
  uint64_t bytesWritten = 0;
  bool known = true;
};
// From the value types; known=false if shapes are missing.
NodeCost estimateNodeCost(const ir::Node& node);

struct ModelCost {
  double flops = 0;
  uint64_t bytesRead = 0, bytesWritten = 0;
  size_t nodesWithUnknownCost = 0;
};
// Sum over all nodes; subgraph bodies counted once.
ModelCost estimateModelCost(const ir::Model& model);

}  // namespace passlab::analysis
