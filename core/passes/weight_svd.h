// The singular value decomposition of a MatMul / Gemm weight as
// factorize_low_rank takes it (w as K x N = U S V^T, thin, in double), and a
// source of decompositions computed once for many runs of the pass on copies
// of one model: the rank search (core/pipeline/low_rank_search.h) tries
// several ranks of each layer, and the decomposition does not depend on the
// rank. An Evaluator that also implements WeightSvdSource answers for the
// weights it holds; the pass decomposes the others itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/ir/node.h"
#include "core/ir/tensor.h"

namespace passlab::passes {

struct WeightSvd {
  int64_t k = 0, n = 0, size = 0;  // the weight as K x N; min(K, N) singular values
  std::vector<double> u;           // K x size, column-major
  std::vector<double> s;           // size, largest first
  std::vector<double> v;           // N x size, column-major
};

// The decomposition factorize_low_rank computes for weight `w` (transposed
// first when `transposed`: a Gemm's B with transB); factorize_low_rank.cpp.
WeightSvd decomposeWeight(const ir::Tensor& w, bool transposed);
// How many decompositions decomposeWeight has computed in this process.
size_t weightDecompositions();

class WeightSvdSource {
 public:
  virtual ~WeightSvdSource() = default;
  // The decomposition of input 1 of MatMul / Gemm `n` (as the pass takes it),
  // or nullptr when this source has none for that weight.
  virtual const WeightSvd* svdOf(const ir::Node& n) const = 0;
};

}  // namespace passlab::passes
