// Whether a value is computed from constants only: the weights of the
// onnx_light_* models are ConstantOfShape outputs, which fold_constants' size
// budget keeps unfolded. A fusion that would fold values into such a weight
// instead emits the arithmetic as nodes (W' = Mul(W, s)); the executor runs a
// node whose inputs are all such values once, not per run (compiled_graph.h,
// Invariance).
#pragma once

#include <algorithm>
#include <iterator>

#include "core/ir/graph.h"
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

}  // namespace passlab::passes::fusion
