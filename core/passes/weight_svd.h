// The singular value decomposition of a MatMul / Gemm / 1x1 Conv weight as
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
#include "core/support/text.h"

namespace passlab::passes {

struct WeightSvd {
  int64_t k = 0, n = 0, size = 0;  // the weight as K x N; min(K, N) singular values
  std::vector<double> u;           // K x size, column-major
  std::vector<double> s;           // size, largest first
  std::vector<double> v;           // N x size, column-major
};

// The weight of a node factorize_low_rank can take, as the K x N matrix of a
// product x w (K inputs, N outputs): a MatMul's [K, N], a Gemm's B ([N, K]
// with transB: transposed), or a Conv's W [M, C, 1, ..., 1] with a kernel of
// ones in one group (as C x M: transposed; strides, pads and dilations stay
// on the first of the two Conv nodes, so any of them).
struct LowRankWeight {
  int64_t k = 0, n = 0;
  bool transposed = false;
  bool conv = false;
};

// "" when factorize_low_rank can take node `n` (a default-domain MatMul,
// Gemm without transA, or Conv as above, with a float32 constant weight),
// filling `shape`; else why not.
Text whyNotLowRankWeight(const ir::Node& n, LowRankWeight* shape = nullptr);

// The decomposition factorize_low_rank computes for weight `w` (transposed
// first when `transposed`: a Gemm's B with transB, a Conv's W), its first
// dimension the rows and the others flattened the columns; factorize_low_rank.cpp.
WeightSvd decomposeWeight(const ir::Tensor& w, bool transposed);
// How many decompositions decomposeWeight has computed in this process.
size_t weightDecompositions();

class WeightSvdSource {
 public:
  virtual ~WeightSvdSource() = default;
  // The decomposition of input 1 of MatMul / Gemm / Conv `n` (as the pass takes it),
  // or nullptr when this source has none for that weight.
  virtual const WeightSvd* svdOf(const ir::Node& n) const = 0;
};

}  // namespace passlab::passes
