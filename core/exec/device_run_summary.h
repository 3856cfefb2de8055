// What a run on a device backend did beside computing: which steps ran on
// the device, on the host, or fell back to their CPU kernel (and why), and
// the copies between host and device memory. Empty for CPU runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace passlab::exec {

struct DeviceFallback {
  std::string node;    // the node's name, or its description when unnamed
  std::string op;      // "Loop", "com.microsoft.BeamSearch"
  std::string reason;  // "no CUDA kernel for Loop", a factory's refusal
};

struct DeviceRunSummary {
  std::string device;     // "cuda:0 NVIDIA H100 80GB HBM3"; "" on the CPU
  int deviceSteps = 0;    // CUDA kernels
  int hostSteps = 0;      // computed from dims on the host (Shape, Size)
  int fallbackSteps = 0;  // CPU kernels with copies
  int keptSteps = 0;      // constant-only steps whose outputs were kept from an earlier run
  int copiesToDevice = 0, copiesToHost = 0;
  uint64_t bytesToDevice = 0, bytesToHost = 0;
  std::vector<DeviceFallback> fallbacks;  // one per step sent to the CPU
  // The device memory plan (cuda/device_memory.h): its block (0: this run
  // took its memory from the pool, `memoryNote` says why), the planned
  // tensors' bytes without sharing, the outputs placed in the block, those
  // that went to the pool instead (bytes other than the plan's) and those
  // copied out of a place that was not theirs.
  uint64_t blockBytes = 0, plannedTensorBytes = 0;
  int placedInBlock = 0, blockFallbacks = 0, copiedOutOfBlock = 0;
  std::string memoryNote;
  // How a profiled run's per-node times were taken: "CUPTI kernel spans
  // (...)" (cuda/cupti_timing.h), or "CUDA events (why not CUPTI)".
  std::string timing;
};

}  // namespace passlab::exec
