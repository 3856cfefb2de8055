// fuse_gelu: the erf form in its associations and the tanh form (Pow and Mul
// cubes) become Gelu; the reasons they stay; numerics.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_gelu";
const std::string kHeader = R"(<ir_version: 9, opset_import: ["" : 20]>)";

// The erf form with `body` between the declarations and the end.
std::string erfModel(const std::string& body, const std::string& outputs = "float[2,3] y",
                     const std::string& inits = "") {
  return kHeader + R"(main (float[2,3] x) => ()" + outputs +
         R"() <float sq2 = {1.4142135}, float rsq2 = {0.70710678}, float one = {1}, float half = {0.5})" +
         inits + R"(> {
      )" +
         body + " }";
}
// Initializers the pattern does not read stay; those it reads go.
std::string geluKeeping(const std::string& inits) {
  return kHeader + R"(main (float[2,3] x) => (float[2,3] y) <)" + inits + R"(> { y = Gelu(x) })";
}

TEST(FuseGelu, ErfFormXTimesPTimesHalf) {
  expectRewrite(kPass, erfModel(R"(d = Div(x, sq2)
      e = Erf(d)
      p = Add(e, one)
      m = Mul(x, p)
      y = Mul(m, half))"),
                geluKeeping("float rsq2 = {0.70710678}"));
}

TEST(FuseGelu, ErfFormHalfXTimesP) {
  expectRewrite(kPass, erfModel(R"(d = Mul(rsq2, x)
      e = Erf(d)
      p = Add(one, e)
      h = Mul(x, half)
      y = Mul(h, p))"),
                geluKeeping("float sq2 = {1.4142135}"));
}

TEST(FuseGelu, ErfFormXTimesHalfP) {
  expectRewrite(kPass, erfModel(R"(d = Div(x, sq2)
      e = Erf(d)
      p = Add(e, one)
      m = Mul(p, half)
      y = Mul(x, m))"),
                geluKeeping("float rsq2 = {0.70710678}"));
}

TEST(FuseGelu, TanhFormWithPow) {
  expectRewrite(
      kPass, kHeader + R"(main (float[2,3] x) => (float[2,3] y)
      <float c = {0.7978845608}, float k = {0.044715}, float three = {3}, float one = {1}, float half = {0.5}> {
      x3 = Pow(x, three)
      kx3 = Mul(k, x3)
      inner = Add(x, kx3)
      u = Mul(inner, c)
      t = Tanh(u)
      p = Add(t, one)
      h = Mul(x, half)
      y = Mul(h, p) })",
      kHeader + R"(main (float[2,3] x) => (float[2,3] y) { y = Gelu <approximate = "tanh"> (x) })");
}

TEST(FuseGelu, TanhFormWithMulCube) {
  expectRewrite(
      kPass, kHeader + R"(main (float[2,3] x) => (float[2,3] y)
      <float c = {0.7978845608}, float k = {0.044715}, float one = {1}, float half = {0.5}> {
      x2 = Mul(x, x)
      x3 = Mul(x2, x)
      kx3 = Mul(x3, k)
      inner = Add(kx3, x)
      u = Mul(c, inner)
      t = Tanh(u)
      p = Add(one, t)
      m = Mul(x, p)
      y = Mul(m, half) })",
      kHeader + R"(main (float[2,3] x) => (float[2,3] y) { y = Gelu <approximate = "tanh"> (x) })");
}

TEST(FuseGelu, KeepsAnIntermediateThatIsAGraphOutput) {
  expectUnchanged(kPass,
                  erfModel(R"(d = Div(x, sq2)
      e = Erf(d)
      p = Add(e, one)
      m = Mul(x, p)
      y = Mul(m, half))",
                           "float[2,3] y, float[2,3] m"),
                  "'m' is a graph output");
}

TEST(FuseGelu, KeepsAWrongScale) {
  expectUnchanged(kPass,
                  erfModel(R"(d = Div(x, two)
      e = Erf(d)
      p = Add(e, one)
      m = Mul(x, p)
      y = Mul(m, half))",
                           "float[2,3] y", ", float two = {2}"),
                  "the Erf input is not x / sqrt(2)");
}

TEST(FuseGelu, KeepsAConstantThatWidensTheResult) {
  // 0.5 as [1, 1, 1] makes the product [1, 2, 3]; Gelu(x) is [2, 3].
  expectUnchanged(kPass,
                  erfModel(R"(d = Div(x, sq2)
      e = Erf(d)
      p = Add(e, one)
      m = Mul(x, p)
      y = Mul(m, half3))",
                           "float[1,2,3] y", ", float[1,1,1] half3 = {0.5}"),
                  "the result does not have x's type and shape");
}

TEST(FuseGelu, KeepsAProductWithoutTheHalf) {
  expectUnchanged(kPass, erfModel(R"(d = Div(x, sq2)
      e = Erf(d)
      p = Add(e, one)
      y = Mul(x, p))"),
                  "is not multiplied by x and 0.5");
}

TEST(FuseGelu, SkippedBeforeOpset20) {
  expectSkippedForOpset(
      kPass,
      R"(main (float[2,3] x) => (float[2,3] y) <float sq2 = {1.4142135}, float one = {1}, float half = {0.5}> {
      d = Div(x, sq2)
      e = Erf(d)
      p = Add(e, one)
      m = Mul(x, p)
      y = Mul(m, half) })");
}

TEST(FuseGelu, Converges) {
  expectConverges(kPass, erfModel(R"(d = Div(x, sq2)
      e = Erf(d)
      p = Add(e, one)
      m = Mul(x, p)
      y = Mul(m, half))"));
}

TEST(FuseGelu, OutputsStayTheSame) {
  expectSameOutputs(kPass, kHeader + R"(main (float[4,5] x) => (float[4,5] y, float[4,5] z)
      <float sq2 = {1.4142135}, float c = {0.7978845608}, float k = {0.044715}, float three = {3}, float one = {1}, float half = {0.5}> {
      d = Div(x, sq2)
      e = Erf(d)
      p = Add(e, one)
      m = Mul(x, p)
      y = Mul(m, half)
      x3 = Pow(x, three)
      kx3 = Mul(k, x3)
      inner = Add(x, kx3)
      u = Mul(inner, c)
      t = Tanh(u)
      q = Add(t, one)
      h = Mul(x, half)
      z = Mul(h, q) })");
}

}  // namespace
}  // namespace passlab::testing
