// replace_with_cheaper_ops: one structural case per rule, opset variants
// (Clip attributes before 11, integer Relu from 14), reasons, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "replace_with_cheaper_ops";

TEST(ReplaceWithCheaperOps, PowTwoBecomesMul) {
  expectRewrite(kPass,
                R"(main (float[2,3] x) => (float[2,3] y) <float two = {2}> { y = Pow(x, two) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Mul(x, x) })");
}

TEST(ReplaceWithCheaperOps, PowHalfBecomesSqrt) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[1] h = {0.5}> {
      a = Abs(x)
      y = Pow(a, h) })",
                R"(main (float[2,3] x) => (float[2,3] y) {
      a = Abs(x)
      y = Sqrt(a) })");
}

TEST(ReplaceWithCheaperOps, SubFromZeroBecomesNeg) {
  expectRewrite(kPass, R"(main (int64[2,3] x) => (int64[2,3] y) <int64 z = {0}> { y = Sub(z, x) })",
                R"(main (int64[2,3] x) => (int64[2,3] y) { y = Neg(x) })");
}

TEST(ReplaceWithCheaperOps, ClipFromZeroBecomesRelu) {
  expectRewrite(kPass,
                R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}> { y = Clip(x, z) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}, float inf = {inf}> {
      y = Clip(x, z, inf) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

TEST(ReplaceWithCheaperOps, ClipAttributesBeforeOpset11) {
  const std::string h = R"(<ir_version: 4, opset_import: ["" : 9]>)";
  expectRewrite(
      kPass, h + R"(main (float[2,3] x) => (float[2,3] y) { y = Clip <min = 0.0, max = inf> (x) })",
      h + R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
  expectUnchanged(kPass,
                  h + R"(main (float[2,3] x) => (float[2,3] y) { y = Clip <min = 0.0> (x) })",
                  "Clip's default max before opset 11 is FLT_MAX, not +inf");
}

TEST(ReplaceWithCheaperOps, MaxWithZeroBecomesRelu) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}> { y = Max(z, x) })",
                R"(main (float[2,3] x) => (float[2,3] y) { y = Relu(x) })");
}

TEST(ReplaceWithCheaperOps, WhereOfNotSwapsItsBranches) {
  expectRewrite(kPass, R"(main (bool[2,3] c, float[2,3] a, float[2,3] b) => (float[2,3] y) {
      n = Not(c)
      y = Where(n, a, b) })",
                R"(main (bool[2,3] c, float[2,3] a, float[2,3] b) => (float[2,3] y) {
      y = Where(c, b, a) })");
}

TEST(ReplaceWithCheaperOps, KeepsPowOfAnotherExponent) {
  expectUnchanged(
      kPass, R"(main (float[2,3] x) => (float[2,3] y) <float three = {3}> { y = Pow(x, three) })",
      "the constant is 3.000000, not 2.000000");
}

TEST(ReplaceWithCheaperOps, KeepsAConstantWhoseBroadcastWidensX) {
  expectUnchanged(
      kPass, R"(main (float[3] x) => (float[1,3] y) <float[1,1] two = {2}> { y = Pow(x, two) })",
      "the constant's broadcast widens x");
}

TEST(ReplaceWithCheaperOps, KeepsAClipWithAFiniteMax) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}, float six = {6}> {
      y = Clip(x, z, six) })",
                  "Clip has a finite max");
}

TEST(ReplaceWithCheaperOps, KeepsAnIntegerMaxBeforeOpset14) {
  const std::string h = R"(<ir_version: 7, opset_import: ["" : 13]>)";
  expectUnchanged(kPass,
                  h + R"(main (int32[2,3] x) => (int32[2,3] y) <int32 z = {0}> { y = Max(x, z) })",
                  "Relu does not take int32");
}

TEST(ReplaceWithCheaperOps, KeepsXMinusZero) {
  expectUnchanged(kPass,
                  R"(main (float[2,3] x) => (float[2,3] y) <float z = {0}> { y = Sub(x, z) })",
                  "the operand is not a constant scalar");
}

TEST(ReplaceWithCheaperOps, KeepsANotWithASecondConsumer) {
  expectUnchanged(kPass,
                  R"(main (bool[2,3] c, float[2,3] a, float[2,3] b) => (float[2,3] y, bool[2,3] n) {
      n = Not(c)
      y = Where(n, a, b) })",
                  "Not output 'n' is a graph output");
}

TEST(ReplaceWithCheaperOps, Converges) {
  expectConverges(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float two = {2}, float z = {0}> {
      p = Pow(x, two)
      m = Sub(z, p)
      y = Max(m, z) })");
}

TEST(ReplaceWithCheaperOps, OutputsStayTheSame) {
  expectSameOutputs(kPass, R"(main (float[3,4] x, bool[3,4] c) => (float[3,4] y, float[3,4] w)
      <float two = {2}, float h = {0.5}, float z = {0}> {
      p = Pow(x, two)
      m = Sub(z, p)
      r = Max(m, z)
      a = Abs(x)
      q = Pow(a, h)
      s = Clip(x, z)
      t = Add(q, s)
      y = Add(r, t)
      n = Not(c)
      w = Where(n, x, q) })");
}

}  // namespace
}  // namespace passlab::testing
