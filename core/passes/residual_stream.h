// Residual streams: the layers whose outputs residual Adds (or Sums) add up
// into one value, so that they share their channel positions (a ResNet
// stage: the downsample Conv and the last Conv of every block). Shared by
// remove_dead_channels, which removes a stream channel only where it is dead
// in all of them, and prune_magnitude, which prunes a stream's channels in
// all of them at once.
//
// Tracing a value back to its layers follows the ops whose channel c
// depends on channel c of their first input only: the unary ops below,
// Add / Sub / Mul / Div / PRelu with a per-channel constant,
// BatchNormalization, Pad, MaxPool, AveragePool, a depthwise Conv, and
// earlier residual Adds (all of their inputs).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <vector>

#include "core/ir/model.h"
#include "core/support/text.h"

namespace passlab::passes::residual {

// Where a value's channels sit: its rank, the channel axis and their count.
struct ChannelAxis {
  int64_t rank = 0, axis = 1, channels = 0;
};

// The per-channel entries of a stored constant broadcast against a value of
// rank `rank` whose channels run along `axis`: one value per channel, and the
// constant's own axis holding them (-1: it has one value for all).
struct ChannelConstant {
  std::vector<double> values;
  int64_t ownAxis = -1;
};

std::optional<ChannelConstant> channelConstant(const ir::Value* v, int64_t rank, int64_t axis,
                                               int64_t channels);

// The value a unary per-channel op maps the constant `v` to; nullopt when
// `n` is not one the walk follows (or its parameters are not constant).
std::optional<double> unaryValue(const ir::Node& n, double v, int64_t opset);

bool isChannelConstant(const ir::Value* v, const ChannelAxis& a);

// A residual Add of two activations (neither a per-channel constant), or a
// Sum (opset < 13 ResNets join their branches with Sum).
bool isJoin(const ir::Node& n, const ChannelAxis& a);

// Whether every input of `join` has the shape of the first, of rank `rank`
// (a broadcast does not join streams).
bool sameShapeInputs(const ir::Node& join, int64_t rank);

// A layer a stream is made of: a default-domain Conv of group 1, Gemm or MatMul.
bool isStreamLayer(const ir::Node& n);

// Traces `v`, an input of the residual Add `add`, back to the layers it
// comes from through the ops above, calling `layer` for each (possibly more
// than once); values in `traced` are skipped, and those visited added. ""
// when every path back ends at a layer, else why not. With `grouped`, a
// grouped Conv that is not depthwise is a layer too (not passed through).
Text traceBack(const ir::Node& add, const ir::Value* v, const ChannelAxis& a, int64_t opset,
               std::set<const ir::Value*>& traced, const std::function<void(ir::Node&)>& layer,
               bool grouped = false);

// The layers summed into one stream (graph order, at least two) and the
// joins that sum them.
struct Stream {
  std::vector<ir::Node*> layers;
  std::vector<ir::Node*> joins;
};

// The streams of `graph`: every join whose inputs have one shape and trace
// back to layers whose outputs have that shape (channels on axis 1 for a
// Conv, on the last for Gemm / MatMul) puts those layers in one stream;
// streams sharing a layer are one. A join that cannot be traced back (an
// input computed by an op not followed, a graph input) joins nothing.
std::vector<Stream> residualStreams(const ir::Graph& graph, int64_t opset);

}  // namespace passlab::passes::residual
