// The verifier's check of a step's scope (VerifierOptions::structureScope):
// for each way an edit can break the structure, the check limited to what
// the edit touched reports exactly what the whole walk reports; and it looks
// nowhere else.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/ir/verifier.h"
#include "tests/support/test_support.h"

namespace passlab::ir {
namespace {

using testing::parse;

std::set<std::string> errorTexts(const std::vector<VerifierProblem>& problems) {
  std::set<std::string> out;
  for (const auto& p : problems)
    if (p.severity == VerifierProblem::Severity::kError) out.insert(p.message);
  return out;
}

std::set<std::string> whole(const Model& m) {
  return errorTexts(verifyModel(m));
}

std::set<std::string> scoped(const Model& m, absl::flat_hash_set<const Node*> nodes,
                             std::vector<const Value*> values = {},
                             std::vector<const Graph*> graphs = {}) {
  StructureScope scope;
  scope.nodes = &nodes;
  scope.values = std::move(values);
  scope.graphOutputs = std::move(graphs);
  VerifierOptions o;
  o.structureScope = &scope;
  return errorTexts(verifyModel(m, o));
}

std::string joined(const std::set<std::string>& texts) {
  std::string out;
  for (const auto& t : texts) out += t + "\n";
  return out;
}

// The scoped check finds an error, and the very errors the whole walk finds.
void expectSameErrors(const std::set<std::string>& scopedErrors, const Model& m,
                      const std::string& fragment) {
  const std::set<std::string> all = whole(m);
  EXPECT_EQ(scopedErrors, all) << "scoped:\n" << joined(scopedErrors) << "whole:\n" << joined(all);
  ASSERT_FALSE(scopedErrors.empty());
  EXPECT_NE(scopedErrors.begin()->find(fragment), std::string::npos) << *scopedErrors.begin();
}

const char* kChain = R"(main (float[2] x) => (float[2] y) {
  a = Relu(x)
  b = Neg(a)
  y = Abs(b)
})";

Node* producerOf(Graph& g, const std::string& value) {
  return g.findValue(value)->producer();
}

TEST(VerifierScope, AReaderMovedBeforeItsInput) {
  Model m = parse(kChain);
  Graph& g = m.graph();
  Node* neg = producerOf(g, "b");
  g.moveBefore(neg, producerOf(g, "a"));
  expectSameErrors(scoped(m, {neg}), m, "input 'a' is used before it is defined");
}

// Only the producer was touched: its reader, now before it, is found
// through the producer's outputs.
TEST(VerifierScope, AProducerMovedAfterItsReader) {
  Model m = parse(kChain);
  Graph& g = m.graph();
  Node* relu = producerOf(g, "a");
  g.moveBefore(relu, nullptr);
  expectSameErrors(scoped(m, {relu}), m, "input 'a' is used before it is defined");
}

TEST(VerifierScope, ACycle) {
  Model m = parse(kChain);
  Graph& g = m.graph();
  Node* relu = producerOf(g, "a");
  relu->setInput(0, g.findValue("b"));  // a = Relu(b), b = Neg(a)
  expectSameErrors(scoped(m, {relu}, {g.findValue("x")}), m, "input 'b' is used before");
}

const char* kIf = R"(main (bool c, float[2] a) => (float[2] y) {
  x = Neg(a)
  y = If <then_branch = g1 () => (float[2] t) { t = Relu(x) },
          else_branch = g2 () => (float[2] e) { e = Abs(x) }> (c)
})";

Graph& branch(Graph& g, size_t k) {
  return *g.nodes().back()->subgraphs()[k];
}

TEST(VerifierScope, AnInputFromASiblingSubgraph) {
  Model m = parse(kIf);
  Graph& g = m.graph();
  Node* abs = branch(g, 1).nodes().front().get();
  abs->setInput(0, branch(g, 0).findValue("t"));
  expectSameErrors(scoped(m, {abs}, {g.findValue("x")}), m, "input 0 't' is not visible from");
  abs->setInput(0, g.findValue("x"));  // the branches go one after the other
}

