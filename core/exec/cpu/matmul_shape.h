// numpy matmul shapes: 1-D operands promoted (and the added dim dropped from
// the result), batch dims broadcast.
#pragma once

#include <vector>

#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

struct MatMulShape {
  Dims out;
  int64_t M = 0, K = 0, N = 0;
  Dims batch;                  // broadcast batch dims
  Dims aBatch, bBatch;         // the operands' batch dims, padded to batch's rank with 1s
  std::vector<int64_t> aMats;  // for each batch index: the matrix of a / of b it reads
  std::vector<int64_t> bMats;
  int64_t batchCount() const { return static_cast<int64_t>(aMats.size()); }
};

Expected<MatMulShape> matmulShape(const Dims& a, const Dims& b);

}  // namespace passlab::exec::cpu
