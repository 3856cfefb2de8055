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

// The Clip form at `opset` (Clip's bounds are inputs from 11 on), with more
// nodes after it reading y into `out`.
std::string olderModel(int opset, const std::string& more = "",
                       const std::string& out = "float[2,3] y") {
  return R"(<ir_version: 7, opset_import: ["" : )" + std::to_string(opset) +
         R"(]> main (float[2,3] x) => ()" + out + R"()
      <float three = {3}, float zero = {0}, float six = {6}> {
      a = Add(x, three)
      c = Clip(a, zero, six)
      m = Mul(x, c)
      y = Div(m, six)
      )" +
         more + " }";
}

// The pass on `text` (one Clip chain at opset `from`): raised to 14, the
// chain one HardSwish, the note saying so, the step's check passed, valid,
// and the outputs the original's on 4 input sets.
void expectRaisedAndFused(const std::string& text, int from) {
  PassOutcome out = runPass(kPass, text);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_EQ(out.model.opsetVersion(""), 14);
  EXPECT_EQ(countOps(out.model, "HardSwish"), 1);
  EXPECT_EQ(countOps(out.model, "Clip"), 0);
  EXPECT_NE(out.step.note.str().find("opset " + std::to_string(from) +
                                     " -> 14 so that 1 written-out HardSwish"),
            std::string::npos)
      << out.step.note;
  EXPECT_TRUE(out.step.check.passed) << out.step.check.detail.str();
  EXPECT_TRUE(out.step.verifierErrors.empty());
  NumericResult r = compareOutputs(parse(text), out.model, 4);
  EXPECT_TRUE(r.ran) << r.detail;
  EXPECT_TRUE(r.equal) << r.detail;
}

TEST(FuseHardSwish, RaisesAnOpset13ModelForItsChain) {
  expectRaisedAndFused(olderModel(13), 13);
}

TEST(FuseHardSwish, RaisesAnOpset11ModelRewritingWhatChanged) {
  // Squeeze's axes became an input at 13: the raise moves it, as raise_opset does.
  const std::string text =
      olderModel(11, "s = Squeeze <axes = [0]> (u)\n      v = Relu(s)", "float[2,3] y, float[3] v");
  const std::string withU = [&] {
    std::string t = text;
    t.replace(t.find("(float[2,3] x)"), 14, "(float[2,3] x, float[1,3] u)");
    return t;
  }();
  PassOutcome out = runPass(kPass, withU);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_EQ(out.model.opsetVersion(""), 14);
  EXPECT_EQ(countOps(out.model, "HardSwish"), 1);
  EXPECT_EQ(countOps(out.model, "Squeeze"), 1);
  EXPECT_NE(out.step.note.str().find("opset 11 -> 14"), std::string::npos) << out.step.note;
  EXPECT_NE(out.step.note.str().find("rewrote 1 other nodes"), std::string::npos) << out.step.note;
  EXPECT_TRUE(out.step.verifierErrors.empty());
  NumericResult r = compareOutputs(parse(withU), out.model, 4);
  EXPECT_TRUE(r.ran) << r.detail;
  EXPECT_TRUE(r.equal) << r.detail;
}

TEST(FuseHardSwish, RaisesAnOpset7ModelForTheHardSigmoidForm) {
  const std::string text = R"(<ir_version: 4, opset_import: ["" : 7]>
      main (float[2,3] x) => (float[2,3] y) {
      h = HardSigmoid <alpha = 0.16666667, beta = 0.5> (x)
      y = Mul(x, h) })";
  PassOutcome out = runPass(kPass, text);
  ASSERT_TRUE(out.step.changed) << out.step.error.str();
  EXPECT_EQ(out.model.opsetVersion(""), 14);
  EXPECT_EQ(countOps(out.model, "HardSwish"), 1);
  EXPECT_EQ(countOps(out.model, "HardSigmoid"), 0);
  NumericResult r = compareOutputs(parse(text), out.model, 4);
  EXPECT_TRUE(r.ran) << r.detail;
  EXPECT_TRUE(r.equal) << r.detail;
}

