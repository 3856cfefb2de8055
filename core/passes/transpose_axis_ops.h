// Ops with axis parameters that a Transpose passes through (push_transposes).
//
// An op on t = Transpose(x, p) is the same op on x with its axis parameters
// mapped through p (axis a of t is axis p[a] of x), followed by the
// Transpose: Softmax(t, axis = a) = Transpose(Softmax(x, axis = p[a]), p).
// Only ops whose result keeps the rank are here, so the Transpose after them
// is p again and push_transposes can carry it on to the next Transpose:
//
//   Softmax, LogSoftmax, Hardmax: axis (opset 13+); before, over the input
//     flattened to 2-D at the axis: unchanged, when the perm keeps the axes
//     before it before it
//   com.microsoft QLinearSoftmax: the same, by its opset attribute
//   ArgMax, ArgMin (keepdims = 1): axis
//   LpNormalization: axis
//   Gather (indices of rank 1): axis
//   QuantizeLinear, DequantizeLinear (and com.microsoft's): axis when per
//     axis (not blocked)
//   CumSum: the axis input (a constant)
//   Slice: axes (attribute or constant input; the default made explicit)
//   Pad: pads (or the axes input) permuted
//   Tile: repeats permuted
//   Expand: the shape, padded to the rank, permuted
//   Resize (no axes attribute): roi, scales and sizes permuted
//
// ONNX Runtime's transpose optimizer handles the same ops. Those that change
// the rank (Squeeze, Unsqueeze, reductions without keepdims) are in
// push_transposes.cpp, Split in transpose_through_split.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/attribute.h"
#include "core/ir/node.h"
#include "core/ir/tensor.h"
#include "core/support/text.h"

namespace passlab::passes {

// An integer attribute to set ("axis") or integer-list attribute ("axes", "pads").
struct AxisAttribute {
  std::string name;
  std::vector<int64_t> values;
  bool list = false;
  ir::Attribute toAttribute() const {
    return list ? ir::Attribute::makeInts(name, values) : ir::Attribute::makeInt(name, values[0]);
  }
};

// The same op on x: attributes to set, and per input a new constant (or
// nullopt: keep the input). `inputs` may be longer than the node's inputs
// (an optional input made explicit).
struct AxisRemap {
  std::vector<AxisAttribute> attrs;
  std::vector<std::optional<ir::Tensor>> inputs;
};

// Whether `n` is one of the ops above (its parameters may still stop it).
bool hasAxisParameters(const ir::Node& n);

// The remapped parameters of `n`, which reads `chain` = Transpose(x, perm)
// as its data input, in a model of default-domain opset `opset`; nullopt
// with `why` when a parameter is not a constant, the op would change the
// rank, or it reads the chain as a parameter.
std::optional<AxisRemap> remapAxesThroughTranspose(const ir::Node& n, const ir::Value* chain,
                                                   const std::vector<int64_t>& perm, int64_t opset,
                                                   Text& why);

}  // namespace passlab::passes
