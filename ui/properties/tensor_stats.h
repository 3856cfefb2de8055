// Statistics of an initializer's data for the properties panel: min, max,
// mean, standard deviation, zeros, NaN/Inf counts and a histogram. Linear in
// the element count; cancellable for big tensors (computed off the UI thread).
#pragma once

#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "core/ir/tensor.h"

namespace passlab::ui {

struct TensorStats {
  bool numeric = false;  // false for strings and types without a numeric reading
  int64_t count = 0, zeros = 0, nans = 0, infs = 0;
  double min = 0, max = 0, mean = 0, stddev = 0;  // over finite elements
  std::vector<int64_t> histogram;                 // equal-width bins over [min, max]
  bool cancelled = false;
};

TensorStats computeTensorStats(const ir::Tensor& t, int bins = 32, std::stop_token stop = {});

}  // namespace passlab::ui
