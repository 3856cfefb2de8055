// Element-wise rules: broadcasting (numbers, symbols, 1s), legacy broadcast,
// comparisons, Where, Cast, Dropout.
#include <gtest/gtest.h>

#include "tests/core/analysis/infer_test_util.h"

namespace passlab::analysis {
namespace {

using testing::inferText;

TEST(ElementwiseInfer, BroadcastKeepsSymbolsAndDropsOnes) {
  auto r = inferText(R"(
    main (float[N,1,5] a, float[3,1] b, float[N,3,5] c) => (float y, bool z, float w) {
      y = Add(a, b)
      z = Less(a, c)
      w = Mul(y, c)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("y"), "float[N,3,5]");
  EXPECT_EQ(r.type("z"), "bool[N,3,5]");
  EXPECT_EQ(r.type("w"), "float[N,3,5]");
}

TEST(ElementwiseInfer, DifferentSymbolsOrUnknownGiveUnknownNotAGuess) {
  auto r = inferText(R"(
    main (float[N,4] a, float[M,4] b, float[?,4] c, float[1,4] d) => (float y, float z, float w) {
      y = Add(a, b)
      z = Add(a, c)
      w = Add(c, d)
    })");
  EXPECT_EQ(r.type("y"), "float[?,4]");
  EXPECT_EQ(r.type("z"), "float[?,4]");
  EXPECT_EQ(r.type("w"), "float[?,4]");
}

TEST(ElementwiseInfer, MismatchedNumbersAreAFailureNamingTheNode) {
  auto r = inferText(R"(
    main (float[2,3] a, float[4,3] b) => (float y, float z) {
      [bad] y = Add(a, b)
      z = Relu(y)
    })");
  ASSERT_EQ(r.report.failures.size(), 1u);
  EXPECT_NE(r.report.failures[0].find("Add 'bad'"), std::string::npos) << r.report.failures[0];
  EXPECT_NE(r.report.failures[0].find("cannot broadcast [2,3] [4,3]"), std::string::npos);
  EXPECT_EQ(r.type("y"), "float");  // type known from the schema, shape not
  EXPECT_EQ(r.type("z"), "float");
}

TEST(ElementwiseInfer, LegacyBroadcastBeforeOpset7TakesTheFirstShape) {
  auto r = inferText(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    main (float[1,32,8,8] a, float[32] b) => (float y) {
      y = Add <broadcast = 1, axis = 1> (a, b)
    })");
  EXPECT_TRUE(r.report.failures.empty());
  EXPECT_EQ(r.type("y"), "float[1,32,8,8]");
}

TEST(ElementwiseInfer, WhereCastDropoutAndVariadic) {
  auto r = inferText(R"(
    main (bool[B,1] c, float[1,7] x, float[B,7] y, int64[B] i) => (float w, float16 h, float d, bool m, float s) {
      w = Where(c, x, y)
      h = Cast <to = 10> (w)
      d, m = Dropout(y)
      s = Max(x, y, w)
    })");
  EXPECT_EQ(r.type("w"), "float[B,7]");
  EXPECT_EQ(r.type("h"), "float16[B,7]");
  EXPECT_EQ(r.type("d"), "float[B,7]");
  EXPECT_EQ(r.type("m"), "bool[B,7]");
  EXPECT_EQ(r.type("s"), "float[B,7]");
}

TEST(ElementwiseInfer, UnaryOpsKeepTheShapeAndGetTypesFromTheSchema) {
  auto r = inferText(R"(
    main (float[N,3] x) => (float y, bool n, float s) {
      y = Sigmoid(x)
      n = IsNaN(y)
      s = Softmax <axis = 1> (y)
    })");
  EXPECT_EQ(r.type("y"), "float[N,3]");
  EXPECT_EQ(r.type("n"), "bool[N,3]");
  EXPECT_EQ(r.type("s"), "float[N,3]");
}

}  // namespace
}  // namespace passlab::analysis
