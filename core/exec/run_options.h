// Options of one run of an Executor.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace passlab::exec {

struct RunOptions {
  int threads = 0;                            // 0: every core of the machine
  uint64_t memoryLimitBytes = 0;              // intermediate tensors; 0: no limit
  bool profile = false;                       // per-node timings in RunResult::profile
  const std::atomic<bool>* cancel = nullptr;  // set to true to stop the run
  int64_t maxLoopIterations = 1'000'000;      // a Loop running longer is an error
  // When set: per slot of the main graph, the bytes of the value a step wrote
  // there (0 for slots no step wrote); memory plans use it when shapes are
  // only known at run time (memory/memory_plan.h).
  std::vector<uint64_t>* valueBytes = nullptr;
};

}  // namespace passlab::exec
