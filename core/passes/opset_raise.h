// Raising a model's default-domain opset with every node rewritten to mean
// the same under the new version (raise_opset's work; fuse_hard_swish raises
// to 14 through it when HardSwish chains need the op). What changes per op:
// core/passes/raise_opset.cpp.
#pragma once

#include <cstdint>

#include "core/rewrite/rewriter.h"
#include "core/support/text.h"

namespace passlab::passes {

// "" when every default-domain node of the rewriter's model (subgraphs
// included) can mean the same at opset `target`, which must be newer than the
// model's; else why not: "<node> cannot be raised from opset A to B: <why>".
Text whyNotRaiseOpset(rewrite::Rewriter& rw, int64_t target);

// Raises the model's default-domain opset to `target` through `rw`, rewriting
// the nodes whose form changed. whyNotRaiseOpset must have said "" (a model
// is raised whole or not at all). Returns the number of nodes rewritten.
size_t raiseOpset(rewrite::Rewriter& rw, int64_t target);

}  // namespace passlab::passes
