// Shapes of ai.passlab QLinearLookup and QLinearSqueezeExcite (core/ir/passlab_ops.h):
// Y has X's shape and the element type of the table (of y_zero_point).
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

void inferPasslabQLinearLookup(InferContext& ctx) {
  if (ctx.hasInput(1) && ctx.inputElem(1) != ir::DataType::kUndefined)
    ctx.setOutputElem(0, ctx.inputElem(1));
  if (const ir::Shape* x = ctx.inputShape(0)) ctx.setOutputShape(0, *x);
}

void inferPasslabQLinearSqueezeExcite(InferContext& ctx) {
  if (ctx.hasInput(7) && ctx.inputElem(7) != ir::DataType::kUndefined)
    ctx.setOutputElem(0, ctx.inputElem(7));
  if (const ir::Shape* x = ctx.inputShape(0)) ctx.setOutputShape(0, *x);
}

}  // namespace passlab::analysis::infer
