#include "ui/lessons/prediction.h"

#include <unordered_set>

#include "ui/pipeline/pipeline_session.h"

namespace passlab::ui {

PredictionVerdict judgePrediction(const std::set<ir::NodeId>& predicted,
                                  const std::vector<ir::NodeId>& removed) {
  PredictionVerdict v;
  const std::set<ir::NodeId> gone(removed.begin(), removed.end());
  for (ir::NodeId n : removed) (predicted.count(n) ? v.right : v.missed).push_back(n);
  for (ir::NodeId n : predicted)
    if (!gone.count(n)) v.wrong.push_back(n);
  return v;
}

std::vector<ir::NodeId> nodesRemovedBy(const AppliedStep& step) {
  const auto& removed = step.step.summary.removed;
  const std::unordered_set<ir::NodeId> gone(removed.begin(), removed.end());
  std::vector<ir::NodeId> out;
  if (!step.before) return out;
  for (const auto& n : step.before->graph().nodes())
    if (gone.count(n->id())) out.push_back(n->id());
  return out;
}

}  // namespace passlab::ui
