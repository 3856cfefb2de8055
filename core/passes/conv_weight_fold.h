// Folding a per-output-channel factor into a Conv's weight, as
// fuse_conv_batchnorm and fuse_conv_add_mul do: the weight as values when it
// is constant, or (from opset 7) computed from constants only
// (computed_from_constants.h) with static dims and a float type; then
// W'[m] = W[m] * f[m] (or W[m] / f[m]) for every weight of output channel m.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ir/node.h"
#include "core/ir/tensor.h"
#include "core/rewrite/rewriter.h"
#include "core/support/text.h"

namespace passlab::passes {

struct FoldableConvWeight {
  std::optional<ir::Tensor> constant;  // the weight, when it is constant
  std::vector<double> values;          // its values as float64 (constant only)
  std::vector<int64_t> dims;           // [M, C/group, k...], rank 3 or more
  ir::DataType type = ir::DataType::kUndefined;

  bool computed() const { return !constant; }
};

// The weight (input 1) of `conv` ready for folding at `opset`, or nullopt
// with `why` (the rule's failure message).
std::optional<FoldableConvWeight> foldableConvWeight(const ir::Node& conv, int64_t opset,
                                                     Text& why);

// W' with each output channel m of `w` multiplied by f[m] (divided with
// `divide`), before `conv`, derived from `from`: a constant named after W
// plus `constSuffix` (folded in float64, rounded once), or, for a computed
// weight, a Mul (Div) node of W and an [M, 1, 1, ...] constant named after W
// plus `factorSuffix`, which the executor computes once.
ir::Value* scaledConvWeight(rewrite::Rewriter& rw, ir::Node* conv, const FoldableConvWeight& w,
                            const std::vector<double>& f, bool divide,
                            const std::string& constSuffix, const std::string& factorSuffix,
                            const std::vector<const ir::Node*>& from);

}  // namespace passlab::passes
