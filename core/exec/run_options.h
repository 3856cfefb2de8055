// Options of one run of an Executor.
#pragma once

#include <atomic>
#include <cstdint>

namespace passlab::exec {

struct RunOptions {
  int threads = 0;                            // 0: every core of the machine
  uint64_t memoryLimitBytes = 0;              // intermediate tensors; 0: no limit
  bool profile = false;                       // per-node timings in RunResult::profile
  const std::atomic<bool>* cancel = nullptr;  // set to true to stop the run
  int64_t maxLoopIterations = 1'000'000;      // a Loop running longer is an error
};

}  // namespace passlab::exec
