// Where calibration data holds NaN or infinite values, for quantize_static's
// error when calibration saw no finite value of a tensor: that names an inner
// tensor, while the cause is usually an input file. An Evaluator that also
// implements this interface answers with the first such input; quantize_static
// asks it only on that error (core/pipeline/calibration.h). When only some
// values are not finite, calibration goes on with the finite ones
// (TensorStats::add) and the step's note says where the others were.
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
  // What the calibration runs since the last call found in their inputs:
  // how many sets hold NaN or infinite values, in which inputs (and files),
  // and that the statistics keep the finite values only; "" when every
  // input was finite. The pass manager adds it to the note of the step that
  // calibrated (core/pipeline/pass_manager.cpp). Cleared by the call.
  virtual Text takeNonFiniteNote() { return ""; }
};

}  // namespace passlab::passes
