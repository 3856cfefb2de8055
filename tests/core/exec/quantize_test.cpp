// QuantizeLinear / DequantizeLinear (per tensor, per axis, blocked; 8-bit,
// 4-bit packed, float8), DynamicQuantizeLinear, and the integer products
// MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv; ONNX Runtime's
// com.microsoft QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu,
// QLinearConcat.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i32;
using kt::i8;
using kt::u8;

std::vector<uint8_t> bytesOf(const ir::Tensor& t) {
  std::vector<uint8_t> v;
  for (std::byte b : t.bytes()) v.push_back(static_cast<uint8_t>(b));
  return v;
}

TEST(QuantizeLinear, RoundsHalfToEvenAndSaturates) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
    main (float[6] x, float s, uint8 z) => (uint8[6] y) { y = QuantizeLinear(x, s, z) })";
  auto r = testutil::runText(
      text,
      {{"x", f32({6}, {0, 2, 3, 1000, -254, -1000})}, {"s", f32({}, {2})}, {"z", u8({}, {128})}});
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{128, 129, 130, 255, 1, 0}));
}

TEST(QuantizeLinear, PerAxisAndBlocked) {
  const char* axis = R"(<ir_version: 8, opset_import: ["" : 13]>
    main (float[2,3] x, float[3] s, int8[3] z) => (int8[2,3] y) { y = QuantizeLinear <axis = 1> (x, s, z) })";
  auto r = testutil::runText(axis, {{"x", f32({2, 3}, {1, 2, 4, -1, -2, 400})},
                                    {"s", f32({3}, {1, 2, 4})},
                                    {"z", i8({3}, {0, 1, -1})}});
  EXPECT_EQ(kt::values<int8_t>(r.outputs[0]), (std::vector<int8_t>{1, 2, 0, -1, 0, 99}));
  const char* blocked = R"(<ir_version: 8, opset_import: ["" : 21]>
    main (float[2,4] x, float[2,K] s) => (int8[2,4] y) {
      y = QuantizeLinear <axis = 1, block_size = 2, output_dtype = 3> (x, s)
    })";
  r = testutil::runText(blocked, {{"x", f32({2, 4}, {2, 4, 6, 8, 10, 12, 14, 16})},
                                  {"s", f32({2, 2}, {2, 4, 1, 8})}});
  EXPECT_EQ(kt::values<int8_t>(r.outputs[0]), (std::vector<int8_t>{1, 2, 2, 2, 10, 12, 2, 2}));
  kt::expectError(
      blocked,
      {{"x", f32({2, 4}, {2, 4, 6, 8, 10, 12, 14, 16})}, {"s", f32({2, 3}, {1, 1, 1, 1, 1, 1})}},
      {"y_scale float[2,3] must be [2,2]"});
}

TEST(QuantizeLinear, Int4IsPackedLowNibbleFirst) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 21]>
    main (float[4] x, float s, int4 z) => (int4[4] y) { y = QuantizeLinear(x, s, z) })";
  auto r = testutil::runText(text, {{"x", f32({4}, {1, 2, -20, -1})},
                                    {"s", f32({}, {1})},
                                    {"z", kt::make<uint8_t>(ir::DataType::kInt4, {}, {0})}});
  // 1, 2 -> 0x21; -8 (saturated), -1 -> 0xF8.
  EXPECT_EQ(bytesOf(r.outputs[0]), (std::vector<uint8_t>{0x21, 0xF8}));
}

TEST(QuantizeLinear, Float8E4M3FN) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 19]>
    main (float[6] x, float s, float8e4m3fn z) => (float8e4m3fn[6] y) { y = QuantizeLinear(x, s, z) })";
  auto r =
      testutil::runText(text, {{"x", f32({6}, {0, 0.5f, 1, 448, 10000, -1000})},
                               {"s", f32({}, {1})},
                               {"z", kt::make<uint8_t>(ir::DataType::kFloat8E4M3FN, {}, {0})}});
  EXPECT_EQ(bytesOf(r.outputs[0]), (std::vector<uint8_t>{0x00, 0x30, 0x38, 0x7E, 0x7E, 0xFE}));
}

