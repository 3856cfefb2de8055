// Pooling attributes (MaxPool, AveragePool, LpPool) and the geometry they give
// for concrete input dims: pads from auto_pad, output dims with ceil_mode.
// The node's ir::Window in the form the oneDNN and float MaxPool kernels take.
#pragma once

#include "core/exec/tensor.h"
#include "core/ir/node.h"
#include "core/ir/window.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

// The window as written (ir::readWindowAttrs, the one reader of window
// attributes) and what only pools have.
struct PoolAttrs {
  ir::WindowAttrs window;
  int64_t storageOrder = 0;
  int64_t p = 2;  // LpPool
};
Expected<PoolAttrs> parsePoolAttrs(const ir::Node& node);

struct PoolGeometry {
  int64_t N = 0, C = 0;
  Dims in, kernel, stride, dilation, padBegin, padEnd, out;  // spatial
  Dims outDims;                                              // [N, C, out...]
  ir::Window window;
  size_t spatial() const { return in.size(); }
};
Expected<PoolGeometry> poolGeometry(const PoolAttrs& a, const Dims& x);

}  // namespace passlab::exec::cpu
