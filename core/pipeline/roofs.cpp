#include "core/pipeline/roofs.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "core/exec/executor.h"
#include "core/io/atomic_file.h"
#include "core/io/text_format.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/machine_info.h"

namespace passlab::pipeline {

namespace {

constexpr int kGemmRuns = 8;
constexpr int kTriadRuns = 5;

Status cancelled(const RoofOptions& o) {
  if (o.cancel && o.cancel->load())
    return Error(ErrorCode::kCancelled, "roof measurement cancelled");
  return Status::ok();
}

int resolvedThreads(int threads) {
  return threads > 0 ? threads : machineInfo().logicalCores;
}

// Best GFLOP/s of C = A x B (N x N floats) through the executor.
Expected<double> measureGemm(const RoofOptions& o) {
  const std::string n = std::to_string(o.gemmSize);
  auto model = io::parseModelText("main (float[" + n + "," + n + "] A, float[" + n + "," + n +
                                  "] B) => (float[" + n + "," + n + "] C) { C = MatMul(A, B) }");
  if (!model) return model.error().withContext("roof GEMM model");
  auto ex = exec::Executor::create(*model);
  if (!ex) return ex.error().withContext("roof GEMM");
  auto inputs = makeInputs(*model, {});
  if (!inputs) return inputs.error().withContext("roof GEMM inputs");
  exec::RunOptions ro;
  ro.threads = resolvedThreads(o.threads);
  ro.cancel = o.cancel;
  const double flops = 2.0 * o.gemmSize * o.gemmSize * o.gemmSize;
  double best = 0;
  for (int i = 0; i < kGemmRuns + 1; ++i) {  // the first run warms up
    PASSLAB_RETURN_IF_ERROR(cancelled(o));
    auto r = (*ex)->run(*inputs, ro);
    if (!r) return r.error().withContext("roof GEMM");
    if (i > 0 && r->totalMicros > 0) best = std::max(best, flops / (r->totalMicros * 1e3));
  }
  return best;
}

// One triad a = b + s*c over [begin, end).
void triad(double* a, const double* b, const double* c, size_t begin, size_t end) {
  const double s = 3.0;
  for (size_t i = begin; i < end; ++i) a[i] = b[i] + s * c[i];
}

// Best GB/s of the triad on `threads` threads (each owns a slice, first-touched by it).
Expected<double> measureBandwidth(const RoofOptions& o) {
  const size_t n = o.triadElements;
  const int threads = resolvedThreads(o.threads);
  std::vector<double> a(n), b(n, 1.0), c(n, 2.0);
  auto runOnce = [&] {
    std::vector<std::thread> pool;
    const size_t chunk = (n + threads - 1) / threads;
    auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < threads; ++t) {
      const size_t lo = std::min(n, t * chunk), hi = std::min(n, lo + chunk);
      pool.emplace_back(triad, a.data(), b.data(), c.data(), lo, hi);
    }
    for (auto& th : pool) th.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  double best = 0;
  for (int i = 0; i < kTriadRuns + 1; ++i) {
    PASSLAB_RETURN_IF_ERROR(cancelled(o));
    const double s = runOnce();
    if (i > 0 && s > 0) best = std::max(best, 24.0 * static_cast<double>(n) / s / 1e9);
  }
  if (a[n / 2] != 7.0) return internalError("roof triad computed a wrong value");
  return best;
}

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

nlohmann::json readCache(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nlohmann::json::object();
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("entries") || !j["entries"].is_array())
    return nlohmann::json::object();
  return j;
}

nlohmann::json toJson(const MachineRoofs& r) {
  return {{"cpu", r.cpuModel},
          {"threads", r.threads},
          {"gemm_size", r.gemmSize},
          {"gemm_gflops", r.gemmGflops},
          {"bandwidth_gbps", r.bandwidthGBps},
          {"measured_at", r.measuredAt}};
}

std::optional<MachineRoofs> findCached(const nlohmann::json& cache, const std::string& cpu,
                                       int threads) {
  if (!cache.contains("entries")) return std::nullopt;
  for (const auto& e : cache["entries"]) {
    if (e.value("cpu", "") != cpu || e.value("threads", 0) != threads) continue;
    MachineRoofs r;
    r.cpuModel = cpu;
    r.threads = threads;
    r.gemmSize = e.value("gemm_size", 0);
    r.gemmGflops = e.value("gemm_gflops", 0.0);
    r.bandwidthGBps = e.value("bandwidth_gbps", 0.0);
    r.measuredAt = e.value("measured_at", "");
    r.fromCache = true;
    return r;
  }
  return std::nullopt;
}

// Replaces this CPU and thread count's entry; failures are ignored (a cache).
void writeCache(const std::string& path, nlohmann::json cache, const MachineRoofs& r) {
  nlohmann::json entries = nlohmann::json::array();
  if (cache.contains("entries"))
    for (const auto& e : cache["entries"])
      if (e.value("cpu", "") != r.cpuModel || e.value("threads", 0) != r.threads)
        entries.push_back(e);
  entries.push_back(toJson(r));
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  io::AtomicFile file(path);
  if (!file.open().isOk()) return;
  if (!file.write(nlohmann::json{{"entries", entries}}.dump(2) + "\n").isOk()) return;
  (void)file.commit();
}

}  // namespace

std::string defaultRoofCachePath() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) return std::string(xdg) + "/passlab/roofs.json";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.cache/passlab/roofs.json";
}

Expected<MachineRoofs> measureRoofs(const RoofOptions& options) {
  if (options.gemmSize < 16) return invalidArgument("the roof GEMM size must be at least 16");
  if (options.triadElements < 1024) return invalidArgument("the roof triad needs 1024 elements");
  MachineRoofs r;
  r.cpuModel = machineInfo().cpuModel;
  r.threads = resolvedThreads(options.threads);
  r.gemmSize = options.gemmSize;
  auto gemm = measureGemm(options);
  if (!gemm) return gemm.error();
  r.gemmGflops = *gemm;
  auto bw = measureBandwidth(options);
  if (!bw) return bw.error();
  r.bandwidthGBps = *bw;
  r.measuredAt = utcNow();
  return r;
}

Expected<MachineRoofs> machineRoofs(const RoofOptions& options) {
  const std::string path = options.cachePath.empty() ? defaultRoofCachePath() : options.cachePath;
  nlohmann::json cache = readCache(path);
  if (!options.remeasure)
    if (auto hit = findCached(cache, machineInfo().cpuModel, resolvedThreads(options.threads)))
      return *hit;
  auto measured = measureRoofs(options);
  if (!measured) return measured.error();
  writeCache(path, std::move(cache), *measured);
  return measured;
}

}  // namespace passlab::pipeline
