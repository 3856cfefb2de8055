// Comparisons, logic, bit operations, Pow, Mod and Where (compare_ops.cpp,
// logical_ops.cpp, pow_mod.cpp, where.cpp): broadcasting, the legacy (opset
// < 7) broadcast attributes, strings, mixed types and errors.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

TEST(Compare, AllComparisonsBroadcast) {
  ir::Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  ir::Tensor b = f32({3}, {2, 2, 7});
  expectTensor(run1({"Equal", {a, b}}), DataType::kBool, {2, 3}, {0, 1, 0, 0, 0, 0});
  expectTensor(run1({"Less", {a, b}}), DataType::kBool, {2, 3}, {1, 0, 1, 0, 0, 1});
  expectTensor(run1({"LessOrEqual", {a, b}}), DataType::kBool, {2, 3}, {1, 1, 1, 0, 0, 1});
  expectTensor(run1({"Greater", {a, b}}), DataType::kBool, {2, 3}, {0, 0, 0, 1, 1, 0});
  expectTensor(run1({"GreaterOrEqual", {a, b}}), DataType::kBool, {2, 3}, {0, 1, 0, 1, 1, 0});
}

TEST(Compare, EveryNumericTypeAndNaN) {
  for (DataType dt : {DataType::kInt8, DataType::kUInt16, DataType::kInt64, DataType::kUInt64,
                      DataType::kFloat16, DataType::kBFloat16, DataType::kDouble}) {
    SCOPED_TRACE(std::string(ir::dtypeName(dt)));
    expectTensor(run1({"Greater", {typed(dt, {3}, {1, 5, 3}), typed(dt, {1}, {3})}}),
                 DataType::kBool, {3}, {0, 1, 0});
  }
  ir::Tensor n = f32({2}, {std::nanf(""), 1});
  expectTensor(run1({"Equal", {n, n}}), DataType::kBool, {2}, {0, 1});
  expectTensor(run1({"Less", {n, f32({1}, {2})}}), DataType::kBool, {2}, {0, 1});
}

TEST(Compare, EqualOnBoolAndStrings) {
  expectTensor(run1({"Equal", {boolean({2}, {true, false}), boolean({2}, {true, true})}}),
               DataType::kBool, {2}, {1, 0});
  ir::Tensor s = ir::Tensor::fromStrings({3}, {"a", "bb", ""});
  ir::Tensor t = ir::Tensor::fromStrings({1}, {"bb"});
  expectTensor(run1({"Equal", {s, t}, {}, 19}), DataType::kBool, {3}, {0, 1, 0});
}

TEST(Compare, LegacyBroadcastAttribute) {
  // Opset 6: B lines up with A at `axis` only when broadcast=1.
  ir::Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  ir::Tensor b = f32({2}, {1, 5});
  expectTensor(run1({"Equal", {a, b}, {attrI("broadcast", 1), attrI("axis", 0)}, 6}),
               DataType::kBool, {2, 3}, {1, 0, 0, 0, 1, 0});
  std::string err = errorOf({"Equal", {a, b}, {}, 6});
  EXPECT_NE(err.find("broadcast=1"), std::string::npos) << err;
  // The default axis is A's trailing dims.
  expectTensor(run1({"Greater", {a, f32({3}, {2, 2, 2})}, {attrI("broadcast", 1)}, 6}),
               DataType::kBool, {2, 3}, {0, 0, 1, 1, 1, 1});
}

TEST(Compare, MismatchedTypesAndShapesAreErrors) {
  std::string err = errorOf({"Less", {f32({2}, {1, 2}), f64({2}, {1, 2})}});
  EXPECT_NE(err.find("different element types"), std::string::npos) << err;
  err = errorOf({"Less", {f32({2}, {1, 2}), f32({3}, {1, 2, 3})}});
  EXPECT_FALSE(err.empty());
}

TEST(Logical, BoolOpsAndNot) {
  ir::Tensor a = boolean({4}, {false, false, true, true});
  ir::Tensor b = boolean({4}, {false, true, false, true});
  expectTensor(run1({"And", {a, b}}), DataType::kBool, {4}, {0, 0, 0, 1});
  expectTensor(run1({"Or", {a, b}}), DataType::kBool, {4}, {0, 1, 1, 1});
  expectTensor(run1({"Xor", {a, b}}), DataType::kBool, {4}, {0, 1, 1, 0});
  expectTensor(run1({"Not", {a}}), DataType::kBool, {4}, {1, 1, 0, 0});
  // Broadcast: [2,1] with [2].
  expectTensor(run1({"And", {boolean({2, 1}, {true, false}), boolean({2}, {true, false})}}),
               DataType::kBool, {2, 2}, {1, 0, 0, 0});
  EXPECT_FALSE(errorOf({"And", {f32({1}, {1}), f32({1}, {1})}}).empty());
}

