// The numeric side of the pipeline, backed by the CPU executor: an Evaluator
// for constant folding, seeded test inputs, and the OutputChecker that compares
// a model's outputs with the original's after every pass and, when they differ,
// finds the first tensor (in graph order) that diverges.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/pipeline/input_synthesis.h"  // InputSpec, makeInputs
#include "core/pipeline/noise_floor.h"
#include "core/pipeline/pass_manager.h"
#include "core/rewrite/evaluator.h"

namespace passlab::pipeline {

class ExecEvaluator final : public rewrite::Evaluator {
 public:
  Expected<std::vector<ir::Tensor>> evaluate(const ir::Node& node,
                                             const std::vector<const ir::Tensor*>& inputs,
                                             int64_t opsetVersion) override;
};

// Tolerances per element type: exact for integers and bool; fp32 rtol 1e-4,
// atol 1e-5; fp16/bf16 rtol 1e-2, atol 1e-3; fp64 rtol 1e-7, atol 1e-9.
struct Tolerance {
  double rtol, atol;
};
Tolerance toleranceFor(ir::DataType t);
// Compares two tensors (same dtype and dims); fills the worst errors; false if
// any element is out of tolerance: beyond `noiseAllowance` (the absolute
// error the tensor's noise floor allows) when that is positive, else beyond
// the dtype's fixed tolerance. NaN and infinity follow non_finite_pair.h:
// pairs of the same non-finite value are equal and, with `sameNonFinite`,
// counted there.
bool allClose(const ir::Tensor& got, const ir::Tensor& want, double& maxAbs, double& maxRel,
              Text& why, double noiseAllowance = 0, size_t* sameNonFinite = nullptr);

// The main-graph values (by name) whose contents come from a random generator
// without a `seed` attribute (RandomNormal, RandomUniform, their *Like forms,
// Bernoulli, Multinomial), directly or through the values and subgraphs they
// are computed from. Their values differ from run to run, so the check cannot
// compare them.
std::set<std::string> unseededRandomValues(const ir::Model& model);

class ExecOutputChecker final : public OutputChecker {
 public:
  // Runs `original` on `inputSets` seeded input sets to get the reference
  // outputs, and again with its weights perturbed (noise.draws times) to
  // measure each output's noise floor (noise.draws 0: fixed tolerances only).
  static Expected<std::unique_ptr<ExecOutputChecker>> create(const ir::Model& original,
                                                             int inputSets, InputSpec spec,
                                                             NoiseOptions noise = {});
  // The same on given input sets (the calibration data, a test data set).
  static Expected<std::unique_ptr<ExecOutputChecker>> create(
      const ir::Model& original, std::vector<exec::NamedInputs> inputSets, NoiseOptions noise = {});
  NumericCheck check(const ir::Model& current, const StandIns& standIns = {}) override;
  // Against the original's outputs within `budget`. Once re-based (after a
  // step exact per node unit), outputs over the budget pass when they are
  // within the rounding floor (rounding_floor.h) and, against the re-based
  // reference, within the budget: the floor excuses the roundings of steps
  // exact per node unit, never a lossy step's own loss.
  NumericCheck checkWithinBudget(const ir::Model& current, const AccuracyBudget& budget,
                                 const StandIns& standIns = {}) override;
  NumericCheck checkBudgetStep(const ir::Model& current, const rewrite::EditLog& log,
                               const AccuracyBudget& budget,
                               const StandIns& standIns = {}) override;
  // The check per node unit on the check's input sets (unit_check.h), then
  // the whole model within `budget` against the original; when the units
  // cannot be judged (UnitCheck::ran false), check() alone.
  NumericCheck checkUnitExactStep(const ir::Model& before, const ir::Model& current,
                                  const rewrite::EditLog& log, const AccuracyBudget& budget,
                                  const StandIns& standIns = {}) override;
  // The original against itself, from the reference outputs kept at
  // creation (no run): per output, as checkWithinBudget(original) would
  // measure it with k = `topK`: which outputs are classifiers (top1), their
  // rows, and whether they have more than k classes (topK).
  std::vector<OutputAccuracy> referenceAccuracy(int topK) const;
  // check() and its first diverging tensor compare with `current` from now
  // on; checkWithinBudget() still with the original.
  void rebase(const ir::Model& current) override;
  bool rebased() const override { return rebased_.has_value(); }
  // The original's outputs that come from unseeded random ops: check() does
  // not compare their values (it still requires them).
  const std::vector<std::string>& uncomparedOutputs() const { return uncompared_; }
  // The grid step of each original output on a quantization grid, which
  // check() judges in steps (quant_steps.h).
  const std::map<std::string, double>& outputSteps() const { return steps_; }
  // Each output's noise floor, the largest over the draws and the input sets
  // (an output moved by one ulp on one set can be on every set; -1: none
  // usable).
  const NoiseFloors& outputFloors() const { return floors_; }

