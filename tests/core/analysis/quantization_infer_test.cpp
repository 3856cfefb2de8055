// Quantization: output element types by zero point, scale and opset.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(QuantizationInfer, QuantizeDequantizeTypes) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    main (float[N,3] x) => (int8 q, float d, uint8 u) <float s = {0.5}, int8 z = {0}> {
      q = QuantizeLinear(x, s, z)
      d = DequantizeLinear(q, s, z)
      u = QuantizeLinear(x, s)
    })");
  EXPECT_EQ(r.type("q"), "int8[N,3]");
  EXPECT_EQ(r.type("d"), "float[N,3]");
  EXPECT_EQ(r.type("u"), "uint8[N,3]");
}

TEST(QuantizationInfer, DequantizeTakesTheScaleTypeFromOpset19) {
  auto r = inferText(R"(
    <ir_version: 9, opset_import: ["" : 19]>
    main (int8[4] q) => (float16 d) <float s = {0.5}> {
      s16 = Cast <to = 10> (s)
      d = DequantizeLinear(q, s16)
    })");
  EXPECT_EQ(r.type("d"), "float16[4]");
}

TEST(QuantizationInfer, DynamicQuantizeAndIntegerOps) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    main (float[N,16] x, uint8[16,8] wq, uint8[1,16,3,3] img, uint8[4,16,3,3] k)
      => (uint8 y, float s, uint8 z, int32 mm, uint8 qc, uint8 qm)
    <float sc = {0.1}, uint8 zp = {0}> {
      y, s, z = DynamicQuantizeLinear(x)
      mm = MatMulInteger(y, wq, z, zp)
      qc = QLinearConv <pads = [1, 1, 1, 1]> (img, sc, zp, k, sc, zp, sc, zp)
      qm = QLinearMatMul(y, sc, zp, wq, sc, zp, sc, zp)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("y"), "uint8[N,16]");
  EXPECT_EQ(r.type("s"), "float[]");
  EXPECT_EQ(r.type("z"), "uint8[]");
  EXPECT_EQ(r.type("mm"), "int32[N,8]");
  EXPECT_EQ(r.type("qc"), "uint8[1,4,3,3]");
  EXPECT_EQ(r.type("qm"), "uint8[N,8]");
}

TEST(QuantizationInfer, OnnxRuntimeQLinearElementwiseOps) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (uint8[N,1,4] a, uint8[3,1] b) => (uint8 add, uint8 mul, uint8 sg, uint8 lr)
    <float s = {0.1}, uint8 z = {128}> {
      add = com.microsoft.QLinearAdd(a, s, z, b, s, z, s, z)
      mul = com.microsoft.QLinearMul(a, s, , b, s, , s, )
      sg = com.microsoft.QLinearSigmoid(add, s, z, s, z)
      lr = com.microsoft.QLinearLeakyRelu <alpha = 0.2> (mul, s, z, s, z)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("add"), "uint8[N,3,4]");
  EXPECT_EQ(r.type("mul"), "uint8[N,3,4]");
  EXPECT_EQ(r.type("sg"), "uint8[N,3,4]");
  EXPECT_EQ(r.type("lr"), "uint8[N,3,4]");
}

// com.microsoft QGemm: Gemm's [M, N] of A and B (transA / transB), the type
// of y_zero_point, float without y_scale and y_zero_point.
TEST(QuantizationInfer, OnnxRuntimeQGemm) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (uint8[N,16] a, int8[16,N] at, int8[8,16] w, int32[8] c) => (int8 q, float f, uint8 t)
    <float s = {0.1}, uint8 z = {128}, int8 zs = {0}> {
      q = com.microsoft.QGemm <transB = 1> (a, s, z, w, s, zs, c, s, zs)
      f = com.microsoft.QGemm <transB = 1> (a, s, z, w, s, zs)
      t = com.microsoft.QGemm <transA = 1, transB = 1> (at, s, zs, w, s, zs, , s, z)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("q"), "int8[N,8]");
  EXPECT_EQ(r.type("f"), "float[N,8]");
  EXPECT_EQ(r.type("t"), "uint8[N,8]");
}

TEST(QuantizationInfer, QGemmOfInnerDimensionsThatDifferFails) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (uint8[2,16] a, int8[8,15] w) => (float y) <float s = {0.1}, uint8 z = {128}, int8 zs = {0}> {
      y = com.microsoft.QGemm <transB = 1> (a, s, z, w, s, zs)
    })");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("inner dimensions differ"), std::string::npos)
      << r.report.failures[0];
}

TEST(QuantizationInfer, QLinearAddOfOperandsThatDoNotBroadcastFails) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (uint8[2,4] a, uint8[3] b) => (uint8 y) <float s = {0.1}> {
      y = com.microsoft.QLinearAdd(a, s, , b, s, , s, )
    })");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("QLinearAdd"), std::string::npos) << r.report.failures[0];
}

