#include "tests/bench/bench_support.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace passlab::bench {

std::string BenchOptions::describe() const {
  char line[128];
  std::snprintf(line, sizeof line, "threads %d; %s ms over runs filling %.0f ms each", threads,
                fastest ? "fastest" : "median", budgetMs);
  return line;
}

BenchOptions parseBenchOptions(int argc, char** argv, double defaultBudgetMs) {
  BenchOptions o;
  o.budgetMs = defaultBudgetMs;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      o.threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--budget-ms") && i + 1 < argc)
      o.budgetMs = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--filter") && i + 1 < argc)
      o.filter = argv[++i];
    else if (!std::strcmp(argv[i], "--min"))
      o.fastest = true;
    else if (!std::strcmp(argv[i], "--profile"))
      o.profile = true;
  }
  return o;
}

ir::Tensor randomTensor(const Dims& dims, unsigned seed, float scale) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = u(g);
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, dims, v);
}

double timeRunsMs(exec::Executor& ex, const exec::NamedInputs& in, const BenchOptions& o) {
  using Clock = std::chrono::steady_clock;
  auto msSince = [](Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
  };
  exec::RunOptions ro;
  ro.threads = o.threads;
  for (int i = 0; i < 2; ++i) (void)ex.run(in, ro);
  std::vector<double> t;
  const auto start = Clock::now();
  do {
    const auto a = Clock::now();
    auto r = ex.run(in, ro);
    t.push_back(msSince(a));
    if (!r) {
      std::printf("run failed: %s\n", r.error().message().c_str());
      return -1;
    }
  } while (o.runs > 0 ? t.size() < static_cast<size_t>(o.runs)
                      : (msSince(start) < o.budgetMs || t.size() < 5) && t.size() < 2000);
  std::sort(t.begin(), t.end());
  return o.fastest ? t.front() : t[t.size() / 2];
}

double timeModelMs(const ir::Model& model, const exec::NamedInputs& in, bool referenceKernels,
                   const BenchOptions& o) {
  exec::ExecutorOptions eo;
  eo.referenceKernels = referenceKernels;
  auto ex = exec::Executor::create(model, eo);
  if (!ex) {
    std::printf("executor: %s\n", ex.error().message().c_str());
    return -1;
  }
  return timeRunsMs(**ex, in, o);
}

}  // namespace passlab::bench
