// Memory for the tensors a run produces. Blocks come back when the last tensor
// using them is released (the executor drops each value after its last use, as
// the plan computed from the graph says) and are reused for later allocations
// of a similar size. The arena counts live bytes, keeps their peak, and refuses
// an allocation that would pass the configured limit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec {

class Arena {
 public:
  Arena();
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // Storage of at least `bytes` (64-byte aligned; contents undefined), or a
  // kLimit error when live bytes would pass the limit. Thread-safe.
  Expected<std::shared_ptr<Storage>> allocate(size_t bytes);

  // 0: no limit.
  void setLimit(uint64_t bytes);
  uint64_t limit() const;
  uint64_t liveBytes() const;
  uint64_t peakBytes() const;
  void resetPeak();
  // Bytes held from the system: live blocks plus free blocks kept for reuse.
  uint64_t reservedBytes() const;
  // Returns the free blocks to the system.
  void trim();

  struct State;  // implementation detail, shared with the blocks

 private:
  std::shared_ptr<State> state_;  // blocks outliving the arena free themselves
};

}  // namespace passlab::exec