TEST(QuantizationInfer, OnnxRuntimeQLinearConcatConcatenatesTheDataInputs) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (int8[N,2,4] a, int8[N,3,4] b, int8[1,5,4] c) => (int8 y, int8 neg)
    <float s = {0.1}, int8 z = {0}> {
      y = com.microsoft.QLinearConcat <axis = 1> (s, z, a, s, z, b, s, z)
      neg = com.microsoft.QLinearConcat <axis = -3> (s, z, y, s, z, c, s, z)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("y"), "int8[N,5,4]");
  EXPECT_EQ(r.type("neg"), "int8[N + 1,5,4]");
}

TEST(QuantizationInfer, QLinearConcatOfMismatchedDimsFails) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (uint8[2,4] a, uint8[2,3] b) => (uint8 y) <float s = {0.1}, uint8 z = {0}> {
      y = com.microsoft.QLinearConcat <axis = 0> (s, z, a, s, z, b, s, z)
    })");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("QLinearConcat"), std::string::npos) << r.report.failures[0];
  EXPECT_NE(r.report.failures[0].find("dim 1 differs"), std::string::npos) << r.report.failures[0];
}

TEST(QuantizationInfer, OnnxRuntimeQLinearPoolsAndReduceMean) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (uint8[N,3,8,8] x, int8[N,8,6,3] xl)
        => (uint8 ap, int8 apl, uint8 gp, int8 gpl, int8 rm, uint8 rmk)
    <float s = {0.1}, uint8 z = {128}, int8 zl = {0}> {
      ap = com.microsoft.QLinearAveragePool <kernel_shape = [2, 2], strides = [2, 2]> (x, s, z, s, z)
      apl = com.microsoft.QLinearAveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1],
            channels_last = 1> (xl, s, zl, s, zl)
      gp = com.microsoft.QLinearGlobalAveragePool(x, s, z, s, z)
      gpl = com.microsoft.QLinearGlobalAveragePool <channels_last = 1> (xl, s, zl, s, zl)
      rm = com.microsoft.QLinearReduceMean <axes = [1, 2], keepdims = 0> (xl, s, zl, s, zl)
      rmk = com.microsoft.QLinearReduceMean <axes = [-1], keepdims = 1> (x, s, z, s, z)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("ap"), "uint8[N,3,4,4]");
  EXPECT_EQ(r.type("apl"), "int8[N,8,6,3]");
  EXPECT_EQ(r.type("gp"), "uint8[N,3,1,1]");
  EXPECT_EQ(r.type("gpl"), "int8[N,1,1,3]");
  EXPECT_EQ(r.type("rm"), "int8[N,3]");
  EXPECT_EQ(r.type("rmk"), "uint8[N,3,8,1]");
}

TEST(QuantizationInfer, QLinearReduceMeanWithoutAxesAndAPoolOfRankTwoFail) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (uint8[2,4] a) => (uint8 m, uint8 g) <float s = {0.1}, uint8 z = {0}> {
      m = com.microsoft.QLinearReduceMean <keepdims = 0> (a, s, z, s, z)
      g = com.microsoft.QLinearGlobalAveragePool(a, s, z, s, z)
    })");
  ASSERT_EQ(r.report.failures.size(), 2u);
  EXPECT_NE(r.report.failures[0].find("QLinearReduceMean has no axes attribute"), std::string::npos)
      << r.report.failures[0];
  EXPECT_NE(r.report.failures[1].find("not 3 or more"), std::string::npos) << r.report.failures[1];
}

TEST(QuantizationInfer, OnnxRuntimeQLinearSoftmaxAndQuantizeDequantize) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (int8[N,3,8] x, float[N,4] f) => (int8 sm, uint8 q, float d)
    <float s = {0.1}, int8 z = {0}, float[4] s4 = {1, 2, 3, 4}, uint8[4] z4 = {0, 1, 2, 3}> {
      sm = com.microsoft.QLinearSoftmax <opset = 12, axis = 1> (x, s, z, s, z)
      q = com.microsoft.QuantizeLinear(f, s4, z4)
      d = com.microsoft.DequantizeLinear(q, s4, z4)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("sm"), "int8[N,3,8]");
  EXPECT_EQ(r.type("q"), "uint8[N,4]");
  EXPECT_EQ(r.type("d"), "float[N,4]");
}

TEST(QuantizationInfer, QLinearSoftmaxWithoutOpsetOrWithAnAxisOutOfRangeFails) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13, "com.microsoft" : 1]>
    main (uint8[2,4] a) => (uint8 m, uint8 n) <float s = {0.1}, uint8 z = {0}> {
      m = com.microsoft.QLinearSoftmax <axis = 1> (a, s, z, s, z)
      n = com.microsoft.QLinearSoftmax <opset = 13, axis = -3> (a, s, z, s, z)
    })");
  ASSERT_EQ(r.report.failures.size(), 2u);
  EXPECT_NE(r.report.failures[0].find("QLinearSoftmax has no opset attribute"), std::string::npos)
      << r.report.failures[0];
  EXPECT_NE(r.report.failures[1].find("axis -3 is out of range for X of rank 2"), std::string::npos)
      << r.report.failures[1];
}

}  // namespace
}  // namespace passlab::analysis
