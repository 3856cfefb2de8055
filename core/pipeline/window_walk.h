// How large an input must be for the sliding-window ops (Conv, pools) that
// read it, directly or through ops that keep its sizes. Input synthesis
// (input_synthesis.h) picks dims with it; a dim chosen below what a window
// needs makes the model fail to run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/node.h"
#include "core/ir/value.h"
#include "core/support/text.h"

namespace passlab::pipeline {

// The longest total stride a walk reports (deeper paths are capped).
inline constexpr int64_t kMaxDownsample = 1024;

// Ops that keep an N, C, spatial... tensor's spatial dims (elementwise,
// normalizations, casts).
bool keepsSpatialDims(const ir::Node& n);
// Conv, ConvTranspose, the pools and their quantized forms; the contrib
// ones: com.microsoft QLinearConv, QLinearAveragePool (channels_last or not),
// NhwcMaxPool, FusedConv; ai.passlab FusedConv, FusedConvInteger, BlockedPool.
bool isWindowOp(const ir::Node& n);

// One spatial axis of a window op.
struct WindowAxis {
  int64_t kernel = 1, stride = 1, dilation = 1, padBegin = 0, padEnd = 0, outputPadding = 0;
  std::string autoPad = "NOTSET";
  bool transpose = false;  // ConvTranspose

  // The smallest input size that gives at least `outNeed` outputs.
  int64_t smallestInput(int64_t outNeed) const;
  // "kernel 3, stride 2, pads 1+1".
  Text describe() const;
};
// The spatial axes of window op `n` with `spatial` of them (its attributes,
// or its weight's shape for the kernel); nullopt when they cannot be read.
std::optional<std::vector<WindowAxis>> windowAxes(const ir::Node& n, size_t spatial);

// What an axis of a value needs.
struct AxisNeed {
  int64_t min = 1;         // the smallest size every window op after it accepts
  Text why;                // the window op that sets it ("" when none limits it)
  int64_t downsample = 1;  // the product of strides on the deepest path
};
// The need along axis `axis` of `v`, following that axis through ops that
// keep it (elementwise, their quantized and fused contrib forms, Transpose,
// the blocked-layout reorders, Unsqueeze / Squeeze, Pad, Slice of other axes, a
// Reshape whose shape copies the axis's own size from Shape(v)) and into If
// branches that read `v` from the enclosing graph.
AxisNeed needAlongAxis(const ir::Value& v, size_t axis);

}  // namespace passlab::pipeline
