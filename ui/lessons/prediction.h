// Judging a student's prediction: the nodes they expected the pass to remove
// or fuse, against the nodes the applied Step removed (from its EditLog
// summary: a fused node is removed and replaced by the fused one).
#pragma once

#include <set>
#include <vector>

#include "core/ir/node.h"

namespace passlab::ui {

struct AppliedStep;

struct PredictionVerdict {
  std::vector<ir::NodeId> right;   // predicted and removed
  std::vector<ir::NodeId> missed;  // removed, not predicted
  std::vector<ir::NodeId> wrong;   // predicted, still there
  bool correct() const { return missed.empty() && wrong.empty(); }
};

PredictionVerdict judgePrediction(const std::set<ir::NodeId>& predicted,
                                  const std::vector<ir::NodeId>& removed);
// The nodes of the main graph before `step` that the step removed, in graph order.
std::vector<ir::NodeId> nodesRemovedBy(const AppliedStep& step);

}  // namespace passlab::ui
