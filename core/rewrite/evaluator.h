// How passes run kernels (constant folding) without depending on the executor:
// the pipeline supplies an implementation backed by core/exec.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/ir/model.h"
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

  // Calibration (quantize_static): runs the whole `model` on each input set
  // the pipeline calibrates with, one set after another, and hands `observe`
  // the value of each name in `values` (its index there, the tensor); nothing
  // is kept from one set to the next, so memory does not grow with the sets.
  using Observer = std::function<Status(size_t value, const ir::Tensor& tensor)>;
  virtual Status observeValues(const ir::Model& model, const std::vector<std::string>& values,
                               const Observer& observe, const std::atomic<bool>* cancel) {
    (void)model, (void)values, (void)observe, (void)cancel;
    return unsupported("this pipeline has no calibration data");
  }
  // How many input sets observeValues runs (0: it cannot).
  virtual size_t calibrationSets() const { return 0; }
};

}  // namespace passlab::rewrite
