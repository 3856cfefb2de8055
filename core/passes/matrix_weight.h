// The weight of a MatMul or Gemm as the passes that rewrite weights see it
// (quantize_dynamic, factorize_low_rank).
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/node.h"
#include "core/passes/node_policy.h"
#include "core/passes/rule_helpers.h"
#include "core/support/text.h"

namespace passlab::passes {

// The float32 data of a constant value, else nullopt: an initializer that is
// not an overridable graph input, or a Constant node's tensor (paddle2onnx
// writes every weight so), as rewrite::constantValue reads it.
std::optional<ir::Tensor> constantFloat(const ir::Value* v);

// "" when input 1 of MatMul / Gemm `n` is a float32 constant matrix (an
// initializer, not an overridable graph input, or a Constant node's) and `n`
// can be rewritten around it (a Gemm without transA); else why not.
Text whyNotConstantMatrixWeight(const ir::Node& n);

// Which nodes forEachMatrixNode visits: MatMul and Gemm, or also Conv (whose
// 1x1 kernels are matrices too; the rewrite decides which Conv it takes).
enum class MatrixOps { MatMulGemm, AlsoConv };

// rewrite(ir::Node&) -> Text for each default-domain MatMul and Gemm (and Conv
// with MatrixOps::AlsoConv) of the main graph, in order, with the driver's
// policy (forEachNode: Cancel stops the pass, a node the filter excludes is
// noted and left). rewrite returns "" when it rewrote the node, else why not,
// which the explain log gets under `passId`.
template <class Rewrite>
Status forEachMatrixNode(const PassContext& ctx, std::string_view passId, MatrixOps ops,
                         Rewrite&& rewrite) {
  std::vector<ir::Node*> nodes;
  for (const auto& n : ctx.model().graph().nodes())
    if (isDefaultOp(*n, "MatMul") || isDefaultOp(*n, "Gemm") ||
        (ops == MatrixOps::AlsoConv && isDefaultOp(*n, "Conv")))
      nodes.push_back(n.get());
  return forEachNode(ctx, passId, passId, nodes, [&](ir::Node& n) {
    Text why = rewrite(n);
    if (!why.empty() && ctx.explain) ctx.explain->note(n.id(), passId, std::move(why));
    return Status::ok();
  });
}

template <class Rewrite>
Status forEachMatrixNode(const PassContext& ctx, std::string_view passId, Rewrite&& rewrite) {
  return forEachMatrixNode(ctx, passId, MatrixOps::MatMulGemm, std::forward<Rewrite>(rewrite));
}

}  // namespace passlab::passes