TEST(DequantizeLinear, PerTensorInt4AndFloat8) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
    main (uint8[4] x, float s, uint8 z) => (float[4] y) { y = DequantizeLinear(x, s, z) })";
  auto r = testutil::runText(
      text, {{"x", u8({4}, {0, 3, 128, 255})}, {"s", f32({}, {2})}, {"z", u8({}, {128})}});
  kt::expectNear(r.outputs[0], {-256, -250, 0, 254});
  const char* int4 = R"(<ir_version: 8, opset_import: ["" : 21]>
    main (int4[4] x, float s) => (float[4] y) { y = DequantizeLinear(x, s) })";
  r = testutil::runText(int4, {{"x", kt::make<uint8_t>(ir::DataType::kInt4, {4}, {0x21, 0xF8})},
                               {"s", f32({}, {0.5f})}});
  kt::expectNear(r.outputs[0], {0.5f, 1, -4, -0.5f});
  const char* fp8 = R"(<ir_version: 8, opset_import: ["" : 19]>
    main (float8e5m2[3] x, float s) => (float[3] y) { y = DequantizeLinear(x, s) })";
  r = testutil::runText(
      fp8, {{"x", kt::make<uint8_t>(ir::DataType::kFloat8E5M2, {3}, {0x3C, 0x7B, 0xC0})},
            {"s", f32({}, {2})}});
  kt::expectNear(r.outputs[0], {2, 114688, -4});
}

// Per axis and per tensor, uint8 and int8, rows around the 16-byte vectors
// (AVX-512 where present, else 8 lanes of AVX2): each output is (float(x) - float(z)) * s in float,
// bit for bit.
TEST(DequantizeLinear, EightBitRowsAreTheFormulaBitForBit) {
  for (const char* type : {"uint8", "int8"})
    for (int64_t len : {1, 15, 16, 17, 47, 64})
      for (bool perAxis : {true, false}) {
        const bool sign = type[0] == 'i';
        const int64_t C = 3;
        const std::string n = std::to_string(len), sdim = perAxis ? "[3]" : "";
        const std::string text = std::string(R"(<ir_version: 8, opset_import: ["" : 13]>
    main ()") + type + "[2,3," + n +
                                 "] x, float" + sdim + " s, " + type + sdim +
                                 R"( z) => (float[2,3,)" + n +
                                 R"(] y) { y = DequantizeLinear <axis = 1> (x, s, z) })";
        std::vector<int> q(static_cast<size_t>(2 * C * len));
        for (size_t i = 0; i < q.size(); ++i)
          q[i] = static_cast<int>((i * 37 + 11) % 256) - (sign ? 128 : 0);
        const std::vector<float> sc = {0.0173f, 3.5f, 1e-3f};
        const std::vector<int> zp =
            sign ? std::vector<int>{-7, 0, 100} : std::vector<int>{0, 128, 255};
        const size_t ns = perAxis ? 3 : 1;
        std::vector<float> sv(sc.begin(), sc.begin() + static_cast<long>(ns));
        ir::Tensor xt, zt;
        if (sign) {
          xt = i8({2, C, len}, std::vector<int8_t>(q.begin(), q.end()));
          zt = i8(perAxis ? Dims{3} : Dims{},
                  std::vector<int8_t>(zp.begin(), zp.begin() + static_cast<long>(ns)));
        } else {
          xt = u8({2, C, len}, std::vector<uint8_t>(q.begin(), q.end()));
          zt = u8(perAxis ? Dims{3} : Dims{},
                  std::vector<uint8_t>(zp.begin(), zp.begin() + static_cast<long>(ns)));
        }
        auto r = testutil::runText(
            text, {{"x", xt}, {"s", f32(perAxis ? Dims{3} : Dims{}, sv)}, {"z", zt}});
        ASSERT_EQ(r.outputs.size(), 1u);
        const std::vector<float> got = kt::values<float>(r.outputs[0]);
        ASSERT_EQ(got.size(), q.size());
        for (size_t i = 0; i < q.size(); ++i) {
          const size_t c = perAxis ? (i / static_cast<size_t>(len)) % 3 : 0;
          const float want = (static_cast<float>(q[i]) - static_cast<float>(zp[c])) * sc[c];
          ASSERT_EQ(got[i], want) << type << " len " << len << " element " << i;
        }
      }
}

TEST(DynamicQuantizeLinear, SpecExample) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[6] x) => (uint8[6] y, float s, uint8 z) { y, s, z = DynamicQuantizeLinear(x) })";
  auto r = testutil::runText(text, {{"x", f32({6}, {0, 2, -3, -2.5f, 1.34f, 0.5f})}});
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{153, 255, 0, 26, 221, 179}));
  EXPECT_NEAR(kt::values<float>(r.outputs[1])[0], 0.0196078438f, 1e-9f);
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[2])[0], 153);
}

