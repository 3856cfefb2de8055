#include "core/pipeline/layer_steps.h"

#include <utility>

namespace passlab::pipeline {

namespace {

PipelineOptions checkedOptions(const AccuracyBudget& budget) {
  PipelineOptions po;
  po.keepSnapshots = false;
  po.budget = budget;
  return po;
}

}  // namespace

CheckedSteps::CheckedSteps(ir::Model& model, ExecOutputChecker& checker,
                           const AccuracyBudget& budget, rewrite::Evaluator* evaluator,
                           const std::atomic<bool>* cancel)
    : pm_(model, checkedOptions(budget)) {
  pm_.setChecker(&checker);
  pm_.setEvaluator(evaluator);
  pm_.setCancelFlag(cancel);
}

Expected<const Step*> CheckedSteps::run(PassSpec spec) {
  auto step = pm_.run(spec);
  if (!step) return step.error();
  const Step& s = **step;
  if (s.rolledBack && !s.check.ran) return Error(ErrorCode::kInternal, s.error);
  return step;
}

PassSpec layerStep(const char* passId, passes::Options options, ir::NodeId node) {
  rewrite::NodeFilter only;
  only.only.insert(node);
  return {passId, std::move(options), std::move(only)};
}

}  // namespace passlab::pipeline
