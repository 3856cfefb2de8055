// The stored constants of a layer as the sparsity passes edit them
// (prune_magnitude, remove_dead_channels): a weight or bias is replaced by a
// new constant, never edited in place (another node may read the same one).
#pragma once

#include <string>
#include <vector>

#include "core/ir/node.h"
#include "core/ir/tensor.h"
#include "core/rewrite/rewriter.h"

namespace passlab::passes {

// Input `index` of `n` now reads a new constant holding `t` (named after
// `hint`); the constant it read before goes when nothing else reads it
// (frozen first when it was also a graph input, as every initializer is below
// IR version 4, so that it is not left behind as one; not below IR version 3,
// whose legacy broadcast raising the version would end).
void replaceConstantInput(rewrite::Rewriter& rw, ir::Node& n, size_t index, ir::Tensor t,
                          const std::string& hint);

// `t` with the entries `drop` (sorted, unique) removed along `axis`.
ir::Tensor dropAlongAxis(const ir::Tensor& t, int64_t axis, const std::vector<int64_t>& drop);

}  // namespace passlab::passes
