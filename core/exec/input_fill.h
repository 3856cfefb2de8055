// Inputs made up for running a model without data: seeded random values,
// zeros, or arange(n)/n, with symbolic dims bound by name (default 1).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/exec/executor.h"

namespace passlab::exec {

enum class Fill {
  kRandom,  // floats uniform in [-1, 1); integers in [0, 4); bools half true
  kZeros,
  kArange,  // element i = i / n (floats), i (integers)
};

struct FillOptions {
  Fill fill = Fill::kRandom;
  uint64_t seed = 0;
  std::map<std::string, int64_t> dims;  // symbolic dim -> value
  int64_t defaultDim = 1;               // for symbolic and unknown dims not in `dims`
};

// The dims of `type`'s shape with symbols bound; an error when the rank is unknown.
Expected<std::vector<int64_t>> concreteDims(const InputInfo& input, const FillOptions& options);
// A tensor for a tensor input (other kinds are not made up).
Expected<ir::Tensor> makeInput(const InputInfo& input, const FillOptions& options);

}  // namespace passlab::exec
