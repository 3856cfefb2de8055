// Normalizations whose extra outputs have their own shapes: BatchNormalization
// (running/saved statistics [C]), LayerNormalization (Mean/InvStdDev with the
// normalised axes kept as 1; also found in the default domain before opset 17),
// com.microsoft SkipLayerNormalization.
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

// Output i takes `elem` unless the schema already gave it a type.
void defaultElem(InferContext& ctx, size_t i, ir::DataType elem) {
  if (ctx.outputType(i).elemType() == ir::DataType::kUndefined && elem != ir::DataType::kUndefined)
    ctx.setOutputElem(i, elem);
}

}  // namespace

void inferBatchNorm(InferContext& ctx) {
  copyShapeFrom(ctx, 0, 0);
  const ir::Shape* x = ctx.inputShape(0);
  const ir::Shape* scale = ctx.inputShape(1);
  ir::Dim channels;
  if (x && x->rank() >= 2)
    channels = (*x)[1];
  else if (scale && scale->rank() == 1)
    channels = (*scale)[0];
  for (size_t i = 1; i < ctx.outputCount(); ++i) {
    if (!ctx.hasOutput(i)) continue;
    defaultElem(ctx, i, ctx.inputElem(1));
    ctx.setOutputShape(i, ir::Shape({channels}));
  }
}

void inferLayerNorm(InferContext& ctx) {
  defaultElem(ctx, 0, ctx.inputElem(0));
  copyShapeFrom(ctx, 0, 0);
  const ir::Shape* x = ctx.inputShape(0);
  ir::DataType stash = ctx.node().domain().empty()
                           ? static_cast<ir::DataType>(ctx.attrInt("stash_type", 1))
                           : ir::DataType::kFloat;
  for (size_t i = 1; i < ctx.outputCount(); ++i) defaultElem(ctx, i, stash);
  if (!x || ctx.outputCount() < 2) return;
  auto axis = ctx.axis(ctx.attrInt("axis", -1), static_cast<int64_t>(x->rank()));
  if (!axis) return;
  std::vector<ir::Dim> dims(x->dims().begin(), x->dims().begin() + *axis);
  dims.resize(x->rank(), ir::Dim(1));
  for (size_t i = 1; i < ctx.outputCount(); ++i)
    if (ctx.hasOutput(i)) ctx.setOutputShape(i, ir::Shape(dims));
}

void inferSkipLayerNorm(InferContext& ctx) {
  defaultElem(ctx, 0, ctx.inputElem(0));
  copyShapeFrom(ctx, 0, 0);
  const ir::Shape* x = ctx.inputShape(0);
  for (size_t i = 1; i < ctx.outputCount(); ++i) {
    if (!ctx.hasOutput(i)) continue;
    if (i == 3) {  // input_skip_bias_sum
      defaultElem(ctx, i, ctx.inputElem(0));
      copyShapeFrom(ctx, 0, i);
      continue;
    }
    defaultElem(ctx, i, ir::DataType::kFloat);
    if (x && x->rank() > 0) {
      std::vector<ir::Dim> dims(x->dims().begin(), x->dims().end() - 1);
      dims.emplace_back(1);
      ctx.setOutputShape(i, ir::Shape(std::move(dims)));
    }
  }
}

}  // namespace passlab::analysis::infer
