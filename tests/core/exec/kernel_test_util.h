// Helpers for the kernel-family tests: tensors of any element type, reading
// results back, and running a text-format model that is expected to fail.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec::kt {

using Dims = std::vector<int64_t>;

template <class T>
ir::Tensor make(ir::DataType dt, Dims dims, const std::vector<T>& v) {
  return ir::Tensor::fromVector<T>(dt, std::move(dims), v);
}
inline ir::Tensor f32(Dims d, const std::vector<float>& v) {
  return make(ir::DataType::kFloat, std::move(d), v);
}
inline ir::Tensor f64(Dims d, const std::vector<double>& v) {
  return make(ir::DataType::kDouble, std::move(d), v);
}
inline ir::Tensor i64(Dims d, const std::vector<int64_t>& v) {
  return make(ir::DataType::kInt64, std::move(d), v);
}
inline ir::Tensor i32(Dims d, const std::vector<int32_t>& v) {
  return make(ir::DataType::kInt32, std::move(d), v);
}
inline ir::Tensor i8(Dims d, const std::vector<int8_t>& v) {
  return make(ir::DataType::kInt8, std::move(d), v);
}
inline ir::Tensor u8(Dims d, const std::vector<uint8_t>& v) {
  return make(ir::DataType::kUInt8, std::move(d), v);
}
// bool tensors from 0/1 values.
inline ir::Tensor b8(Dims d, const std::vector<uint8_t>& v) {
  return make(ir::DataType::kBool, std::move(d), v);
}
inline ir::Tensor strs(Dims d, const std::vector<std::string>& v) {
  return ir::Tensor::fromStrings(std::move(d), v);
}

template <class T>
std::vector<T> values(const ir::Tensor& t) {
  auto d = t.data<T>();
  return {d.begin(), d.end()};
}
inline std::vector<bool> bools(const ir::Tensor& t) {
  std::vector<bool> out;
  for (uint8_t v : t.data<uint8_t>()) out.push_back(v != 0);
  return out;
}
inline std::vector<std::string> strings(const ir::Tensor& t) {
  return t.strings();
}

inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Runs `text` and expects an error containing every one of `parts`.
inline void expectError(const std::string& text, const NamedInputs& inputs,
                        const std::vector<std::string>& parts) {
  std::string e = testutil::errorOf(text, inputs);
  ASSERT_FALSE(e.empty()) << "expected an error";
  for (const std::string& p : parts) EXPECT_TRUE(contains(e, p)) << e << "\n  lacks: " << p;
}

inline void expectNear(const ir::Tensor& t, const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(t.dtype(), ir::DataType::kFloat);
  testutil::expectNear(values<float>(t), want, tol);
}

// A fused kernel's output against the chain it replaces: every element within
// tol * (1 + |want|); the first five misses are reported.
inline void expectClose(const ir::Tensor& got, const ir::Tensor& want, const std::string& what,
                        float tol = 2e-5f) {
  ASSERT_EQ(got.dims(), want.dims()) << what;
  auto g = values<float>(got);
  auto w = values<float>(want);
  int bad = 0;
  for (size_t i = 0; i < g.size() && bad < 5; ++i)
    if (!(std::fabs(g[i] - w[i]) <= tol * (1.0f + std::fabs(w[i])))) {
      ADD_FAILURE() << what << ": element " << i << " is " << g[i] << ", the chain gives " << w[i];
      ++bad;
    }
}

// "2,3,4", for test messages.
// Seeded float32 values, uniform in [-scale, scale), plus `shift`.
inline ir::Tensor uniformF32(Dims dims, unsigned seed, float scale = 2.0f, float shift = 0.0f) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = u(g) + shift;
  return f32(std::move(dims), v);
}

// The outputs of a text-format model on the optimized or the reference kernels.
inline std::vector<ir::Tensor> runOutputs(const std::string& text, const NamedInputs& inputs,
                                          bool reference) {
  ExecutorOptions o;
  o.referenceKernels = reference;
  return testutil::runText(text, inputs, o).outputs;
}

// Its one output (a test failure when there is not exactly one).
inline ir::Tensor runOneOutput(const std::string& text, const NamedInputs& inputs, bool reference) {
  std::vector<ir::Tensor> out = runOutputs(text, inputs, reference);
  EXPECT_EQ(out.size(), 1u);
  return out.size() == 1 ? out[0] : ir::Tensor();
}

inline std::string dimsText(const Dims& d) {
  std::string s;
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s;
}

}  // namespace passlab::exec::kt