 private:
  std::string firstDivergence(const ir::Model& current, const exec::NamedInputs& inputs,
                              const StandIns& standIns, double& maxAbs, double& maxRel);
  // Fills floors_ from noise_.draws runs with perturbed weights.
  void measureOutputFloors();
  // checkWithinBudget, and on failure the costliest layer among the nodes
  // `log` changed when there is one.
  NumericCheck budgetCheck(const ir::Model& current, const AccuracyBudget& budget,
                           const rewrite::EditLog* log);
  // The outputs of `current` on each input set (as it declares its inputs).
  Expected<std::vector<std::map<std::string, ir::Tensor>>> outputsOn(const ir::Model& current);
  // `c` (over the budget against the original) after a re-base, from
  // `outputs`: excused by the rounding floor when within it and, against the
  // re-based reference, within the budget; else its detail says why not.
  void excuseAfterRebase(NumericCheck& c,
                         const std::vector<std::map<std::string, ir::Tensor>>& outputs,
                         const AccuracyBudget& budget);
  std::map<std::string, OutputAccuracy> roundingFloor(int topK) const;
  // The node of `current` whose outputs lost the most SNR against its
  // inputs' (looking through Casts), on `inputs`; "" when none can be told.
  // With `changed` (ids of nodes a step changed), the changed node that lost
  // the most, and where the loss grew most when that is another node.
  Text costliestLayer(const ir::Model& current, const exec::NamedInputs& inputs,
                      const std::set<ir::NodeId>* changed = nullptr) const;
  // On a failed check: its detail with the costliest layer.
  void nameCostliestLayer(NumericCheck& c, const ir::Model& current,
                          const rewrite::EditLog* log) const;
  // The floor of every main-graph tensor of `model` on `inputs`, against
  // `reference` (its run with every tensor exposed).
  NoiseFloors intermediateFloors(const ir::Model& model, const exec::NamedInputs& inputs,
                                 const std::map<std::string, ir::Tensor>& reference) const;
  // The absolute error the floor of `name` allows (0 without a floor).
  double allowance(const NoiseFloors& floors, const std::string& name) const;
  void noteNoise(NumericCheck& c, const NoiseFloors& floors, const std::string& name,
                 double maxAbs) const;
  // The step rule on an output on a quantization grid of `step`: notes the
  // counts in `c`; false with `why` when an element is beyond the rule's
  // steps or too many moved.
  bool withinGrid(NumericCheck& c, const ir::Tensor& got, const ir::Tensor& want, double step,
                  double noiseAllowance, Text& why) const;
  ir::Model original_;
  NoiseOptions noise_;
  NoiseFloors floors_;
  std::map<std::string, double> steps_;  // outputSteps(original_)
  std::set<std::string> random_;         // unseededRandomValues(original_)
  std::vector<std::string> uncompared_;
  std::vector<exec::NamedInputs> inputs_;
  std::vector<std::map<std::string, ir::Tensor>> reference_;
  // After rebase(): the model check() compares with, and its outputs.
  std::optional<ir::Model> rebased_;
  std::vector<std::map<std::string, ir::Tensor>> rebasedReference_;
};

// Parses "NAME=VALUE" strings into a dims map.
Expected<std::map<std::string, int64_t>> parseDims(const std::vector<std::string>& specs);

}  // namespace passlab::pipeline
