// What the executor benchmarks share: their command line, random float
// inputs and weights, attribute helpers, and timing a model's runs.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/exec/executor.h"
#include "core/ir/attribute.h"
#include "core/ir/tensor.h"

namespace passlab::bench {

using Dims = std::vector<int64_t>;

//   [--threads N] [--budget-ms MS] [--filter TEXT] [--min] [--profile]
struct BenchOptions {
  int threads = 1;
  double budgetMs = 300;  // each case runs until this much time is filled (5 runs at least)
  std::string filter;     // only cases whose name contains it
  bool fastest = false;   // --min: the fastest run instead of the median (for a loaded machine)
  bool profile = false;   // --profile: per-node times too (where the benchmark offers them)
  int runs = 0;           // > 0: exactly this many timed runs instead of the budget
  // The first line of the output: how the figures were taken.
  std::string describe() const;
};
BenchOptions parseBenchOptions(int argc, char** argv, double defaultBudgetMs);

// Uniform in [-scale, scale], seeded.
ir::Tensor randomTensor(const Dims& dims, unsigned seed, float scale = 1.0f);

// Uniform in [lo, hi], seeded; integer types get whole values.
template <class T>
ir::Tensor uniformTensor(ir::DataType dt, const Dims& dims, float lo, float hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  size_t n = 1;
  for (int64_t d : dims) n *= static_cast<size_t>(d);
  std::vector<T> v(n);
  for (T& e : v) {
    const float r = u(rng);
    e = std::is_floating_point_v<T> ? static_cast<T>(r) : static_cast<T>(std::round(r));
  }
  return ir::Tensor::fromVector<T>(dt, dims, v);
}

template <class T>
ir::Tensor scalarTensor(ir::DataType dt, T v) {
  return ir::Tensor::fromVector<T>(dt, {}, {v});
}

// A model built by a benchmark and the inputs it runs on.
struct BenchModel {
  ir::Model model;
  exec::NamedInputs feeds;
};

template <class... A>
std::vector<ir::Attribute> attrs(A&&... a) {
  std::vector<ir::Attribute> v;
  (v.push_back(std::forward<A>(a)), ...);
  return v;
}
inline ir::Attribute ints(const char* name, std::vector<int64_t> v) {
  return ir::Attribute::makeInts(name, std::move(v));
}
inline ir::Attribute int1(const char* name, int64_t v) {
  return ir::Attribute::makeInt(name, v);
}

// Milliseconds of one run: the median (or the fastest, with --min) of runs
// filling the budget after two warm-up runs (primitives, packed weights);
// -1 when a run fails (its error printed).
double timeRunsMs(exec::Executor& ex, const exec::NamedInputs& in, const BenchOptions& o);
// The same for `model` on a new executor, on the reference kernels alone or
// the fast ones; -1 when the executor cannot be made (its error printed).
double timeModelMs(const ir::Model& model, const exec::NamedInputs& in, bool referenceKernels,
                   const BenchOptions& o);

}  // namespace passlab::bench
