// Helpers for the kept-values tests (kept_values_freed_test,
// kept_values_freed_int8_test, kept_values_freed_rnn_test): an executor that
// keeps its constant steps or not, one run of it, and seeded values in the
// text format.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "core/exec/executor.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec::keptvalues {

// An executor for `text`: `keep` keeps the constant steps' values (so they can
// be freed once held), `reference` runs the reference kernels.
inline std::unique_ptr<Executor> make(const std::string& text, bool keep, bool reference = false) {
  ExecutorOptions opts;
  opts.keepConstantSteps = keep;
  opts.referenceKernels = reference;
  auto ex = Executor::create(testutil::parseModel(text), opts);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  return ex ? std::move(ex).value() : nullptr;
}

inline RunResult run(Executor& ex, const NamedInputs& in) {
  auto r = ex.run(in);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  return r ? std::move(r).value() : RunResult{};
}

// `count` seeded integers in [lo, hi] as the text format's "{a, b, ...}".
inline std::string ints(int64_t count, int lo, int hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(lo, hi);
  std::string s = "{";
  for (int64_t i = 0; i < count; ++i) s += (i ? ", " : "") + std::to_string(u(rng));
  return s + "}";
}

// `count` seeded floats in [lo, hi) the same way.
inline std::string reals(int64_t count, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::string s = "{";
  for (int64_t i = 0; i < count; ++i) s += (i ? ", " : "") + std::to_string(u(rng));
  return s + "}";
}

}  // namespace passlab::exec::keptvalues
