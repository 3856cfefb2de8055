// Matching the layer norm subgraphs, shared by fuse_layer_normalization (into
// LayerNormalization) and the ONNX Runtime target passes (into
// LayerNormalization below opset 17, SkipLayerNormalization and
// EmbedLayerNormalization). Matching never edits the graph.
//
// The decomposed forms (see fuse_layer_normalization.cpp for the algebra):
//   PyTorch:     (x - E[x]) / sqrt(E[(x - E[x])^2] + eps) [* gamma] [+ beta]
//                (the Div may be a Mul by a Reciprocal, the square a Mul(d, d))
//   TensorFlow:  x * a + (beta - E[x] * a),  a = Reciprocal(sqrt(var + eps)) [* gamma]
// and a LayerNormalization node whose scale and bias are constants.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/rewrite/pattern.h"

namespace passlab::passes::fusion {

struct LayerNormMatch {
  ir::Value* x = nullptr;  // the normalized input
  int64_t axes = 0;        // how many trailing axes of x are normalized
  double epsilon = 0;
  ir::DataType dtype = ir::DataType::kUndefined;  // x's element type (a float type)
  std::vector<int64_t> normDims;                  // the static dims of the normalized axes
  std::vector<double> gamma;     // broadcast to normDims; ones when the subgraph has no scale
  std::vector<double> beta;      // broadcast to normDims; empty when the subgraph has no shift
  std::vector<ir::Node*> nodes;  // the matched nodes
  ir::Node* last = nullptr;      // the node whose output 0 is the normalized result
};

// Rooted at the normalizing Div (or the Mul by a Reciprocal). Checks what
// fuse_layer_normalization checks except the opset: every intermediate read
// only inside the subgraph, x a float tensor, the result of x's type and
// shape, static normalized dims, gamma and beta broadcasting to them.
std::optional<LayerNormMatch> matchLayerNormPyTorch(ir::Node& root, Text& why);
// Rooted at the final Add of the TensorFlow form; the same checks.
std::optional<LayerNormMatch> matchLayerNormTf(ir::Node& root, Text& why);
// A default-domain LayerNormalization with a constant scale (and bias, if
// any), a static normalized shape, and its Mean/InvStdDev outputs unused.
std::optional<LayerNormMatch> matchLayerNormNode(ir::Node& ln, Text& why);
// Whichever of the three `root` can be the root of: LayerNormalization, Div
// or Mul (PyTorch form), Add (TensorFlow form).
std::optional<LayerNormMatch> matchAnyLayerNorm(ir::Node& root, Text& why);

// The rewrite into one default-domain LayerNormalization(x, gamma[, beta],
// axis = -axes, epsilon): new constants for gamma and beta (broadcast to the
// normalized shape), the matched nodes removed.
rewrite::MatchResult toLayerNormalization(LayerNormMatch m);

}  // namespace passlab::passes::fusion
