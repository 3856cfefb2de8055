// CUDA events around each step of a profiled run: a step's time is the
// device time between its two events (for a CPU step, which waits for its
// copies, that includes the host work between them).
#pragma once

#include <cstddef>
#include <vector>

#include "core/support/error.h"

typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;

namespace passlab::exec::cuda {

class StepEvents {
 public:
  StepEvents() = default;
  ~StepEvents();
  StepEvents(const StepEvents&) = delete;
  StepEvents& operator=(const StepEvents&) = delete;

  // Events for `steps` steps (made once, kept for later runs); marks none recorded.
  Status prepare(size_t steps);
  Status begin(size_t step, cudaStream_t stream);
  Status end(size_t step, cudaStream_t stream);
  // Microseconds between the step's events (after the stream is done); 0 when
  // the step was not recorded.
  double micros(size_t step) const;

 private:
  std::vector<cudaEvent_t> start_, stop_;
  std::vector<bool> recorded_;
};

}  // namespace passlab::exec::cuda
