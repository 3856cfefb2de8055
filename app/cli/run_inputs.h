// Inputs for `passlab-cli run`: --input NAME=FILE.npy (or .pb), --input
// random|zeros, --dim NAME=VALUE, turned into named tensors for the executor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/exec/input_fill.h"

namespace passlab::cli {

struct InputSpec {
  std::vector<std::string> inputs;  // "NAME=FILE.npy", "random", "zeros"
  std::vector<std::string> dims;    // "NAME=VALUE"
  uint64_t seed = 0;
};

struct PreparedInputs {
  exec::NamedInputs values;
  std::vector<std::string> descriptions;  // "x float[1,3,224,224] (random, seed 0)"
};

Expected<PreparedInputs> prepareInputs(const exec::Executor& ex, const InputSpec& spec);

// A tensor from a file: NumPy .npy, or a serialized TensorProto (.pb, as the
// ONNX test data sets store their inputs).
Expected<ir::Tensor> readInputFile(const std::string& path);

}  // namespace passlab::cli
