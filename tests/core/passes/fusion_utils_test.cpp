// fusion::eraseDead: removes the listed nodes that are or become unused, in
// time linear in the list (a long chain listed from its start used to take a
// sweep per node), Constants among them included, and nothing still used.
#include <gtest/gtest.h>

#include <chrono>

#include "core/passes/fusion_utils.h"
#include "core/rewrite/rewriter.h"
#include "tests/support/test_support.h"

namespace passlab::passes {
namespace {

using testing::parse;

TEST(EraseDead, ALongChainListedFromItsStartGoesInLinearTime) {
  ir::Model m = parse("main (float[2] x) => (float[2] y) { y = Neg(x) }");
  rewrite::EditLog log;
  rewrite::Rewriter rw(m, log);
  ir::Graph& g = m.graph();
  const size_t kChain = 100000;
  std::vector<ir::Node*> chain;
  ir::Value* prev = g.findValue("x");
  for (size_t i = 0; i < kChain; ++i) {
    // Named apart: the Rewriter's search for a free default name is slow
    // with 100k nodes of one op.
    chain.push_back(rw.addNode(g, "Relu", "", {prev}, 1, nullptr, "r" + std::to_string(i), {}));
    prev = chain.back()->output(0);
  }
  ASSERT_EQ(g.nodeCount(), kChain + 1);
  auto t0 = std::chrono::steady_clock::now();
  fusion::eraseDead(rw, chain);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(g.nodeCount(), 1u);
  // Linear: well under a second; a sweep over the list per removed node made
  // it quadratic (5e9 checks here).
  EXPECT_LT(seconds, 10.0);
}

TEST(EraseDead, KeepsUsedNodesAndTakesListedConstants) {
  ir::Model m = parse(R"(main (float[2] x) => (float[2] y, float[2] u) {
    c = Constant <value = float[2] {1, 2}> ()
    d = Constant <value = float[2] {3, 4}> ()
    a = Add(x, c)
    b = Mul(a, d)
    u = Relu(x)
    k = Neg(u)
    y = Abs(x)
  })");
  rewrite::EditLog log;
  rewrite::Rewriter rw(m, log);
  ir::Graph& g = m.graph();
  ir::Node* c = g.findValue("c")->producer();
  ir::Node* a = g.findValue("a")->producer();
  ir::Node* b = g.findValue("b")->producer();
  ir::Node* u = g.findValue("u")->producer();
  ir::Node* k = g.findValue("k")->producer();
  // Listed in any order, with repeats and nulls; u is a graph output.
  fusion::eraseDead(rw, {c, nullptr, a, u, b, a, k});
  EXPECT_EQ(g.findValue("a"), nullptr);
  EXPECT_EQ(g.findValue("b"), nullptr);
  EXPECT_EQ(g.findValue("c"), nullptr);
  EXPECT_EQ(g.findValue("d"), nullptr);  // a constant only b read
  EXPECT_EQ(g.findValue("k"), nullptr);
  ASSERT_NE(g.findValue("u"), nullptr);
  EXPECT_EQ(g.nodeCount(), 2u);  // u = Relu(x), y = Abs(x)
}

}  // namespace
}  // namespace passlab::passes