// Long enough for the 8-at-a-time range and the 16-at-a-time quantization, with
// tails: each value against the spec's formula in double; a NaN anywhere is refused.
TEST(DynamicQuantizeLinear, LongInputFollowsTheFormula) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[45] x) => (uint8[45] y, float s, uint8 z) { y, s, z = DynamicQuantizeLinear(x) })";
  std::vector<float> x(45);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.37f * static_cast<float>(i) - 3.1f;
  x[40] = 13.5f;  // the maximum in the scalar tail
  auto r = testutil::runText(text, {{"x", f32({45}, x)}});
  const float lo = -3.1f, hi = 13.5f, scale = (hi - lo) / 255.0f;
  EXPECT_FLOAT_EQ(kt::values<float>(r.outputs[1])[0], scale);
  const float zp = std::nearbyint(std::clamp(-lo / scale, 0.0f, 255.0f));
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[2])[0], static_cast<uint8_t>(zp));
  std::vector<uint8_t> want;
  for (float v : x)
    want.push_back(static_cast<uint8_t>(std::clamp(std::nearbyint(v / scale) + zp, 0.0f, 255.0f)));
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), want);
  x[3] = std::nanf("");
  EXPECT_NE(testutil::errorOf(text, {{"x", f32({45}, x)}}).find("x holds NaN"), std::string::npos);
}

// Values at and a few ulps around every tie k + 0.5 (and around the
// integers) of a scale that is not a power of two, far outside the clamps,
// infinities, against the formula with the division (4 of these values round
// differently with a product by RN(1/s), so a kernel that multiplies fails).
TEST(QuantizeLinear, ValuesNearTiesFollowTheDivision) {
  const float s = 0.0173f;
  std::vector<float> x;
  for (int k = -300; k <= 300; ++k)
    for (float at : {static_cast<float>(k) + 0.5f, static_cast<float>(k)}) {
      float v = at * s;
      for (int u = 0; u < 3; ++u) v = std::nextafter(v, -HUGE_VALF);
      for (int u = 0; u < 7; ++u, v = std::nextafter(v, HUGE_VALF)) x.push_back(v);
    }
  for (float v : {1e30f, -1e30f, HUGE_VALF, -HUGE_VALF, 0.0f, -0.0f, 1e-42f}) x.push_back(v);
  const auto n = static_cast<int64_t>(x.size());
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13]>
    main (float[)" + std::to_string(n) +
                           R"(] x, float s, uint8 z) => (uint8[)" + std::to_string(n) +
                           R"(] y) { y = QuantizeLinear(x, s, z) })";
  auto r = testutil::runText(text.c_str(),
                             {{"x", f32({n}, x)}, {"s", f32({}, {s})}, {"z", u8({}, {131})}});
  const std::vector<uint8_t> got = kt::values<uint8_t>(r.outputs[0]);
  ASSERT_EQ(got.size(), x.size());
  int bad = 0;
  for (size_t i = 0; i < x.size() && bad < 5; ++i) {
    const float want = std::clamp(std::nearbyint(x[i] / s) + 131.0f, 0.0f, 255.0f);
    if (got[i] != static_cast<uint8_t>(want)) {
      ADD_FAILURE() << "x " << x[i] << " (x / s " << x[i] / s << "): " << int{got[i]} << ", want "
                    << want;
      ++bad;
    }
  }
}

