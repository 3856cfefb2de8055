#include "core/passes/computed_from_constants.h"

#include <vector>

namespace passlab::passes::fusion {

namespace {

std::optional<ir::Tensor> evaluateFromConstants(const ir::Value* v, rewrite::Evaluator& evaluator,
                                                int64_t opset, size_t maxBytes, int depth) {
  if (auto t = rewrite::constantValue(v)) {
    if (t->expectedBytes() > maxBytes) return std::nullopt;
    return t;
  }
  if (depth == 0 || !computedFromConstants(v, depth)) return std::nullopt;
  const ir::Node* n = v->producer();
  std::vector<ir::Tensor> inputs;
  inputs.reserve(n->inputCount());
  std::vector<const ir::Tensor*> pointers(n->inputCount(), nullptr);
  for (size_t i = 0; i < n->inputCount(); ++i) {
    if (!n->input(i)) continue;
    auto t = evaluateFromConstants(n->input(i), evaluator, opset, maxBytes, depth - 1);
    if (!t) return std::nullopt;
    inputs.push_back(std::move(*t));
  }
  for (size_t i = 0, k = 0; i < n->inputCount(); ++i)
    if (n->input(i)) pointers[i] = &inputs[k++];
  auto outputs = evaluator.evaluate(*n, pointers, opset);
  if (!outputs) return std::nullopt;
  for (size_t o = 0; o < n->outputCount() && o < outputs->size(); ++o)
    if (n->output(o) == v && (*outputs)[o].expectedBytes() <= maxBytes)
      return std::move((*outputs)[o]);
  return std::nullopt;
}

}  // namespace

std::optional<ir::Tensor> valueFromConstants(const ir::Value* v, rewrite::Evaluator& evaluator,
                                             int64_t opset, size_t maxBytes) {
  if (!v) return std::nullopt;
  return evaluateFromConstants(v, evaluator, opset, maxBytes, 16);
}

}  // namespace passlab::passes::fusion
