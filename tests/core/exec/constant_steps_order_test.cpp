// constantNodesBeforeFirstReader: constant-only nodes of the main graph move
// to just before their first reader (through chains of constant-only nodes
// and subgraph reads); the others keep their order; constant-only graph
// outputs and dead ones go last; nondeterministic nodes and nodes reading
// graph inputs stay where they are.
#include "core/exec/constant_steps_order.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/core/exec/exec_test_util.h"

namespace passlab::exec {
namespace {

// The names of output 0 of each node of `m`'s main graph in the new order.
std::vector<std::string> reordered(const ir::Model& m) {
  std::vector<const ir::Node*> order;
  for (const auto& n : m.graph().nodes()) order.push_back(n.get());
  std::vector<std::string> names;
  for (const ir::Node* n : constantNodesBeforeFirstReader(order, m.graph()))
    names.push_back(n->output(0)->name());
  return names;
}

using Names = std::vector<std::string>;

TEST(ConstantStepsOrder, WeightsMoveToTheirFirstReader) {
  ir::Model m = testutil::parseModel(R"(
    main (float[1,4] x) => (float[1,4] y) <int64[2] s = {4, 4}, float[1] k = {2.0}> {
      z1 = ConstantOfShape <value = float[1] {0.25}> (s)
      w1 = Mul(z1, k)
      w2 = ConstantOfShape <value = float[1] {0.5}> (s)
      h = MatMul(x, w1)
      r = Relu(h)
      y = MatMul(r, w2)
    })");
  EXPECT_EQ(reordered(m), (Names{"z1", "w1", "h", "r", "w2", "y"}));
}

TEST(ConstantStepsOrder, OutputsDeadAndRandomNodes) {
  ir::Model m = testutil::parseModel(R"(
    main (float[1,4] x) => (float[1,4] y, float[4] c) <int64[1] s = {4}> {
      c = ConstantOfShape <value = float[1] {1.0}> (s)
      d = ConstantOfShape <value = float[1] {2.0}> (s)
      n = RandomNormal <shape = [4]> ()
      e = ConstantOfShape <value = float[1] {3.0}> (s)
      a = Add(x, n)
      y = Add(a, e)
    })");
  // n is not constant-only (random): it stays before a; e moves to y; the
  // output c and the dead d go last, in their order.
  EXPECT_EQ(reordered(m), (Names{"n", "a", "e", "y", "c", "d"}));
}

TEST(ConstantStepsOrder, ReadFromASubgraph) {
  ir::Model m = testutil::parseModel(R"(
    main (bool b, float[4] x) => (float[4] y) <int64[1] s = {4}> {
      t = Neg(x)
      w = ConstantOfShape <value = float[1] {1.0}> (s)
      y = If <then_branch = g1 () => (float[4] o1) { o1 = Add(t, w) },
              else_branch = g2 () => (float[4] o2) { o2 = Identity(t) }> (b)
    })");
  EXPECT_EQ(reordered(m), (Names{"t", "w", "y"}));
}

// An initializer that is also a graph input (IR version 3) is constant
// unless overridden: its readers move too.
TEST(ConstantStepsOrder, OverridableInitializer) {
  ir::Model m = testutil::parseModel(R"(
    main (float[4] x, float[4] k = {1.0, 2.0, 3.0, 4.0}) => (float[4] y) {
      kk = Neg(k)
      t = Neg(x)
      y = Add(t, kk)
    })");
  EXPECT_EQ(reordered(m), (Names{"t", "kk", "y"}));
}

}  // namespace
}  // namespace passlab::exec
