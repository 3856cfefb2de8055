// Helpers for the per-operator kernel tests: run one node on given tensors with
// the CPU kernels (exec::evaluateNode), build tensors of any element type, and
// compare results.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/evaluate.h"
#include "core/ir/graph.h"
#include "core/support/float16.h"

namespace passlab::exec::optest {

using ir::DataType;

// One attribute, built lazily (ir::Attribute is move-only).
struct Attr {
  enum Kind { kInt, kFloat, kString, kInts, kFloats, kTensor };
  Attr(std::string n, Kind k) : name(std::move(n)), kind(k) {}
  std::string name;
  Kind kind;
  int64_t i = 0;
  float f = 0;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  ir::Tensor t;
  ir::Attribute make() const {
    switch (kind) {
      case kInt:
        return ir::Attribute::makeInt(name, i);
      case kFloat:
        return ir::Attribute::makeFloat(name, f);
      case kString:
        return ir::Attribute::makeString(name, s);
      case kInts:
        return ir::Attribute::makeInts(name, ints);
      case kFloats:
        return ir::Attribute::makeFloats(name, floats);
      case kTensor:
        return ir::Attribute::makeTensor(name, t);
    }
    return {};
  }
};
inline Attr attrI(std::string n, int64_t v) {
  Attr a(std::move(n), Attr::kInt);
  a.i = v;
  return a;
}
inline Attr attrF(std::string n, float v) {
  Attr a(std::move(n), Attr::kFloat);
  a.f = v;
  return a;
}
inline Attr attrS(std::string n, std::string v) {
  Attr a(std::move(n), Attr::kString);
  a.s = std::move(v);
  return a;
}
inline Attr attrInts(std::string n, std::vector<int64_t> v) {
  Attr a(std::move(n), Attr::kInts);
  a.ints = std::move(v);
  return a;
}

// A node call: op, inputs (nullopt = omitted), attributes, opset, output count.
struct Call {
  std::string op;
  std::vector<std::optional<ir::Tensor>> inputs = {};
  std::vector<Attr> attrs = {};
  int64_t opset = 21;
  size_t outputs = 1;
  std::string domain = "";
};

// Runs the node; the error message on failure.
inline Expected<std::vector<ir::Tensor>> run(const Call& c) {
  ir::Graph g;
  std::vector<ir::Value*> ins;
  std::vector<const ir::Tensor*> ptrs;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (!c.inputs[i]) {
      ins.push_back(nullptr);
      ptrs.push_back(nullptr);
      continue;
    }
    ins.push_back(g.addInput("in" + std::to_string(i), ir::Type::tensor(c.inputs[i]->dtype())));
    ptrs.push_back(&*c.inputs[i]);
  }
  std::vector<std::string> outs;
  for (size_t i = 0; i < c.outputs; ++i) outs.push_back("out" + std::to_string(i));
  ir::Node* n = g.addNode(c.op, c.domain, ins, outs);
  for (const Attr& a : c.attrs) n->attributes().push_back(a.make());
  return evaluateNode(*n, ptrs, c.opset);
}

// Runs the node and expects success; output 0 (or all outputs with runAll).
inline ir::Tensor run1(const Call& c) {
  auto r = run(c);
  EXPECT_TRUE(r.isOk()) << c.op << ": " << (r ? "" : r.error().message());
  if (!r || r->empty()) return {};
  return std::move((*r)[0]);
}
inline std::vector<ir::Tensor> runAll(const Call& c) {
  auto r = run(c);
  EXPECT_TRUE(r.isOk()) << c.op << ": " << (r ? "" : r.error().message());
  return r ? std::move(r.value()) : std::vector<ir::Tensor>{};
}
// The error message of running the node ("" when it succeeds).
inline std::string errorOf(const Call& c) {
  auto r = run(c);
  return r ? std::string() : r.error().message();
}

// ---- tensors ----

