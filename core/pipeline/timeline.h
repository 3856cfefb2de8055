// The Timeline: one Step per pass application, with everything needed to show
// what the pass did (edits, provenance, statistics, checks, snapshots).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "core/ir/model.h"
#include "core/passes/pass.h"
#include "core/pipeline/accuracy.h"
#include "core/rewrite/driver.h"
#include "core/rewrite/edit_log.h"
#include "core/support/text.h"

namespace passlab::pipeline {

struct GraphStats {
  size_t nodes = 0;  // including subgraphs
  size_t initializers = 0;
  uint64_t initializerBytes = 0;
  std::map<std::string, size_t> opCounts;  // qualified op type -> count
  bool operator==(const GraphStats&) const = default;
};
GraphStats collectStats(const ir::Model& model);
// The statistics after edits that changed node counts by `opDelta` (see
// ir::UndoLog::opCountDelta): node and op counts from `before` without a walk
// over the nodes; initializers are counted afresh.
GraphStats collectStatsAfter(
    const GraphStats& before, const ir::Model& model,
    const absl::flat_hash_map<std::pair<const std::string*, const std::string*>, int64_t>& opDelta);

// Result of running the model before the pipeline and after a step on the same
// seeded inputs.
struct NumericCheck {
  bool ran = false;
  bool passed = true;
  size_t inputSets = 0;
  std::string firstDivergingTensor;  // first value (in graph order) that differs, if any
  Text detail;                       // what differed, or why the check could not run
  double maxAbsError = 0, maxRelError = 0;
  // The noise floor (docs/numeric-check.md): the largest deviation of any
  // compared output measured in floors of that output (worst |err| / floor),
  // that output's floor, and how many floors a pass may deviate by. All 0
  // when no floor was measured (no float weights, or the check did not run).
  double noiseRatio = 0, noiseFloor = 0, noiseMultiple = 0;
  // The step rule (docs/numeric-check.md) on outputs on a quantization grid:
  // the elements that moved (by at most stepLimit steps) of those it judged,
  // over all input sets; the largest share of one output on one input set and
  // the largest move in steps; the rule's share limit. All 0 when no output
  // is on a grid.
  int64_t stepMoved = 0, stepCompared = 0;
  double stepWorstShare = 0, stepMostSteps = 0, stepShareLimit = 0, stepLimit = 0;
  // The exact check (check()): output values NaN in both or the same
  // infinity in both (equal, non_finite_pair.h), and the other values of
  // the outputs compared, over all input sets. sameNonFinite > 0 with
  // finiteCompared 0: every compared value was such a pair.
  size_t sameNonFinite = 0, finiteCompared = 0;
  // A lossy pass's check: against the accuracy budget, per output.
  bool lossy = false;
  std::vector<OutputAccuracy> accuracy;
  // Over the budget but accepted within the rounding floor (rounding_floor.h):
  // the first such output, its figures against the original, the floor's, and
  // the multiple of the floor's loss allowed. With `sinceRebase` (a step after
  // one exact per node unit), its figures against the model that step left,
  // which the budget itself holds (the floor excuses only such steps).
  struct RoundingFloorVerdict {
    std::string output;
    OutputAccuracy figures, floor;
    double multiple = 0;
    std::optional<OutputAccuracy> sinceRebase;
  };
  std::optional<RoundingFloorVerdict> roundingFloor;
  // A pass exact per node unit's check (PassInfo::exactPerUnit): whether its
  // units were judged (unit_check.h; if not, the outputs were compared
  // exactly), how many replaced values, the 8-bit elements a step apart of
  // those compared, and the unit with the largest share moved (or the failed one).
  bool unitsJudged = false;
  size_t units = 0;
  int64_t unitMoved = 0, unitCompared = 0;
  std::string worstUnit;
};

struct Step {
  std::string passId;
  passes::Options options;
  rewrite::EditLog log;
  rewrite::EditSummary summary;
  GraphStats before, after;
  double milliseconds = 0;  // the whole step: pass, shape inference, verification
  double inferMilliseconds = 0, verifyMilliseconds = 0;  // the parts spent re-inferring, verifying
  bool shapesInferred = false;  // false when the edits cannot have changed a type
  bool verifiedWhole = false;   // the whole structure walked, not only where the step touched it
  bool changed = false;
  bool skipped = false;     // not applicable (opset, non-standard output); see `note`
  bool rolledBack = false;  // the pass failed and the model was restored
  Text error;               // the failure, when rolled back
  Text note;
  std::vector<std::string> verifierErrors;
  NumericCheck check;
  rewrite::ExplainLog explain;
  std::shared_ptr<const ir::Model> snapshotBefore, snapshotAfter;  // null unless snapshots are kept
};

// Steps live in a deque: adding one never moves the others, so a Step pointer
// returned by PassManager::run stays valid until the timeline is cleared.
class Timeline {
 public:
  std::deque<Step>& steps() { return steps_; }
  const std::deque<Step>& steps() const { return steps_; }
  Step& add(Step s) {
    steps_.push_back(std::move(s));
    return steps_.back();
  }
  void clear() { steps_.clear(); }

 private:
  std::deque<Step> steps_;
};

}  // namespace passlab::pipeline
