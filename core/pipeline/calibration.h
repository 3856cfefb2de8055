// Calibration data for static quantization, and the Evaluator that runs the
// model on it (rewrite::Evaluator::observeValues): the input sets from a
// folder the user gives, or made by the input synthesis when there is none.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/passes/non_finite_input_source.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/non_finite_count.h"
#include "core/pipeline/numeric_check.h"
#include "core/rewrite/evaluator.h"

namespace passlab::pipeline {

// Calibration input sets made one at a time: set i (i < count) for the model
// being calibrated, read or synthesized on each call, so that calibration
// holds one set at a time whatever the count (memory does not grow with the
// sets; docs/precision.md, "Calibration memory").
struct CalibrationSetSource {
  size_t count = 0;
  std::function<Expected<exec::NamedInputs>(const ir::Model& model, size_t i)> make;
  // The file set i's input k (in graph input order) is read from, for
  // messages; unset (sets not read from files): none.
  std::function<std::string(size_t i, size_t k)> file;
};

// The input sets in `dir`: each subfolder, in name order, is one set laid out
// as an ONNX test data set (input_0.pb, input_1.pb, ... or input_K.npy, in the
// order of the graph inputs without an initializer); a folder holding
// input_0.* itself is one set. Every tensor is checked against its input's
// declared type in `model` (element type, rank, fixed dims): an error names
// the set, the input, what it holds and what the model expects. An empty
// folder is an error. Every set is read and checked now, one at a time (an
// error comes before any use), and read again when the source makes it.
Expected<CalibrationSetSource> calibrationFolder(const ir::Model& model, const std::string& dir);

// Every set of calibrationFolder(model, dir), held together.
Expected<std::vector<exec::NamedInputs>> readCalibrationSets(const ir::Model& model,
                                                             const std::string& dir);

// `count` sets from the input synthesis (seeds spec.seed + 1000 + i: not the
// check's sets, so the check measures on data the calibration did not see),
// each made for the model being calibrated when asked.
CalibrationSetSource synthesizedCalibration(const InputSpec& spec, int count);

// Every set of synthesizedCalibration(spec, count) for `model`, held together.
Expected<std::vector<exec::NamedInputs>> synthesizedCalibrationSets(const ir::Model& model,
                                                                    const InputSpec& spec,
                                                                    int count);

// The first min(n, source.count) sets of `source` for `model`, held together
// (the numeric check's, at most 16 by default).
Expected<std::vector<exec::NamedInputs>> firstCalibrationSets(const CalibrationSetSource& source,
                                                              const ir::Model& model, size_t n);

// Constant folding through the executor (ExecEvaluator) plus calibration on
// input sets: from a source, one set at a time; or made on first use by
// `make` for the model being calibrated (so a pipeline without a
// quantization pass never makes any); or given, held together.
class CalibratingEvaluator final : public rewrite::Evaluator, public passes::NonFiniteInputSource {
 public:
  // Makes every set at once, held while the evaluator lives.
  using MakeSets = std::function<Expected<std::vector<exec::NamedInputs>>(const ir::Model&)>;
  // Makes a source (a folder listed and checked against the model), which
  // then makes one set at a time.
  using MakeSource = std::function<Expected<CalibrationSetSource>(const ir::Model&)>;
  explicit CalibratingEvaluator(std::vector<exec::NamedInputs> sets);
  explicit CalibratingEvaluator(CalibrationSetSource source);
  CalibratingEvaluator(MakeSets make, size_t count);
  CalibratingEvaluator(MakeSource make, size_t count);

  Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             int64_t opsetVersion) override;
  // Runs the model on each set in turn; the set is dropped before the next
  // is made.
  Status observeValues(const ir::Model& model, const std::vector<std::string>& values,
                       const Observer& observe, const std::atomic<bool>* cancel) override;
  size_t calibrationSets() const override { return count_; }
  // The first input of the sets holding a NaN or an infinity, by the file it
  // was read from (else its set's number); each set made again to look.
  Text firstNonFiniteInput(const ir::Model& model) override;
  // "calibration: 2 of 16 input sets hold NaN or infinite values (input 'x'
  // in FILE: 3 NaN of its 784 values; ...): the ranges come from their
  // finite values only", from the sets observeValues ran since the last call.
  Text takeNonFiniteNote() override;

 private:
  // Input k of set s, when it held a NaN or an infinity.
  struct NonFiniteInput {
    std::string name, file;
    NonFiniteCount count;
  };
  void recordNonFinite(size_t set, const exec::NamedInputs& inputs);

  ExecEvaluator constants_;
  std::optional<CalibrationSetSource> source_;
  MakeSource make_;
  size_t count_ = 0;
  std::mutex nonFiniteMutex_;
  std::map<std::pair<size_t, size_t>, NonFiniteInput> nonFinite_;  // by (set, input)
};

}  // namespace passlab::pipeline
