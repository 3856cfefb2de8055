// A float32 elementwise sub-DAG between one DequantizeLinear and one
// QuantizeLinear (fold_qdq_unary_into_lookup's general rule): with per-tensor
// scales and zero points, the QuantizeLinear's result is a function of the
// 8-bit input alone, so the 256 possible inputs give its whole table. The
// table is computed by running the DequantizeLinear, the chain and the
// QuantizeLinear on those 256 values through the pass's Evaluator (the
// executor's own kernels), so it holds the QDQ form's results bit for bit.
#pragma once

#include <optional>
#include <vector>

#include "core/ir/node.h"
#include "core/ir/tensor.h"
#include "core/rewrite/evaluator.h"
#include "core/support/text.h"

namespace passlab::passes {

struct QdqChain {
  ir::Node* dq = nullptr;        // the one DequantizeLinear the chain reads
  std::vector<ir::Node*> nodes;  // the chain, inputs before readers (at least one)
};

// The chain that computes `q`'s data input from one DequantizeLinear: every
// node a default-domain elementwise op (fusion::isElementwise{Unary,Binary})
// with one float32 output, whose inputs are the DequantizeLinear's output,
// another chain node's output, an omitted optional input, or a constant of
// one value that does not raise the rank of the 8-bit input. Else nullopt and
// `why`.
std::optional<QdqChain> findQdqChain(const ir::Node& q, Text& why);

// q's 256 results for the 8-bit input's values from its type's lowest, as a
// [256] tensor of q's output type (uint8 or int8), evaluated node by node;
// nullopt and `why` when a kernel fails or the result is not 8-bit.
std::optional<ir::Tensor> qdqChainTable(const QdqChain& chain, const ir::Node& q,
                                        rewrite::Evaluator& evaluator, int64_t opset, Text& why);

}  // namespace passlab::passes
