// Small facts about values and nodes that input synthesis and its window walk
// both ask: constant data behind a value, static dims, whether an op is a
// default-domain one, and a node's name for reasons.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/node.h"
#include "core/ir/tensor.h"
#include "core/ir/value.h"

namespace passlab::pipeline {

// The default ONNX domain ("" or "ai.onnx").
bool standardOp(const ir::Node& n);
// Constant data behind a value: an initializer or a Constant node's `value`.
const ir::Tensor* constantOf(const ir::Value* v);
// The static dims of a value (constant data or a fully static declared shape).
std::optional<std::vector<int64_t>> staticDims(const ir::Value* v);
// "Conv 'c1'" (the first output's name when the node has none), for reasons.
std::string nodeName(const ir::Node& n);

}  // namespace passlab::pipeline
