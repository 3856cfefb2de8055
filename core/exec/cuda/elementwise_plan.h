// Host side of the broadcasting CUDA kernels: the output dims of a numpy-style
// broadcast and the index the device code walks (ew::BroadcastIndex: the
// output dims collapsed, each operand's element strides along them). Plain
// functions, tested without a GPU (tests/core/exec/cuda/elementwise_plan_test.cpp).
#pragma once

#include <span>
#include <vector>

#include "core/exec/cuda/elementwise_launch.h"
#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cuda {

struct BroadcastPlan {
  Dims out;           // the output's dims
  int64_t numel = 0;  // its element count
  ew::BroadcastIndex index;
};

// The broadcast of `inputs` (at most ew::kMaxOperands) and the index that reads
// them at the output's indices. An error names shapes that do not broadcast
// (kInvalidArgument), or a broadcast that does not collapse to
// ew::kMaxRank dims (kUnsupported).
Expected<BroadcastPlan> planBroadcast(std::span<const Dims* const> inputs);
// The same with the output's dims given: each input must broadcast to `out`
// (Sum's accumulator steps read two inputs at the indices of all of them).
Expected<BroadcastPlan> planBroadcastTo(const Dims& out, std::span<const Dims* const> inputs);

}  // namespace passlab::exec::cuda