// Long enough for the 64-at-a-time AVX-512 range, then the SSE2 and scalar
// tails: the minimum in the AVX-512 part, the maximum in the SSE2 one, and
// the other way round; a NaN in each part is refused.
TEST(DynamicQuantizeLinear, RangeOverEveryPart) {
  const int64_t n = 64 * 5 + 8 * 3 + 5;  // 349
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[349] x) => (uint8[349] y, float s, uint8 z) { y, s, z = DynamicQuantizeLinear(x) })";
  for (auto [lowAt, highAt] : {std::pair<int64_t, int64_t>{70, 330}, {335, 3}, {346, 348}}) {
    std::vector<float> x(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = 0.01f * static_cast<float>(i % 97);
    x[static_cast<size_t>(lowAt)] = -2.75f;
    x[static_cast<size_t>(highAt)] = 7.5f;
    auto r = testutil::runText(text.c_str(), {{"x", f32({n}, x)}});
    EXPECT_FLOAT_EQ(kt::values<float>(r.outputs[1])[0], (7.5f + 2.75f) / 255.0f)
        << lowAt << " " << highAt;
  }
  for (int64_t at : {10, 330, 347}) {
    std::vector<float> x(static_cast<size_t>(n), 1.0f);
    x[static_cast<size_t>(at)] = std::nanf("");
    EXPECT_NE(testutil::errorOf(text.c_str(), {{"x", f32({n}, x)}}).find("x holds NaN"),
              std::string::npos)
        << at;
  }
}

// The quantization with the divider replaced (quantize.cpp,
// quantizeInRangeAvx512: a product by RN(1/s) and an FMA correction) against
// the formula with the division, on 300 random tensors: ranges from 2^-95
// to 2^95 (both signs, one side zero), lengths from 1 to 9000 (the 16-lane
// loop, the runs of 4096, the tails), values at the ties (k + 0.5) * s, a
// few ulps around them, around the integers, and uniform in the range.
TEST(DynamicQuantizeLinear, RandomTensorsAndTiesFollowTheDivision) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-95, 95), ulps(-3, 3), kind(0, 4);
  int64_t ties = 0;
  for (int t = 0; t < 300; ++t) {
    const int64_t n = t % 10 == 0 ? 4096 + 1 + t * 16 : 1 + static_cast<int64_t>(unit(rng) * 3000);
    const int e = exponent(rng);
    const float mn = t % 7 == 0 ? 0.0f : -std::ldexp(0.5f + unit(rng), e + exponent(rng) % 4);
    const float mx = t % 11 == 0 ? 0.0f : std::ldexp(0.5f + unit(rng), e);
    const float scale = (mx == mn ? 1.0f : mx - mn) / 255.0f;
    const float zp = std::nearbyint(std::clamp(0.0f - mn / scale, 0.0f, 255.0f));
    std::vector<float> x(static_cast<size_t>(n));
    const float kLo = std::ceil(mn / scale), kHi = std::floor(mx / scale);
    for (auto& v : x) {
      const float k = kLo + std::floor(unit(rng) * (kHi - kLo + 1));
      switch (kind(rng)) {
        case 0:
          v = (k + 0.5f) * scale;
          break;
        case 1:
        case 2: {
          v = (k + (kind(rng) % 2 ? 0.5f : 0.0f)) * scale;
          for (int u = ulps(rng); u != 0; u += u > 0 ? -1 : 1)
            v = std::nextafter(v, u > 0 ? HUGE_VALF : -HUGE_VALF);
          break;
        }
        case 3:
          v = mn + unit(rng) * (mx - mn);
          break;
        default:
          v = k * scale;
      }
      v = std::clamp(v, mn, mx);  // the range stays [mn, mx]
    }
    x[0] = mn;
    x[static_cast<size_t>(n - 1)] = mx;
    const std::string text = R"(<ir_version: 8, opset_import: ["" : 11]>
    main (float[)" + std::to_string(n) +
                             R"(] x) => (uint8[)" + std::to_string(n) +
                             R"(] y, float s, uint8 z) { y, s, z = DynamicQuantizeLinear(x) })";
    auto r = testutil::runText(text.c_str(), {{"x", f32({n}, x)}});
    ASSERT_EQ(kt::values<float>(r.outputs[1])[0], scale) << "range " << mn << " " << mx;
    ASSERT_EQ(kt::values<uint8_t>(r.outputs[2])[0], static_cast<uint8_t>(zp));
    const std::vector<uint8_t> got = kt::values<uint8_t>(r.outputs[0]);
    ASSERT_EQ(got.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const float q = x[i] / scale;
      ties += std::fabs(q - std::trunc(q)) == 0.5f;
      const float want = std::clamp(std::nearbyint(q) + zp, 0.0f, 255.0f);
      ASSERT_EQ(got[i], static_cast<uint8_t>(want))
          << "tensor " << t << ", x " << std::hexfloat << x[i] << ", scale " << scale
          << ", x / scale " << q;
    }
  }
  EXPECT_GT(ties, 1000);  // the ties were reached
}

