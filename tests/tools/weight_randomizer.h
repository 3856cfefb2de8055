// Seeded random weights for models whose weights are fills (test tooling, #26).
//
// Some corpus models (every onnx_light_*) spell each weight as a
// ConstantOfShape of 0.02: all channels of a layer are equal, so the outputs
// do not depend on the input and a check that compares outputs cannot see a
// channel mix-up. randomizeWeights replaces such fills (and, if asked, float
// initializers) by seeded random tensors of the same shape, then scales them
// on the data so activations stay finite and non-degenerate through deep
// models: Conv/Gemm/MatMul weights He-normal (std sqrt(2 / fan_in)), biases
// small, per-channel scales (BatchNormalization, Mul) about 1 with an rms of
// exactly 1 and variances with mean(1 / var) = 1, so a chain neither grows nor
// decays on average; then one probe run on seeded random inputs scales the
// last layers to an output rms of 1 (a Softmax after them neither saturates
// nor flattens). What it does not do: residual sums still double their
// variance per block (2^16 in resnet50; finite, the last layer rescales it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/support/error.h"

namespace passlab::testtools {

struct RandomizeOptions {
  uint64_t seed = 1;
  // Also replace float initializers of rank >= 1 read as a weight, bias or
  // normalization parameter (Conv, ConvTranspose, Gemm, MatMul,
  // BatchNormalization, or a Mul/Add operand), not only ConstantOfShape fills.
  bool initializers = false;
  // One probe run that scales the last layers to an output rms of 1.
  bool scaleLastLayers = true;
  // false: the fills become initializers holding the fill's own value (the
  // same model, weights spelled out; nothing random, nothing scaled), so a
  // planted bug can be put in the original too.
  bool random = true;
};

struct RandomizeReport {
  size_t fillsReplaced = 0;         // ConstantOfShape nodes turned into initializers
  size_t initializersReplaced = 0;  // existing initializers given random data
  size_t layersScaled = 0;          // last Conv/Gemm/MatMul layers rescaled on the data
};

// Replaces the weights of `model` in place. Errors (a model the executor
// cannot run for the probe) leave the replaced weights unscaled.
Expected<RandomizeReport> randomizeWeights(ir::Model& model, const RandomizeOptions& options);

// A planted bug for tests: swaps output channels 0 and 1 of the weight (and
// bias) of the `index`-th Conv (graph order) whose weight is an initializer,
// as a channel mix-up in a rewritten chain would. Returns that Conv's name,
// or an error when there is no such Conv or it has fewer than 2 channels.
Expected<std::string> swapConvOutputChannels(ir::Model& model, size_t index);

}  // namespace passlab::testtools
