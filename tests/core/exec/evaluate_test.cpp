// evaluateNode: one node on constant inputs, as constant folding uses it.
#include <gtest/gtest.h>

#include "core/exec/evaluate.h"
#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

TEST(EvaluateNode, RunsOneNode) {
  ir::Model m = testutil::parseModel(R"(
    main (float[2,2] a, float[2] b) => (float[2,2] y) { y = Add(a, b) })");
  const ir::Node& add = *m.graph().nodes().front();
  ir::Tensor a = testutil::floats({2, 2}, {1, 2, 3, 4}), b = testutil::floats({2}, {10, 20});
  auto out = evaluateNode(add, {&a, &b}, 17);
  ASSERT_TRUE(out) << out.error().message();
  ASSERT_EQ(out->size(), 1u);
  testutil::expectNear(testutil::toFloats((*out)[0]), {11, 22, 13, 24});
  EXPECT_EQ((*out)[0].name(), "y");
}

TEST(EvaluateNode, ConstantOfShapeAndShapeOps) {
  ir::Model m = testutil::parseModel(R"(
    main (int64[2] s) => (float[2,3] y) { y = ConstantOfShape <value = float[1] {0.5}> (s) })");
  ir::Tensor s = testutil::int64s({2}, {2, 3});
  auto out = evaluateNode(*m.graph().nodes().front(), {&s}, 17);
  ASSERT_TRUE(out) << out.error().message();
  EXPECT_EQ((*out)[0].dims(), (std::vector<int64_t>{2, 3}));
  testutil::expectNear(testutil::toFloats((*out)[0]), {0.5, 0.5, 0.5, 0.5, 0.5, 0.5});
}

TEST(EvaluateNode, ErrorsNameTheNode) {
  ir::Model m = testutil::parseModel(R"(
    main (float[2] a, float[3] b) => (float[3] y) { [bad] y = Add(a, b) })");
  ir::Tensor a = testutil::floats({2}, {1, 2}), b = testutil::floats({3}, {1, 2, 3});
  auto out = evaluateNode(*m.graph().nodes().front(), {&a, &b}, 17);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message().find("'bad'"), std::string::npos) << out.error().message();
}

}  // namespace
}  // namespace passlab::exec
