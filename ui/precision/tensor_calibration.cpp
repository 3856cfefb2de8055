#include "ui/precision/tensor_calibration.h"

#include <algorithm>
#include <set>

namespace passlab::ui {

namespace {

constexpr size_t kChunk = 256;

bool isFloat32Activation(const ir::Value* v) {
  return v != nullptr && !v->isInitializer() && v->type().isTensor() &&
         v->type().elemType() == ir::DataType::kFloat;
}

TensorCalibration summarize(const passes::TensorStats& s, double percentile) {
  using passes::CalibrationMethod;
  TensorCalibration c;
  c.min = s.min();
  c.max = s.max();
  c.count = s.count();
  c.bins = s.histogram(TensorCalibration::kBins);
  for (CalibrationMethod m :
       {CalibrationMethod::kMinMax, CalibrationMethod::kPercentile, CalibrationMethod::kEntropy}) {
    const auto k = static_cast<size_t>(m);
    c.ranges[k] = s.range(m, percentile);
    c.clipped[k] = s.clippedShare(c.ranges[k]);
  }
  return c;
}

}  // namespace

std::vector<std::string> calibratedTensors(const ir::Model& model) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  auto add = [&](const ir::Value* v) {
    if (isFloat32Activation(v) && seen.insert(v->name()).second) names.push_back(v->name());
  };
  const ir::Graph& g = model.graph();
  for (const ir::Value* v : g.inputs()) add(v);
  for (const auto& n : g.nodes())
    for (const ir::Value* v : n->outputs()) add(v);
  return names;
}

Expected<CalibrationTable> calibrateTensors(const ir::Model& model, rewrite::Evaluator& evaluator,
                                            double percentile, const std::atomic<bool>* cancel,
                                            const std::function<void(size_t, size_t)>& progress) {
  const std::vector<std::string> all = calibratedTensors(model);
  CalibrationTable table;
  for (size_t start = 0; start < all.size(); start += kChunk) {
    if (cancel && cancel->load()) return Error(ErrorCode::kCancelled, "calibration cancelled");
    const size_t end = std::min(all.size(), start + kChunk);
    std::vector<std::string> names(all.begin() + static_cast<std::ptrdiff_t>(start),
                                   all.begin() + static_cast<std::ptrdiff_t>(end));
    std::vector<passes::TensorStats> stats(names.size());
    PASSLAB_RETURN_IF_ERROR(evaluator.observeValues(
        model, names,
        [&](size_t k, const ir::Tensor& t) -> Status {
          if (t.dtype() == ir::DataType::kFloat) stats[k].add(t);
          return Status::ok();
        },
        cancel));
    for (size_t k = 0; k < names.size(); ++k)
      if (!stats[k].empty()) table.emplace(names[k], summarize(stats[k], percentile));
    if (progress) progress(end, all.size());
  }
  return table;
}

}  // namespace passlab::ui
