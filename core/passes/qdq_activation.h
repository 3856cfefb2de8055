// A float32 activation between a DequantizeLinear and what reads it, computed
// as the CPU executor computes it (core/exec/cpu/activations.cpp), so that a
// table of its values over the 256 inputs of an 8-bit tensor gives the
// executor's own results (fold_qdq_unary_into_lookup, fuse_qdq_squeeze_excite).
#pragma once

#include <optional>
#include <string>

#include "core/ir/node.h"

namespace passlab::passes {

struct QdqActivation {
  std::string op;  // HardSwish, HardSigmoid, Relu, LeakyRelu
  float alpha = 0, beta = 0;
  float operator()(float x) const {
    if (op == "HardSwish") {
      float v = x / 6.0f + 0.5f;
      v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
      return x * v;
    }
    if (op == "HardSigmoid") {
      const float v = alpha * x + beta;
      return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
    }
    if (op == "Relu") return x < 0.0f ? 0.0f : x;
    return x < 0.0f ? alpha * x : x;  // LeakyRelu
  }
};

// The activation a default-domain node computes, or nullopt for any other node.
inline std::optional<QdqActivation> qdqActivationOf(const ir::Node* n) {
  if (!n || !n->domain().empty()) return std::nullopt;
  const std::string& op = n->opType();
  if (op == "HardSwish" || op == "Relu") return QdqActivation{op};
  if (op == "HardSigmoid")
    return QdqActivation{op, n->attrFloat("alpha", 0.2f), n->attrFloat("beta", 0.5f)};
  if (op == "LeakyRelu") return QdqActivation{op, n->attrFloat("alpha", 0.01f)};
  return std::nullopt;
}

}  // namespace passlab::passes
