#include "core/exec/fork_join_cost.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace passlab::exec {

namespace {

constexpr int kWarmupRegions = 3;
constexpr int kTimedRegions = 17;
// The calling thread works this long before each region, as between a run's
// steps: long enough for a sleeping thread's CPU to go idle (a VM's vCPU to
// halt), which makes waking it dearer than right after it fell asleep.
constexpr double kGapMicros = 100.0;
// Each thread works this long inside the region, as a split step's threads
// do. An empty region undercounts what a split costs under
// OMP_WAIT_POLICY=PASSIVE: the woken thread may run on the calling thread's
// CPU (after it, with nothing to do) or reach the other CPU late, and neither
// shows without work. On this 2-core VM at load 3-5: an empty region 6-14 us,
// one with 30 us of work on each thread 36-40 us above those 30 (the quiet
// tables' 36 us a region, docs/exec-benchmark.md "Sleeping threads"; split
// 1x1 convolutions of 55-85 us were 13-19% slower than on one thread). Where
// the other CPU is taken the two shares run one after the other and the cost
// is about this work itself, which bounds the measurement: 50 + 8 us, a
// limit of about 116 us. With spinning threads on free CPUs: under 1 us.
constexpr double kRegionWorkMicros = 50.0;

void busyWait(double micros) {
  using Clock = std::chrono::steady_clock;
  const auto end = Clock::now() + std::chrono::duration<double, std::micro>(micros);
  while (Clock::now() < end) {
  }
}

double measureRegions(int threads) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> micros;
  for (int i = 0; i < kWarmupRegions + kTimedRegions; ++i) {
    busyWait(kGapMicros);
    auto start = Clock::now();
#pragma omp parallel num_threads(threads)
    busyWait(kRegionWorkMicros);
    if (i >= kWarmupRegions) {
      double elapsed = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
      micros.push_back(std::max(0.0, elapsed - kRegionWorkMicros));
    }
  }
  // The cheapest: what the wait policy costs when the other threads' CPUs
  // are free; dearer ones measure other processes on those CPUs, which on a
  // shared machine come and go within a run.
  return *std::min_element(micros.begin(), micros.end());
}

// PASSLAB_SMALL_STEP_MICROS when it is a number >= 0.
std::optional<double> limitFromEnvironment() {
  const char* v = std::getenv("PASSLAB_SMALL_STEP_MICROS");
  if (v == nullptr || *v == '\0') return std::nullopt;
  char* end = nullptr;
  double limit = std::strtod(v, &end);
  if (end == v || *end != '\0' || limit < 0.0) return std::nullopt;
  return limit;
}

}  // namespace

double measureForkJoinMicros(int threads) {
  return measureRegions(threads);
}

double forkJoinMicros(int threads) {
  if (threads <= 1) return 0.0;
  if (omp_in_parallel()) return kFallbackForkJoinMicros;
  static std::mutex mutex;
  static std::map<int, double> measured;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = measured.find(threads);
  if (it == measured.end()) it = measured.emplace(threads, measureForkJoinMicros(threads)).first;
  return it->second;
}

double reproducibleSplitLimitMicros() {
  return limitFromEnvironment().value_or(kReproducibleSplitMicros);
}

bool splitLimitIsFixed() {
  return limitFromEnvironment().has_value();
}

double splitLimitMicros(int threads) {
  if (std::optional<double> limit = limitFromEnvironment()) return *limit;
  return std::clamp(kForkJoinMultiple * forkJoinMicros(threads), kMinSplitMicros, kMaxSplitMicros);
}

}  // namespace passlab::exec
