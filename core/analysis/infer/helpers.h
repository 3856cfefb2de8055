// Shape arithmetic shared by the rule families.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/infer/context.h"
#include "core/analysis/sym_int.h"
#include "core/ir/shape.h"
#include "core/ir/type.h"

namespace passlab::analysis::infer {

// A shape of `rank` unknown dims.
ir::Shape unknownShape(size_t rank);
std::vector<SymInt> symsOf(const ir::Shape& s);
ir::Shape shapeOf(const std::vector<SymInt>& dims);

// Result dim of broadcasting dims against each other: a number > 1 wins, 1s
// drop out, equal symbols stay; anything else is unknown. Sets `error` when two
// numbers > 1 differ.
ir::Dim broadcastDims(const std::vector<const ir::Dim*>& dims, bool* error);
// Numpy-style multidirectional broadcast; nullopt (with `error` set) on a mismatch
// of numbers, nullopt (without error) when a rank is unknown.
std::optional<ir::Shape> broadcastShapes(const std::vector<const ir::Shape*>& shapes,
                                         std::string* error);

// The most specific type both a and b satisfy: dims that agree stay, others
// become unknown; different ranks drop the shape. Used where control flow joins.
ir::Type joinTypes(const ir::Type& a, const ir::Type& b);

// Output 0 takes input 0's shape (and its element type unless the schema gave one).
void copyShapeFrom(InferContext& ctx, size_t input, size_t output);
// Output takes input's whole type (tensors, sequences, optionals, maps).
void copyTypeFrom(InferContext& ctx, size_t input, size_t output);

// Spatial output size of a convolution or pooling window.
//   outSize = floor_or_ceil((in + padBegin + padEnd - dilation*(kernel-1) - 1) / stride) + 1
SymInt windowOutput(const SymInt& in, int64_t kernel, int64_t stride, int64_t padBegin,
                    int64_t padEnd, int64_t dilation, bool ceilMode);

// Conv/pool geometry read from attributes for `spatial` dims, checked.
struct WindowAttrs {
  std::vector<int64_t> kernel, strides, dilations, pads;  // pads: begins then ends
  std::string autoPad;
  bool ceilMode = false;
};
// Fills defaults and validates lengths; fails the context and returns false when malformed.
bool readWindowAttrs(InferContext& ctx, size_t spatial, std::vector<int64_t> kernel,
                     WindowAttrs& out);
// [N, C, spatial...] output of a window op on `x` with `channels` output channels.
std::optional<ir::Shape> windowOutputShape(InferContext& ctx, const ir::Shape& x,
                                           const ir::Dim& channels, const WindowAttrs& w);

// Conv-shaped output (Conv, ConvInteger, QLinearConv, ...) of input `x` and weights `w`.
void inferConvLike(InferContext& ctx, size_t x, size_t w, size_t output);
// The same for X and output 0 channels-last ([N, spatial..., C]; channels_last
// = 1), W at input `w` (quantization.cpp).
void inferChannelsLastConv(InferContext& ctx, size_t w);

// Output shape of MatMul (numpy semantics, 1-D operands promoted and dropped).
std::optional<ir::Shape> matmulShape(InferContext& ctx, const ir::Shape& a, const ir::Shape& b);

// Element-wise data propagation over tracked values with numpy broadcasting:
// `op` gets one element of each input. nullopt if the dims do not broadcast.
// Gives up (nullopt) past `limit` output elements.
std::optional<KnownValue> broadcastValues(
    const std::vector<const KnownValue*>& inputs,
    const std::function<SymInt(const std::vector<SymInt>&)>& op, ir::DataType dtype, size_t limit);

// The node's opset-dependent axes: from attribute `attr` before opset
// `inputSince`, else from input `inputIndex`.
enum class AxesState { kAbsent, kKnown, kUnknown };
AxesState readAxes(InferContext& ctx, const char* attr, int64_t inputSince, size_t inputIndex,
                   std::vector<int64_t>& axes);
// Normalises axes against `rank`, failing on out-of-range or repeated axes.
bool normalizeAxes(InferContext& ctx, std::vector<int64_t>& axes, int64_t rank);

}  // namespace passlab::analysis::infer
