// The check after a float16 step without keep_io_types (#25): the model then
// declares its float inputs float16, and every run of it the check makes
// takes the check's float32 input sets converted, as the budget check does
// (numeric_check.cpp, asDeclared): the re-base after a step exact per node
// unit, check() and its first diverging tensor. Before, rebase() ran the
// float32 sets as they were, the run failed and the reference silently stayed
// the original's; check() said the model does not run.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/analysis/shape_inference.h"
#include "core/pipeline/input_synthesis.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

// h = x a, y = h + b; with another first scale than 0.5, h differs first.
std::string scaled(const std::string& firstScale) {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
main (float[2,8] x) => (float[2,8] y)
<float[8] a = {)" +
         firstScale +
         R"(, 1.5, -0.25, 2, 0.75, -1, 1.25, 0.125}, float[8] b = {1, 2, 3, 4, 5, 6, 7, 8}> {
  h = Mul(x, a)
  y = Add(h, b)
})";
}

ir::Model parsed(const std::string& text) {
  ir::Model m = testing::parse(text);
  analysis::inferShapes(m);
  return m;
}

// `text` converted to float16 with its inputs and outputs (no Casts kept).
ir::Model float16Io(const std::string& text) {
  ir::Model m = parsed(text);
  PassManager pm(m);
  const Status s = pm.runAll({PassSpec{"convert_to_float16", {{"keep_io_types", "false"}}, {}}});
  EXPECT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(m.graph().inputs()[0]->type().elemType(), ir::DataType::kFloat16);
  return m;
}

std::unique_ptr<ExecOutputChecker> checkerOf(const ir::Model& original) {
  std::vector<exec::NamedInputs> sets;
  for (uint64_t i = 0; i < 3; ++i) {
    InputSpec spec;
    spec.seed += i;
    auto in = makeInputs(original, spec);
    EXPECT_TRUE(in) << in.error().message();
    if (in) sets.push_back(std::move(in.value()));
  }
  auto c = ExecOutputChecker::create(original, std::move(sets));
  EXPECT_TRUE(c) << c.error().message();
  return c ? std::move(c.value()) : nullptr;
}

TEST(RebaseFloat16Inputs, TheReBaseRunsTheConvertedSets) {
  const ir::Model original = parsed(scaled("0.5"));
  const ir::Model half = float16Io(scaled("0.5"));
  auto checker = checkerOf(original);
  ASSERT_TRUE(checker);
  checker->rebase(half);
  EXPECT_TRUE(checker->rebased()) << "the float16 model did not run on the check's sets";
  // Against itself, re-based: equal.
  const NumericCheck same = checker->check(half);
  EXPECT_TRUE(same.ran);
  EXPECT_TRUE(same.passed) << same.detail;
}

TEST(RebaseFloat16Inputs, CheckNamesTheFirstDivergingTensorOfTheConvertedRun) {
  const ir::Model original = parsed(scaled("0.5"));
  auto checker = checkerOf(original);
  ASSERT_TRUE(checker);
  checker->rebase(float16Io(scaled("0.5")));
  ASSERT_TRUE(checker->rebased());
  const NumericCheck other = checker->check(float16Io(scaled("4")));
  EXPECT_TRUE(other.ran);
  EXPECT_FALSE(other.passed);
  EXPECT_EQ(other.detail.str().find("does not run"), std::string::npos) << other.detail;
  EXPECT_NE(other.detail.str().find("output 'y' differs"), std::string::npos) << other.detail;
  EXPECT_EQ(other.firstDivergingTensor, "h") << other.detail;
}

}  // namespace
}  // namespace passlab::pipeline
