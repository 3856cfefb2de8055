// Independent trials (one model converted and checked per trial) run on
// several threads: each worker takes the next trial until none is left, and
// its executor runs are capped to its share of the cores (exec::
// ScopedThreadLimit), so workers times threads per run stays at the core
// count instead of each run's OpenMP team taking every core.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

#include "core/support/error.h"

namespace passlab::pipeline {

struct TrialPool {
  int workers = 0;  // 0: one per core; 1: the trials run on the calling thread
  const std::atomic<bool>* cancel = nullptr;
  // Called on the calling thread after each trial with (done, total).
  std::function<void(size_t, size_t)> progress;
};

// The workers `pool` asks for, for `count` trials: at most one per trial and
// per core, at least 1.
int trialWorkers(const TrialPool& pool, size_t count);

// Runs trial(i) for every i in [0, count), in any order across the workers.
// The first error (or the cancel flag) stops the trials not yet started;
// that error is returned once the running ones finish.
Status runTrials(size_t count, const TrialPool& pool, const std::function<Status(size_t)>& trial);

}  // namespace passlab::pipeline
