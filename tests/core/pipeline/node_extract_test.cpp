// Cutting nodes out as a model of their own: outside values become inputs of
// the run's shapes, weights stay, values read outside become outputs.
#include "core/pipeline/node_extract.h"

#include <gtest/gtest.h>

#include "core/pipeline/input_synthesis.h"
#include "tests/support/test_support.h"

namespace passlab::pipeline {
namespace {

ir::NodeId idOf(const ir::Model& m, const std::string& name) {
  for (const auto& n : m.graph().nodes())
    if (n->name() == name) return n->id();
  return 0;
}

TEST(NodeExtract, TheMiddleNodesBecomeAModelOfTheirOwn) {
  ir::Model m = testing::parse(R"(
    main (float[N,4] X) => (float[N,4] Y)
    <float[4] B = {1, 2, 3, 4}>
    {
      [relu] A = Relu(X)
      [add] C = Add(A, B)
      [sig] D = Sigmoid(C)
      [neg] Y = Neg(D)
    })");
  auto inputs = makeInputs(m, {});
  ASSERT_TRUE(inputs);
  ir::Model shaped = withRunShapes(m, *inputs);
  auto cut = extractNodes(shaped, {idOf(shaped, "add"), idOf(shaped, "sig")});
  ASSERT_TRUE(cut) << cut.error().message();
  const ir::Graph& g = cut->graph();
  ASSERT_EQ(g.nodeCount(), 2u);
  std::vector<std::string> realInputs;
  for (const ir::Value* v : g.inputs())
    if (!v->isInitializer()) realInputs.push_back(v->name());
  ASSERT_EQ(realInputs.size(), 1u);  // A; B stays a weight
  ASSERT_EQ(g.outputs().size(), 1u);
  EXPECT_EQ(g.outputs()[0]->name(), "D");
  auto again = makeInputs(*cut, {});
  ASSERT_TRUE(again) << again.error().message();
  auto ex = exec::Executor::create(*cut);
  ASSERT_TRUE(ex) << ex.error().message();
  EXPECT_TRUE((*ex)->run(*again));
}

TEST(NodeExtract, ANodeNotInTheGraphIsNamed) {
  ir::Model m = testing::parse("main (float[4] X) => (float[4] Y) { Y = Relu(X) }");
  auto cut = extractNodes(m, {987654});
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().message().find("987654"), std::string::npos);
}

}  // namespace
}  // namespace passlab::pipeline
