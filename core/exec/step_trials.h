// Which of a multi-threaded run's steps gain from their threads, by timing
// them (issue #26). The cost model (step_threads.h) splits a step whose work
// is above a limit measured in the process (fork_join_cost.h); a split step
// can still lose to one thread: with idle threads sleeping every split wakes
// a thread, and on a 2-core VM that costs about what a 100 us step saves
// (shufflenet `--level fused`: every split step slower on two threads than
// on one, docs/exec-benchmark.md "Session 28: steps timed both ways"). And a
// limit measured under load stays high when the machine goes quiet.
//
// So the steps of more than the smallest limit's work are timed: after a
// first run the cost model's way (an executor run once runs as before), one
// thread and every thread in turn, kTimedRuns visits each (one thread, every
// thread, one thread, every thread), and from then on each runs the way whose
// fastest run was faster (split only when that saves 1 - kSplitShare of the
// one-thread time). A visit is two runs, the first untimed: a kernel builds
// its primitives for the thread count it runs on (one thread first: a step
// that gains from its threads, where building costs most, keeps the
// primitives of the last trial runs). The ways take turns so that another
// process on the second CPU for a run or two (a burst of work elsewhere on a
// shared machine) slows one timed run of each way at most, not both of one
// way: timed back to back (until session 30), a burst over the two split
// runs put every step on one thread until the retrial, a benchmark process's
// whole life (docs/exec-benchmark.md, "Session 30: the step trials take
// turns").
// A choice is taken again kRetrialSeconds after it was made, at the next
// run, so it follows the machine (a GUI session's executor does not keep a
// choice made under load). Runs are serialized per executor (executor.h).
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace passlab::exec {

class StepTrials {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr int kTimedRuns = 2;
  static constexpr double kSplitShare = 0.95;
  static constexpr double kRetrialSeconds = 30.0;
  // Runs of an executor before every tried step runs its chosen way (the
  // first run, then both ways' visits): a profile or a benchmark that warms
  // up this many runs on several threads times only the chosen ways.
  static constexpr int kRunsBeforeDecided = 2 * 2 * kTimedRuns + 1;

  // For a plan whose steps are tried where `tried` is true, and which the
  // cost model puts on one thread where `single` is (the first run); the
  // next run starts the trials.
  void reset(const std::vector<bool>& tried, const std::vector<bool>& single);
  bool tries(size_t step) const { return step < steps_.size() && steps_[step].tried; }
  // At the start of every run of the plan (`now`: for the retrial).
  void beginRun(Clock::time_point now = Clock::now());
  // Whether step `step`, one it tries, runs on one thread in this run (the
  // cost model's choice in the first run, false before it).
  bool oneThread(size_t step) const;
  // Whether this run times step `step` (record() its microseconds).
  bool timing(size_t step) const;
  void record(size_t step, double micros);
  // Whether the trials are over and every tried step runs the faster way.
  bool decided() const { return phase_ >= kDecidedPhase; }
  // Step `step`'s fastest timed run on one thread and split, in
  // microseconds, in the trials that decided its way or are deciding it now
  // (for the profile, profiler.h); negative: not timed that way.
  double bestOneMicros(size_t step) const {
    return step < steps_.size() ? steps_[step].bestOne : -1.0;
  }
  double bestSplitMicros(size_t step) const {
    return step < steps_.size() ? steps_[step].bestSplit : -1.0;
  }

 private:
  // After the first run (phase 0), visits of kRunsPerVisit runs (the first
  // untimed), one thread and every thread in turn (phases 1...), kTimedRuns
  // visits each way.
  static constexpr int kRunsPerVisit = 2;
  static constexpr int kDecidedPhase = 2 * kTimedRuns * kRunsPerVisit + 1;
  static_assert(kRunsBeforeDecided == kDecidedPhase);

  struct Step {
    bool tried = false;
    bool costModelOne = false;                // the first run's way
    bool oneThread = false;                   // the choice once decided
    double bestSplit = -1.0, bestOne = -1.0;  // fastest timed run; negative: none
  };

  bool splitWay() const { return phase_ >= 1 && ((phase_ - 1) / kRunsPerVisit) % 2 == 1; }
  void decide();
  void startTrials();

  std::vector<Step> steps_;
  int phase_ = -1;  // runs since the first; -1 before it
  Clock::time_point decidedAt_{};
};

}  // namespace passlab::exec
