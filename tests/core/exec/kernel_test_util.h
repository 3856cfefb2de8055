// Helpers for the kernel-family tests: tensors of any element type, reading
// results back, and running a text-format model that is expected to fail.
#pragma once

#include <gtest/gtest.h>

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

}  // namespace passlab::exec::kt
