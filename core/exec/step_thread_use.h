// The profile's account of each step's threads (issue #26): which count a
// step ran on and how that was chosen (profiler.h's StepThreadUse), so that
// a user whose two-thread run takes its one-thread time can see whether the
// cost model or the step trials (step_trials.h) put the steps on one thread.
#pragma once

#include <vector>

#include "core/exec/compiled_graph.h"
#include "core/exec/profiler.h"
#include "core/exec/step_trials.h"

namespace passlab::exec {

struct RunThreadChoices {
  int threads = 1;                     // the run's
  const StepTrials* trials = nullptr;  // the main graph's trials; null: none this run
  bool limitFixed = false;             // PASSLAB_SMALL_STEP_MICROS fixes the split limit
};

// The profile's summary line: of the main-graph steps that ran a kernel,
// how many ran split over the run's threads and how many the trials decided.
struct StepThreadCounts {
  int steps = 0, split = 0, trialsDecided = 0;
  void add(const StepThreadUse& use, int depth) {
    if (depth != 0 || use.threads <= 0) return;
    ++steps;
    if (use.threads > 1) ++split;
    if (use.choice == ThreadChoice::kTrial) ++trialsDecided;
  }
};

// Sets the choice (and for tried steps the trials' fastest times) of the
// entries of one run's `profile` of `plan` (the main graph) that ran a
// kernel; their thread counts are what the interpreter recorded.
void noteThreadChoices(std::vector<NodeProfile>& profile, const CompiledGraph& plan,
                       const RunThreadChoices& run);

}  // namespace passlab::exec