template <class T>
ir::Tensor tensor(DataType dt, std::vector<int64_t> dims, const std::vector<T>& v) {
  return ir::Tensor::fromVector<T>(dt, std::move(dims), v);
}
inline ir::Tensor f32(std::vector<int64_t> dims, const std::vector<float>& v) {
  return tensor<float>(DataType::kFloat, std::move(dims), v);
}
inline ir::Tensor f64(std::vector<int64_t> dims, const std::vector<double>& v) {
  return tensor<double>(DataType::kDouble, std::move(dims), v);
}
inline ir::Tensor i64(std::vector<int64_t> dims, const std::vector<int64_t>& v) {
  return tensor<int64_t>(DataType::kInt64, std::move(dims), v);
}
inline ir::Tensor i32(std::vector<int64_t> dims, const std::vector<int32_t>& v) {
  return tensor<int32_t>(DataType::kInt32, std::move(dims), v);
}
inline ir::Tensor boolean(std::vector<int64_t> dims, const std::vector<bool>& v) {
  std::vector<uint8_t> bytes(v.begin(), v.end());
  return tensor<uint8_t>(DataType::kBool, std::move(dims), bytes);
}
inline ir::Tensor f16(std::vector<int64_t> dims, const std::vector<float>& v) {
  std::vector<uint16_t> bits;
  for (float x : v) bits.push_back(floatToHalf(x));
  return tensor<uint16_t>(DataType::kFloat16, std::move(dims), bits);
}
inline ir::Tensor bf16(std::vector<int64_t> dims, const std::vector<float>& v) {
  std::vector<uint16_t> bits;
  for (float x : v) bits.push_back(floatToBfloat16(x));
  return tensor<uint16_t>(DataType::kBFloat16, std::move(dims), bits);
}
// A tensor of `dt` holding the given values (converted; half types rounded).
inline ir::Tensor typed(DataType dt, std::vector<int64_t> dims, const std::vector<double>& v) {
  switch (dt) {
    case DataType::kFloat:
      return f32(std::move(dims), std::vector<float>(v.begin(), v.end()));
    case DataType::kDouble:
      return f64(std::move(dims), v);
    case DataType::kFloat16:
      return f16(std::move(dims), std::vector<float>(v.begin(), v.end()));
    case DataType::kBFloat16:
      return bf16(std::move(dims), std::vector<float>(v.begin(), v.end()));
    case DataType::kInt8:
      return tensor<int8_t>(dt, std::move(dims), std::vector<int8_t>(v.begin(), v.end()));
    case DataType::kUInt8:
      return tensor<uint8_t>(dt, std::move(dims), std::vector<uint8_t>(v.begin(), v.end()));
    case DataType::kInt16:
      return tensor<int16_t>(dt, std::move(dims), std::vector<int16_t>(v.begin(), v.end()));
    case DataType::kUInt16:
      return tensor<uint16_t>(dt, std::move(dims), std::vector<uint16_t>(v.begin(), v.end()));
    case DataType::kInt32:
      return tensor<int32_t>(dt, std::move(dims), std::vector<int32_t>(v.begin(), v.end()));
    case DataType::kUInt32:
      return tensor<uint32_t>(dt, std::move(dims), std::vector<uint32_t>(v.begin(), v.end()));
    case DataType::kInt64:
      return tensor<int64_t>(dt, std::move(dims), std::vector<int64_t>(v.begin(), v.end()));
    case DataType::kUInt64:
      return tensor<uint64_t>(dt, std::move(dims), std::vector<uint64_t>(v.begin(), v.end()));
    case DataType::kBool: {
      std::vector<bool> b;
      for (double x : v) b.push_back(x != 0);
      return boolean(std::move(dims), b);
    }
    default:
      ADD_FAILURE() << "typed(): unsupported dtype";
      return {};
  }
}

// Values of any numeric tensor as double.
inline std::vector<double> values(const ir::Tensor& t) {
  if (t.dtype() == DataType::kBool) {
    std::vector<double> out;
    for (uint8_t b : t.data<uint8_t>()) out.push_back(b ? 1 : 0);
    return out;
  }
  return t.toDoubleVector();
}

// Element-wise closeness (NaN equals NaN; infinities must match).
inline void expectClose(const std::vector<double>& got, const std::vector<double>& want,
                        double rtol = 1e-5, double atol = 1e-6) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i << ": " << got[i] << " is not NaN";
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << "at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], atol + rtol * std::fabs(want[i])) << "at " << i;
    }
  }
}
inline void expectTensor(const ir::Tensor& t, DataType dt, const std::vector<int64_t>& dims,
                         const std::vector<double>& want, double rtol = 1e-5, double atol = 1e-6) {
  EXPECT_EQ(t.dtype(), dt);
  EXPECT_EQ(t.dims(), dims);
  expectClose(values(t), want, rtol, atol);
}

// Deterministic pseudo-random values in [lo, hi).
inline std::vector<double> ramp(size_t n, double lo = -2, double hi = 2, uint32_t seed = 1) {
  std::vector<double> v(n);
  uint32_t s = seed * 2654435761u + 12345u;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = lo + (hi - lo) * (static_cast<double>(s >> 8) / static_cast<double>(1u << 24));
  }
  return v;
}

}  // namespace passlab::exec::optest
