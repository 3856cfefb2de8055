// Matrix products: MatMul broadcasting and 1-D operands, Gemm transposes,
// com.microsoft FusedMatMul, Einsum.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(MatMulInfer, BatchedBroadcastAndVectors) {
  auto r = inferText(R"(
    main (float[B,1,S,64] q, float[12,64,T] k, float[64] v, float[S,64] m) => (float a, float b, float c) {
      a = MatMul(q, k)
      b = MatMul(m, v)
      c = MatMul(v, k)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("a"), "float[B,12,S,T]");
  EXPECT_EQ(r.type("b"), "float[S]");
  EXPECT_EQ(r.type("c"), "float[12,T]");
}

TEST(MatMulInfer, InnerDimMismatchFails) {
  auto r = inferText(R"(
    main (float[2,3] a, float[4,5] b) => (float c) { [mm] c = MatMul(a, b) })");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("MatMul 'mm'"), std::string::npos);
  EXPECT_NE(r.report.failures[0].find("inner dimensions differ"), std::string::npos);
}

TEST(MatMulInfer, GemmTransposes) {
  auto r = inferText(R"(
    main (float[N,512] x, float[1000,512] w, float[1000] b, float[512,N] xt) => (float y, float z) {
      y = Gemm <transB = 1> (x, w, b)
      z = Gemm <transA = 1, transB = 1> (xt, w)
    })");
  EXPECT_EQ(r.type("y"), "float[N,1000]");
  EXPECT_EQ(r.type("z"), "float[N,1000]");
}

TEST(MatMulInfer, FusedMatMulAndEinsum) {
  auto r = inferText(R"(
    <ir_version: 8, opset_import: ["" : 17, "com.microsoft" : 1]>
    main (float[B,S,64] a, float[B,T,64] b, float[3,4] x, float[4,5] y) => (float f, float e, float t, float d) {
      f = com.microsoft.FusedMatMul <transB = 1> (a, b)
      e = Einsum <equation = "ij,jk->ik"> (x, y)
      t = Einsum <equation = "...ij->...ji"> (a)
      d = Einsum <equation = "ij,jk"> (x, y)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("f"), "float[B,S,T]");
  EXPECT_EQ(r.type("e"), "float[3,5]");
  EXPECT_EQ(r.type("t"), "float[B,64,S]");
  EXPECT_EQ(r.type("d"), "float[3,5]");
}

}  // namespace
}  // namespace passlab::analysis
