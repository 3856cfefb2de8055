// Which outputs get the classifier figures (top-1, top-k) of the accuracy
// check (core/pipeline/accuracy.cpp): logits with at least kMinClasses
// classes, and probability rows (a softmax, a ZipMap's values) with as few as
// 2 classes; not a regression, not a detector's rank-3 per-anchor scores.
// Top-k only with more than k classes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/pipeline/accuracy.h"

namespace passlab::pipeline {
namespace {

ir::Tensor floats(std::vector<int64_t> dims, const std::vector<float>& v) {
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, std::move(dims), v);
}

OutputAccuracy measure(const ir::Tensor& got, const ir::Tensor& want, int k = 5) {
  AccuracyMeter m("y", k);
  m.add(got, want);
  return m.result();
}

TEST(ClassifierOutputs, TwoClassSoftmaxGetsTopOneButNoTopFive) {
  // Four rows of a 2-class softmax (the OCR direction classifier's [N, 2]);
  // row 2 flips its class.
  const auto want = floats({4, 2}, {0.9f, 0.1f, 0.2f, 0.8f, 0.55f, 0.45f, 0.3f, 0.7f});
  const auto got = floats({4, 2}, {0.88f, 0.12f, 0.21f, 0.79f, 0.45f, 0.55f, 0.31f, 0.69f});
  OutputAccuracy a = measure(got, want);
  ASSERT_TRUE(a.top1.has_value());
  EXPECT_EQ(a.rows, 4u);
  EXPECT_DOUBLE_EQ(*a.top1, 0.75);
  EXPECT_FALSE(a.topK.has_value());  // top-5 of 2 classes says nothing
  const std::string text = accuracyText(a).str();
  EXPECT_NE(text.find("top-1 75% (4 rows)"), std::string::npos) << text;
  EXPECT_EQ(text.find("top-5"), std::string::npos) << text;
  AccuracyBudget b;
  b.minCosine = 0;
  b.minSnrDb = -100;
  b.minTop1 = 0.9;
  EXPECT_EQ(whyOverBudget(a, b).str(), "output 'y': top-1 agreement 75% is below 90%");
}

TEST(ClassifierOutputs, ARegressionOutputGetsNoTopOne) {
  // [1, 4] without softmax: a box, coordinates, a few scores.
  OutputAccuracy a =
      measure(floats({1, 4}, {0.1f, 0.2f, 0.9f, 0.7f}), floats({1, 4}, {0.1f, 0.25f, 0.8f, 0.9f}));
  EXPECT_FALSE(a.top1.has_value());
  EXPECT_FALSE(a.topK.has_value());
  // Non-negative and at most 1, but the row sums to 2: no distribution either.
  a = measure(floats({1, 4}, {0.5f, 0.5f, 0.5f, 0.5f}), floats({1, 4}, {0.5f, 0.5f, 0.5f, 0.5f}));
  EXPECT_FALSE(a.top1.has_value());
  // Sums to 1 but with a negative entry (a difference, not probabilities).
  a = measure(floats({1, 3}, {-0.5f, 1.0f, 0.5f}), floats({1, 3}, {-0.5f, 1.0f, 0.5f}));
  EXPECT_FALSE(a.top1.has_value());
  // One "class" is no choice.
  a = measure(floats({3, 1}, {1, 1, 1}), floats({3, 1}, {1, 1, 1}));
  EXPECT_FALSE(a.top1.has_value());
}

TEST(ClassifierOutputs, ZipMapValuesAreOneRowOfClasses) {
  // A ZipMap's map values (the check compares "loss[0].values"): one rank-1
  // row of 3 probabilities per input set; the second set flips its class.
  AccuracyMeter m("loss[0].values");
  m.add(floats({3}, {0.7f, 0.2f, 0.1f}), floats({3}, {0.6f, 0.3f, 0.1f}));
  m.add(floats({3}, {0.2f, 0.45f, 0.35f}), floats({3}, {0.2f, 0.35f, 0.45f}));
  OutputAccuracy a = m.result();
  ASSERT_TRUE(a.top1.has_value());
  EXPECT_EQ(a.rows, 2u);
  EXPECT_DOUBLE_EQ(*a.top1, 0.5);
  EXPECT_FALSE(a.topK.has_value());
}

TEST(ClassifierOutputs, OneSetThatIsNoDistributionRulesTheOutputOut) {
  AccuracyMeter m("y");
  m.add(floats({1, 2}, {0.3f, 0.7f}), floats({1, 2}, {0.3f, 0.7f}));
  m.add(floats({1, 2}, {3.0f, 7.0f}), floats({1, 2}, {3.0f, 7.0f}));
  EXPECT_FALSE(m.result().top1.has_value());
}

TEST(ClassifierOutputs, DetectorScoresOfRankThreeStayOut) {
  // ultraface's scores [1, N, 2] are per-anchor softmax rows: no top-1.
  const auto want = floats({1, 3, 2}, {0.9f, 0.1f, 0.8f, 0.2f, 0.3f, 0.7f});
  const auto got = floats({1, 3, 2}, {0.9f, 0.1f, 0.4f, 0.6f, 0.3f, 0.7f});
  OutputAccuracy a = measure(got, want);
  EXPECT_FALSE(a.top1.has_value());
  // Its boxes [1, N, 4] neither.
  a = measure(floats({1, 1, 4}, {0.1f, 0.2f, 0.3f, 0.4f}),
              floats({1, 1, 4}, {0.1f, 0.2f, 0.3f, 0.4f}));
  EXPECT_FALSE(a.top1.has_value());
}

TEST(ClassifierOutputs, TopKOnlyWithMoreThanKClasses) {
  // 6 probabilities: top-5 is reported; the reference's class (0) falls to
  // second place, so top-1 misses and top-5 holds.
  const auto want = floats({1, 6}, {0.5f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f});
  const auto got = floats({1, 6}, {0.3f, 0.4f, 0.1f, 0.1f, 0.05f, 0.05f});
  OutputAccuracy a = measure(got, want, 5);
  ASSERT_TRUE(a.top1.has_value());
  ASSERT_TRUE(a.topK.has_value());
  EXPECT_EQ(a.k, 5);
  EXPECT_DOUBLE_EQ(*a.top1, 0);
  EXPECT_DOUBLE_EQ(*a.topK, 1);
  EXPECT_NE(accuracyText(a).str().find("top-5 100%"), std::string::npos);
  // The same with k = 6: top-6 of 6 classes is not reported.
  a = measure(got, want, 6);
  ASSERT_TRUE(a.top1.has_value());
  EXPECT_FALSE(a.topK.has_value());
}

TEST(ClassifierOutputs, WideLogitsStayClassifiersWithoutSoftmax) {
  std::vector<float> want(12, -1.0f), got(12, -1.0f);
  want[4] = 3;
  got[4] = 2.5f;
  OutputAccuracy a = measure(floats({1, 12}, got), floats({1, 12}, want));
  ASSERT_TRUE(a.top1.has_value());
  EXPECT_DOUBLE_EQ(*a.top1, 1);
  ASSERT_TRUE(a.topK.has_value());
}

}  // namespace
}  // namespace passlab::pipeline
