// Kernel-exact per-node times with CUPTI's activity API (docs/gpu.md): during
// a profiled run, each step's launches are tagged with an external
// correlation id (the step's index + 1) pushed around the step; CUPTI then
// delivers, in buffers, a record per kernel and copy (start, end, its
// correlation id) and a record linking each correlation id to the external id
// pushed when it was launched. The spans are grouped under their steps and a
// step's time is the sum of its spans' durations (the kernels of one stream do
// not overlap): no launch gaps, unlike the CUDA events around the step. When
// CUPTI is missing or fails, the runner keeps the events' times and says why.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/support/error.h"

namespace passlab::exec::cuda {

// A kernel or copy as CUPTI recorded it (nanoseconds).
struct ActivitySpan {
  uint32_t correlationId = 0;
  uint64_t start = 0, end = 0;
  std::string name;  // the kernel's (mangled) name, or "memcpy", "memset"
};

// The external id pushed when correlation id `correlationId` was launched.
struct ExternalLink {
  uint32_t correlationId = 0;
  uint64_t externalId = 0;
};

struct StepActivity {
  double micros = 0;  // the spans' durations, summed
  int spans = 0;
};

struct GroupedActivity {
  std::vector<StepActivity> steps;  // per step
  int unattributed = 0;             // spans with no link, or a link to no step
};

// The external id of step `step`: 0 is never pushed.
inline uint64_t externalIdOfStep(size_t step) {
  return static_cast<uint64_t>(step) + 1;
}

// `spans` grouped under `stepCount` steps through `links`. Host only.
GroupedActivity groupByStep(const std::vector<ActivitySpan>& spans,
                            const std::vector<ExternalLink>& links, size_t stepCount);

// CUPTI's activity collection for one profiled run at a time (CUPTI's
// activity API is process-wide; the runner holds the device's run lock).
class CuptiTiming {
 public:
  // Starts collecting (loads CUPTI once, registers its buffer callbacks once,
  // enables kernel, copy and external-correlation records); the error says
  // why it cannot (the caller falls back to CUDA events).
  static Status begin();
  // Tags the launches that follow on this thread with `step`'s id, until pop.
  static Status pushStep(size_t step);
  static Status popStep();
  // Flushes CUPTI's buffers (after the device finished the run's work),
  // stops collecting and groups what was recorded.
  static Expected<GroupedActivity> finish(size_t stepCount);
};

}  // namespace passlab::exec::cuda
