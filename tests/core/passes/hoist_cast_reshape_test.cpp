// hoist_cast_reshape: a reshape and its inverse, or a widening Cast and the
// Cast back, removed across the elementwise ops between them (constants
// reshaped or converted exactly); the reasons they stay; numerics.
#include <gtest/gtest.h>

#include "core/rewrite/match_utils.h"
#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "hoist_cast_reshape";

TEST(HoistCastReshape, ReshapePairAroundElementwiseOps) {
  expectRewrite(
      kPass,
      R"(main (float[2,3] x) => (float[2,3] y) <int64[1] s = {6}, int64[2] s2 = {2, 3}, float two = {2}> {
      t = Reshape(x, s)
      r = Relu(t)
      m = Mul(r, two)
      y = Reshape(m, s2) })",
      R"(main (float[2,3] x) => (float[2,3] y) <float two = {2}> {
      r = Relu(x)
      y = Mul(r, two) })");
}

TEST(HoistCastReshape, AFullShapeConstantIsReshapedToo) {
  expectRewrite(
      kPass,
      R"(main (float[2,3] x) => (float[2,3] y) <int64[1] s = {6}, int64[2] s2 = {2, 3}, float[6] c = {1, 2, 3, 4, 5, 6}> {
      t = Reshape(x, s)
      a = Add(c, t)
      y = Reshape(a, s2) })",
      R"(main (float[2,3] x) => (float[2,3] y) <float[2,3] c2 = {1, 2, 3, 4, 5, 6}> {
      y = Add(c2, x) })");
}

TEST(HoistCastReshape, UnsqueezeAndSqueeze) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <int64[1] ax = {0}> {
      t = Unsqueeze(x, ax)
      r = Neg(t)
      y = Squeeze(r, ax) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Neg(x) })");
}

TEST(HoistCastReshape, WideningCastPairAroundOrderPreservingOps) {
  // float -> double -> float: Max with a constant exact in float.
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <double c = {0.5}> {
      t = Cast <to = 11> (x)
      m = Max(t, c)
      r = Floor(m)
      y = Cast <to = 1> (r) })",
                R"(main (float[2,3] x) => (float[2,3] y) <float c = {0.5}> {
      m = Max(x, c)
      y = Floor(m) })");
}

TEST(HoistCastReshape, Float16ThroughFloat) {
  PassOutcome out = runPass(kPass, R"(main (float[2,3] a) => (float16[2,3] y) <float c = {0.5}> {
      x = Cast <to = 10> (a)
      t = Cast <to = 1> (x)
      m = Max(t, c)
      r = Relu(m)
      y = Cast <to = 10> (r) })");
  EXPECT_TRUE(out.step.changed);
  std::vector<std::string> ops;
  const ir::Node* max = nullptr;
  for (const auto& n : out.model.graph().nodes()) {
    ops.push_back(n->opType());
    if (n->opType() == "Max") max = n.get();
  }
  EXPECT_EQ(ops, (std::vector<std::string>{"Cast", "Max", "Relu"}));
  ASSERT_NE(max, nullptr);
  auto c = rewrite::constantValue(max->input(1));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->dtype(), ir::DataType::kFloat16);
  EXPECT_EQ(c->valueAsDouble(0), 0.5);
  EXPECT_EQ(max->output(0)->type().elemType(), ir::DataType::kFloat16);
}

TEST(HoistCastReshape, KeepsArithmeticBetweenCasts) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) <double c = {0.5}> {
      t = Cast <to = 11> (x)
      m = Add(t, c)
      y = Cast <to = 1> (m) })",
                  "Add rounds differently in the narrower type");
}

TEST(HoistCastReshape, KeepsAConstantNotExactInTheNarrowType) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) <double c = {0.1}> {
      t = Cast <to = 11> (x)
      m = Max(t, c)
      y = Cast <to = 1> (m) })",
                  "is not exactly representable in float");
}

TEST(HoistCastReshape, KeepsANarrowingCast) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) {
      t = Cast <to = 10> (x)
      m = Relu(t)
      y = Cast <to = 1> (m) })",
                  "the Cast is not a widening cast");
}

TEST(HoistCastReshape, KeepsAReshapeThatDoesNotComeBack) {
  expectUnchanged(
      kPass, R"(main (float[2,3] x) => (float[3,2] y) <int64[1] s = {6}, int64[2] s2 = {3, 2}> {
      t = Reshape(x, s)
      r = Relu(t)
      y = Reshape(r, s2) })",
      "the last reshape does not restore x's shape");
}

TEST(HoistCastReshape, KeepsANonConstantSideOperand) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3] x, float[6] z) => (float[2,3] y) <int64[1] s = {6}, int64[2] s2 = {2, 3}> {
      t = Reshape(x, s)
      a = Add(t, z)
      y = Reshape(a, s2) })",
      "Add has a non-constant side operand");
}

TEST(HoistCastReshape, KeepsAConstantOfAnotherShape) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3] x) => (float[2,3] y) <int64[1] s = {6}, int64[2] s2 = {2, 3}, float[1,6] c = {1, 2, 3, 4, 5, 6}> {
      t = Reshape(x, s)
      a = Add(t, c)
      y = Reshape(a, s2) })",
      "a side operand is neither a scalar nor of the reshaped shape");
}

TEST(HoistCastReshape, KeepsAnIntermediateWithASecondConsumer) {
  expectUnchanged(
      kPass,
      R"(main (float[2,3] x) => (float[2,3] y, float[6] z) <int64[1] s = {6}, int64[2] s2 = {2, 3}> {
      t = Reshape(x, s)
      r = Relu(t)
      y = Reshape(r, s2)
      z = Neg(r) })",
      "on the way to the inverse op: 'r' has 2 consumers");
}

TEST(HoistCastReshape, Converges) {
  expectConverges(
      kPass,
      R"(main (float[2,3] x) => (float[2,3] y) <int64[1] s = {6}, int64[2] s2 = {2, 3}, float two = {2}> {
      t = Reshape(x, s)
      r = Relu(t)
      m = Mul(r, two)
      y = Reshape(m, s2) })");
}

TEST(HoistCastReshape, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[2,3,4] x, float[4,5] w) => (float[2,3,4] y, float[4,5] z)
      <int64[2] s = {6, 4}, int64[3] s2 = {2, 3, 4}, float[6,4] c = {1, -2, 3, 0.5, -1, 2, 1, 1, 0, 0, 2, 2, -3, -3, 1, 1, 5, 4, 3, 2, 1, 0, -1, -2},
       double lo = {-0.25}, double hi = {0.75}> {
      t = Reshape(x, s)
      a = Add(t, c)
      r = Sigmoid(a)
      y = Reshape(r, s2)
      u = Cast <to = 11> (w)
      v = Clip(u, lo, hi)
      n = Neg(v)
      q = Ceil(n)
      z = Cast <to = 1> (q) })");
}

}  // namespace
}  // namespace passlab::testing