TEST(MatMulInteger, ZeroPointsPerTensor) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 10]>
    main (uint8[4,3] a, uint8[3,2] b, uint8 za, uint8 zb) => (int32[4,2] y) { y = MatMulInteger(a, b, za, zb) })";
  auto r = testutil::runText(text, {{"a", u8({4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0})},
                                    {"b", u8({3, 2}, {1, 4, 2, 5, 3, 6})},
                                    {"za", u8({}, {12})},
                                    {"zb", u8({}, {0})}});
  EXPECT_EQ(kt::values<int32_t>(r.outputs[0]),
            (std::vector<int32_t>{-38, -83, -44, -98, -50, -113, -56, -128}));
}

TEST(QLinearMatMul, SpecExample) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 10]>
    main (uint8[2,4] a, float as, uint8 az, uint8[4,3] b, float bs, uint8 bz, float ys, uint8 yz)
        => (uint8[2,3] y) { y = QLinearMatMul(a, as, az, b, bs, bz, ys, yz) })";
  auto r = testutil::runText(
      text, {{"a", u8({2, 4}, {208, 236, 0, 238, 3, 214, 255, 29})},
             {"as", f32({}, {0.0066f})},
             {"az", u8({}, {113})},
             {"b", u8({4, 3}, {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247})},
             {"bs", f32({}, {0.00705f})},
             {"bz", u8({}, {114})},
             {"ys", f32({}, {0.0107f})},
             {"yz", u8({}, {118})}});
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{168, 115, 255, 1, 66, 151}));
}

TEST(ConvInteger, WithZeroPoint) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 10]>
    main (uint8[1,1,3,3] x, uint8[1,1,2,2] w, uint8 zx) => (int32[1,1,2,2] y) { y = ConvInteger(x, w, zx) })";
  auto r = testutil::runText(text, {{"x", u8({1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10})},
                                    {"w", u8({1, 1, 2, 2}, {1, 1, 1, 1})},
                                    {"zx", u8({}, {1})}});
  EXPECT_EQ(kt::values<int32_t>(r.outputs[0]), (std::vector<int32_t>{12, 16, 24, 28}));
}

TEST(QLinearConv, BiasAndRequantization) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 10]>
    main (uint8[1,1,2,2] x, float xs, uint8 xz, int8[1,1,1,1] w, float ws, int8 wz, float ys, uint8 yz,
          int32[1] b) => (uint8[1,1,2,2] y) { y = QLinearConv(x, xs, xz, w, ws, wz, ys, yz, b) })";
  auto r = testutil::runText(text, {{"x", u8({1, 1, 2, 2}, {10, 20, 30, 40})},
                                    {"xs", f32({}, {0.5f})},
                                    {"xz", u8({}, {10})},
                                    {"w", i8({1, 1, 1, 1}, {2})},
                                    {"ws", f32({}, {0.25f})},
                                    {"wz", i8({}, {0})},
                                    {"ys", f32({}, {1})},
                                    {"yz", u8({}, {5})},
                                    {"b", i32({1}, {4})}});
  // acc = (x - 10) * 2 + 4 = [4, 24, 44, 64]; * 0.125 = [0.5, 3, 5.5, 8]; round half even + 5.
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{5, 8, 11, 13}));
}