// Before opset 11 Clip's bounds are attributes: the chain is counted and the
// raise turns them into inputs (review of fa2c15f: such models were not raised).
std::string opset10ClipModel(const std::string& bounds) {
  return R"(<ir_version: 5, opset_import: ["" : 10]>
      main (float[2,3] x) => (float[2,3] y) <float three = {3}, float six = {6}> {
      a = Add(x, three)
      c = Clip <)" +
         bounds + R"(> (a)
      m = Mul(x, c)
      y = Div(m, six) })";
}

TEST(FuseHardSwish, RaisesAnOpset10ModelWhoseClipBoundsAreAttributes) {
  expectRaisedAndFused(opset10ClipModel("min = 0.0, max = 6.0"), 10);
}

TEST(FuseHardSwish, KeepsAnOpset10ClipOfOtherOrMissingBounds) {
  for (const char* bounds : {"min = 0.0, max = 5.0", "min = -1.0, max = 6.0", "max = 6.0"}) {
    SCOPED_TRACE(bounds);
    PassOutcome out = runPass(kPass, opset10ClipModel(bounds));
    EXPECT_FALSE(out.step.changed);
    EXPECT_EQ(out.model.opsetVersion(""), 10);
    EXPECT_EQ(countOps(out.model, "Clip"), 1);
  }
}

TEST(FuseHardSwish, AnOlderModelWithoutAChainKeepsItsOpset) {
  // x + 2, not x + 3: nothing would fuse at 14, so nothing is raised.
  std::string text = olderModel(13);
  text.replace(text.find("Add(x, three)"), 13, "Add(x, six)");
  PassOutcome out = runPass(kPass, text);
  EXPECT_FALSE(out.step.changed);
  EXPECT_EQ(out.model.opsetVersion(""), 13);
  EXPECT_TRUE(out.step.note.empty()) << out.step.note;
  EXPECT_EQ(countOps(out.model, "Clip"), 1);
}

TEST(FuseHardSwish, AModelThatCannotBeRaisedIsLeftWithTheReason) {
  // BatchNormalization's outputs changed at 14 (raise_opset refuses it):
  // neither the opset nor the chain changes, and the note says why.
  const std::string text = R"(<ir_version: 7, opset_import: ["" : 13]>
      main (float[1,2,3] x) => (float[1,2,3] y)
      <float three = {3}, float zero = {0}, float six = {6}, float[2] g = {1, 2},
       float[2] b = {0, 1}, float[2] mu = {0, 0}, float[2] var = {1, 1}> {
      n = BatchNormalization(x, g, b, mu, var)
      a = Add(n, three)
      c = Clip(a, zero, six)
      m = Mul(n, c)
      y = Div(m, six) })";
  PassOutcome out = runPass(kPass, text);
  EXPECT_FALSE(out.step.changed);
  EXPECT_FALSE(out.step.rolledBack);
  EXPECT_EQ(out.model.opsetVersion(""), 13);
  EXPECT_EQ(countOps(out.model, "Clip"), 1);
  EXPECT_NE(out.step.note.str().find("1 written-out HardSwish kept"), std::string::npos)
      << out.step.note;
  EXPECT_NE(out.step.note.str().find("cannot be raised from opset 13 to 14: its outputs changed"),
            std::string::npos)
      << out.step.note;
}

TEST(FuseHardSwish, RaiseOpsetFalseKeepsAnOlderModel) {
  PassOutcome out = runPass(kPass, olderModel(13), {{"raise_opset", "false"}});
  EXPECT_FALSE(out.step.changed);
  EXPECT_EQ(out.model.opsetVersion(""), 13);
  EXPECT_NE(out.step.note.str().find("raise_opset is false"), std::string::npos) << out.step.note;
  EXPECT_NE(explainNotes(out).find("HardSwish needs opset >= 14 (model has 13)"), std::string::npos)
      << explainNotes(out);
}

TEST(FuseHardSwish, SkippedBeforeOpset7) {
  expectSkippedForOpset(kPass, R"(<ir_version: 3, opset_import: ["" : 6]>
      main (float[2,3] x) => (float[2,3] y) {
      h = HardSigmoid <alpha = 0.16666667, beta = 0.5> (x)
      y = Mul(x, h) })");
}

TEST(FuseHardSwish, ConvergesAfterRaising) {
  expectConverges(kPass, olderModel(13));
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
