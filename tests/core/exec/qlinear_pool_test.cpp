// ONNX Runtime's com.microsoft quantized averages: QLinearAveragePool,
// QLinearGlobalAveragePool (channels first and last) and QLinearReduceMean.
// Values worked by hand: dequantize, average, quantize (round half to even,
// saturated); and the inputs that must be refused.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::i8;
using kt::u8;

const char* kMsHeader = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>)";

// ---- QLinearAveragePool ----

TEST(MsQLinearAveragePool, ChannelsFirstRoundsHalfToEven) {
  // X (scale 0.5, zp 10) = {0, 5, 10; 15, 20, 25}; 2x2 windows: means 10
  // and 15; at scale 2, zp 1: 5 + 1 = 6 and 7.5 -> 8 (half to even) + 1 = 9.
  const std::string text = std::string(kMsHeader) + R"(
    main (uint8[1,1,2,3] x) => (uint8[1,1,1,2] y)
        <float sx = {0.5}, uint8 zx = {10}, float sy = {2}, uint8 zy = {1}> {
      y = com.microsoft.QLinearAveragePool <kernel_shape = [2, 2]> (x, sx, zx, sy, zy) })";
  auto r = testutil::runText(text, {{"x", u8({1, 1, 2, 3}, {10, 20, 30, 40, 50, 60})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{1, 1, 1, 2}));
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{6, 9}));
}

TEST(MsQLinearAveragePool, PadsCountedOrNot) {
  // X = {4, 8, 12}; kernel 2, stride 2, one pad before: windows {pad, 4}
  // and {8, 12}: 4 (or 2 counting the pad) and 10.
  auto text = [](int includePad) {
    return std::string(kMsHeader) + R"(
    main (uint8[1,1,3] x) => (uint8[1,1,2] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearAveragePool <kernel_shape = [2], strides = [2], pads = [1, 0],
          count_include_pad = )" +
           std::to_string(includePad) + R"(> (x, s, z, s, z) })";
  };
  const NamedInputs in{{"x", u8({1, 1, 3}, {4, 8, 12})}};
  EXPECT_EQ(kt::values<uint8_t>(testutil::runText(text(0), in).outputs[0]),
            (std::vector<uint8_t>{4, 10}));
  EXPECT_EQ(kt::values<uint8_t>(testutil::runText(text(1), in).outputs[0]),
            (std::vector<uint8_t>{2, 10}));
}

TEST(MsQLinearAveragePool, ChannelsLastInt8) {
  // NHWC [1, 2, 2, 2]: channel 0 = {1, 3; 5, 7}, channel 1 = {-2, -4; -6, -8}.
  // A 1x2 window: rows' means {2, -3} and {6, -7}; at scale 2: 1, -1.5 -> -2,
  // 3, -3.5 -> -4 (half to even).
  const std::string text = std::string(kMsHeader) + R"(
    main (int8[1,2,2,2] x) => (int8[1,2,1,2] y)
        <float sx = {1}, int8 zx = {0}, float sy = {2}, int8 zy = {0}> {
      y = com.microsoft.QLinearAveragePool <kernel_shape = [1, 2], channels_last = 1>
          (x, sx, zx, sy, zy) })";
  auto r = testutil::runText(text, {{"x", i8({1, 2, 2, 2}, {1, -2, 3, -4, 5, -6, 7, -8})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{1, 2, 1, 2}));
  EXPECT_EQ(kt::values<int8_t>(r.outputs[0]), (std::vector<int8_t>{1, -2, 3, -4}));
}

TEST(MsQLinearAveragePool, BadInputsAreRefused) {
  const std::string perChannel = std::string(kMsHeader) + R"(
    main (uint8[1,2,2,2] x) => (uint8[1,2,1,1] y) <float[2] s = {1, 2}, uint8 z = {0}> {
      y = com.microsoft.QLinearAveragePool <kernel_shape = [2, 2]> (x, s, z, s, z) })";
  kt::expectError(perChannel, {{"x", u8({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})}},
                  {"X scale", "must be one float (per tensor)"});
  const std::string zeroType = std::string(kMsHeader) + R"(
    main (uint8[1,1,2,2] x) => (uint8[1,1,1,1] y) <float s = {1}, int8 z = {0}> {
      y = com.microsoft.QLinearAveragePool <kernel_shape = [2, 2]> (x, s, z, s, z) })";
  kt::expectError(zeroType, {{"x", u8({1, 1, 2, 2}, {1, 2, 3, 4})}}, {"zero point"});
}

// ---- QLinearGlobalAveragePool ----

TEST(MsQLinearGlobalAveragePool, ChannelsFirst) {
  // Channel 0 = {0, 1, 2, 3}: 1.5 -> 2 (half to even); channel 1 = {10, 10, 10, 11}: 10.25 -> 10.
  const std::string text = std::string(kMsHeader) + R"(
    main (uint8[1,2,2,2] x) => (uint8[1,2,1,1] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearGlobalAveragePool(x, s, z, s, z) })";
  auto r = testutil::runText(text, {{"x", u8({1, 2, 2, 2}, {0, 1, 2, 3, 10, 10, 10, 11})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{1, 2, 1, 1}));
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{2, 10}));
}