// ---- com.microsoft QLinear elementwise ops (values worked by hand) ----

const char* kMsHeader = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>)";

TEST(MsQLinearElementwise, AddAndMulRoundHalfToEvenSaturateAndBroadcast) {
  // A = {0.2, -2.8} (scale 0.1, zp 128); B = {0.5, 10} (0.05, 0).
  const std::string add = std::string(kMsHeader) + R"(
    main (uint8[2] a, uint8[2] b) => (uint8[2] y)
        <float sa = {0.1}, uint8 za = {128}, float sb = {0.05}, uint8 zb = {0},
         float sc = {0.1}, uint8 zc = {128}> {
      y = com.microsoft.QLinearAdd(a, sa, za, b, sb, zb, sc, zc) })";
  NamedInputs in = {{"a", u8({2}, {130, 100})}, {"b", u8({2}, {10, 200})}};
  // 0.7 -> 7 + 128; 7.2 -> 72 + 128.
  EXPECT_EQ(kt::values<uint8_t>(testutil::runText(add, in).outputs[0]),
            (std::vector<uint8_t>{135, 200}));
  // A * B = {0.1, -28} at scale 0.2, zp 100: 0.5 rounds to 0 (half to even);
  // -140 + 100 saturates at 0.
  std::string mul = add;
  mul.replace(mul.find("QLinearAdd"), 10, "QLinearMul");
  mul.replace(mul.find("sc = {0.1}, uint8 zc = {128}"), 28, "sc = {0.2}, uint8 zc = {100}");
  EXPECT_EQ(kt::values<uint8_t>(testutil::runText(mul, in).outputs[0]),
            (std::vector<uint8_t>{100, 0}));
  // B broadcast over the rows of A.
  const std::string rows = std::string(kMsHeader) + R"(
    main (uint8[2,2] a, uint8[2] b) => (uint8[2,2] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearAdd(a, s, z, b, s, z, s, z) })";
  auto r = testutil::runText(rows, {{"a", u8({2, 2}, {1, 2, 3, 250})}, {"b", u8({2}, {10, 20})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{2, 2}));
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{11, 22, 13, 255}));
}

TEST(MsQLinearElementwise, SigmoidAndLeakyRelu) {
  // int8 X = {0, 12.7, -12.8}: sigmoid {0.5, ~1, ~0} at scale 1/256, zp -128.
  const std::string sigmoid = std::string(kMsHeader) + R"(
    main (int8[3] x) => (int8[3] y) <float sx = {0.1}, int8 zx = {0}, float sy = {0.00390625}, int8 zy = {-128}> {
      y = com.microsoft.QLinearSigmoid(x, sx, zx, sy, zy) })";
  EXPECT_EQ(
      kt::values<int8_t>(testutil::runText(sigmoid, {{"x", i8({3}, {0, 127, -128})}}).outputs[0]),
      (std::vector<int8_t>{0, 127, -128}));
  // uint8 X = {-50, 0, 50} (scale 0.5, zp 100); alpha 0.1: {-5, 0, 50} at 0.5, zp 20.
  const std::string leaky = std::string(kMsHeader) + R"(
    main (uint8[3] x) => (uint8[3] y) <float sx = {0.5}, uint8 zx = {100}, float sy = {0.5}, uint8 zy = {20}> {
      y = com.microsoft.QLinearLeakyRelu <alpha = 0.1> (x, sx, zx, sy, zy) })";
  EXPECT_EQ(
      kt::values<uint8_t>(testutil::runText(leaky, {{"x", u8({3}, {0, 100, 200})}}).outputs[0]),
      (std::vector<uint8_t>{10, 20, 120}));
}

