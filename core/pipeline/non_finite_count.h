// How many values of a tensor are NaN or infinite, for the messages that name
// an input holding them: calibration sets (the quantization step's note) and
// the --input files of run, profile and the output checks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/ir/dtype.h"
#include "core/ir/tensor.h"
#include "core/support/text.h"

namespace passlab::pipeline {

struct NonFiniteCount {
  uint64_t nan = 0, infinite = 0;
  uint64_t values = 0;  // all the tensor's values
  bool any() const { return nan + infinite > 0; }
};

// The counts of `n` elements of type `dtype` at `data` (float32, float64,
// float16, bfloat16; other types hold no NaN or infinity).
NonFiniteCount countNonFinite(ir::DataType dtype, const void* data, size_t n);
NonFiniteCount countNonFinite(const ir::Tensor& t);

// "1 NaN and 2 infinite of its 784 values", "3 NaN of its 784 values";
// "" when there is none.
Text nonFiniteText(const NonFiniteCount& c);

}  // namespace passlab::pipeline
