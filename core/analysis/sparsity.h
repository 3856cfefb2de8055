// Sparsity of a model's weights, layer by layer: how many weights are zero,
// which output channels are zero throughout (structured: the channel can be
// removed), and how much of the weight already has the 2:4 pattern sparse
// tensor cores run (at least 2 zeros in each group of 4 consecutive weights
// along the reduction axis).
//
// Layers: Conv (weight [M, C/group, k...]: M channels, each reduces over its
// C/group * k... weights), MatMul with a constant B [K, N] (N channels, each
// reducing over K) and Gemm (B [K, N], or [N, K] with transB). The weight is
// what the file stores: an initializer (also one that is a graph input, as
// every one is below IR version 4) or a Constant node's value; a weight
// computed at run time is left out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ir/model.h"

namespace passlab::analysis {

struct LayerSparsity {
  ir::NodeId node = 0;
  std::string describe;  // "Conv 'conv1' (#3)"
  std::string weight;    // the weight's name
  int64_t elements = 0, zeros = 0;
  int64_t channels = 0, zeroChannels = 0;
  int64_t groupsOfFour = 0, twoFourGroups = 0;  // along the reduction axis; tails left out
  double zeroShare() const { return elements ? double(zeros) / double(elements) : 0; }
  double twoFourShare() const {
    return groupsOfFour ? double(twoFourGroups) / double(groupsOfFour) : 0;
  }
};

// The layers of the main graph in node order.
std::vector<LayerSparsity> sparsityReport(const ir::Model& model);

// The stored floating-point weight of `v`: an initializer's data (also one
// that is a graph input) or a Constant node's value; nullptr otherwise.
const ir::Tensor* storedWeight(const ir::Value* v);

// A layer's weight seen as `channels` rows of `reduce` values (the output
// channels and what each reduces over): element (c, r) at
// c * channelStride + r * reduceStride.
struct WeightLayout {
  int64_t channels, reduce, channelStride, reduceStride;
};
// The layout of weight `w` of Conv, MatMul or Gemm `n` (input 1); nullopt for
// another op or a weight of the wrong rank.
std::optional<WeightLayout> weightLayout(const ir::Node& n, const ir::Tensor& w);

}  // namespace passlab::analysis
