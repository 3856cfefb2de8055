#include "core/exec/step_trials.h"

#include <algorithm>

namespace passlab::exec {

namespace {

double faster(double best, double micros) {
  return best < 0.0 ? micros : std::min(best, micros);
}

}  // namespace

void StepTrials::reset(const std::vector<bool>& tried, const std::vector<bool>& single) {
  steps_.assign(tried.size(), Step{});
  for (size_t i = 0; i < tried.size(); ++i) {
    steps_[i].tried = tried[i];
    steps_[i].costModelOne = i < single.size() && single[i];
  }
  phase_ = -1;
}

void StepTrials::startTrials() {
  for (Step& s : steps_) {
    s.bestSplit = -1.0;
    s.bestOne = -1.0;
  }
  phase_ = 1;  // the way chosen before is in place: no first run
}

void StepTrials::beginRun(Clock::time_point now) {
  if (decided()) {
    if (std::chrono::duration<double>(now - decidedAt_).count() >= kRetrialSeconds) startTrials();
    return;
  }
  if (++phase_ == kDecidedPhase) {
    decide();
    decidedAt_ = now;
  }
}

void StepTrials::decide() {
  for (Step& s : steps_) {
    // A step not timed both ways (it did not run) runs split.
    bool timedBoth = s.bestSplit >= 0.0 && s.bestOne >= 0.0;
    s.oneThread = s.tried && timedBoth && !(s.bestSplit < kSplitShare * s.bestOne);
  }
}

bool StepTrials::oneThread(size_t step) const {
  if (step >= steps_.size() || !steps_[step].tried || phase_ < 0) return false;
  if (phase_ == 0) return steps_[step].costModelOne;
  return decided() ? steps_[step].oneThread : !splitWay();
}

bool StepTrials::timing(size_t step) const {
  return step < steps_.size() && steps_[step].tried && phase_ >= 1 && !decided() &&
         (phase_ - 1) % kRunsPerVisit != 0;
}

void StepTrials::record(size_t step, double micros) {
  if (!timing(step)) return;
  Step& s = steps_[step];
  if (splitWay())
    s.bestSplit = faster(s.bestSplit, micros);
  else
    s.bestOne = faster(s.bestOne, micros);
}

}  // namespace passlab::exec
