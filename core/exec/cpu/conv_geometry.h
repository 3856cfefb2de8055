// Conv and ConvTranspose attributes and the geometry they give for concrete
// input dims (padding resolved from auto_pad / output_shape, output dims):
// the node's ir::Window in the form the oneDNN kernels take. Shared by the
// oneDNN kernels and the reference kernel.
#pragma once

#include <vector>

#include "core/exec/tensor.h"
#include "core/ir/node.h"
#include "core/ir/window.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

// The window as written (ir::readWindowAttrs, the one reader of window
// attributes) and the channel groups.
struct ConvAttrs {
  ir::WindowAttrs window;
  int64_t group = 1;
};
Expected<ConvAttrs> parseConvAttrs(const ir::Node& node);

struct ConvGeometry {
  int64_t N = 0, C = 0, M = 0, group = 1;                    // batch, in channels, out channels
  Dims in, kernel, stride, dilation, padBegin, padEnd, out;  // spatial
  Dims outDims;                                              // [N, M, out...]
  ir::Window window;                                         // image: X (Conv) or Y (ConvTranspose)
  size_t spatial() const { return in.size(); }
};

// X [N, C, in...], W [M, C/group, k...].
Expected<ConvGeometry> convGeometry(const ConvAttrs& a, const Dims& x, const Dims& w);
// X [N, C, in...], W [C, M/group, k...].
Expected<ConvGeometry> convTransposeGeometry(const ConvAttrs& a, const Dims& x, const Dims& w);

}  // namespace passlab::exec::cpu
