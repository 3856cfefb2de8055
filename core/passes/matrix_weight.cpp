#include "core/passes/matrix_weight.h"

#include "core/ir/value.h"
#include "core/rewrite/match_utils.h"

namespace passlab::passes {

std::optional<ir::Tensor> constantFloat(const ir::Value* v) {
  auto t = rewrite::constantValue(v);
  if (!t || t->dtype() != ir::DataType::kFloat) return std::nullopt;
  return t;
}

Text whyNotConstantMatrixWeight(const ir::Node& n) {
  const ir::Value* b = n.input(1);
  const ir::Node* producer = b ? b->producer() : nullptr;
  auto w = rewrite::constantValue(b);
  if (!w)
    return producer && isDefaultOp(*producer, "Constant")
               ? "the weight's Constant node holds no tensor"
               : "the weight is not a constant initializer";
  if (w->dtype() != ir::DataType::kFloat || w->rank() != 2)
    return Text::of("the weight is %1, not a float32 matrix", w->summary());
  if (n.opType() == "Gemm" && n.attrInt("transA", 0) != 0) return "Gemm transposes A";
  return "";
}

}  // namespace passlab::passes
