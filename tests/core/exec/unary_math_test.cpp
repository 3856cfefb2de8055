// Elementwise unary math (unary_math.cpp) against the C library on small
// tensors, in every float type, the integer types where the op takes them,
// empty tensors and bad element types.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

struct UnaryCase {
  const char* op;
  std::function<double(double)> ref;
  std::vector<double> inputs;
};

std::vector<UnaryCase> floatCases() {
  std::vector<double> any = {-2.5, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.7, -3.7};
  std::vector<double> unit = {-0.9, -0.5, 0.0, 0.3, 0.99};
  std::vector<double> pos = {0.01, 0.5, 1.0, 2.0, 100.0};
  std::vector<double> geOne = {1.0, 1.5, 2.0, 10.0};
  return {
      {"Abs", [](double x) { return std::fabs(x); }, any},
      {"Ceil", [](double x) { return std::ceil(x); }, any},
      {"Floor", [](double x) { return std::floor(x); }, any},
      {"Round", [](double x) { return std::nearbyint(x); }, any},
      {"Sqrt", [](double x) { return std::sqrt(x); }, pos},
      {"Reciprocal", [](double x) { return 1 / x; }, pos},
      {"Log", [](double x) { return std::log(x); }, pos},
      {"Sign", [](double x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }, any},
      {"Erf", [](double x) { return std::erf(x); }, any},
      {"Sin", [](double x) { return std::sin(x); }, any},
      {"Cos", [](double x) { return std::cos(x); }, any},
      {"Tan", [](double x) { return std::tan(x); }, unit},
      {"Asin", [](double x) { return std::asin(x); }, unit},
      {"Acos", [](double x) { return std::acos(x); }, unit},
      {"Atan", [](double x) { return std::atan(x); }, any},
      {"Sinh", [](double x) { return std::sinh(x); }, any},
      {"Cosh", [](double x) { return std::cosh(x); }, any},
      {"Asinh", [](double x) { return std::asinh(x); }, any},
      {"Acosh", [](double x) { return std::acosh(x); }, geOne},
      {"Atanh", [](double x) { return std::atanh(x); }, unit},
      {"Tanh", [](double x) { return std::tanh(x); }, any},
  };
}

TEST(UnaryMath, FloatOpsMatchTheCLibraryInEveryFloatType) {
  for (const UnaryCase& c : floatCases()) {
    for (DataType dt :
         {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16}) {
      SCOPED_TRACE(std::string(c.op) + " " + std::string(ir::dtypeName(dt)));
      ir::Tensor x = typed(dt, {static_cast<int64_t>(c.inputs.size())}, c.inputs);
      // The reference sees the input as stored (rounded for half types).
      std::vector<double> want;
      for (double v : values(x)) want.push_back(c.ref(v));
      ir::Tensor y = run1({c.op, {x}});
      bool half = dt == DataType::kFloat16 || dt == DataType::kBFloat16;
      expectTensor(y, dt, x.dims(), want, half ? 1e-2 : 1e-6, half ? 1e-2 : 1e-7);
    }
  }
}

TEST(UnaryMath, RoundGoesToEvenAndKeepsSpecialValues) {
  ir::Tensor y = run1({"Round", {f32({8}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f, 2.6f, 0.0f})}});
  expectTensor(y, DataType::kFloat, {8}, {0, 2, 2, -0.0, -2, 2, 3, 0});
  ir::Tensor z = run1({"Ceil", {f64({3}, {kInf, -kInf, kNaN})}});
  expectTensor(z, DataType::kDouble, {3}, {kInf, -kInf, kNaN});
}

TEST(UnaryMath, IntegerAbsSignAndErf) {
  for (DataType dt : {DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64}) {
    SCOPED_TRACE(std::string(ir::dtypeName(dt)));
    ir::Tensor x = typed(dt, {2, 2}, {-3, 0, 5, -1});
    expectTensor(run1({"Abs", {x}}), dt, {2, 2}, {3, 0, 5, 1});
    expectTensor(run1({"Sign", {x}}), dt, {2, 2}, {-1, 0, 1, -1});
  }
  ir::Tensor u = typed(DataType::kUInt8, {3}, {0, 7, 255});
  expectTensor(run1({"Abs", {u}}), DataType::kUInt8, {3}, {0, 7, 255});
  expectTensor(run1({"Sign", {u}}), DataType::kUInt8, {3}, {0, 1, 1});
  // |INT8_MIN| wraps to itself rather than trapping.
  expectTensor(run1({"Abs", {typed(DataType::kInt8, {1}, {-128})}}), DataType::kInt8, {1}, {-128});
  expectTensor(run1({"Erf", {typed(DataType::kInt32, {3}, {-3, 0, 2})}}), DataType::kInt32, {3},
               {-1, 0, 1});
}

TEST(UnaryMath, SignKeepsNaN) {
  expectTensor(run1({"Sign", {f32({3}, {std::nanf(""), -0.0f, 4})}}), DataType::kFloat, {3},
               {kNaN, 0, 1});
}

TEST(UnaryMath, IsNaNAndIsInfGiveBool) {
  ir::Tensor x = f32({5}, {1.0f, std::nanf(""), INFINITY, -INFINITY, 0.0f});
  expectTensor(run1({"IsNaN", {x}}), DataType::kBool, {5}, {0, 1, 0, 0, 0});
  expectTensor(run1({"IsInf", {x}}), DataType::kBool, {5}, {0, 0, 1, 1, 0});
  expectTensor(run1({"IsInf", {x}, {attrI("detect_negative", 0)}}), DataType::kBool, {5},
               {0, 0, 1, 0, 0});
  expectTensor(run1({"IsInf", {x}, {attrI("detect_positive", 0)}}), DataType::kBool, {5},
               {0, 0, 0, 1, 0});
  expectTensor(run1({"IsNaN", {f16({2}, {std::nanf(""), 1})}}), DataType::kBool, {2}, {1, 0});
}

TEST(UnaryMath, EmptyAndScalarTensors) {
  ir::Tensor e = run1({"Sqrt", {f32({0, 3}, {})}});
  EXPECT_EQ(e.dims(), (std::vector<int64_t>{0, 3}));
  ir::Tensor s = run1({"Exp", {f32({}, {0.0f})}});
  expectTensor(s, DataType::kFloat, {}, {1});
}

TEST(UnaryMath, WrongElementTypeIsAClearError) {
  std::string err = errorOf({"Sqrt", {i32({2}, {1, 4})}});
  EXPECT_NE(err.find("int32"), std::string::npos) << err;
  err = errorOf({"IsNaN", {i64({1}, {1})}});
  EXPECT_NE(err.find("int64"), std::string::npos) << err;
}

TEST(UnaryMath, OlderOpsetsRun) {
  // Opset 6 Abs/Floor and opset 9 Sign share the kernels.
  expectTensor(run1({"Abs", {f32({2}, {-1, 2})}, {}, 6}), DataType::kFloat, {2}, {1, 2});
  expectTensor(run1({"Sign", {f32({2}, {-1, 2})}, {}, 9}), DataType::kFloat, {2}, {-1, 1});
}

}  // namespace
}  // namespace passlab::exec
