// Helpers for the executor tests: build tensors, run a text-format model.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/io/text_format.h"

namespace passlab::exec::testutil {

inline ir::Tensor floats(std::vector<int64_t> dims, std::vector<float> values) {
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, std::move(dims), values);
}
inline ir::Tensor int64s(std::vector<int64_t> dims, std::vector<int64_t> values) {
  return ir::Tensor::fromVector<int64_t>(ir::DataType::kInt64, std::move(dims), values);
}
inline std::vector<float> toFloats(const ir::Tensor& t) {
  auto d = t.data<float>();
  return {d.begin(), d.end()};
}

// n seeded values in [-1, 1] (a linear congruential sequence: the same on every machine).
inline std::vector<float> pattern(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 1u;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>((s >> 8) % 2001) / 1000.0f - 1.0f;
  }
  return v;
}

inline ir::Model parseModel(const std::string& text) {
  auto m = io::parseModelText(text);
  EXPECT_TRUE(m) << (m ? "" : m.error().message());
  return m ? std::move(m.value()) : ir::Model();
}

// Creates an executor for `text` and runs it; fails the test on error.
inline RunResult runText(const std::string& text, const NamedInputs& inputs,
                         ExecutorOptions opts = {}, RunOptions run = {}) {
  ir::Model m = parseModel(text);
  auto ex = Executor::create(m, opts);
  EXPECT_TRUE(ex) << (ex ? "" : ex.error().message());
  if (!ex) return {};
  auto r = (*ex)->run(inputs, run);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  return r ? std::move(r.value()) : RunResult{};
}

// The error of creating or running `text`; empty when both succeed.
inline std::string errorOf(const std::string& text, const NamedInputs& inputs,
                           RunOptions run = {}) {
  ir::Model m = parseModel(text);
  auto ex = Executor::create(m, {});
  if (!ex) return ex.error().message();
  auto r = (*ex)->run(inputs, run);
  return r ? std::string() : r.error().message();
}

inline void expectNear(const std::vector<float>& got, const std::vector<float>& want,
                       float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

}  // namespace passlab::exec::testutil
