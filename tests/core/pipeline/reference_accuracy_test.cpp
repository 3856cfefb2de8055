// ExecOutputChecker::referenceAccuracy (issue #25): which outputs are
// classifiers, and with more than k classes, told from the reference outputs
// the checker kept at creation, without running the model again (what
// `--budget-topk`'s warning asks; it ran the model once more before). The
// same figures as checkWithinBudget on the original, for k below, at and
// above the class count; an unseeded random output is left out by both.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/pipeline/numeric_check.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

// y: logits of 10 classes (2 rows); p: a 2-class softmax (3 rows); r: a
// regression (4 values); n: noise from an unseeded generator.
const char* kModel = R"(<ir_version: 8, opset_import: ["" : 17]>
main (float[2,10] x, float[3,2] u, float[1,4] v) => (float[2,10] y, float[3,2] p, float[1,4] r,
                                                     float[2,3] n) {
  y = Mul(x, x)
  p = Softmax(u)
  r = Add(v, v)
  n = RandomUniform <shape = [2, 3]> ()
})";

void expectSameFigures(const std::vector<OutputAccuracy>& got,
                       const std::vector<OutputAccuracy>& want, int k) {
  ASSERT_EQ(got.size(), want.size()) << "k = " << k;
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(want[i].output + ", k = " + std::to_string(k));
    EXPECT_EQ(got[i].output, want[i].output);
    EXPECT_EQ(got[i].top1.has_value(), want[i].top1.has_value());
    EXPECT_EQ(got[i].topK.has_value(), want[i].topK.has_value());
    EXPECT_EQ(got[i].rows, want[i].rows);
    EXPECT_EQ(got[i].k, want[i].k);
    if (got[i].top1) {
      EXPECT_DOUBLE_EQ(*got[i].top1, 1.0);
    }
    if (got[i].topK) {
      EXPECT_DOUBLE_EQ(*got[i].topK, 1.0);
    }
  }
}

const OutputAccuracy* named(const std::vector<OutputAccuracy>& all, const std::string& name) {
  for (const OutputAccuracy& a : all)
    if (a.output == name) return &a;
  return nullptr;
}

TEST(ReferenceAccuracy, TheOriginalsFiguresWithoutARun) {
  const ir::Model m = testing::parse(kModel);
  auto checker = ExecOutputChecker::create(m, 2, InputSpec{}, NoiseOptions{0});
  ASSERT_TRUE(checker) << checker.error().message();
  for (int k : {1, 5, 9, 10, 12}) {
    AccuracyBudget b;
    b.topK = k;
    const std::vector<OutputAccuracy> self = (*checker)->referenceAccuracy(k);
    expectSameFigures(self, (*checker)->checkWithinBudget(m, b).accuracy, k);
    const OutputAccuracy* y = named(self, "y");
    const OutputAccuracy* p = named(self, "p");
    const OutputAccuracy* r = named(self, "r");
    ASSERT_TRUE(y && p && r);
    EXPECT_EQ(named(self, "n"), nullptr);  // unseeded: not compared
    EXPECT_TRUE(y->top1.has_value());
    EXPECT_EQ(y->rows, 4u);  // 2 rows on each of 2 sets
    EXPECT_EQ(y->topK.has_value(), k < 10) << k;
    EXPECT_TRUE(p->top1.has_value());
    EXPECT_EQ(p->topK.has_value(), k < 2) << k;
    EXPECT_FALSE(r->top1.has_value());
  }
}

}  // namespace
}  // namespace passlab::pipeline
