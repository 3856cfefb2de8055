// The output dims of the view operators (Reshape, Flatten, Unsqueeze,
// Squeeze), one contract for the CPU kernels (shape_ops.cpp) and the CUDA
// ones (core/exec/cuda/shape_views.cpp). `describe` names the input in
// errors (called only on an error).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

using DescribeInput = std::function<std::string()>;

// Reshape of `in` to `shape` (0 copies the input dim unless allowZero, one -1
// is inferred).
Expected<Dims> reshapeDims(const Dims& in, const std::vector<int64_t>& shape, bool allowZero,
                           const DescribeInput& describe);

// Flatten of `in` at `axis` (may be negative): [outer, inner].
Expected<Dims> flattenDims(const Dims& in, int64_t axis, const DescribeInput& describe);

// Unsqueeze of `in`: size-1 dims inserted at `axes` (of the output rank).
Expected<Dims> unsqueezeDims(const Dims& in, const std::vector<int64_t>& axes);

// Squeeze of `in`: `axes` (each of size 1) dropped, or every size-1 dim when empty.
Expected<Dims> squeezeDims(const Dims& in, const std::vector<int64_t>& axes,
                           const DescribeInput& describe);

}  // namespace passlab::exec::cpu
