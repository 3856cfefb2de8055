// Raising a model's default-domain opset with every node rewritten to mean
// the same under the new version (raise_opset's work; fuse_hard_swish raises
// to 14 through it when HardSwish chains need the op). What changes per op:
// core/passes/raise_opset.cpp.
#pragma once

#include <cstdint>

#include "core/rewrite/rewriter.h"
#include "core/support/text.h"

namespace passlab::rewrite {
struct NodeFilter;  // core/rewrite/driver.h
}  // namespace passlab::rewrite

namespace passlab::passes {

// "" when every default-domain node of the rewriter's model (subgraphs
// included) can mean the same at opset `target`, which must be newer than the
// model's; else why not: "<node> cannot be raised from opset A to B: <why>".
Text whyNotRaiseOpset(rewrite::Rewriter& rw, int64_t target);

// Raises the model's default-domain opset to `target` through `rw`, rewriting
// the nodes whose form changed. whyNotRaiseOpset must have said "" (a model
// is raised whole or not at all). Returns the number of nodes rewritten.
size_t raiseOpset(rewrite::Rewriter& rw, int64_t target);

// The first default-domain node that raiseOpset(rw, target) would rewrite
// (or may: where unsure, it counts as rewritten) and `filter` keeps away
// from; null when none. A pass that raises the opset for its own rewrites
// (fuse_hard_swish) leaves such a model as it is.
const ir::Node* raiseRewritesOutside(rewrite::Rewriter& rw, int64_t target,
                                     const rewrite::NodeFilter& filter);

}  // namespace passlab::passes
