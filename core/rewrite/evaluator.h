// How passes run kernels (constant folding) without depending on the executor:
// the pipeline supplies an implementation backed by core/exec.
#pragma once

#include <vector>

#include "core/ir/node.h"
#include "core/ir/tensor.h"
#include "core/support/error.h"

namespace passlab::rewrite {

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Runs `node` on constant inputs (nullptr for omitted optional inputs).
  virtual Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                                     const std::vector<const ir::Tensor*>& inputs,
                                                     int64_t opsetVersion) = 0;
};

}  // namespace passlab::rewrite
