// Matching the decomposed GELU, shared by fuse_gelu (into Gelu),
// fuse_ort_gelu (into ONNX Runtime's Gelu, BiasGelu, FastGelu) and the
// activation recognizer of the ai.passlab fusions (passlab_fused_utils.h).
// Matching never edits the graph.
//
// The forms (see fuse_gelu.cpp for the algebra):
//   erf:   y = x * 0.5 * (1 + Erf(x / sqrt(2)))       (x / 1.4142135 or x * 0.70710678)
//   tanh:  y = x * 0.5 * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
//          (x^3 as Pow(x, 3), Mul(x, Mul(x, x)) or Mul(Mul(x, x), x))
// the product of x, 0.5 and the (1 + ...) factor in any association, constants
// within a relative 1e-4.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/support/text.h"

namespace passlab::passes::fusion {

struct GeluMatch {
  ir::Value* x = nullptr;        // the GELU's input
  bool tanh = false;             // the tanh approximation (else erf)
  std::vector<ir::Node*> nodes;  // the matched nodes
  ir::Node* last = nullptr;      // the node whose output 0 is Gelu(x)
};

// Rooted at Erf(x / sqrt(2)) / at Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)),
// recognized by shape (fuse_gelu). Checks the result too (whyNotGeluResult).
std::optional<GeluMatch> matchGeluErf(ir::Node& erf, Text& why);
std::optional<GeluMatch> matchGeluTanh(ir::Node& tanh, Text& why);

// Rooted at the Erf or the Tanh, its argument recognized by value rather than
// by shape (fuse_ort_gelu): built from x and scalar constants with
// Add/Sub/Mul/Div/Pow/Sqrt/Neg only, and equal to x / sqrt(2) (erf) or
// sqrt(2/pi) (x + 0.044715 x^3) (tanh) within a relative 1e-4 at seven points.
// Checks the result too (whyNotGeluResult).
std::optional<GeluMatch> matchGeluByValue(ir::Node& root, Text& why);

// Forward from `first`, a node reading x (Div/Mul of the erf form, Pow/Mul of
// the tanh form), every intermediate the sole consumer of the one before
// (the ai.passlab activation recognizer). nullopt when `first` starts no GELU;
// the caller checks the subgraph is closed.
std::optional<GeluMatch> matchGeluFrom(ir::Node& first, ir::Value* x);

// "" when the match can become one node: its intermediates read only inside
// it (rewrite::whyNotClosed), x a float tensor, the result of x's type and
// shape; else the reason.
Text whyNotGeluResult(const GeluMatch& m);

}  // namespace passlab::passes::fusion