TEST(VerifierScope, AMainGraphOutputInsideASubgraph) {
  Model m = parse(kIf);
  Graph& g = m.graph();
  Value* y = g.outputs()[0];
  g.setOutput(0, branch(g, 0).findValue("t"));
  expectSameErrors(scoped(m, {}, {}, {&g}), m, "main graph: output 't' is not visible here");
  g.setOutput(0, y);  // the branch goes before the main graph's outputs do
}

// x moves after the If: the branch that reads it and the branch that returns
// it both see a value that is not defined yet.
TEST(VerifierScope, AnOuterValueProducedAfterTheNodeHoldingItsReader) {
  Model m = parse(kIf);
  Graph& g = m.graph();
  Node* neg = producerOf(g, "x");
  g.moveBefore(neg, nullptr);
  expectSameErrors(scoped(m, {neg}), m, "input 'x' is used before it is defined");
}

TEST(VerifierScope, ASubgraphReturningAnOuterValueProducedAfterIt) {
  Model m = parse(R"(main (bool c, float[2] a) => (float[2] y) {
  x = Neg(a)
  y = If <then_branch = g1 () => (float[2] x) { },
          else_branch = g2 () => (float[2] e) { e = Abs(a) }> (c)
})");
  Graph& g = m.graph();
  Node* neg = producerOf(g, "x");
  g.moveBefore(neg, nullptr);
  expectSameErrors(scoped(m, {neg}), m, "output 'x' is never defined");
}

TEST(VerifierScope, AValueThatLostItsDefinition) {
  Model m = parse(R"(main (float[2] x) => (float[2] y) <float[2] w = {1, 2}> {
  y = Add(x, w)
})");
  Graph& g = m.graph();
  Value* w = g.findValue("w");
  g.removeInitializer(w);  // still read, so the value stays, with no definition
  ASSERT_EQ(g.findValue("w"), w);
  expectSameErrors(scoped(m, {}, {w}), m, "input 'w' is used before it is defined");
}

TEST(VerifierScope, AReaderMissingFromAUseList) {
  Model m = parse(kChain);
  Graph& g = m.graph();
  Value* a = g.findValue("a");
  auto& uses = const_cast<std::vector<Use>&>(a->uses());
  const std::vector<Use> kept = uses;
  uses.clear();
  auto errors = scoped(m, {producerOf(g, "b")});
  EXPECT_FALSE(whole(m).empty());
  uses = kept;  // destroying the graph detaches every reader through its slot
  ASSERT_EQ(errors.size(), 1u) << joined(errors);
  EXPECT_NE(errors.begin()->find("use list of 'a' does not record input 0 of"), std::string::npos)
      << *errors.begin();
}

TEST(VerifierScope, AStaleUseInATouchedValue) {
  Model m = parse(kChain);
  Graph& g = m.graph();
  Value* x = g.findValue("x");
  auto& uses = const_cast<std::vector<Use>&>(x->uses());
  uses.push_back({producerOf(g, "y"), 0});  // Abs reads b, not x
  expectSameErrors(scoped(m, {}, {x}), m, "stale use of 'x'");
  uses.pop_back();
}

// What the scope does not name is not looked at: the whole walk is still
// the check of a model as loaded.
TEST(VerifierScope, LooksOnlyAtTheScope) {
  Model m = parse(kChain);
  Graph& g = m.graph();
  g.moveBefore(producerOf(g, "b"), producerOf(g, "a"));
  EXPECT_FALSE(whole(m).empty());
  EXPECT_TRUE(scoped(m, {producerOf(g, "y")}).empty());
}

// Edits that keep the graph sound: nothing in the scope, nothing in the whole.
TEST(VerifierScope, SoundEditsPass) {
  Model m = parse(kIf);
  Graph& g = m.graph();
  Node* ifNode = g.nodes().back().get();
  Node* abs = g.addNode("Abs", "", {g.findValue("x")}, 1, ifNode);
  Node* relu = branch(g, 0).nodes().front().get();
  relu->setInput(0, abs->output(0));  // an outer value defined before the If
  Node* neg = g.addNode("Neg", "", {ifNode->output(0)}, 1);
  g.setOutput(0, neg->output(0));
  EXPECT_TRUE(whole(m).empty()) << joined(whole(m));
  EXPECT_TRUE(scoped(m, {abs, relu, neg}, {g.findValue("x"), ifNode->output(0)}, {&g}).empty());
}

}  // namespace
}  // namespace passlab::ir
