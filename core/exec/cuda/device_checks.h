// Checks on values only the device sees, reported as errors after the step
// instead of faults (docs/gpu.md): Gather's indices when they change between
// runs (indices that stay the same are checked once on the host). A kernel
// asks its context for a check's device words; its threads set word 0 to 1
// (atomically) when they meet an index out of range and the one that set it
// writes the index to word 1, while the output gets zeros there. The runner
// reads every check's words when the run's work is done (it waits for the
// stream then anyway), after each step with PASSLAB_CUDA_SYNC=1, and before
// it reports a later step's failure (which such an index may have caused):
// a failed check is the run's error, with the node and the CPU kernel's
// message.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/exec/cuda/device_tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cuda {

// One range check queued during a run.
struct RangeCheck {
  std::string node;  // the step's node, described
  int64_t axis = 0;  // the axis the indices address
  int64_t size = 0;  // its size: valid indices are [-size, size)
  std::string data;  // the data tensor, described ("float[4,3] (cuda)")
};

// The words a check's kernel writes.
inline constexpr int kRangeCheckWords = 2;

// The error of the first check whose words (kRangeCheckWords per check, in
// the checks' order) say an index was out of range, or ok. Host only.
Status rangeCheckVerdict(const std::vector<RangeCheck>& checks, const std::vector<int64_t>& words);

// A run's checks and their words in device memory.
class DeviceChecks {
 public:
  // At a run's start: forgets the last run's checks.
  void reset();
  // Zeroed device words for `check` (on `stream`), kept until reset.
  Expected<int64_t*> add(RangeCheck check, cudaStream_t stream);
  bool empty() const { return checks_.empty(); }
  // Reads the words back (waiting for `stream`) and gives the verdict;
  // checks already read are not read again.
  Status verify(cudaStream_t stream);

 private:
  std::vector<RangeCheck> checks_;
  std::vector<std::shared_ptr<DeviceStorage>> words_;
  size_t verified_ = 0;
};

}  // namespace passlab::exec::cuda
