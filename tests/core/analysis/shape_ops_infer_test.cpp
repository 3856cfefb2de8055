// Shape, Reshape, Flatten, Squeeze/Unsqueeze, Transpose, and the data
// propagation that lets shapes computed in the graph resolve.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(ShapeOpsInfer, ReshapeWithMinusOneAndZero) {
  auto r = inferText(R"(
    main (float[N,12,64] x, float[2,3,4] y) => (float a, float b, float c, float d)
    <int64[2] s1 = {0, -1}, int64[3] s2 = {-1, 2, 2}, int64[3] s3 = {0, 4, 0}> {
      a = Reshape(x, s1)
      b = Reshape(y, s2)
      c = Reshape <allowzero = 1> (y, s3)
      d = Reshape(x, s2)
    })");
  EXPECT_EQ(r.type("a"), "float[N,768]");
  EXPECT_EQ(r.type("b"), "float[6,2,2]");
  EXPECT_EQ(r.type("d"), "float[192*N,2,2]");
  // allowzero: 0 is a real zero, and 24 elements cannot become 0.
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("cannot reshape"), std::string::npos);
}

TEST(ShapeOpsInfer, BadReshapeIsReportedNotCrashing) {
  auto r = inferText(R"(
    main (float[2,3] x) => (float y, float z) <int64[2] s = {-1, -1}> {
      [r] y = Reshape(x, s)
      z = Relu(y)
    })");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("Reshape 'r' (#"), std::string::npos);
  EXPECT_NE(r.report.failures[0].find("two -1 in target shape"), std::string::npos);
  EXPECT_EQ(r.type("y"), "float");
  EXPECT_EQ(r.type("z"), "float");
}

TEST(ShapeOpsInfer, TargetsComputedFromShapeResolveWithSymbolicDims) {
  // GPT-2 style head split: [B,S,768] -> [B,S,12,64] with B and S read from Shape.
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 11]>
    main (float[batch,seq,768] x) => (float heads, float merged)
    <int64 i0 = {0}, int64 i1 = {1}, int64[1] h = {12}, int64[1] d = {64}, int64[1] minus1 = {-1}> {
      s = Shape(x)
      b = Gather(s, i0)
      t = Gather(s, i1)
      b1 = Unsqueeze <axes = [0]> (b)
      t1 = Unsqueeze <axes = [0]> (t)
      target = Concat <axis = 0> (b1, t1, h, d)
      heads = Reshape(x, target)
      bt = Mul(b1, t1)
      flat = Concat <axis = 0> (bt, minus1)
      merged = Reshape(heads, flat)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("target"), "int64[4]");
  EXPECT_EQ(r.type("heads"), "float[batch,seq,12,64]");
  EXPECT_EQ(r.type("merged"), "float[batch*seq,768]");
}

TEST(ShapeOpsInfer, ShapeSliceAndSize) {
  auto r = inferText(R"(
    <ir_version: 8, opset_import: ["" : 15]>
    main (float[N,3,H,W] x, float y) => (int64 s, int64 t, int64 n, int64 u) {
      s = Shape <start = 2> (x)
      t = Shape <end = -1> (x)
      n = Size(x)
      u = Shape(y)
    })");
  EXPECT_EQ(r.type("s"), "int64[2]");
  EXPECT_EQ(r.type("t"), "int64[3]");
  EXPECT_EQ(r.type("n"), "int64[]");
  EXPECT_EQ(r.type("u"), "int64[?]");  // rank of y unknown: length unknown
}

TEST(ShapeOpsInfer, SqueezeUnsqueezeAxesMovedToAnInputAtOpset13) {
  auto v11 = inferText(R"(
    <ir_version: 7, opset_import: ["" : 11]>
    main (float[N,1,5,1] x) => (float a, float b, float c) {
      a = Squeeze <axes = [1]> (x)
      b = Squeeze(x)
      c = Unsqueeze <axes = [0, -1]> (x)
    })");
  EXPECT_EQ(v11.type("a"), "float[N,5,1]");
  EXPECT_EQ(v11.type("b"), "float");  // N might be 1: rank unknown
  EXPECT_EQ(v11.type("c"), "float[1,N,1,5,1,1]");
  auto v13 = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    main (float[N,1,5,1] x) => (float a, float c) <int64[1] ax = {3}, int64[2] ux = {0, 2}> {
      a = Squeeze(x, ax)
      c = Unsqueeze(x, ux)
    })");
  EXPECT_EQ(v13.type("a"), "float[N,1,5]");
  EXPECT_EQ(v13.type("c"), "float[1,N,1,1,5,1]");
}

TEST(ShapeOpsInfer, SqueezeOfANonOneDimFails) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 11]>
    main (float[2,3] x) => (float a) { a = Squeeze <axes = [0]> (x) })");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("cannot squeeze axis 0 of size 2"), std::string::npos);
}

TEST(ShapeOpsInfer, TransposeFlattenDepthToSpace) {
  auto r = inferText(R"(
    main (float[N,3,H,W] x, float[1,8,2,3] y) => (float t, float r, float f, float d, float s) {
      t = Transpose <perm = [0, 2, 3, 1]> (x)
      r = Transpose(x)
      f = Flatten <axis = 2> (x)
      d = DepthToSpace <blocksize = 2> (y)
      s = SpaceToDepth <blocksize = 2> (d)
    })");
  EXPECT_EQ(r.type("t"), "float[N,H,W,3]");
  EXPECT_EQ(r.type("r"), "float[W,H,3,N]");
  EXPECT_EQ(r.type("f"), "float[3*N,H*W]");
  EXPECT_EQ(r.type("d"), "float[1,2,4,6]");
  EXPECT_EQ(r.type("s"), "float[1,8,2,3]");
}

}  // namespace
}  // namespace passlab::analysis
