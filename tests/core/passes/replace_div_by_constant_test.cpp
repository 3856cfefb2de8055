// replace_div_by_constant: division by powers of two (exact) and, with
// exact_only=false, by any float constant; legacy broadcast attributes;
// the reasons it stays; numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "replace_div_by_constant";

TEST(ReplaceDivByConstant, PowerOfTwoBecomesAnExactMul) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float c = {4}> { y = Div(x, c) })",
                R"(main (float[2,3] x) => (float[2,3] y) <float r = {0.25}> { y = Mul(x, r) })");
}

TEST(ReplaceDivByConstant, PerElementPowersOfTwo) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[3] c = {2, 0.5, -8}> {
      y = Div(x, c) })",
                R"(main (float[2,3] x) => (float[2,3] y) <float[3] r = {0.5, 2, -0.125}> {
      y = Mul(x, r) })");
}

TEST(ReplaceDivByConstant, AnyConstantWhenNotExactOnly) {
  expectRewrite(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[2] c = {3, 0.1}> {
      t = Transpose(x)
      y = Div(t, c) })",
                R"(main (float[2,3] x) => (float[2,3] y) <float[2] r = {0.33333334, 10}> {
      t = Transpose(x)
      y = Mul(t, r) })",
                {{"exact_only", "false"}});
}

TEST(ReplaceDivByConstant, DoubleConstants) {
  expectRewrite(kPass,
                R"(main (double[2,3] x) => (double[2,3] y) <double c = {0.125}> { y = Div(x, c) })",
                R"(main (double[2,3] x) => (double[2,3] y) <double r = {8}> { y = Mul(x, r) })");
}

TEST(ReplaceDivByConstant, LegacyBroadcastAttributesAreCopied) {
  const std::string h = R"(<ir_version: 3, opset_import: ["" : 6]>)";
  expectRewrite(kPass, h + R"(main (float[2,3] x) => (float[2,3] y) {
      c = Constant <value = float[2] {2, 4}> ()
      y = Div <broadcast = 1, axis = 0> (x, c) })",
                h + R"(main (float[2,3] x) => (float[2,3] y) {
      r = Constant <value = float[2] {0.5, 0.25}> ()
      y = Mul <axis = 0, broadcast = 1> (x, r) })");
}

TEST(ReplaceDivByConstant, KeepsANonPowerOfTwoByDefault) {
  expectUnchanged(kPass,
                  R"(main (float[2,3] x) => (float[2,3] y) <float c = {3}> { y = Div(x, c) })",
                  "is not a power of two, so x * (1/c) may differ in the last bit");
}

TEST(ReplaceDivByConstant, KeepsADivisionByZero) {
  expectUnchanged(
      kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[3] c = {2, 0, 4}> { y = Div(x, c) })",
      "the divisor holds 0, inf or NaN", {{"exact_only", "false"}});
}

TEST(ReplaceDivByConstant, KeepsIntegerDivision) {
  expectUnchanged(kPass,
                  R"(main (int32[2,3] x) => (int32[2,3] y) <int32 c = {4}> { y = Div(x, c) })",
                  "the divisor is not a float constant (integer division truncates)");
}

TEST(ReplaceDivByConstant, KeepsANonConstantDivisor) {
  expectUnchanged(kPass, R"(main (float[2,3] x, float c) => (float[2,3] y) { y = Div(x, c) })",
                  "the divisor is not constant");
}

TEST(ReplaceDivByConstant, KeepsADivisorThatIsAnOverridableInput) {
  expectUnchanged(kPass,
                  R"(main (float[2,3] x, float c = {4}) => (float[2,3] y) { y = Div(x, c) })",
                  "the divisor is not constant");
}

TEST(ReplaceDivByConstant, Converges) {
  expectConverges(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float c = {4}, float d = {3}> {
      t = Div(x, c)
      y = Div(t, d) })");
}

TEST(ReplaceDivByConstant, OutputsStayTheSame) {
  expectSameOutputs(
      kPass,
      R"(main (float[4,3] x) => (float[4,3] y) <float[3] c = {2, 0.25, -16}, float[4,1] d = {3, 7, -0.3, 11}> {
      t = Div(x, c)
      y = Div(t, d) })",
      {{"exact_only", "false"}});
}

}  // namespace
}  // namespace passlab::testing
