#include "core/exec/step_thread_use.h"

#include <unordered_map>

namespace passlab::exec {

namespace {

std::unordered_map<ir::NodeId, size_t> stepsByNode(const CompiledGraph& plan) {
  std::unordered_map<ir::NodeId, size_t> steps;
  for (size_t i = 0; i < plan.steps.size(); ++i)
    if (plan.steps[i].node != nullptr) steps.emplace(plan.steps[i].node->id(), i);
  return steps;
}

// A main-graph step of a multi-threaded run.
void noteMainStep(StepThreadUse& use, size_t step, const RunThreadChoices& run) {
  if (run.trials != nullptr && run.trials->tries(step)) {
    use.choice = run.trials->decided() ? ThreadChoice::kTrial : ThreadChoice::kTrying;
    use.trialOneMicros = run.trials->bestOneMicros(step);
    use.trialSplitMicros = run.trials->bestSplitMicros(step);
    return;
  }
  use.choice = run.limitFixed ? ThreadChoice::kFixed : ThreadChoice::kCostModel;
}

}  // namespace

void noteThreadChoices(std::vector<NodeProfile>& profile, const CompiledGraph& plan,
                       const RunThreadChoices& run) {
  const std::unordered_map<ir::NodeId, size_t> steps = stepsByNode(plan);
  for (NodeProfile& p : profile) {
    StepThreadUse& use = p.threadUse;
    if (use.threads == 0 && p.depth == 0) continue;  // kept or shape-only: no kernel ran
    if (run.threads <= 1) {
      use.choice = ThreadChoice::kOneThreadRun;
    } else if (p.depth > 0) {
      // Body steps: the cost model on the shapes inference or the run gives.
      use.choice = run.limitFixed ? ThreadChoice::kFixed : ThreadChoice::kCostModel;
    } else if (auto it = steps.find(p.nodeId); it != steps.end()) {
      noteMainStep(use, it->second, run);
    }
  }
}

}  // namespace passlab::exec