TEST(MsQLinearElementwise, PerChannelScalesAndMixedTypesAreRefused) {
  const std::string perChannel = std::string(kMsHeader) + R"(
    main (uint8[2] a, uint8[2] b) => (uint8[2] y) <float[2] s = {1, 2}, uint8 z = {0}> {
      y = com.microsoft.QLinearAdd(a, s, z, b, s, z, s, z) })";
  kt::expectError(perChannel, {{"a", u8({2}, {1, 2})}, {"b", u8({2}, {1, 2})}},
                  {"A scale", "must be one float (per tensor)"});
  const std::string mixed = std::string(kMsHeader) + R"(
    main (uint8[2] a, int8[2] b) => (uint8[2] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearAdd(a, s, z, b, s, "", s, z) })";
  kt::expectError(mixed, {{"a", u8({2}, {1, 2})}, {"b", i8({2}, {1, 2})}}, {"differ in type"});
}

// ---- com.microsoft QLinearConcat (values worked by hand) ----

TEST(MsQLinearConcat, CopiesRequantizesRoundsHalfToEvenAndSaturates) {
  // Y: scale 1, zp 10. x0 is quantized as Y: its bytes are copied. x1
  // (scale 0.5, zp 0) = {0.5, 1.5, 2.5; 100, 127.5, 127} -> {0, 2, 2; 100,
  // 128, 127} + 10 (half to even). x2 (scale 4, zp 100) = {400; -400} ->
  // 410 saturates at 255, -390 at 0.
  const std::string text = std::string(kMsHeader) + R"(
    main (uint8[2,1] x0, uint8[2,3] x1, uint8[2,1] x2) => (uint8[2,5] y)
        <float sy = {1}, uint8 zy = {10}, float s1 = {0.5}, uint8 z1 = {0},
         float s2 = {4}, uint8 z2 = {100}> {
      y = com.microsoft.QLinearConcat <axis = 1> (sy, zy, x0, sy, zy, x1, s1, z1, x2, s2, z2) })";
  auto r = testutil::runText(text, {{"x0", u8({2, 1}, {0, 255})},
                                    {"x1", u8({2, 3}, {1, 3, 5, 200, 255, 254})},
                                    {"x2", u8({2, 1}, {200, 0})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{2, 5}));
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]),
            (std::vector<uint8_t>{0, 10, 12, 12, 255, 255, 110, 138, 137, 0}));
}

TEST(MsQLinearConcat, Int8AlongANegativeAxis) {
  // axis -2 of rank 2: the rows. x0 is copied; x1 (scale 2, zp 10) =
  // {-220, 0; 100, 140} -> {-128, 0; 100, 127} (saturated).
  const std::string text = std::string(kMsHeader) + R"(
    main (int8[1,2] x0, int8[2,2] x1) => (int8[3,2] y)
        <float sy = {1}, int8 zy = {0}, float s1 = {2}, int8 z1 = {10}> {
      y = com.microsoft.QLinearConcat <axis = -2> (sy, zy, x0, sy, zy, x1, s1, z1) })";
  auto r = testutil::runText(
      text, {{"x0", i8({1, 2}, {-128, 127})}, {"x1", i8({2, 2}, {-100, 10, 60, 80})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{3, 2}));
  EXPECT_EQ(kt::values<int8_t>(r.outputs[0]), (std::vector<int8_t>{-128, 127, -128, 0, 100, 127}));
}

TEST(MsQLinearConcat, PerChannelScalesAndBadInputsAreRefused) {
  const std::string perChannel = std::string(kMsHeader) + R"(
    main (uint8[2] a, uint8[2] b) => (uint8[4] y)
        <float s = {1}, uint8 z = {0}, float[2] sb = {1, 2}> {
      y = com.microsoft.QLinearConcat <axis = 0> (s, z, a, s, z, b, sb, z) })";
  kt::expectError(perChannel, {{"a", u8({2}, {1, 2})}, {"b", u8({2}, {1, 2})}},
                  {"X1 scale", "must be one float (per tensor)"});
  const std::string mismatched = std::string(kMsHeader) + R"(
    main (uint8[2,2] a, uint8[2,3] b) => (uint8[4,2] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearConcat <axis = 0> (s, z, a, s, z, b, s, z) })";
  kt::expectError(mismatched,
                  {{"a", u8({2, 2}, {1, 2, 3, 4})}, {"b", u8({2, 3}, {1, 2, 3, 4, 5, 6})}},
                  {"do not concatenate along axis 0"});
}

}  // namespace
}  // namespace passlab::exec
