// Launch function of reduce.cu: the Reduce* ops over any set of axes. Plain
// types only (no PassLab headers); the geometry comes from reducePlan
// (reduce_plan_cuda.h).
#pragma once

#include <cstdint>

typedef struct CUstream_st* cudaStream_t;

namespace passlab::exec::cuda {

enum class ReduceOp : int {
  kSum = 0,
  kMean,
  kMax,
  kMin,
  kProd,
  kL1,
  kL2,
  kLogSum,
  kLogSumExp,
  kSumSquare
};

inline constexpr int kMaxReduceRank = 8;

// Output element o (row-major over kept_dims) reduces the elements at
// base(o) + offset(r) for r in [0, reduced_count), r row-major over
// reduced_dims; strides are the input's element strides.
struct ReduceGeometry {
  int kept_rank = 0;
  int64_t kept_dims[kMaxReduceRank] = {};
  int64_t kept_strides[kMaxReduceRank] = {};
  int reduced_rank = 0;
  int64_t reduced_dims[kMaxReduceRank] = {};
  int64_t reduced_strides[kMaxReduceRank] = {};
  int64_t out_count = 0;
  int64_t reduced_count = 1;
};

// Returns the CUDA status of the launch (0 = success). float_type as in
// normalization_launch.h; accumulation in float.
int launchReduce(int float_type, ReduceOp op, const void* x, void* y, const ReduceGeometry& g,
                 cudaStream_t stream);

// ArgMax (is_max) or ArgMin along an axis: y[r] (int64) is the index in
// [0, len) of the first (last, with select_last) largest (smallest) element of
// row r, element i of row r at (r / inner) * len * inner + r % inner + i * inner;
// compared as the CPU kernel does (NaN is never better). One thread per row.
int launchArgMinMax(int float_type, bool is_max, bool select_last, const void* x, int64_t* y,
                    int64_t outer, int64_t len, int64_t inner, cudaStream_t stream);

}  // namespace passlab::exec::cuda
