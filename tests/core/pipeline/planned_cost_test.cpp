// The cost at the made-up input shapes (core/pipeline/planned_cost.h): a model
// with a symbolic batch has unknown costs at its own shapes and the cost of
// the planned shapes here, equal to the same model written with those shapes.
#include <gtest/gtest.h>

#include "core/analysis/cost_model.h"
#include "core/analysis/shape_inference.h"
#include "core/pipeline/planned_cost.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

// A parsed model with its shapes inferred, as a loaded file has them.
ir::Model parse(const std::string& text) {
  ir::Model m = testing::parse(text);
  analysis::inferShapes(m);
  return m;
}

// A 3x3 Conv (4 x 2 filters) and a Relu on input `x` of type `xType`.
std::string convRelu(const std::string& xType) {
  std::string w;
  for (int i = 0; i < 4 * 2 * 3 * 3; ++i) w += (i ? ", " : "") + std::to_string(i % 5 - 2);
  return "main (" + xType + R"( x) => (float[?,?,?,?] y)
    <float[4,2,3,3] w = {)" +
         w + R"(}> {
      a = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, w)
      y = Relu(a) })";
}
const std::string kSymbolicBatch = convRelu("float[N,2,8,8]");
const std::string kBatchOne = convRelu("float[1,2,8,8]");

TEST(PlannedCost, SymbolicBatchIsCostedAtThePlannedShapes) {
  ir::Model symbolic = parse(kSymbolicBatch);
  const analysis::ModelCost own = analysis::estimateModelCost(symbolic);
  EXPECT_GT(own.nodesWithUnknownCost, 0u) << "the file's own shapes already gave every cost";

  auto planned = costAtPlannedInputs(symbolic);
  ASSERT_TRUE(planned) << planned.error().message();
  ASSERT_EQ(planned->inputs.size(), 1u);
  EXPECT_EQ(planned->inputs[0].shape(), (std::vector<int64_t>{1, 2, 8, 8}));
  EXPECT_EQ(planned->cost.nodesWithUnknownCost, 0u);

  const analysis::ModelCost fixed = analysis::estimateModelCost(parse(kBatchOne));
  EXPECT_GT(fixed.flops, 0);
  EXPECT_DOUBLE_EQ(planned->cost.flops, fixed.flops);
  EXPECT_EQ(planned->cost.bytesRead, fixed.bytesRead);
}

TEST(PlannedCost, TheModelItselfKeepsItsSymbolicShapes) {
  ir::Model symbolic = parse(kSymbolicBatch);
  ASSERT_TRUE(costAtPlannedInputs(symbolic));
  EXPECT_GT(analysis::estimateModelCost(symbolic).nodesWithUnknownCost, 0u);
}

TEST(PlannedCost, StaticShapesCostWhatTheFileSays) {
  ir::Model fixed = parse(kBatchOne);
  const analysis::ModelCost own = analysis::estimateModelCost(fixed);
  EXPECT_EQ(own.nodesWithUnknownCost, 0u);
  auto planned = costAtPlannedInputs(fixed);
  ASSERT_TRUE(planned) << planned.error().message();
  EXPECT_DOUBLE_EQ(planned->cost.flops, own.flops);
}

}  // namespace
}  // namespace passlab::pipeline
