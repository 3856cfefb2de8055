// ONNX Runtime's com.microsoft QLinearSoftmax (opset 13+: one axis; before:
// the input flattened to 2-D at the axis; a missing axis is -1 at every
// opset, as ONNX Runtime fills in the schema's default) and its
// com.microsoft QuantizeLinear / DequantizeLinear (the ONNX kernels). Values
// worked by hand: dequantize, Softmax, quantize (round half to even,
// saturated); and the inputs that must be refused.
#include <gtest/gtest.h>

#include "tests/core/exec/kernel_test_util.h"

namespace passlab::exec {
namespace {

using kt::f32;
using kt::i8;
using kt::u8;

const char* kMsHeader = R"(<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>)";

// ---- QLinearSoftmax ----

// X (scale ln 2, zp 128) read as powers of 2: x = 128 + k is 2^k after exp.
std::string lnTwoSoftmax(const std::string& attrs, const std::string& sy) {
  return std::string(kMsHeader) + R"(
    main (uint8[2,2] x) => (uint8[2,2] y)
        <float sx = {0.6931472}, uint8 zx = {128}, float sy = {)" +
         sy + R"(}, uint8 zy = {0}> {
      y = com.microsoft.QLinearSoftmax <)" +
         attrs + R"(> (x, sx, zx, sy, zy) })";
}

TEST(MsQLinearSoftmax, LastAxisAtOpset13) {
  // Rows {0, ln 2} and {2 ln 2, 0}: exp {1, 2} and {4, 1}: 1/3, 2/3 and
  // 0.8, 0.2; at scale 1/256: 85.3 -> 85, 170.7 -> 171, 204.8 -> 205, 51.2 -> 51.
  const NamedInputs in{{"x", u8({2, 2}, {128, 129, 130, 128})}};
  auto r = testutil::runText(lnTwoSoftmax("opset = 13", "0.00390625"), in);
  EXPECT_EQ(r.outputs[0].dims(), (kt::Dims{2, 2}));
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{85, 171, 205, 51}));
  // At scale 0.001 all but 0.2 (200) saturate.
  EXPECT_EQ(kt::values<uint8_t>(
                testutil::runText(lnTwoSoftmax("opset = 13, axis = -1", "0.001"), in).outputs[0]),
            (std::vector<uint8_t>{255, 255, 255, 200}));
}

TEST(MsQLinearSoftmax, AxisZeroRunsDownTheColumns) {
  // Columns {0, ln 2} and {2 ln 2, 0}.
  const NamedInputs in{{"x", u8({2, 2}, {128, 130, 129, 128})}};
  auto r = testutil::runText(lnTwoSoftmax("opset = 13, axis = 0", "0.00390625"), in);
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{85, 205, 171, 51}));
}

// int8 X [2, 2, 2] (scale 1, zp 0) = {5, 5, 5, 5; 5, -100, -100, -100}; Y at
// scale 0.1, zp -3. exp(-105) underflows to 0 in float.
std::string flattenedSoftmax(const std::string& attrs) {
  return std::string(kMsHeader) + R"(
    main (int8[2,2,2] x) => (int8[2,2,2] y)
        <float sx = {1}, int8 zx = {0}, float sy = {0.1}, int8 zy = {-3}> {
      y = com.microsoft.QLinearSoftmax <)" +
         attrs + R"(> (x, sx, zx, sy, zy) })";
}
const NamedInputs kFlattenedIn{{"x", i8({2, 2, 2}, {5, 5, 5, 5, 5, -100, -100, -100})}};

TEST(MsQLinearSoftmax, BeforeOpset13TheInputIsFlattenedAtTheAxis) {
  // Rows of 4: {0.25 x 4} -> 2.5 -> 2 (half to even) - 3 = -1; {1, 0, 0, 0}
  // -> 10 - 3 = 7 and -3.
  auto r = testutil::runText(flattenedSoftmax("opset = 12, axis = 1"), kFlattenedIn);
  EXPECT_EQ(kt::values<int8_t>(r.outputs[0]), (std::vector<int8_t>{-1, -1, -1, -1, 7, -3, -3, -3}));
  // From opset 13, axis 1 alone: pairs {x[n,0,j], x[n,1,j]}: 0.5 -> 5 - 3 =
  // 2, except (5, -100) -> 7 and -3.
  auto one = testutil::runText(flattenedSoftmax("opset = 13, axis = 1"), kFlattenedIn);
  EXPECT_EQ(kt::values<int8_t>(one.outputs[0]), (std::vector<int8_t>{2, 2, 2, 2, 7, 2, -3, 2}));
}

