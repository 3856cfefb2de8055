// Where calibration data holds NaN or infinite values, for quantize_static's
// error when calibration saw no finite value of a tensor: that names an inner
// tensor, while the cause is usually an input file. An Evaluator that also
// implements this interface answers with the first such input; quantize_static
// asks it only on that error (core/pipeline/calibration.h).
#pragma once

#include "core/ir/model.h"
#include "core/support/text.h"

namespace passlab::passes {

class NonFiniteInputSource {
 public:
  virtual ~NonFiniteInputSource() = default;
  // "input 'x' in FILE" (or "in calibration set N" for sets not read from
  // files) for the first calibration input of `model` holding a NaN or an
  // infinity; "" when every input is finite or the sets cannot be made.
  virtual Text firstNonFiniteInput(const ir::Model& model) = 0;
};

}  // namespace passlab::passes
