// What one Step changed, drawn on one graph: the model after the Step with the
// nodes it removed put back as ghosts (connected to the values they read), and
// a mark per node: added (green), removed (red), rewired or rewritten (amber).
// Everything comes from the Step's EditLog summary; nothing is recomputed.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/ir/model.h"
#include "ui/graphview/diff_mark.h"

namespace passlab::ui {

struct AppliedStep;

struct StepDiff {
  std::unique_ptr<ir::Model> model;  // after the Step, plus ghosts of removed main-graph nodes
  // Marked nodes of `model` (a node inside a body marks the node owning the body).
  std::unordered_map<ir::NodeId, DiffMark> marks;
  std::unordered_map<ir::NodeId, ir::NodeId> ghostOf;  // ghost -> the removed node (before)
  // Counts as in the Step's EditSummary (removed nodes of bodies included).
  size_t added = 0, removed = 0, rewired = 0, attributesChanged = 0;
  size_t removedInBodies = 0;  // removed nodes of bodies: counted, not drawn as ghosts
  // Every marked node, in graph order: where the view goes.
  std::vector<ir::NodeId> changedNodes;
};

StepDiff buildStepDiff(const AppliedStep& step);

}  // namespace passlab::ui
