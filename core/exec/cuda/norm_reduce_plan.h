// Host-side geometry of the normalization, softmax and reduce kernels (no
// CUDA calls; unit-tested in tests/core/exec/cuda/norm_reduce_plan_test.cpp):
// rows of a softmax along an axis, rows of a normalization from an axis on,
// how a parameter broadcasts over the normalized dims, a mask's strides, and
// a reduction over any axes as kept and reduced dims with their strides.
#pragma once

#include <cstdint>
#include <vector>

#include "core/exec/cuda/attention_launch.h"
#include "core/exec/cuda/reduce_launch.h"
#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cuda {

// Softmax along `axis` of `dims`: outer * inner rows of len elements, element
// i of a row inner apart. flattened (opset < 13): the input is seen as 2-D
// [prod(dims[:axis]), prod(dims[axis:])], so inner = 1.
struct SoftmaxRows {
  int64_t outer = 1, len = 1, inner = 1;
};
Expected<SoftmaxRows> softmaxRows(const Dims& dims, int64_t axis, bool flattened);

// ArgMax / ArgMin along `axis`: rows as softmaxRows (one axis), and the
// output dims (the axis kept as 1 with keepDims, else dropped).
struct ArgRows {
  int64_t outer = 1, len = 1, inner = 1;
  Dims outDims;
};
Expected<ArgRows> argRows(const Dims& dims, int64_t axis, bool keepDims);

// A normalization over the dims from `axis` on: rows of cols contiguous elements.
struct NormRows {
  int64_t rows = 0, cols = 0;
  Dims normDims;
};
Expected<NormRows> normRows(const Dims& dims, int64_t axis);

// The element count of a parameter (Scale, B) that broadcasts to `normDims` by
// repeating: its dims, leading 1s dropped, are the trailing dims of normDims
// (element c of a row is then param[c % count]). Else an error naming `what`.
Expected<int64_t> repeatingParamCount(const Dims& param, const Dims& normDims, const char* what);

// The strides (in elements) to read `maskDims` at each index of `xDims`, 0
// where it broadcasts; an error when it does not broadcast into xDims without
// widening it.
Expected<std::vector<int64_t>> broadcastStrides(const Dims& maskDims, const Dims& xDims);

// A reduction of `dims` over `axes` (empty: all, or none with
// noopWithEmptyAxes): the output dims and the launch geometry, adjacent kept
// (reduced) dims merged; an error names a bad axis, or a geometry of more than
// kMaxReduceRank kept or reduced blocks.
struct CudaReducePlan {
  Dims outDims;
  ReduceGeometry geometry;
};
Expected<CudaReducePlan> planCudaReduce(const Dims& dims, const std::vector<int64_t>& axes,
                                        bool keepDims, bool noopWithEmptyAxes);

// ai.passlab FusedAttention's shapes: Q [..., S, H], K [..., T, H] ([..., H, T]
// when kTransposed), V [..., T, Hv], batch dims broadcasting as MatMul's, and
// up to three masks (nullptr when absent: mask_mul, mask_add, mask_bool)
// broadcasting to the scores [batch..., S, T]. Fills the geometry of `args`
// (batch dims and strides, S, T, H, Hv; not pointers nor attributes) and
// returns Y's dims [batch..., S, Hv]; errors name the shapes.
Expected<Dims> planAttention(const Dims& q, const Dims& k, const Dims& v, bool kTransposed,
                             const Dims* const masks[3], AttentionArgs& args);

}  // namespace passlab::exec::cuda