TEST(Logical, BitwiseOps) {
  ir::Tensor a = typed(DataType::kUInt8, {3}, {0b1100, 0xFF, 7});
  ir::Tensor b = typed(DataType::kUInt8, {3}, {0b1010, 0x0F, 0});
  expectTensor(run1({"BitwiseAnd", {a, b}}), DataType::kUInt8, {3}, {0b1000, 0x0F, 0});
  expectTensor(run1({"BitwiseOr", {a, b}}), DataType::kUInt8, {3}, {0b1110, 0xFF, 7});
  expectTensor(run1({"BitwiseXor", {a, b}}), DataType::kUInt8, {3}, {0b0110, 0xF0, 7});
  expectTensor(run1({"BitwiseNot", {a}}), DataType::kUInt8, {3}, {0xF3, 0, 0xF8});
  expectTensor(run1({"BitwiseNot", {i32({2}, {0, -1})}}), DataType::kInt32, {2}, {-1, 0});
}

TEST(Logical, BitShift) {
  ir::Tensor x = typed(DataType::kUInt8, {4}, {1, 4, 255, 16});
  ir::Tensor s = typed(DataType::kUInt8, {4}, {1, 2, 1, 8});
  expectTensor(run1({"BitShift", {x, s}, {attrS("direction", "LEFT")}}), DataType::kUInt8, {4},
               {2, 16, 254, 0});
  expectTensor(run1({"BitShift", {x, s}, {attrS("direction", "RIGHT")}}), DataType::kUInt8, {4},
               {0, 1, 127, 0});
  // Signed (opset 28): arithmetic right shift; shifts past the width fill with the sign.
  ir::Tensor sx = typed(DataType::kInt8, {3}, {-8, -8, 8});
  ir::Tensor ss = typed(DataType::kInt8, {3}, {1, 9, 9});
  expectTensor(run1({"BitShift", {sx, ss}, {attrS("direction", "RIGHT")}, 28}), DataType::kInt8,
               {3}, {-4, -1, 0});
  expectTensor(
      run1({"BitShift", {sx, typed(DataType::kInt8, {1}, {4})}, {attrS("direction", "LEFT")}, 28}),
      DataType::kInt8, {3}, {-128, -128, -128});
  std::string err = errorOf({"BitShift", {x, s}, {attrS("direction", "UP")}});
  EXPECT_NE(err.find("direction"), std::string::npos) << err;
  err = errorOf({"BitShift", {sx, ss}, {attrS("direction", "LEFT")}, 18});
  EXPECT_NE(err.find("opset 28"), std::string::npos) << err;
}

TEST(PowMod, PowWithMixedTypes) {
  ir::Tensor x = f32({3}, {1, 2, 3});
  expectTensor(run1({"Pow", {x, f32({3}, {4, 5, 6})}}), DataType::kFloat, {3}, {1, 32, 729});
  expectTensor(run1({"Pow", {x, i64({1}, {2})}}), DataType::kFloat, {3}, {1, 4, 9});
  expectTensor(run1({"Pow", {i32({3}, {1, 2, 3}), f32({3}, {4, 5, 6})}}), DataType::kInt32, {3},
               {1, 32, 729});
  expectTensor(run1({"Pow", {i64({3}, {2, -3, 5}), i64({3}, {10, 3, 0})}}), DataType::kInt64, {3},
               {1024, -27, 1});
  expectTensor(run1({"Pow", {f16({2}, {2, 3}), f32({1}, {2})}}), DataType::kFloat16, {2}, {4, 9});
  // The fast paths for constant exponents.
  expectTensor(run1({"Pow", {f32({4}, {4, -2, 0, -INFINITY}), f32({}, {0.5f})}}), DataType::kFloat,
               {4}, {2, std::nan(""), 0, INFINITY});
  expectTensor(run1({"Pow", {f32({2}, {4, -2}), f32({}, {3})}}), DataType::kFloat, {2}, {64, -8});
  expectTensor(run1({"Pow", {f32({2, 2}, {1, 2, 3, 4}), f32({2, 1}, {2, 3})}}), DataType::kFloat,
               {2, 2}, {1, 4, 27, 64});
}

