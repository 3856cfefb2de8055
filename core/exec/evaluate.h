// Evaluates one node on constant inputs with the CPU kernels: what constant
// folding needs, without building an executor. Nodes with subgraphs are not
// evaluated here.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/node.h"
#include "core/ir/tensor.h"
#include "core/support/error.h"

namespace passlab::exec {

// `inputs` parallels node.inputs() (nullptr for omitted optional inputs);
// `opsetVersion` is the model's version of the node's domain. Returns one
// tensor per node output (an empty Tensor for omitted outputs).
Expected<std::vector<ir::Tensor>> evaluateNode(const ir::Node& node,
                                               const std::vector<const ir::Tensor*>& inputs,
                                               int64_t opsetVersion);

}  // namespace passlab::exec
