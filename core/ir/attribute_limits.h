// Attributes no kernel can honour, found before any pass or kernel sees them:
// window sizes (kernel_shape, strides, dilations, pads) that are not positive
// or overflow the window arithmetic, group and blocksize below 1, a Transpose
// perm that is not a permutation, an axis outside [-r, r). The verifier
// reports each (naming the node and the attribute); `run` and `optimize`
// refuse a model that has one (checkAttributeLimits).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/support/error.h"

namespace passlab::ir {

// The largest kernel_shape, stride, dilation or pad a window may have, and
// the largest window span ((kernel - 1) * dilation + 1) and padded extent:
// oneDNN's and the reference kernels' loops index windows with 32-bit ints,
// so a larger value crashes or hangs them instead of computing anything.
inline constexpr int64_t kMaxWindowExtent = INT32_MAX;

// The problems of one node, each naming the attribute ("attribute 'dilations'
// value 2147483648 is larger than ..."). Axis checks need the rank of the
// node's first input, so they run once shapes are known.
std::vector<std::string> attributeLimitProblems(const Node& n);

// The window of one spatial axis, in checked 64-bit arithmetic: the span
// (kernel - 1) * dilation + 1 and the padded extent in + padBegin + padEnd,
// each at most kMaxWindowExtent. "" when it fits, else why not.
std::string windowAxisProblem(int64_t kernel, int64_t stride, int64_t dilation, int64_t padBegin,
                              int64_t padEnd, int64_t in = 0);

// The first such problem in the model (subgraphs included), naming the node.
Status checkAttributeLimits(const Model& model);

}  // namespace passlab::ir
