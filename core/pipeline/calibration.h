// Calibration data for static quantization, and the Evaluator that runs the
// model on it (rewrite::Evaluator::observeValues): the input sets from a
// folder the user gives, or made by the input synthesis when there is none.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/numeric_check.h"
#include "core/rewrite/evaluator.h"

namespace passlab::pipeline {

// The input sets in `dir`: each subfolder, in name order, is one set laid out
// as an ONNX test data set (input_0.pb, input_1.pb, ... or input_K.npy, in the
// order of the graph inputs without an initializer); a folder holding
// input_0.* itself is one set. Every tensor is checked against its input's
// declared type (element type, rank, fixed dims): an error names the set, the
// input, what it holds and what the model expects. An empty folder is an error.
Expected<std::vector<exec::NamedInputs>> readCalibrationSets(const ir::Model& model,
                                                             const std::string& dir);

// `count` sets from the input synthesis (seeds spec.seed + 1000 + i: not the
// check's sets, so the check measures on data the calibration did not see).
Expected<std::vector<exec::NamedInputs>> synthesizedCalibrationSets(const ir::Model& model,
                                                                    const InputSpec& spec,
                                                                    int count);

// Constant folding through the executor (ExecEvaluator) plus calibration on
// input sets: given ones, or made on first use by `make` for the model being
// calibrated (so a pipeline without a quantization pass never makes any).
class CalibratingEvaluator final : public rewrite::Evaluator {
 public:
  using MakeSets = std::function<Expected<std::vector<exec::NamedInputs>>(const ir::Model&)>;
  explicit CalibratingEvaluator(std::vector<exec::NamedInputs> sets);
  CalibratingEvaluator(MakeSets make, size_t count);

  Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             int64_t opsetVersion) override;
  Status observeValues(const ir::Model& model, const std::vector<std::string>& values,
                       const Observer& observe, const std::atomic<bool>* cancel) override;
  size_t calibrationSets() const override { return count_; }

 private:
  ExecEvaluator constants_;
  std::optional<std::vector<exec::NamedInputs>> sets_;
  MakeSets make_;
  size_t count_ = 0;
};

}  // namespace passlab::pipeline
