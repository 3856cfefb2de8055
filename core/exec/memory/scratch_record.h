// The kernel scratch each step of one graph activation asks for
// (KernelContext::scratch), recorded while it runs: per step, each request
// rounded up to the arena's 64-byte alignment and summed, which is what a
// bump allocator over one buffer per step gives out (planned_block.h). The
// executor records it for the main graph on every run (RunMemoryUse::
// scratchBytes) and plans it with the tensors from then on
// (ExecutionMemory::scratchRecorded, PlanOptions::scratchBytes).
#pragma once

#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace passlab::exec::memory {

class ScratchRecord {
 public:
  explicit ScratchRecord(size_t steps) : bytes_(steps, 0) {}
  // Kernels may ask from their worker threads.
  void add(int32_t step, uint64_t bytes) {
    if (step < 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (static_cast<size_t>(step) < bytes_.size())
      bytes_[static_cast<size_t>(step)] += (bytes + 63) / 64 * 64;
  }
  std::vector<uint64_t> take() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::move(bytes_);
  }

 private:
  std::mutex mu_;
  std::vector<uint64_t> bytes_;
};

}  // namespace passlab::exec::memory
