// What the passes that emit PassLab's fused ops (ai.passlab FusedConv,
// FusedGemm, FusedElementwise; docs/fused-kernels.md) share: recognizing the
// activation that follows a value (one node, or the decomposed GELU), shape
// comparisons that accept symbolic dims, and adding an ai.passlab node (with
// the domain's opset import).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ir/passlab_ops.h"
#include "core/passes/fusion_utils.h"

namespace passlab::passes::fusedops {

inline constexpr const char* kDomain = ir::passlab_ops::kDomain;  // core/ir/passlab_ops.h

// An activation applied to a value, as FusedConv/FusedGemm's `activation` and
// `activation_params` attributes name it.
struct Activation {
  std::string name;              // "Relu", "LeakyRelu", "Clip", "Sigmoid", "Tanh",
                                 // "HardSigmoid", "HardSwish", "Gelu"
  std::vector<float> params;     // LeakyRelu [alpha]; Clip [min, max]; HardSigmoid
                                 // [alpha, beta]; Gelu [0] erf or [1] tanh
  std::vector<ir::Node*> nodes;  // the nodes that compute it
  ir::Value* output = nullptr;   // its result
};

// The activation `t` feeds: its one consumer when that is Relu, LeakyRelu,
// Clip (constant bounds), Sigmoid, Tanh, HardSigmoid, HardSwish or Gelu
// (opset >= 20), or the erf or tanh GELU subgraph reading t (the forms
// fuse_gelu matches: x * 0.5 * (1 + Erf(x / sqrt 2)) and
// x * 0.5 * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3))), the product in any
// association; constants within a relative 1e-4). nullopt with `why`.
std::optional<Activation> activationAfter(ir::Value* t, const rewrite::MatchContext& c, Text& why);

// The float scalar parameters of an activation node (LeakyRelu alpha, Clip
// bounds from attributes before opset 11 or constant inputs after, ...), as
// `activationAfter` reports them; nullopt with `why` (a Clip bound that is
// not a constant scalar).
std::optional<std::vector<float>> activationParams(const ir::Node& n, int64_t opset, Text& why);

// True when a and b have known shapes that are equal dim by dim (static
// values or the same symbol).
bool sameShape(const ir::Value* a, const ir::Value* b);

// True for the ai.passlab node `op`.
bool isFused(const ir::Node* n, std::string_view op);

// A new ai.passlab `op` node before `before` with output 0 typed like
// `typeLike`; imports the ai.passlab domain (version 1) when the model does
// not yet.
ir::Node* addFused(rewrite::Rewriter& rw, const std::string& op,
                   const std::vector<ir::Value*>& inputs, ir::Node* before,
                   const std::vector<const ir::Node*>& from, const ir::Value* typeLike);

}  // namespace passlab::passes::fusedops
