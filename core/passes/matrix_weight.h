// The weight of a MatMul or Gemm as the passes that rewrite weights see it
// (quantize_dynamic, factorize_low_rank).
#pragma once

#include "core/ir/node.h"
#include "core/support/text.h"

namespace passlab::passes {

// "" when input 1 of MatMul / Gemm `n` is a float32 constant matrix (an
// initializer, not an overridable graph input) and `n` can be rewritten
// around it (a Gemm without transA); else why not.
Text whyNotConstantMatrixWeight(const ir::Node& n);

}  // namespace passlab::passes
