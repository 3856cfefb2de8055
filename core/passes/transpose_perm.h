// Permutation arithmetic shared by push_transposes' rules: a Transpose's perm
// composed, inverted, and followed through ops that drop or insert axes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/type.h"
#include "core/ir/value.h"

namespace passlab::passes {

// q with q[p[i]] = i.
std::vector<int64_t> inversePerm(const std::vector<int64_t>& p);
// True when p holds 0..n-1 once each.
bool isPerm(const std::vector<int64_t>& p);
// The perm of Transpose(Transpose(x, first), second): first[second[i]].
std::vector<int64_t> composePerms(const std::vector<int64_t>& first,
                                  const std::vector<int64_t>& second);
bool isIdentityPerm(const std::vector<int64_t>& p);

// The type `v` would have with its dims permuted: dims[i] of the result =
// dims[perm[i]]; undefined when v's rank is not perm's.
ir::Type permutedType(const ir::Value* v, const std::vector<int64_t>& perm);

// The perm after dropping the axes `goneOfX` of x (a reduction without
// keepdims, a Squeeze): the remaining entries, renumbered.
std::vector<int64_t> withoutAxes(const std::vector<int64_t>& perm,
                                 const std::vector<int64_t>& goneOfX);

// The perm after inserting size-1 axes at `inserted` (axes of the result, the
// same for x's result): they stay in place, the others follow `perm`.
std::vector<int64_t> withAxes(const std::vector<int64_t>& perm,
                              const std::vector<int64_t>& inserted);

}  // namespace passlab::passes
