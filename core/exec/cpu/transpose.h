// Moving elements by index arithmetic: permuting dims (Transpose,
// DepthToSpace, SpaceToDepth) and strided views (Slice).
#pragma once

#include <vector>

#include "core/exec/tensor.h"

namespace passlab::exec::cpu {

// `y` must be allocated with the permuted dims and x's dtype (any whole-byte
// type or string).
void transposeInto(const Tensor& x, const std::vector<int64_t>& perm, Tensor& y, int threads);

// y[i...] = x[base + sum(i_k * srcStrides[k])] for every index of y's dims
// (strides in elements, possibly negative): Slice and friends.
void stridedCopy(const Tensor& x, int64_t base, const std::vector<int64_t>& srcStrides, Tensor& y,
                 int threads);

}  // namespace passlab::exec::cpu
