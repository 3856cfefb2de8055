#include "core/passes/matrix_weight.h"

#include "core/ir/value.h"

namespace passlab::passes {

Text whyNotConstantMatrixWeight(const ir::Node& n) {
  const ir::Value* b = n.input(1);
  if (!b || !b->isInitializer() || b->isGraphInput())
    return "the weight is not a constant initializer";
  const ir::Tensor& w = *b->initializer();
  if (w.dtype() != ir::DataType::kFloat || w.rank() != 2)
    return Text::of("the weight is %1, not a float32 matrix", w.summary());
  if (n.opType() == "Gemm" && n.attrInt("transA", 0) != 0) return "Gemm transposes A";
  return "";
}

}  // namespace passlab::passes
