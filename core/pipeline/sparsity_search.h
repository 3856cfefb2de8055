// The pruning ratio of each layer chosen by the accuracy budget
// (prune_magnitude with its `sparsity` option, one layer at a time), as
// low_rank_search.h chooses ranks.
//
// searchSparsity: per Conv / MatMul / Gemm with a stored float weight, the
// largest ratio i / steps (i in [1, steps - 1]) whose pruning of that layer
// alone holds the budget, by bisection over i: O(log steps) trials per layer,
// the layers on several threads (parallel_trials.h). It assumes more pruning
// never costs less accuracy, which holds where the pruned sets are nested
// (magnitude pruning: the weights set to zero at a ratio are among those at
// any larger one). A layer the pass leaves at every ratio (too small, a
// grouped Conv for the channel pattern, the node filter) is no candidate; one
// whose smallest ratio is over the budget stays dense. With the channel
// pattern, the layers of a residual stream are one candidate (the first of
// them, the others in `stream`): one ratio for all, as prune_magnitude
// prunes a stream's channels as one.
//
// applySparsity: the layers pruned together, each at its ratio, one checked
// step each (the most weights set to zero first): the errors of several
// layers add up, so a step that would take the model over the budget is
// rolled back and that layer stays dense.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/pipeline/accuracy.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "core/rewrite/evaluator.h"

namespace passlab::pipeline {

struct SparsityLayer {
  ir::NodeId node = 0;
  std::string describe;
  int64_t weights = 0;      // elements of the weight
  int64_t zerosBefore = 0;  // zeros in the original weight
  int64_t zerosAfter = 0;   // applySparsity: zeros in the result's weight
  double ratio = 0;         // the largest holding the budget alone; 0: stays dense
  double snrDb = 0;         // of the worst output, this layer alone at `ratio`
  int trials = 0;
  bool applied = false;  // applySparsity: pruned in the result
  int step = 0;          // applySparsity: its place among the pruned (1, 2, ...)
  // Channel pattern: the other layers of its residual stream
  // (passes/residual_stream.h), pruned with it as one unit at one ratio
  // (their weights and zeros counted above).
  std::vector<ir::NodeId> stream;
};

struct SparsityOptions {
  int steps = 20;                        // ratios 1/steps ... (steps - 1)/steps
  std::string pattern = "unstructured";  // prune_magnitude's pattern: unstructured or channel
  bool keepBias = false;                 // prune_magnitude's keep_bias (channel)
  rewrite::Evaluator* evaluator = nullptr;
  int workers = 0;  // layers at once (0: one per core)
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(size_t, size_t)> progress;  // (layers done, total), calling thread
};

// The prune_magnitude step of `layer` (with its stream) alone at `ratio`.
PassSpec pruneStep(const SparsityLayer& layer, double ratio, const SparsityOptions& options);

// The prune_magnitude options of one layer's step at `ratio`.
std::vector<std::pair<std::string, std::string>> pruneOptions(const SparsityOptions& options,
                                                              double ratio);

// The layers prune_magnitude takes in `model` with their ratios; `checker`
// holds the original's outputs. An invalid steps or pattern is an error.
Expected<std::vector<SparsityLayer>> searchSparsity(const ir::Model& model,
                                                    ExecOutputChecker& checker,
                                                    const AccuracyBudget& budget,
                                                    const SparsityOptions& options);

// Prunes `model` in place, each layer with a ratio at its ratio (the most
// weights first), every step checked against `budget`; marks the layers
// applied, numbers them in that order and counts the zeros after. The check
// of the last step that held.
Expected<NumericCheck> applySparsity(ir::Model& model, ExecOutputChecker& checker,
                                     std::vector<SparsityLayer>& layers,
                                     const AccuracyBudget& budget, const SparsityOptions& options);

}  // namespace passlab::pipeline
