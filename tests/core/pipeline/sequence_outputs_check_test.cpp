// The numeric check compares outputs that are not tensors: a ZipMap's
// sequence of maps (a classifier's class -> probability output) and a
// sequence of tensors, through their elements. Before, such outputs were
// skipped, so a change to a ZipMap model's probabilities passed the check.
#include <gtest/gtest.h>

#include <string>

#include "core/pipeline/numeric_check.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

using testing::parse;

// Softmax(x * s) -> ZipMap: `scale` 1 is the original, anything else a bug
// that moves the probabilities and nothing else.
ir::Model zipMapModel(const char* scale) {
  return parse(std::string(R"(
    <ir_version: 7, opset_import: ["" : 13, "ai.onnx.ml" : 1]>
    main (float[1,4] x) => (seq(map(int64, float)) z) <float s = {)") +
               scale + R"(}> {
      y = Mul (x, s)
      p = Softmax <axis = 1> (y)
      z = ai.onnx.ml.ZipMap <classlabels_int64s = [10, 11, 12, 13]> (p)
    })");
}

// Two or three tensors in a sequence.
ir::Model sequenceModel(bool third) {
  return parse(std::string(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    main (float[2,3] x) => (seq(float[2,3]) q) {
      y = Relu (x)
      q = SequenceConstruct (x, y)") +
               (third ? ", y" : "") + R"()
    })");
}

std::unique_ptr<ExecOutputChecker> checkerFor(const ir::Model& m) {
  auto c = ExecOutputChecker::create(m, 2, {});
  EXPECT_TRUE(c) << c.error().message();
  return c ? std::move(c.value()) : nullptr;
}

TEST(SequenceOutputsCheck, AnUnchangedZipMapModelPasses) {
  auto checker = checkerFor(zipMapModel("1.0"));
  ASSERT_TRUE(checker);
  NumericCheck c = checker->check(zipMapModel("1.0"));
  EXPECT_TRUE(c.passed) << c.detail;
  EXPECT_EQ(c.maxAbsError, 0);
}

TEST(SequenceOutputsCheck, AChangedProbabilityBehindZipMapFails) {
  auto checker = checkerFor(zipMapModel("1.0"));
  ASSERT_TRUE(checker);
  NumericCheck c = checker->check(zipMapModel("1.01"));
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.str().find("z[0].values"), std::string::npos) << c.detail;
  EXPECT_GT(c.maxAbsError, 0);
}

TEST(SequenceOutputsCheck, ChangedClassLabelsFail) {
  auto checker = checkerFor(zipMapModel("1.0"));
  ASSERT_TRUE(checker);
  ir::Model relabelled = parse(R"(
    <ir_version: 7, opset_import: ["" : 13, "ai.onnx.ml" : 1]>
    main (float[1,4] x) => (seq(map(int64, float)) z) <float s = {1.0}> {
      y = Mul (x, s)
      p = Softmax <axis = 1> (y)
      z = ai.onnx.ml.ZipMap <classlabels_int64s = [10, 11, 13, 12]> (p)
    })");
  NumericCheck c = checker->check(relabelled);
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.str().find("z[0].keys"), std::string::npos) << c.detail;
}

TEST(SequenceOutputsCheck, ASequenceOfAnotherLengthFails) {
  auto checker = checkerFor(sequenceModel(false));
  ASSERT_TRUE(checker);
  EXPECT_TRUE(checker->check(sequenceModel(false)).passed);
  NumericCheck c = checker->check(sequenceModel(true));
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.detail.str().find("q.length"), std::string::npos) << c.detail;
}

TEST(SequenceOutputsCheck, TheBudgetMeasuresTheProbabilities) {
  auto checker = checkerFor(zipMapModel("1.0"));
  ASSERT_TRUE(checker);
  NumericCheck c = checker->checkWithinBudget(zipMapModel("1.001"), AccuracyBudget{});
  bool measured = false;
  for (const OutputAccuracy& a : c.accuracy)
    if (a.output == "z[0].values") {
      measured = true;
      EXPECT_GT(a.maxRelError, 0);
      EXPECT_LT(a.cosine, 1.0 + 1e-12);
    }
  EXPECT_TRUE(measured);
}

}  // namespace
}  // namespace passlab::pipeline
