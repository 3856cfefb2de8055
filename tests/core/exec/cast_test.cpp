// Cast and CastLike (cast.cpp): between the standard types, to and from
// strings, the float8 formats with and without saturation, float8e8m0's
// rounding modes, float4e2m1 and the packed small integers.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "core/exec/minifloat.h"
#include "tests/core/exec/op_test_util.h"

namespace passlab::exec {
namespace {

using namespace optest;

ir::Tensor castTo(const ir::Tensor& x, DataType to, std::vector<Attr> attrs = {},
                  int64_t opset = 25) {
  attrs.push_back(attrI("to", static_cast<int64_t>(to)));
  return run1({"Cast", {x}, attrs, opset});
}

std::vector<uint8_t> bytesOf(const ir::Tensor& t) {
  std::vector<uint8_t> out;
  for (std::byte b : t.bytes()) out.push_back(static_cast<uint8_t>(b));
  return out;
}

TEST(Cast, BetweenStandardTypes) {
  ir::Tensor x = f32({6}, {1.7f, -1.7f, 0.0f, 300.0f, -0.5f, 2.5f});
  expectTensor(castTo(x, DataType::kInt32), DataType::kInt32, {6}, {1, -1, 0, 300, 0, 2});
  // Truncation, then wrapping to the width (as numpy on x86).
  expectTensor(castTo(x, DataType::kInt8), DataType::kInt8, {6}, {1, -1, 0, 44, 0, 2});
  expectTensor(castTo(x, DataType::kBool), DataType::kBool, {6}, {1, 1, 0, 1, 1, 1});
  expectTensor(castTo(x, DataType::kDouble), DataType::kDouble, {6},
               {1.7f, -1.7f, 0.0, 300.0, -0.5, 2.5});
  expectTensor(castTo(x, DataType::kFloat16), DataType::kFloat16, {6},
               {1.7, -1.7, 0, 300, -0.5, 2.5}, 1e-3);
  expectTensor(castTo(x, DataType::kBFloat16), DataType::kBFloat16, {6},
               {1.7, -1.7, 0, 300, -0.5, 2.5}, 1e-2);
  expectTensor(castTo(boolean({2}, {true, false}), DataType::kFloat), DataType::kFloat, {2},
               {1, 0});
  expectTensor(castTo(i64({2}, {-1, 70000}), DataType::kUInt16), DataType::kUInt16, {2},
               {65535, 70000 - 65536});
  // NaN becomes 0 for integers and true for bool.
  expectTensor(castTo(f32({1}, {std::nanf("")}), DataType::kInt64), DataType::kInt64, {1}, {0});
  expectTensor(castTo(f32({1}, {std::nanf("")}), DataType::kBool), DataType::kBool, {1}, {1});
  // Exact for 64-bit integers beyond 2^53.
  ir::Tensor big = i64({1}, {(int64_t{1} << 60) + 1});
  EXPECT_EQ(castTo(big, DataType::kUInt64).data<uint64_t>()[0], (uint64_t{1} << 60) + 1);
}

// float32 -> float16 / bfloat16 rounds to nearest, ties to even, on the bits:
// a value halfway between two neighbours goes to the one with an even last
// bit (down from an even one, up from an odd one), just above or below a tie
// to the nearer one, in the subnormals too, and a value half a step or more
// past the largest finite one to infinity. Truncation or rounding half up
// would give other bits on the ties.
TEST(Cast, FloatToHalfTypesRoundsTiesToEven) {
  struct Case {
    uint32_t in;
    uint16_t out;
  };
  auto check = [](DataType to, const std::vector<Case>& cases) {
    std::vector<float> in;
    for (const Case& c : cases) in.push_back(std::bit_cast<float>(c.in));
    const ir::Tensor y = castTo(f32({static_cast<int64_t>(in.size())}, in), to);
    ASSERT_EQ(y.dtype(), to);
    for (size_t i = 0; i < cases.size(); ++i)
      EXPECT_EQ(y.data<uint16_t>()[i], cases[i].out)
          << std::hex << "0x" << cases[i].in << std::dec << " to " << static_cast<int>(to);
  };
  check(DataType::kBFloat16, {
                                 {0x3F808000u, 0x3F80u},  // 1 + 2^-8: tie, to even (down)
                                 {0x3F818000u, 0x3F82u},  // 1 + 3 * 2^-8: tie, to even (up)
                                 {0x3F808001u, 0x3F81u},  // just above a tie
                                 {0x3F817FFFu, 0x3F81u},  // just below a tie
                                 {0xBF818000u, 0xBF82u},  // negative tie
                                 {0x00018000u, 0x0002u},  // subnormal tie
                                 {0x00008000u, 0x0000u},  // subnormal tie to zero
                                 {0x7F7FFFFFu, 0x7F80u},  // largest float32: infinity
                             });
  check(DataType::kFloat16, {
                                {0x3F801000u, 0x3C00u},  // 1 + 2^-11: tie, to even (down)
                                {0x3F803000u, 0x3C02u},  // 1 + 3 * 2^-11: tie, to even (up)
                                {0x3F801001u, 0x3C01u},  // just above a tie
                                {0x3F802FFFu, 0x3C01u},  // just below a tie
                                {0xBF803000u, 0xBC02u},  // negative tie
                                {0x33000000u, 0x0000u},  // 2^-25: subnormal tie to zero
                                {0x33C00000u, 0x0002u},  // 3 * 2^-25: subnormal tie, up
                                {0x477FF000u, 0x7C00u},  // 65520: tie past 65504, infinity
                            });
}

TEST(Cast, SameTypeIsIdentityAndCastLikeTakesTheSecondType) {
  ir::Tensor x = f32({2}, {1.5f, 2.5f});
  expectTensor(castTo(x, DataType::kFloat), DataType::kFloat, {2}, {1.5, 2.5});
  expectTensor(run1({"CastLike", {x, i64({1}, {0})}, {}, 19}), DataType::kInt64, {2}, {1, 2});
  expectTensor(run1({"CastLike", {x, f16({0}, {})}, {}, 15}), DataType::kFloat16, {2}, {1.5, 2.5});
}

TEST(Cast, Opset1NamesTheType) {
  ir::Tensor y = run1({"Cast", {f32({2}, {1.5f, -2.5f})}, {attrS("to", "INT32")}, 1});
  expectTensor(y, DataType::kInt32, {2}, {1, -2});
  std::string err = errorOf({"Cast", {f32({1}, {1})}, {attrS("to", "QUATERNION")}, 1});
  EXPECT_NE(err.find("QUATERNION"), std::string::npos) << err;
}

TEST(Cast, ToAndFromStrings) {
  ir::Tensor x = f32({7}, {0.9767611f, 1e-5f, 3.0f, -0.0f, INFINITY, -INFINITY, std::nanf("")});
  ir::Tensor s = castTo(x, DataType::kString);
  EXPECT_EQ(s.strings(),
            (std::vector<std::string>{"0.9767611", "1e-05", "3.0", "-0.0", "INF", "-INF", "NaN"}));
  EXPECT_EQ(castTo(i64({2}, {-12, 7}), DataType::kString).strings(),
            (std::vector<std::string>{"-12", "7"}));
  EXPECT_EQ(castTo(boolean({2}, {true, false}), DataType::kString).strings(),
            (std::vector<std::string>{"True", "False"}));
  ir::Tensor text =
      ir::Tensor::fromStrings({8}, {"0.5", "1E8", "-1e-5", "+INF", "inf", "-INF", "NaN", " 12 "});
  expectTensor(castTo(text, DataType::kFloat), DataType::kFloat, {8},
               {0.5, 1e8, -1e-5, INFINITY, INFINITY, -INFINITY, std::nan(""), 12}, 1e-6);
  expectTensor(castTo(ir::Tensor::fromStrings({3}, {"100", "-7", "100.5"}), DataType::kInt64),
               DataType::kInt64, {3}, {100, -7, 100});
  expectTensor(
      castTo(ir::Tensor::fromStrings({2}, {"18446744073709551615", "1"}), DataType::kUInt64),
      DataType::kUInt64, {2}, {18446744073709551615.0, 1});
  std::string err = errorOf({"Cast", {ir::Tensor::fromStrings({1}, {"Hello"})}, {attrI("to", 1)}});
  EXPECT_NE(err.find("Hello"), std::string::npos) << err;
}

TEST(Cast, Float8WithAndWithoutSaturation) {
  ir::Tensor x =
      f32({8}, {0.4789f, 448.0f, 465.0f, 1e6f, INFINITY, -INFINITY, -1e-7f, std::nanf("")});
  // e4m3fn: saturate clamps to +-448; otherwise out of range is NaN (0x7F / 0xFF).
  EXPECT_EQ(bytesOf(castTo(x, DataType::kFloat8E4M3FN)),
            (std::vector<uint8_t>{0x2F, 0x7E, 0x7E, 0x7E, 0x7E, 0xFE, 0x80, 0x7F}));
  EXPECT_EQ(bytesOf(castTo(x, DataType::kFloat8E4M3FN, {attrI("saturate", 0)})),
            (std::vector<uint8_t>{0x2F, 0x7E, 0x7F, 0x7F, 0x7F, 0xFF, 0x80, 0x7F}));
  // e5m2 has infinities.
  EXPECT_EQ(bytesOf(castTo(x, DataType::kFloat8E5M2, {attrI("saturate", 0)})),
            (std::vector<uint8_t>{0x38, 0x5F, 0x5F, 0x7C, 0x7C, 0xFC, 0x80, 0x7E}));
  // fnuz: one NaN (0x80), no negative zero.
  ir::Tensor fnuz = castTo(x, DataType::kFloat8E4M3FNUZ);
  EXPECT_EQ(bytesOf(fnuz)[6], 0x00);
  EXPECT_EQ(bytesOf(fnuz)[7], 0x80);
  EXPECT_EQ(bytesOf(fnuz)[1], 0x7F);  // 448 saturates to 240
  // Back to float.
  expectTensor(castTo(fnuz, DataType::kFloat), DataType::kFloat, {8},
               {0.46875, 240, 240, 240, 240, -240, 0, std::nan("")});
  expectTensor(castTo(castTo(x, DataType::kFloat8E5M2FNUZ), DataType::kFloat16), DataType::kFloat16,
               {8}, {0.5, 448, 448, 57344, 57344, -57344, 0, std::nan("")});
}

TEST(Cast, MiniFloatRoundTripsEveryCode) {
  for (const MiniFloatFormat* f : {&kE4M3FN, &kE4M3FNUZ, &kE5M2, &kE5M2FNUZ}) {
    for (int code = 0; code < 256; ++code) {
      float v = miniFloatToFloat(static_cast<uint8_t>(code), *f);
      if (std::isnan(v) || std::isinf(v)) continue;
      if (f->fnuz && code == 0x80) continue;
      EXPECT_EQ(floatToMiniFloat(v, *f, false), code) << "code " << code << " value " << v;
    }
  }
  for (int code = 0; code < 16; ++code)
    EXPECT_EQ(floatToMiniFloat(miniFloatToFloat(static_cast<uint8_t>(code), kE2M1), kE2M1, true),
              code);
}

TEST(Cast, Float4AndE8M0) {
  ir::Tensor x = f32({6}, {0.48f, 0.25f, 1.05f, -3.5f, 9.0f, std::nanf("")});
  ir::Tensor f4 = castTo(x, DataType::kFloat4E2M1);
  EXPECT_EQ(f4.dims(), (std::vector<int64_t>{6}));
  expectTensor(castTo(f4, DataType::kFloat), DataType::kFloat, {6}, {0.5, 0, 1, -4, 6, -0.0});
  ir::Tensor e = f32({5}, {0.0f, 0.124f, 1.1f, 4.0f, 3.0f});
  expectTensor(castTo(castTo(e, DataType::kFloat8E8M0), DataType::kFloat), DataType::kFloat, {5},
               {std::ldexp(1.0, -127), 0.125, 2, 4, 4});
  expectTensor(
      castTo(castTo(e, DataType::kFloat8E8M0, {attrS("round_mode", "down")}), DataType::kFloat),
      DataType::kFloat, {5}, {std::ldexp(1.0, -127), 0.0625, 1, 4, 2});
  expectTensor(
      castTo(castTo(e, DataType::kFloat8E8M0, {attrS("round_mode", "nearest")}), DataType::kFloat),
      DataType::kFloat, {5}, {std::ldexp(1.0, -127), 0.125, 1, 4, 4});
  std::string err = errorOf({"Cast", {e}, {attrI("to", 24), attrS("round_mode", "sideways")}, 25});
  EXPECT_NE(err.find("round_mode"), std::string::npos) << err;
}

TEST(Cast, PackedSmallIntegersWrap) {
  ir::Tensor x = f32({5}, {-9, -8, 7, 8, 9});
  ir::Tensor i4 = castTo(x, DataType::kInt4);
  expectTensor(castTo(i4, DataType::kInt8), DataType::kInt8, {5}, {7, -8, 7, -8, -7});
  ir::Tensor u2 = castTo(f32({4}, {-3, -1, 2, 3}), DataType::kUInt2);
  EXPECT_EQ(bytesOf(u2), (std::vector<uint8_t>{0b11101101}));
  expectTensor(castTo(u2, DataType::kUInt8), DataType::kUInt8, {4}, {1, 3, 2, 3});
  expectTensor(castTo(castTo(i64({3}, {-2, 1, 2}), DataType::kInt2), DataType::kFloat),
               DataType::kFloat, {3}, {-2, 1, -2});
}

TEST(Cast, BadTargetsAreErrors) {
  std::string err = errorOf({"Cast", {f32({1}, {1})}, {attrI("to", 14)}});
  EXPECT_NE(err.find("complex64"), std::string::npos) << err;
  err = errorOf({"Cast", {f32({1}, {1})}, {attrI("to", 99)}});
  EXPECT_NE(err.find("99"), std::string::npos) << err;
  err = errorOf({"Cast", {f32({1}, {1})}});
  EXPECT_NE(err.find("to"), std::string::npos) << err;
}

}  // namespace
}  // namespace passlab::exec
