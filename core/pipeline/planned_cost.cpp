#include "core/pipeline/planned_cost.h"

#include "core/analysis/shape_inference.h"

namespace passlab::pipeline {

namespace {

// A clone of `model` whose graph inputs carry the planned shapes, with the
// shapes of every other value inferred from them.
ir::Model withPlannedShapes(const ir::Model& model, const std::vector<InputPlan>& plan) {
  ir::Model copy = model.clone();
  for (const InputPlan& p : plan) {
    ir::Value* v = copy.graph().findValue(p.name);
    if (v) v->setType(ir::Type::tensor(p.dtype, ir::Shape::fromValues(p.shape())));
  }
  analysis::ShapeInferenceOptions options;
  options.replaceDeclared = true;  // the symbolic shapes inferred before give way
  analysis::inferShapes(copy, options);
  return copy;
}

}  // namespace

Expected<PlannedCost> costAtPlannedInputs(const ir::Model& model) {
  auto plan = planInputs(model, {});
  if (!plan) return plan.error();
  PlannedCost out;
  out.cost = analysis::estimateModelCost(withPlannedShapes(model, *plan));
  out.inputs = std::move(plan).value();
  return out;
}

}  // namespace passlab::pipeline
