// Whether a value is computed from constants only: the weights of the
// onnx_light_* models are ConstantOfShape outputs, which fold_constants' size
// budget keeps unfolded. A fusion that would fold values into such a weight
// instead emits the arithmetic as nodes (W' = Mul(W, s)); the executor runs a
// node whose inputs are all such values once, not per run (compiled_graph.h,
// Invariance).
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <optional>

#include "core/ir/graph.h"
#include "core/rewrite/evaluator.h"
#include "core/rewrite/match_utils.h"

namespace passlab::passes::fusion {

// True for a constant, or the output of a deterministic default-domain op
// without subgraphs from a short list (ConstantOfShape, Expand, Reshape, Cast,
// arithmetic...) whose inputs are all such values, at most `depth` deep.
inline bool computedFromConstants(const ir::Value* v, int depth = 16) {
  if (!v) return false;
  if (rewrite::constantValue(v)) return true;
  if (v->isGraphInput() || depth == 0) return false;
  const ir::Node* n = v->producer();
  if (!n || !n->domain().empty()) return false;
  static const char* kOps[] = {"ConstantOfShape",
                               "Expand",
                               "Tile",
                               "Reshape",
                               "Identity",
                               "Cast",
                               "Mul",
                               "Add",
                               "Sub",
                               "Div",
                               "Concat",
                               "Transpose",
                               "Squeeze",
                               "Unsqueeze",
                               "Flatten"};
  if (std::none_of(std::begin(kOps), std::end(kOps),
                   [&](const char* op) { return n->opType() == op; }))
    return false;
  for (size_t i = 0; i < n->inputCount(); ++i)
    if (n->input(i) && !computedFromConstants(n->input(i), depth - 1)) return false;
  return true;
}

// The value of `v` when computedFromConstants(v): a constant as it is, else
// its producer run by `evaluator` on its inputs' values (recursively).
// nullopt when `v` is not such a value, a kernel fails, or a value on the way
// would exceed `maxBytes` (this is for small parameters: per-channel scales,
// BatchNormalization statistics, not the weights the executor computes once).
// `opset` is the model's default-domain version.
std::optional<ir::Tensor> valueFromConstants(const ir::Value* v, rewrite::Evaluator& evaluator,
                                             int64_t opset, size_t maxBytes = size_t{1} << 20);

}  // namespace passlab::passes::fusion
