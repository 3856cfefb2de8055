// The machine's roofs for a roofline view: the peak GEMM rate (the
// executor's MatMul, oneDNN on the CPU, on a large square matmul) and the
// streaming memory bandwidth (a triad a = b + s*c over arrays far larger than
// the caches). Measured once per CPU model and thread count and cached as
// JSON in $XDG_CACHE_HOME/passlab/roofs.json (else ~/.cache/passlab/roofs.json);
// `remeasure` measures again and replaces the cached entry.
#pragma once

#include <atomic>
#include <string>

#include "core/support/error.h"

namespace passlab::pipeline {

struct MachineRoofs {
  std::string cpuModel;
  int threads = 0;
  int gemmSize = 0;          // N of the N x N x N matmul
  double gemmGflops = 0;     // best of the timed runs
  double bandwidthGBps = 0;  // best of the timed triads (24 bytes per element)
  std::string measuredAt;    // UTC, ISO 8601
  bool fromCache = false;
};

struct RoofOptions {
  int threads = 0;         // 0: every core
  bool remeasure = false;  // ignore (and replace) a cached entry
  std::string cachePath;   // empty: defaultRoofCachePath()
  int gemmSize = 1024;
  size_t triadElements = 8 << 20;  // doubles per array (3 arrays: 192 MiB by default)
  const std::atomic<bool>* cancel = nullptr;
};

// $XDG_CACHE_HOME/passlab/roofs.json, else $HOME/.cache/passlab/roofs.json.
std::string defaultRoofCachePath();

// Measures now (seconds), caches nothing.
Expected<MachineRoofs> measureRoofs(const RoofOptions& options);

// The cached roofs of this CPU and thread count, measured and cached when
// missing or when options.remeasure. A cache that cannot be written is not an
// error (the measurement is returned).
Expected<MachineRoofs> machineRoofs(const RoofOptions& options = {});

}  // namespace passlab::pipeline
