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

double measureForkJoin(int threads) {
  using Clock = std::chrono::steady_clock;
  volatile int sink = 0;
  std::vector<double> micros;
  for (int i = 0; i < kWarmupRegions + kTimedRegions; ++i) {
    const auto gapEnd = Clock::now() + std::chrono::duration<double, std::micro>(kGapMicros);
    while (Clock::now() < gapEnd) {
    }
    auto start = Clock::now();
#pragma omp parallel num_threads(threads)
    {
      if (omp_get_thread_num() == 0) sink = sink + 1;
    }
    if (i >= kWarmupRegions)
      micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
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

double forkJoinMicros(int threads) {
  if (threads <= 1) return 0.0;
  if (omp_in_parallel()) return kFallbackForkJoinMicros;
  static std::mutex mutex;
  static std::map<int, double> measured;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = measured.find(threads);
  if (it == measured.end()) it = measured.emplace(threads, measureForkJoin(threads)).first;
  return it->second;
}

double splitLimitMicros(int threads) {
  if (std::optional<double> limit = limitFromEnvironment()) return *limit;
  return std::clamp(kForkJoinMultiple * forkJoinMicros(threads), kMinSplitMicros, kMaxSplitMicros);
}

}  // namespace passlab::exec
