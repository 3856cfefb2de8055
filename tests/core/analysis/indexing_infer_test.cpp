// Concat, Split, Slice, Gather, Pad, TopK across their opset versions.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(IndexingInfer, ConcatAddsSymbolsAlongTheAxis) {
  auto r = inferText(R"(
    main (float[B,H,P,64] past, float[B,H,S,64] cur, float[B,H,?,64] other) => (float a, float b) {
      a = Concat <axis = 2> (past, cur)
      b = Concat <axis = -2> (a, other)
    })");
  EXPECT_EQ(r.type("a"), "float[B,H,P + S,64]");
  EXPECT_EQ(r.type("b"), "float[B,H,?,64]");
}

TEST(IndexingInfer, ConcatOfDifferentNumbersFails) {
  auto r = inferText(R"(
    main (float[2,3] a, float[2,4] b) => (float c) { c = Concat <axis = 0> (a, b) })");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("dim 1 differs"), std::string::npos);
}

TEST(IndexingInfer, SplitByOpset) {
  auto v11 = inferText(R"(
    <ir_version: 7, opset_import: ["" : 11]>
    main (float[N,12] x) => (float a, float b, float c, float d) {
      a, b = Split <axis = 1, split = [4, 8]> (x)
      c, d = Split <axis = 1> (x)
    })");
  EXPECT_EQ(v11.type("a"), "float[N,4]");
  EXPECT_EQ(v11.type("b"), "float[N,8]");
  EXPECT_EQ(v11.type("c"), "float[N,6]");
  auto v18 = inferText(R"(
    <ir_version: 8, opset_import: ["" : 18]>
    main (float[N,7] x) => (float a, float b, float c, float d, float e) <int64[2] s = {3, 4}> {
      a, b = Split <axis = 1> (x, s)
      c, d, e = Split <axis = 1, num_outputs = 3> (x)
    })");
  EXPECT_EQ(v18.type("a"), "float[N,3]");
  EXPECT_EQ(v18.type("b"), "float[N,4]");
  EXPECT_EQ(v18.type("c"), "float[N,3]");  // uneven: 3, 3, 1
  EXPECT_EQ(v18.type("e"), "float[N,1]");
}

TEST(IndexingInfer, SliceAttributesBeforeOpset10InputsAfter) {
  auto v9 = inferText(R"(
    <ir_version: 4, opset_import: ["" : 9]>
    main (float[20,10,5] x) => (float y) { y = Slice <starts = [0, 1], ends = [3, 100], axes = [0, 1]> (x) })");
  EXPECT_EQ(v9.type("y"), "float[3,9,5]");
  auto v13 = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    main (float[20,10,5] x, float[B,S,768] h) => (float y, float z, float last)
    <int64[1] st = {-1}, int64[1] en = {-1000}, int64[1] ax = {1}, int64[1] step = {-2},
     int64[1] big = {9223372036854775807}> {
      y = Slice(x, st, en, ax, step)
      z = Slice(x, st, big)
      last = Slice(h, st, big, ax)
    })");
  EXPECT_TRUE(v13.report.failures.empty());
  EXPECT_EQ(v13.type("y"), "float[20,5,5]");
  EXPECT_EQ(v13.type("z"), "float[1,10,5]");
  EXPECT_EQ(v13.type("last"), "float[B,1,768]");  // the last token of a symbolic sequence
}

TEST(IndexingInfer, SliceWithUnknownBoundsKeepsTheRank) {
  auto r = inferText(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    main (float[20,10,5] x, int64[2] st, int64[2] en) => (float y) { y = Slice(x, st, en) })");
  EXPECT_EQ(r.type("y"), "float[?,?,5]");
}

TEST(IndexingInfer, GatherShapesAndValues) {
  auto r = inferText(R"(
    main (float[V,64] emb, int64[B,S] ids, float[N,3,5] x) => (float e, float g, int64 s2)
    <int64 i = {1}, int64[3] rev = {2, 1, -3}, int64[2] two = {2, 0}> {
      e = Gather(emb, ids)
      g = Gather <axis = 1> (x, i)
      s = Shape(x)
      s2 = Gather(s, rev)
      r = Reshape(x, s2)
      s3 = Gather(s, two)
      [bad] q = Reshape(x, s3)
    })");
  EXPECT_EQ(r.type("e"), "float[B,S,64]");
  EXPECT_EQ(r.type("g"), "float[N,5]");
  EXPECT_EQ(r.type("s2"), "int64[3]");
  EXPECT_EQ(r.type("r"), "float[5,3,N]");
  // [5, N] holds a third of the 15*N elements.
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("Reshape 'bad'"), std::string::npos) << r.report.failures[0];
}

TEST(IndexingInfer, PadAttributeUntilOpset11) {
  auto v2 = inferText(R"(
    <ir_version: 3, opset_import: ["" : 2]>
    main (float[1,3,8,8] x) => (float y) { y = Pad <pads = [0, 0, 1, 2, 0, 0, 1, 2]> (x) })");
  EXPECT_EQ(v2.type("y"), "float[1,3,10,12]");
  auto v11 = inferText(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    main (float[1,3,H,8] x, int64[8] dyn) => (float y, float z)
    <int64[8] p = {0, 0, 1, 2, 0, 0, 1, 2}> {
      y = Pad(x, p)
      z = Pad(x, dyn)
    })");
  EXPECT_EQ(v11.type("y"), "float[1,3,H + 2,12]");
  EXPECT_EQ(v11.type("z"), "float[?,?,?,?]");
}

TEST(IndexingInfer, TopKAndDataDependentSizes) {
  auto r = inferText(R"(
    main (float[N,100] x, float[N,4] y) => (float v, int64 i, int64 nz, float c)
    <int64[1] k = {5}, bool[4] m = {1, 0, 1, 1}> {
      v, i = TopK <axis = -1> (x, k)
      nz = NonZero(x)
      c = Compress <axis = 1> (y, m)
    })");
  EXPECT_EQ(r.type("v"), "float[N,5]");
  EXPECT_EQ(r.type("i"), "int64[N,5]");
  EXPECT_EQ(r.type("nz"), "int64[2,?]");
  EXPECT_EQ(r.type("c"), "float[N,?]");
}

}  // namespace
}  // namespace passlab::analysis
