// Per-layer sensitivity of a lossy conversion, and automatic mixed precision.
//
// rankLayers converts one node at a time (the pass with a node filter of that
// node alone) and measures the outputs against the original's on the
// checker's input sets: the node whose conversion alone costs the most SNR is
// the most sensitive. A node that its pass would not convert alone (a Relu
// between float32 nodes, one its schema keeps) changes nothing and ranks as
// insensitive.
//
// The trials are independent: they run on several threads, and the
// calibration of quantize_static is done once for all of them (each trial
// would observe the original model's values again).
//
// mixedPrecision keeps the most sensitive nodes in float32 until the budget
// holds: a bisection over the ranked list (k most sensitive kept), O(log n)
// conversions and checks, not one per node. It assumes keeping more nodes
// never costs accuracy, which holds for these passes up to rounding.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/ir/model.h"
#include "core/pipeline/accuracy.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "core/rewrite/evaluator.h"

namespace passlab::pipeline {

class SharedCalibration;  // core/pipeline/shared_calibration.h

struct LayerSensitivity {
  ir::NodeId node = 0;
  std::string describe;  // "Conv 'conv1' (#3)"
  double snrDb = 0;      // of the worst output with this node alone converted
  double cosine = 1;
  bool changed = false;  // false: the pass converts nothing with this node alone
  // The least top-k agreement over the classifier outputs that report one
  // (k: SensitivityOptions::topK); none without such an output.
  std::optional<double> topK;
};

struct SensitivityOptions {
  std::string passId = "convert_to_float16";
  passes::Options passOptions;
  const std::atomic<bool>* cancel = nullptr;
  // Constant folding and calibration data for the trials; null: none. Its
  // evaluate() must be safe from several threads (the pipeline's are).
  rewrite::Evaluator* evaluator = nullptr;
  // Called after each node with (done, total), on the calling thread.
  std::function<void(size_t, size_t)> progress;
  // Trials at once (core/pipeline/parallel_trials.h): 0 one per core, each
  // run on its share of the cores; 1 one after another.
  int workers = 0;
  // Calibrate once for all the trials (core/pipeline/shared_calibration.h)
  // instead of in each; only passes that calibrate (quantize_static) differ.
  bool shareCalibration = true;
  // A trial whose pass changed nothing leaves its copy of the model as it
  // was: the next trial takes that copy instead of cloning the model again
  // (most of rankLayers' candidates convert nothing: gpt2_past's 828 trials
  // rank 72 nodes). false: a new copy for every trial (the tests compare).
  bool reuseUnchangedCopies = true;
  // Nodes kept in float32 whatever their rank (the user's exclusions): not
  // trialled by rankLayers, and excluded from every conversion
  // mixedPrecision tries.
  std::unordered_set<ir::NodeId> excluded;
  // The k of the top-k agreement each trial of rankLayers measures: the
  // budget's (AccuracyBudget::topK), so the ranking shows what it limits.
  int topK = 5;
  // The trials' calibration made by prepareTrialCalibration for this model
  // with these options, shared by rankLayers and mixedPrecision; null: each
  // call prepares its own (calibrating the model again).
  std::shared_ptr<SharedCalibration> trialCalibration;
};

// The calibration the trials of rankLayers and the conversions of
// mixedPrecision take their statistics from (calibrated here once when
// `options.shareCalibration` and the evaluator has calibration sets), for
// SensitivityOptions::trialCalibration; null without an evaluator.
Expected<std::shared_ptr<SharedCalibration>> prepareTrialCalibration(
    const ir::Model& model, const SensitivityOptions& options);

// The nodes `passId` converts in `model`, most sensitive first. `checker`
// holds the original model's reference outputs.
Expected<std::vector<LayerSensitivity>> rankLayers(const ir::Model& model,
                                                   ExecOutputChecker& checker,
                                                   const SensitivityOptions& options);

struct MixedPrecision {
  std::vector<ir::NodeId> keptFloat32;  // the most sensitive nodes, kept
  NumericCheck check;                   // of the model converted without them
  int conversions = 0;                  // conversions tried by the bisection
  // Of the conversion keeping one node fewer than keptFloat32 (what missed
  // the budget); not run when nothing is kept. With every ranked node kept
  // and nothing else converted (check not run), no conversion by this pass
  // holds the budget: this says what the least sensitive node alone costs.
  NumericCheck missWithOneFewer;
};

// Mixed precision kept every one of `ranked` nodes and the pass converts
// nothing besides: no conversion by this pass holds the budget, and the
// "result" is the model unchanged (missWithOneFewer says why).
inline bool convertsNothingWithinBudget(const MixedPrecision& m, size_t ranked) {
  return ranked > 0 && m.keptFloat32.size() == ranked && !m.check.ran;
}

// The fewest of the most sensitive nodes of `ranked` to keep in float32 for
// the conversion to hold `budget`; an error when even keeping all but
// nothing does not (the budget cannot be met by this pass).
Expected<MixedPrecision> mixedPrecision(const ir::Model& model, ExecOutputChecker& checker,
                                        const std::vector<LayerSensitivity>& ranked,
                                        const AccuracyBudget& budget,
                                        const SensitivityOptions& options);

}  // namespace passlab::pipeline
