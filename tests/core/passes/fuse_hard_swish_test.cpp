// fuse_hard_swish: x * Clip(x + 3, 0, 6) / 6 in its operand orders and
// placements of the / 6, and x * HardSigmoid(x, 1/6, 0.5), become HardSwish;
// the reasons they stay; numerics; convergence.
#include <gtest/gtest.h>

#include "tests/core/passes/fusion_test_util.h"
#include "tests/support/test_support.h"

namespace passlab::testing {
namespace {

const char* kPass = "fuse_hard_swish";
const std::string kHeader = R"(<ir_version: 9, opset_import: ["" : 14]>)";
const std::string kConsts =
    R"(float three = {3}, float zero = {0}, float six = {6}, float sixth = {0.16666667})";

// The Clip form with `body`; `outputs` and extra initializers as given.
std::string clipModel(const std::string& body, const std::string& outputs = "float[2,3] y",
                      const std::string& inits = "", const std::string& header = kHeader) {
  return header + R"(main (float[2,3] x, float[2,3] z) => ()" + outputs + ") <" + kConsts + inits +
         "> {\n" + body + " }";
}
// What is left: one HardSwish, the initializers the pattern did not read.
std::string hardSwishKeeping(const std::string& inits) {
  return kHeader + R"(main (float[2,3] x, float[2,3] z) => (float[2,3] y) <)" + inits +
         R"(> { y = HardSwish(x) })";
}

TEST(FuseHardSwish, ProductDividedBySix) {
  expectRewrite(kPass, clipModel(R"(a = Add(x, three)
      c = Clip(a, zero, six)
      m = Mul(x, c)
      y = Div(m, six))"),
                hardSwishKeeping("float sixth = {0.16666667}"));
}

TEST(FuseHardSwish, OperandsSwappedAndTimesASixth) {
  expectRewrite(kPass, clipModel(R"(a = Add(three, x)
      c = Clip(a, zero, six)
      m = Mul(c, x)
      y = Mul(sixth, m))"),
                hardSwishKeeping(""));
}

TEST(FuseHardSwish, ClipDividedBySixThenTimesX) {
  expectRewrite(kPass, clipModel(R"(a = Add(x, three)
      c = Clip(a, zero, six)
      s = Div(c, six)
      y = Mul(s, x))"),
                hardSwishKeeping("float sixth = {0.16666667}"));
}

TEST(FuseHardSwish, XTimesHardSigmoid) {
  expectRewrite(kPass, kHeader + R"(main (float[2,3] x) => (float[2,3] y) {
      h = HardSigmoid <alpha = 0.16666667, beta = 0.5> (x)
      y = Mul(x, h) })",
                kHeader + R"(main (float[2,3] x) => (float[2,3] y) { y = HardSwish(x) })");
}

TEST(FuseHardSwish, KeepsAnIntermediateThatIsAGraphOutput) {
  expectUnchanged(kPass,
                  clipModel(R"(a = Add(x, three)
      c = Clip(a, zero, six)
      m = Mul(x, c)
      y = Div(m, six))",
                            "float[2,3] y, float[2,3] c"),
                  "'c' is a graph output");
}

TEST(FuseHardSwish, KeepsAnotherOffset) {
  expectUnchanged(kPass,
                  clipModel(R"(a = Add(x, two)
      c = Clip(a, zero, six)
      m = Mul(x, c)
      y = Div(m, six))",
                            "float[2,3] y", ", float two = {2}"),
                  "the Clip input is not x + 3");
}

TEST(FuseHardSwish, KeepsAProductWithAnotherTensor) {
  expectUnchanged(kPass, clipModel(R"(a = Add(x, three)
      c = Clip(a, zero, six)
      m = Mul(z, c)
      y = Div(m, six))"),
                  "is not multiplied by x and divided by 6");
}

TEST(FuseHardSwish, KeepsAProductNotDividedBySix) {
  expectUnchanged(kPass, clipModel(R"(a = Add(x, three)
      c = Clip(a, zero, six)
      m = Mul(x, c)
      y = Div(m, three))"),
                  "is not divided by 6");
}

TEST(FuseHardSwish, KeepsOtherClipBounds) {
  expectUnchanged(kPass, clipModel(R"(a = Add(x, three)
      c = Clip(a, zero, three)
      m = Mul(x, c)
      y = Div(m, six))"),
                  "the Clip bounds are not 0 and 6");
}

TEST(FuseHardSwish, KeepsAHardSigmoidOfOtherAlpha) {
  // The squeeze-excitation gate's HardSigmoid (alpha 0.2) times its own input is not HardSwish.
  expectUnchanged(kPass, kHeader + R"(main (float[2,3] x) => (float[2,3] y) {
      h = HardSigmoid <alpha = 0.2, beta = 0.5> (x)
      y = Mul(x, h) })",
                  "alpha and beta are not 1/6 and 0.5");
}

TEST(FuseHardSwish, KeepsAGateOnAnotherTensor) {
  // A squeeze-excitation gate: HardSigmoid(s) scales x, not s.
  expectUnchanged(kPass, kHeader + R"(main (float[2,3] x, float[2,3] s) => (float[2,3] y) {
      h = HardSigmoid <alpha = 0.16666667, beta = 0.5> (s)
      y = Mul(x, h) })",
                  "HardSigmoid(x) is not multiplied by x");
}

TEST(FuseHardSwish, KeepsAConstantThatWidensTheResult) {
  expectUnchanged(kPass,
                  clipModel(R"(a = Add(x, three3)
      c = Clip(a, zero, six)
      m = Mul(x, c)
      y = Div(m, six))",
                            "float[1,2,3] y", ", float[1,1,1] three3 = {3}"),
                  "the Clip input is not x + 3");
}

TEST(FuseHardSwish, SkippedBeforeOpset14) {
  expectSkippedForOpset(kPass, R"(<ir_version: 8, opset_import: ["" : 13]>
      main (float[2,3] x) => (float[2,3] y)
      <float three = {3}, float zero = {0}, float six = {6}> {
      a = Add(x, three)
      c = Clip(a, zero, six)
      m = Mul(x, c)
      y = Div(m, six) })");
}

TEST(FuseHardSwish, Converges) {
  expectConverges(kPass, clipModel(R"(a = Add(x, three)
      c = Clip(a, zero, six)
      m = Mul(x, c)
      y = Div(m, six))"));
}

TEST(FuseHardSwish, OutputsStayTheSame) {
  // Both forms and a third chain reading the first's result; random inputs
  // reach both kinks (-3 and 3) only sometimes, so the values around them are
  // checked by the executor's comparison of every element.
  std::string text = kHeader + R"(main (float[8,16] x) => (float[8,16] y, float[8,16] w)
      <float three = {3}, float zero = {0}, float six = {6}, float k = {4}> {
      xs = Mul(x, k)
      a = Add(xs, three)
      c = Clip(a, zero, six)
      m = Mul(xs, c)
      y = Div(m, six)
      h = HardSigmoid <alpha = 0.16666667, beta = 0.5> (y)
      w = Mul(h, y) })";
  PassOutcome out = runPass(kPass, text);
  EXPECT_TRUE(out.step.changed);
  EXPECT_EQ(countOps(out.model, "HardSwish"), 2);
  EXPECT_EQ(countOps(out.model, "Clip"), 0);
  expectSameOutputs(kPass, text);
  NumericResult r = compareOutputs(parse(text), out.model, 4);
  EXPECT_TRUE(r.ran) << r.detail;
  EXPECT_TRUE(r.equal) << r.detail;
}

}  // namespace
}  // namespace passlab::testing
