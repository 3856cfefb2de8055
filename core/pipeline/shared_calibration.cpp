#include "core/pipeline/shared_calibration.h"

#include "core/pipeline/pass_manager.h"

namespace passlab::pipeline {

namespace {

std::string producerOp(const ir::Model& model, const std::string& name) {
  const ir::Value* v = model.graph().findValue(name);
  return v && v->producer() ? v->producer()->opType() : "";
}

}  // namespace

SharedCalibration::SharedCalibration(rewrite::Evaluator& calibrating) : calibrating_(calibrating) {}

Status SharedCalibration::prepare(const ir::Model& model, const std::string& passId,
                                  const passes::Options& options, const std::atomic<bool>* cancel) {
  stats_.clear();
  ir::Model copy = model.clone();
  nodeCount_ = copy.graph().nodes().size();
  PipelineOptions po;
  po.keepSnapshots = false;
  PassManager pm(copy, po);
  pm.setEvaluator(this);
  pm.setCancelFlag(cancel);
  preparing_ = true;
  auto step = pm.run({passId, options, {}});
  preparing_ = false;
  if (!step) return step.error();
  if ((*step)->rolledBack) return Error(ErrorCode::kInternal, (*step)->error);
  return Status::ok();
}

Expected<std::vector<ir::Tensor>> SharedCalibration::evaluate(
    const ir::Node& node, const std::vector<const ir::Tensor*>& inputs, int64_t opsetVersion) {
  return calibrating_.evaluate(node, inputs, opsetVersion);
}

Text SharedCalibration::firstNonFiniteInput(const ir::Model& model) {
  auto* source = dynamic_cast<passes::NonFiniteInputSource*>(&calibrating_);
  return source ? source->firstNonFiniteInput(model) : Text();
}

Text SharedCalibration::takeNonFiniteNote() {
  std::lock_guard<std::mutex> lock(observing_);
  auto* source = dynamic_cast<passes::NonFiniteInputSource*>(&calibrating_);
  return source ? source->takeNonFiniteNote() : Text();
}

Status SharedCalibration::observeValues(const ir::Model& model,
                                        const std::vector<std::string>& values,
                                        const Observer& observe, const std::atomic<bool>* cancel) {
  std::lock_guard<std::mutex> lock(observing_);
  if (!preparing_) return calibrating_.observeValues(model, values, observe, cancel);
  // prepare(): the pass's own observer, and a copy of every value kept here.
  std::vector<Shared*> kept;
  for (const std::string& name : values) {
    Shared& s = stats_[name];
    s = Shared{{}, producerOp(model, name)};
    kept.push_back(&s);
  }
  return calibrating_.observeValues(
      model, values,
      [&](size_t k, const ir::Tensor& t) -> Status {
        if (t.dtype() == ir::DataType::kFloat) kept[k]->stats.add(t);
        return observe(k, t);
      },
      cancel);
}

const passes::TensorStats* SharedCalibration::statsOf(const ir::Model& model,
                                                      const std::string& name) const {
  if (preparing_ || model.graph().nodes().size() != nodeCount_) return nullptr;
  auto it = stats_.find(name);
  if (it == stats_.end() || it->second.stats.empty()) return nullptr;
  if (producerOp(model, name) != it->second.producerOp) return nullptr;
  return &it->second.stats;
}

}  // namespace passlab::pipeline
