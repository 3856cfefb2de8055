// Tensors made from shapes and values: Constant, ConstantOfShape, Expand,
// Tile, Range, OneHot.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(GenerateInfer, ConstantForms) {
  auto r = inferText(R"(
    main () => (float a, int64 b, int64 c, float d, string e) {
      a = Constant <value = float[2,3] {1, 2, 3, 4, 5, 6}> ()
      b = Constant <value_ints = [1, 2, 3]> ()
      c = Constant <value_int = 7> ()
      d = Constant <value_floats = [1.0, 2.0]> ()
      e = Constant <value_string = "x"> ()
    })");
  EXPECT_EQ(r.type("a"), "float[2,3]");
  EXPECT_EQ(r.type("b"), "int64[3]");
  EXPECT_EQ(r.type("c"), "int64[]");
  EXPECT_EQ(r.type("d"), "float[2]");
  EXPECT_EQ(r.type("e"), "string[]");
}

TEST(GenerateInfer, ConstantOfShapeAndExpandFromAShapeWithSymbols) {
  auto r = inferText(R"(
    main (float[B,S] x, int64[3] dynamic) => (int64 m, float e, float u, float t)
    <int64[1] one = {1}, float[1,1] v = {1}, int64[2] reps = {2, 3}> {
      s = Shape(x)
      m = ConstantOfShape <value = int64[1] {1}> (s)
      full = Concat <axis = 0> (one, s)
      e = Expand(v, full)
      u = ConstantOfShape(dynamic)
      t = Tile(x, reps)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("m"), "int64[B,S]");
  EXPECT_EQ(r.type("e"), "float[1,B,S]");
  EXPECT_EQ(r.type("u"), "float[?,?,?]");
  EXPECT_EQ(r.type("t"), "float[2*B,3*S]");
}

TEST(GenerateInfer, ExpandBroadcastsWithTheInput) {
  auto r = inferText(R"(
    main (float[3,1] x) => (float a) <int64[3] s = {2, 1, 6}> { a = Expand(x, s) })");
  EXPECT_EQ(r.type("a"), "float[2,3,6]");
}

TEST(GenerateInfer, RangeCountsSymbolically) {
  // position ids for the new tokens: range(past, past + seq)
  auto r = inferText(R"(
    main (float[B,H,P,64] past, float[B,S] ids) => (int64 pos, int64 fixed, int64 none)
    <int64 i2 = {2}, int64 i1 = {1}, int64 step = {1}, int64 zero = {0}, int64 ten = {10}, int64 three = {3}, int64 neg = {-1}> {
      ps = Shape(past)
      p = Gather(ps, i2)
      is = Shape(ids)
      s = Gather(is, i1)
      end = Add(p, s)
      pos = Range(p, end, step)
      fixed = Range(zero, ten, three)
      none = Range(zero, ten, neg)
    })");
  EXPECT_EQ(r.type("pos"), "int64[S]");
  EXPECT_EQ(r.type("fixed"), "int64[4]");
  EXPECT_EQ(r.type("none"), "int64[0]");
}

TEST(GenerateInfer, OneHotInsertsDepth) {
  auto r = inferText(R"(
    main (int64[N,4] idx) => (float y) <int64 depth = {10}, float[2] values = {0, 1}> {
      y = OneHot <axis = 1> (idx, depth, values)
    })");
  EXPECT_EQ(r.type("y"), "float[N,10,4]");
}

}  // namespace
}  // namespace passlab::analysis
