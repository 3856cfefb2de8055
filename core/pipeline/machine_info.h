// What a measurement ran on: the CPU model (from /proc/cpuinfo), the logical
// cores, and the resolution of the clock the timings use.
#pragma once

#include <string>

namespace passlab::pipeline {

struct MachineInfo {
  std::string cpuModel;  // "AMD EPYC 7763 64-Core Processor"; "unknown" when not found
  int logicalCores = 0;
  double timerResolutionNs = 0;  // smallest step of std::chrono::steady_clock observed
};

// Computed once per process.
const MachineInfo& machineInfo();

}  // namespace passlab::pipeline