TEST(MsQLinearSoftmax, AMissingAxisIsTheLastAtOpset12Too) {
  // Axis -1, flattened: rows of 2 along the last axis: {5, 5} -> 2, 2;
  // {5, -100} -> 7, -3; {-100, -100} -> 2, 2. (A default of 1 would give the
  // rows of 4 above.)
  auto r = testutil::runText(flattenedSoftmax("opset = 12"), kFlattenedIn);
  EXPECT_EQ(kt::values<int8_t>(r.outputs[0]), (std::vector<int8_t>{2, 2, 2, 2, 7, -3, 2, 2}));
}

TEST(MsQLinearSoftmax, BadAttributesAndInputsAreRefused) {
  const NamedInputs in{{"x", u8({2, 2}, {1, 2, 3, 4})}};
  kt::expectError(std::string(kMsHeader) + R"(
    main (uint8[2,2] x) => (uint8[2,2] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearSoftmax <axis = 1> (x, s, z, s, z) })",
                  in, {"QLinearSoftmax has no opset attribute"});
  kt::expectError(std::string(kMsHeader) + R"(
    main (uint8[2,2] x) => (uint8[2,2] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearSoftmax <opset = 13, axis = 2> (x, s, z, s, z) })",
                  in, {"axis 2 is out of range"});
  kt::expectError(std::string(kMsHeader) + R"(
    main (uint8[2,2] x) => (uint8[2,2] y) <float s = {1}, uint8 z = {0}, float[2] s2 = {1, 2}> {
      y = com.microsoft.QLinearSoftmax <opset = 13> (x, s2, z, s, z) })",
                  in, {"X scale", "must be one float (per tensor)"});
  kt::expectError(std::string(kMsHeader) + R"(
    main (uint8[2,2] x) => (uint8[2,2] y) <float s = {1}, uint8 z = {0}> {
      y = com.microsoft.QLinearSoftmax <opset = 13> (x, s, z, s, "") })",
                  in, {"Y zero point is missing"});
}

// ---- com.microsoft QuantizeLinear / DequantizeLinear ----

TEST(MsQuantizeLinear, PerAxisLikeTheOnnxOp) {
  // Axis 1 (the default): column 0 at scale 0.5, zp 10; column 1 at scale 2,
  // zp 20. 1.25 / 0.5 = 2.5 -> 2 (half to even); 4 / 2 = 2; 3 / 0.5 = 6; 2 / 2 = 1.
  const std::string text = std::string(kMsHeader) + R"(
    main (float[2,2] x) => (uint8[2,2] y) <float[2] s = {0.5, 2}, uint8[2] z = {10, 20}> {
      y = com.microsoft.QuantizeLinear(x, s, z) })";
  auto r = testutil::runText(text, {{"x", f32({2, 2}, {1.25f, 4, 3, 2})}});
  EXPECT_EQ(kt::values<uint8_t>(r.outputs[0]), (std::vector<uint8_t>{12, 22, 16, 21}));
}

TEST(MsDequantizeLinear, PerAxisAndPerTensor) {
  // Axis 0: row 0 at scale 0.5, zp -2; row 1 at scale 4, zp 1.
  const std::string perAxis = std::string(kMsHeader) + R"(
    main (int8[2,2] x) => (float[2,2] y) <float[2] s = {0.5, 4}, int8[2] z = {-2, 1}> {
      y = com.microsoft.DequantizeLinear <axis = 0> (x, s, z) })";
  auto r = testutil::runText(perAxis, {{"x", i8({2, 2}, {0, 4, 1, -1})}});
  EXPECT_EQ(kt::values<float>(r.outputs[0]), (std::vector<float>{1, 3, 0, -8}));
  const std::string perTensor = std::string(kMsHeader) + R"(
    main (uint8[3] x) => (float[3] y) <float s = {0.25}, uint8 z = {8}> {
      y = com.microsoft.DequantizeLinear(x, s, z) })";
  auto t = testutil::runText(perTensor, {{"x", u8({3}, {8, 12, 0})}});
  EXPECT_EQ(kt::values<float>(t.outputs[0]), (std::vector<float>{0, 1, -2}));
}

}  // namespace
}  // namespace passlab::exec