TEST(PowMod, ModFollowsTheDivisorOrTheDividend) {
  ir::Tensor a = i32({6}, {-4, 7, 5, 4, -7, 8});
  ir::Tensor b = i32({6}, {2, -3, 8, -2, 3, 5});
  expectTensor(run1({"Mod", {a, b}}), DataType::kInt32, {6}, {0, -2, 5, 0, 2, 3});
  expectTensor(run1({"Mod", {a, b}, {attrI("fmod", 1)}}), DataType::kInt32, {6},
               {0, 1, 5, 0, -1, 3});
  ir::Tensor fa = f32({3}, {-4.3f, 7.2f, 5.0f});
  ir::Tensor fb = f32({3}, {2.1f, -3.4f, 8.0f});
  expectTensor(run1({"Mod", {fa, fb}, {attrI("fmod", 1)}}), DataType::kFloat, {3},
               {std::fmod(-4.3f, 2.1f), std::fmod(7.2f, -3.4f), 5.0}, 1e-5);
  // Division by zero gives 0 for integers; INT_MIN % -1 does not trap.
  expectTensor(run1({"Mod", {i32({2}, {5, INT32_MIN}), i32({2}, {0, -1})}}), DataType::kInt32, {2},
               {0, 0});
  expectTensor(
      run1({"Mod", {typed(DataType::kUInt8, {2}, {200, 7}), typed(DataType::kUInt8, {1}, {9})}}),
      DataType::kUInt8, {2}, {2, 7});
  std::string err = errorOf({"Mod", {a, b}, {attrI("fmod", 2)}});
  EXPECT_NE(err.find("fmod"), std::string::npos) << err;
}

TEST(LegacyArith, Opset6AddAndDivBroadcastOnlyWhenAsked) {
  ir::Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  expectTensor(run1({"Add", {a, f32({2}, {10, 20})}, {attrI("broadcast", 1), attrI("axis", 0)}, 6}),
               DataType::kFloat, {2, 3}, {11, 12, 13, 24, 25, 26});
  expectTensor(run1({"Div", {i32({3}, {7, -7, 7}), i32({3}, {2, 2, 0})}, {}, 6}), DataType::kInt32,
               {3}, {3, -3, 0});
  std::string err = errorOf({"Mul", {a, f32({3}, {1, 2, 3})}, {}, 6});
  EXPECT_NE(err.find("broadcast=1"), std::string::npos) << err;
  expectTensor(run1({"Sum", {f32({2}, {1, 2}), f32({2}, {3, 4}), f32({2}, {5, 6})}, {}, 5}),
               DataType::kFloat, {2}, {9, 12});
  expectTensor(run1({"Max", {f32({2}, {1, 5}), f32({2}, {3, 4})}, {}, 1}), DataType::kFloat, {2},
               {3, 5});
  expectTensor(run1({"Clip", {f32({3}, {-2, 0.5f, 2})}, {attrF("min", -1), attrF("max", 1)}, 1}),
               DataType::kFloat, {3}, {-1, 0.5, 1});
}

TEST(Where, SelectsWithThreeWayBroadcast) {
  ir::Tensor c = boolean({2, 1}, {true, false});
  ir::Tensor x = f32({3}, {1, 2, 3});
  ir::Tensor y = f32({2, 3}, {10, 20, 30, 40, 50, 60});
  expectTensor(run1({"Where", {c, x, y}}), DataType::kFloat, {2, 3}, {1, 2, 3, 40, 50, 60});
  ir::Tensor s = run1({"Where",
                       {boolean({2}, {true, false}), ir::Tensor::fromStrings({2}, {"a", "b"}),
                        ir::Tensor::fromStrings({1}, {"z"})}});
  EXPECT_EQ(s.strings(), (std::vector<std::string>{"a", "z"}));
  std::string err = errorOf({"Where", {f32({1}, {1}), x, x}});
  EXPECT_NE(err.find("bool"), std::string::npos) << err;
  err = errorOf({"Where", {c, x, i64({1}, {1})}});
  EXPECT_NE(err.find("different element types"), std::string::npos) << err;
}

}  // namespace
}  // namespace passlab::exec
