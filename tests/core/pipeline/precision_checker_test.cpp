// The reference of a precision analysis (core/pipeline/precision_checker.h):
// on the first `checkSets` calibration sets when there are any, else on
// synthesized sets. Told apart by a model that only the given sets cannot
// distinguish from its replacement: Relu(x) and 0 agree on negative inputs.
#include "core/pipeline/precision_checker.h"

#include <gtest/gtest.h>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"

namespace passlab::pipeline {
namespace {

ir::Model parse(const char* text) {
  auto m = io::parseModelText(text);
  EXPECT_TRUE(m) << m.error().message();
  ir::Model model = std::move(*m);
  analysis::inferShapes(model);
  return model;
}

const char* kRelu = R"(<ir_version: 8, opset_import: ["" : 13]>
relu (float[1,3] x) => (float[1,3] y) { y = Relu(x) })";
const char* kZero = R"(<ir_version: 8, opset_import: ["" : 13]>
zero (float[1,3] x) => (float[1,3] y) <float zero = {0}> { y = Mul(x, zero) })";

exec::NamedInputs set(std::vector<float> v) {
  return {{"x", exec::Value(ir::Tensor::fromVector<float>(ir::DataType::kFloat, {1, 3}, v))}};
}

TEST(PrecisionChecker, MeasuresOnTheFirstCalibrationSets) {
  const ir::Model relu = parse(kRelu), zero = parse(kZero);
  // Two negative sets, then one with positives.
  const std::vector<exec::NamedInputs> sets = {set({-1, -2, -3}), set({-4, -0.5f, -6}),
                                               set({1, 2, 3})};
  auto two = precisionChecker(relu, sets, 2);
  ASSERT_TRUE(two) << two.error().message();
  EXPECT_TRUE((*two)->check(zero).passed);      // the negative sets cannot tell them apart
  EXPECT_TRUE((*two)->outputFloors().empty());  // no noise draws: the budget decides
  auto three = precisionChecker(relu, sets, 3);
  ASSERT_TRUE(three) << three.error().message();
  EXPECT_FALSE((*three)->check(zero).passed);  // the third set does
}

TEST(PrecisionChecker, WithoutCalibrationSetsItSynthesizes) {
  const ir::Model relu = parse(kRelu), zero = parse(kZero);
  auto checker = precisionChecker(relu, {}, 2);
  ASSERT_TRUE(checker) << checker.error().message();
  // Synthesized inputs have positive values: Relu and 0 differ.
  EXPECT_FALSE((*checker)->check(zero).passed);
  EXPECT_TRUE((*checker)->check(relu).passed);
}

TEST(PrecisionChecker, ALossyStepIsCheckedOnTheCalibrationSetsUpToSixteen) {
  EXPECT_EQ(defaultLossyCheckSets(0), 2);    // no data: 2 synthesized sets
  EXPECT_EQ(defaultLossyCheckSets(1), 1);    // the one set given
  EXPECT_EQ(defaultLossyCheckSets(5), 5);    // all of them
  EXPECT_EQ(defaultLossyCheckSets(16), 16);  // all of them
  EXPECT_EQ(defaultLossyCheckSets(100), 16);
  // The default never draws the warning about checking on fewer sets.
  for (size_t n : {1, 5, 16}) EXPECT_TRUE(fewCheckSetsWarning(defaultLossyCheckSets(n), n).empty());
}

TEST(PrecisionChecker, WarnsWhenTheCheckHasFewerSetsThanTheCalibration) {
  const Text few = fewCheckSetsWarning(1, 16);
  ASSERT_FALSE(few.empty());
  const std::string text = few.str();
  EXPECT_NE(text.find("checked on 1 input sets"), std::string::npos) << text;
  EXPECT_NE(text.find("calibration data has 16"), std::string::npos) << text;
  EXPECT_NE(text.find("--check 16"), std::string::npos) << text;
  EXPECT_TRUE(fewCheckSetsWarning(16, 16).empty());  // all of them
  EXPECT_TRUE(fewCheckSetsWarning(20, 16).empty());  // more (synthesized beyond)
  EXPECT_TRUE(fewCheckSetsWarning(2, 0).empty());    // no calibration data
}

}  // namespace
}  // namespace passlab::pipeline
