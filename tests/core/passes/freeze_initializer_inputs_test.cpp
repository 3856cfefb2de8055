// freeze_initializer_inputs: weights listed as graph inputs become constants;
// the option keep, graph outputs, IR version raise, convergence, numerics.
#include <gtest/gtest.h>

#include "tests/support/pass_harness.h"

namespace passlab::testing {
namespace {

const char* kPass = "freeze_initializer_inputs";

TEST(FreezeInitializerInputs, WeightListedAsInputBecomesConstant) {
  expectRewrite(kPass, R"(main (float[2,3] x, float[3] w = {1, 2, 3}) => (float[2,3] y) {
      y = Add(x, w) })",
                R"(main (float[2,3] x) => (float[2,3] y) <float[3] w = {1, 2, 3}> {
      y = Add(x, w) })");
}

TEST(FreezeInitializerInputs, PlainInputsStayAndEveryWeightGoes) {
  expectRewrite(
      kPass,
      R"(main (float[2,3] x, float[3] w = {1, 2, 3}, float[3] z, float[3] v = {4, 5, 6}) => (float[2,3] y) {
      a = Add(x, w)
      b = Mul(a, v)
      y = Sub(b, z) })",
      R"(main (float[2,3] x, float[3] z) => (float[2,3] y) <float[3] w = {1, 2, 3}, float[3] v = {4, 5, 6}> {
      a = Add(x, w)
      b = Mul(a, v)
      y = Sub(b, z) })");
}

TEST(FreezeInitializerInputs, RaisesIrVersionBelowFour) {
  PassOutcome out = runPass(kPass, R"(<ir_version: 3, opset_import: ["" : 8]>
      main (float[2,3] x, float[3] w = {1, 2, 3}) => (float[2,3] y) { y = Add(x, w) })");
  EXPECT_TRUE(out.step.changed);
  EXPECT_EQ(out.model.irVersion, 4);
  EXPECT_EQ(out.model.graph().inputs().size(), 1u);
}

// starry_night_fp16 (IR 1) relies on legacy broadcasting that the executor
// recognises by the IR version: such files are left as they are.
TEST(FreezeInitializerInputs, LeavesIrVersionsOneAndTwoAlone) {
  expectUnchanged(kPass, R"(<ir_version: 2, opset_import: ["" : 6]>
      main (float[2,3] x, float[3] w = {1, 2, 3}) => (float[2,3] y) { y = Add(x, w) })",
                  "before opset 7 broadcasting");
}

TEST(FreezeInitializerInputs, KeepsTheInputsTheOptionNames) {
  expectUnchanged(kPass, R"(main (float[2,3] x, float[3] w = {1, 2, 3}) => (float[2,3] y) {
      y = Add(x, w) })",
                  "kept as an input (option keep)", {{"keep", "w"}});
  // A comma-separated list: v stays overridable, w is frozen.
  expectRewrite(
      kPass,
      R"(main (float[2,3] x, float[3] w = {1, 2, 3}, float[3] v = {4, 5, 6}) => (float[2,3] y) {
      a = Add(x, w)
      y = Mul(a, v) })",
      R"(main (float[2,3] x, float[3] v = {4, 5, 6}) => (float[2,3] y) <float[3] w = {1, 2, 3}> {
      a = Add(x, w)
      y = Mul(a, v) })",
      {{"keep", "u,v"}});
}

TEST(FreezeInitializerInputs, KeepsAnInitializerThatIsAlsoAGraphOutput) {
  expectUnchanged(kPass,
                  R"(main (float[2,3] x, float[3] w = {1, 2, 3}) => (float[2,3] y, float[3] w) {
      y = Add(x, w) })",
                  "'w' is also a graph output");
}

TEST(FreezeInitializerInputs, LeavesAModelWithoutInitializerInputsAlone) {
  expectUnchanged(kPass, R"(main (float[2,3] x) => (float[2,3] y) <float[3] w = {1, 2, 3}> {
      y = Add(x, w) })");
}

TEST(FreezeInitializerInputs, Converges) {
  expectConverges(kPass, R"(main (float[2,3] x, float[3] w = {1, 2, 3}) => (float[2,3] y) {
      y = Add(x, w) })");
}

TEST(FreezeInitializerInputs, OutputsStayTheSame) {
  expectSameOutputs(
      kPass,
      R"(main (float[2,3] x, float[3,2] w = {1, -2, 0.5, 3, -1, 2}, float[2] b = {0.25, -4}) => (float[2,2] y) {
      m = MatMul(x, w)
      y = Add(m, b) })");
}

}  // namespace
}  // namespace passlab::testing
