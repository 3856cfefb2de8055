#include "core/pipeline/machine_info.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "core/support/strings.h"

namespace passlab::pipeline {

namespace {

std::string readCpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    // x86: "model name"; some ARM kernels: "Processor" or "Hardware".
    if (line.rfind("model name", 0) == 0 || line.rfind("Processor", 0) == 0 ||
        line.rfind("Hardware", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return std::string(str::trim(line.substr(colon + 1)));
    }
  }
  return "unknown";
}

// The smallest non-zero step between two consecutive clock readings.
double measureTimerResolutionNs() {
  using Clock = std::chrono::steady_clock;
  double best = 1e9;
  for (int i = 0; i < 2000; ++i) {
    auto a = Clock::now();
    auto b = Clock::now();
    while (b == a) b = Clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(b - a).count());
  }
  return best;
}

}  // namespace

const MachineInfo& machineInfo() {
  static const MachineInfo info = [] {
    MachineInfo m;
    m.cpuModel = readCpuModel();
    m.logicalCores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    m.timerResolutionNs = measureTimerResolutionNs();
    return m;
  }();
  return info;
}

}  // namespace passlab::pipeline