TEST(MsQLinearGlobalAveragePool, ChannelsLastAndSaturation) {
  // NHWC, zp 1: channel 0 = {0, 2, 4, 6} -> 3, channel 1 = {-3, -5, -7, -9}
  // -> -6; at scale 2, zp 10: 1.5 -> 2 + 10 = 12 and -3 + 10 = 7. At scale
  // 0.01: 310 and -590, saturated.
  auto text = [](const char* sy) {
    return std::string(kMsHeader) + R"(
    main (int8[1,2,2,2] x) => (int8[1,1,1,2] y)
        <float sx = {1}, int8 zx = {1}, float sy = {)" +
           sy + R"(}, int8 zy = {10}> {
      y = com.microsoft.QLinearGlobalAveragePool <channels_last = 1> (x, sx, zx, sy, zy) })";
  };
  const NamedInputs in{{"x", i8({1, 2, 2, 2}, {1, -2, 3, -4, 5, -6, 7, -8})}};
  auto r = testutil::runText(text("2"), in);
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{1, 1, 1, 2}));
  EXPECT_EQ(kt::values<int8_t>(r.outputs[0]), (std::vector<int8_t>{12, 7}));
  EXPECT_EQ(kt::values<int8_t>(testutil::runText(text("0.01"), in).outputs[0]),
            (std::vector<int8_t>{127, -128}));
}

TEST(MsQLinearGlobalAveragePool, ARankBelowThreeIsRefused) {
  const std::string text = std::string(kMsHeader) + R"(
    main (uint8[2,2] x) => (uint8[2,2] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearGlobalAveragePool(x, s, z, s, z) })";
  kt::expectError(text, {{"x", u8({2, 2}, {1, 2, 3, 4})}}, {"rank 3 or more"});
}

// ---- QLinearReduceMean ----

TEST(MsQLinearReduceMean, AxesKeepdimsRoundingAndSaturation) {
  // data (scale 2, zp 1) = {-2, 0, 2; 4, 6, 8}.
  auto text = [](const char* attrs, const char* out, const char* sy, const char* zy) {
    return std::string(kMsHeader) + "\n    main (uint8[2,3] x) => (uint8" + out +
           " y) <float sx = {2}, uint8 zx = {1}, float sy = {" + sy + "}, uint8 zy = {" + zy +
           "}> {\n      y = com.microsoft.QLinearReduceMean <" + attrs + "> (x, sx, zx, sy, zy) }";
  };
  const NamedInputs in{{"x", u8({2, 3}, {0, 1, 2, 3, 4, 5})}};
  // Rows: 0 and 6, at scale 1, zp 100.
  auto rows = testutil::runText(text("axes = [1], keepdims = 0", "[2]", "1", "100"), in);
  EXPECT_EQ(rows.outputs[0].dims(), (kt::Dims{2}));
  EXPECT_EQ(kt::values<uint8_t>(rows.outputs[0]), (std::vector<uint8_t>{100, 106}));
  // Columns: 1, 3, 5 at scale 2: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2 (half to even).
  auto cols = testutil::runText(text("axes = [0], keepdims = 1", "[1,3]", "2", "0"), in);
  EXPECT_EQ(cols.outputs[0].dims(), (kt::Dims{1, 3}));
  EXPECT_EQ(kt::values<uint8_t>(cols.outputs[0]), (std::vector<uint8_t>{0, 2, 2}));
  // All (negative axes): 3; at scale 0.01, 300 saturates.
  auto all = testutil::runText(text("axes = [-1, -2], keepdims = 1", "[1,1]", "0.01", "0"), in);
  EXPECT_EQ(all.outputs[0].dims(), (kt::Dims{1, 1}));
  EXPECT_EQ(kt::values<uint8_t>(all.outputs[0]), (std::vector<uint8_t>{255}));
}

TEST(MsQLinearReduceMean, Int8ThreeDims) {
  // data (scale 0.5, zp -2) [2, 2, 2] = {1, 2, 3, 4, 5, 6, 7, 8} (v + 2) / 2;
  // axes [0, 2]: {1, 2, 5, 6} -> 3.5 and {3, 4, 7, 8} -> 5.5; at scale 1,
  // zp -10: 4 - 10 = -6 and 6 - 10 = -4 (half to even).
  const std::string text = std::string(kMsHeader) + R"(
    main (int8[2,2,2] x) => (int8[2] y)
        <float sx = {0.5}, int8 zx = {-2}, float sy = {1}, int8 zy = {-10}> {
      y = com.microsoft.QLinearReduceMean <axes = [0, 2], keepdims = 0> (x, sx, zx, sy, zy) })";
  auto r = testutil::runText(text, {{"x", i8({2, 2, 2}, {0, 2, 4, 6, 8, 10, 12, 14})}});
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{2}));
  EXPECT_EQ(kt::values<int8_t>(r.outputs[0]), (std::vector<int8_t>{-6, -4}));
}

TEST(MsQLinearReduceMean, BadAttributesAndScalesAreRefused) {
  const NamedInputs in{{"x", u8({2, 2}, {1, 2, 3, 4})}};
  kt::expectError(std::string(kMsHeader) + R"(
    main (uint8[2,2] x) => (uint8[2] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearReduceMean <keepdims = 0> (x, s, z, s, z) })",
                  in, {"QLinearReduceMean has no axes attribute"});
  kt::expectError(std::string(kMsHeader) + R"(
    main (uint8[2,2] x) => (uint8[2] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearReduceMean <axes = [2], keepdims = 0> (x, s, z, s, z) })",
                  in, {"axis 2"});
  kt::expectError(std::string(kMsHeader) + R"(
    main (uint8[2,2] x) => (uint8[2] y) <float s = {1}, uint8 z = {0}, float[2] s2 = {1, 2}> {
      y = com.microsoft.QLinearReduceMean <axes = [1], keepdims = 0> (x, s, z, s2, z) })",
                  in, {"reduced scale", "must be one float (per tensor)"});
}

}  // namespace
}  // namespace passlab::exec
