// Graph editing primitives: use lists, removal, replacement, cloning, sorting.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>

#include "core/ir/graph.h"
#include "core/ir/model.h"
#include "core/ir/op_schema.h"
#include "core/ir/undo_log.h"
#include "core/ir/verifier.h"

namespace passlab::ir {
namespace {

Type f32(std::vector<int64_t> dims) {
  return Type::tensor(DataType::kFloat, Shape::fromValues(dims));
}

TEST(Graph, UseListsFollowEdits) {
  Graph g;
  Value* x = g.addInput("x", f32({2}));
  Node* a = g.addNode("Relu", "", {x}, {"a"});
  Node* b = g.addNode("Neg", "", {a->output(0)}, {"b"});
  g.addOutput(b->output(0));
  ASSERT_EQ(x->uses().size(), 1u);
  EXPECT_EQ(x->uses()[0].node, a);
  EXPECT_EQ(a->output(0)->uses()[0].node, b);

  b->setInput(0, x);
  EXPECT_EQ(x->uses().size(), 2u);
  EXPECT_TRUE(a->output(0)->uses().empty());
  g.removeNode(a);
  EXPECT_EQ(g.nodeCount(), 1u);
  EXPECT_EQ(x->uses().size(), 1u);
  EXPECT_EQ(g.findValue("a"), nullptr);
}

// A value read by many nodes: detaching its uses in any order (first to last,
// last to first, interleaved, a node reading it twice) keeps the use list
// exactly the set of (node, input) pairs that read it.
TEST(Graph, UseListsStayExactUnderManyDetachesInAnyOrder) {
  for (int order = 0; order < 3; ++order) {
    Model m;
    Graph& g = m.graph();
    Value* x = g.addInput("x", f32({2}));
    std::vector<Node*> readers;
    for (int i = 0; i < 300; ++i) {
      std::vector<Value*> ins{x};
      if (i % 7 == 0) ins.push_back(x);  // reads x twice
      readers.push_back(g.addNode(i % 7 == 0 ? "Add" : "Relu", "", ins, 1));
    }
    std::vector<size_t> idx(readers.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    if (order == 1) std::reverse(idx.begin(), idx.end());
    if (order == 2)
      std::stable_partition(idx.begin(), idx.end(), [](size_t i) { return i % 2 == 0; });
    std::multiset<std::pair<const Node*, int>> expected;
    for (Node* n : readers)
      for (size_t k = 0; k < n->inputCount(); ++k) expected.insert({n, static_cast<int>(k)});
    for (size_t step = 0; step < idx.size(); ++step) {
      Node* n = readers[idx[step]];
      for (size_t k = 0; k < n->inputCount(); ++k) expected.erase({n, static_cast<int>(k)});
      g.removeNode(n);
      if (step % 37 == 0 || step + 1 == idx.size()) {
        std::multiset<std::pair<const Node*, int>> actual;
        for (const Use& u : x->uses()) actual.insert({u.node, u.inputIndex});
        ASSERT_EQ(actual, expected) << "order " << order << ", step " << step;
        EXPECT_TRUE(verifyModel(m).empty());
      }
    }
    EXPECT_FALSE(x->hasUses());
  }
}

// The id index is marked stale by a removal and rebuilt by the next lookup:
// removed nodes are never found, nodes added or put back by an undo are.
TEST(Graph, FindNodeFollowsAdditionsRemovalsAndUndo) {
  Graph g;
  Value* x = g.addInput("x", f32({2}));
  Node* a = g.addNode("Relu", "", {x}, {"a"});
  Node* b = g.addNode("Neg", "", {x}, {"b"});
  g.addOutput(b->output(0));
  EXPECT_EQ(g.findNode(a->id()), a);
  const NodeId aId = a->id();
  {
    UndoLog undo;
    g.removeNode(a, &undo);
    EXPECT_EQ(g.findNode(aId), nullptr);
    Node* c = g.addNode("Abs", "", {x}, {"c"});  // added while the index is stale
    EXPECT_EQ(g.findNode(c->id()), c);
    EXPECT_EQ(g.findNode(b->id()), b);
    undo.undo();  // a comes back; c, added outside the log, stays
    EXPECT_EQ(g.findNode(aId), a);
    EXPECT_EQ(g.findNode(c->id()), c);
  }
  g.removeNode(a);
  EXPECT_EQ(g.findNode(aId), nullptr);
  EXPECT_EQ(g.findNode(b->id()), b);
}

// A use list that has every reader but whose slots went stale (a reader was
// moved without its node knowing) is still exact: no error. One with a
// reader missing is reported.
TEST(Verifier, UseListsAreCheckedThroughTheSlotsNodesRecord) {
  Model m;
  m.opsets.push_back({"", 17});
  Graph& g = m.graph();
  Value* x = g.addInput("x", f32({2}));
  Node* a = g.addNode("Relu", "", {x}, {"a"});
  Node* b = g.addNode("Neg", "", {x}, {"b"});
  Node* c = g.addNode("Add", "", {a->output(0), b->output(0)}, {"c"});
  g.addOutput(c->output(0));
  EXPECT_TRUE(verifyModel(m).empty());
  auto& uses = const_cast<std::vector<Use>&>(x->uses());
  std::swap(uses[0], uses[1]);  // both readers still listed, at each other's slot
  EXPECT_TRUE(verifyModel(m).empty());
  uses.pop_back();  // one reader missing
  auto problems = verifyModel(m);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems[0].message.find("use list of 'x' records 1 uses for 2 inputs"),
            std::string::npos)
      << problems[0].message;
}

// The verifier keeps its per-value table between runs on a thread: a run
// must see nothing of the one before it, whether that graph was larger,
// broken, or the same graph since edited.
TEST(Verifier, ARunSeesNothingOfThePreviousOne) {
  Model big;
  big.opsets.push_back({"", 17});
  Value* in = big.graph().addInput("in", f32({2}));
  Value* last = in;
  for (int i = 0; i < 50; ++i)
    last = big.graph().addNode("Relu", "", {last}, {"r" + std::to_string(i)})->output(0);
  big.graph().addOutput(last);
  Model broken;
  broken.opsets.push_back({"", 17});
  Value* x = broken.graph().addInput("x", f32({2}));
  Node* a = broken.graph().addNode("Relu", "", {x}, {"a"});
  Node* b = broken.graph().addNode("Neg", "", {x}, {"b"});
  broken.graph().addOutput(a->output(0));
  broken.graph().addOutput(b->output(0));
  auto& uses = const_cast<std::vector<Use>&>(x->uses());
  Use dropped = uses.back();
  uses.pop_back();
  for (int round = 0; round < 2; ++round) {
    EXPECT_TRUE(verifyModel(big).empty());
    auto problems = verifyModel(broken);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].message.find("use list of 'x' records 1 uses for 2 inputs"),
              std::string::npos)
        << problems[0].message;
  }
  uses.push_back(dropped);
  EXPECT_TRUE(verifyModel(broken).empty());
  EXPECT_TRUE(verifyModel(big).empty());
}

TEST(Graph, RemovingAUsedNodeThrows) {
  Graph g;
  Value* x = g.addInput("x", f32({2}));
  Node* a = g.addNode("Relu", "", {x}, {"a"});
  g.addOutput(a->output(0));
  EXPECT_THROW(g.removeNode(a), std::logic_error);
}

TEST(Graph, ReplaceAllUsesCoversOutputsAndSubgraphs) {
  Graph g;
  Value* x = g.addInput("x", f32({2}));
  Value* c = g.addInput("c", Type::tensor(DataType::kBool, Shape::fromValues({})));
  Node* a = g.addNode("Relu", "", {x}, {"a"});
  Node* iff = g.addNode("If", "", {c}, {"y"});
  auto branch = std::make_unique<Graph>(g.context());
  Graph* br = branch.get();
  iff->setAttr(Attribute::makeGraph("then_branch", std::move(branch)));
  Node* inner = br->addNode("Identity", "", {a->output(0)}, {"inner"});
  br->addOutput(inner->output(0));
  g.addOutput(a->output(0));

  EXPECT_EQ(a->output(0)->uses().size(), 1u);  // the nested Identity
  EXPECT_EQ(br->parent(), &g);
  Node* n = g.addNode("Neg", "", {x}, {"n"});
  g.replaceAllUsesWith(a->output(0), n->output(0));
  EXPECT_EQ(inner->input(0), n->output(0));
  EXPECT_EQ(g.outputs()[0], n->output(0));
  EXPECT_FALSE(a->output(0)->hasUses());
  EXPECT_FALSE(a->output(0)->isGraphOutput());
}

TEST(Graph, FreshNamesAreUniqueAcrossScopes) {
  Graph g;
  g.addInput("t", f32({1}));
  std::string n1 = g.freshName("t");
  EXPECT_NE(n1, "t");
  g.addNode("Relu", "", {g.findValue("t")}, {n1});
  EXPECT_NE(g.freshName("t"), n1);
}

TEST(Graph, SortTopologicallyKeepsSortedOrderAndFixesUnsorted) {
  Graph g;
  Value* x = g.addInput("x", f32({2}));
  Node* a = g.addNode("Relu", "", {x}, {"a"});
  Node* b = g.addNode("Neg", "", {a->output(0)}, {"b"});
  Node* c = g.addNode("Abs", "", {x}, {"c"});
  g.moveBefore(b, a);  // b now precedes its producer
  ASSERT_TRUE(g.sortTopologically());
  std::vector<Node*> order;
  for (const auto& n : g.nodes()) order.push_back(n.get());
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0], a);
  EXPECT_EQ(order[1], b);
  EXPECT_EQ(order[2], c);
}

TEST(Graph, SortDetectsCycles) {
  Graph g;
  Value* x = g.addInput("x", f32({2}));
  Node* a = g.addNode("Add", "", {x, x}, {"a"});
  Node* b = g.addNode("Neg", "", {a->output(0)}, {"b"});
  a->setInput(1, b->output(0));
  EXPECT_FALSE(g.sortTopologically());
}

TEST(Graph, CloneKeepsIdsAndRemapsOuterReferences) {
  Graph g;
  Value* x = g.addInput("x", f32({2}));
  Value* c = g.addInput("c", Type::tensor(DataType::kBool, Shape::fromValues({})));
  Node* a = g.addNode("Relu", "", {x}, {"a"});
  Node* iff = g.addNode("If", "", {c}, {"y"});
  auto branch = std::make_unique<Graph>(g.context());
  Graph* br = branch.get();
  iff->setAttr(Attribute::makeGraph("then_branch", std::move(branch)));
  Node* inner = br->addNode("Identity", "", {a->output(0)}, {"inner"});
  br->addOutput(inner->output(0));
  g.addOutput(iff->output(0));
  g.addInitializer("w", Tensor::fromInt64s({1, 2, 3}));

  auto copy = g.clone();
  ASSERT_EQ(copy->nodeCount(), g.nodeCount());
  Node* ca = copy->findNode(a->id());
  ASSERT_NE(ca, nullptr);
  EXPECT_NE(ca, a);
  Node* cif = copy->findNode(iff->id());
  ASSERT_NE(cif, nullptr);
  Graph* cbr = cif->subgraphs().at(0);
  EXPECT_EQ(cbr->parentNode(), cif);
  Node* cinner = cbr->nodes().front().get();
  EXPECT_EQ(cinner->input(0), ca->output(0));  // remapped, not the original
  EXPECT_EQ(ca->output(0)->uses().size(), 1u);
  // Weights are shared, not copied.
  EXPECT_EQ(copy->findValue("w")->initializer()->buffer(),
            g.findValue("w")->initializer()->buffer());
  // Ids continue from the same counter in the copy.
  Node* fresh = copy->addNode("Relu", "", {copy->findValue("x")}, 1);
  EXPECT_GT(fresh->id(), iff->id());
}

// Dense value ids index the verifier's side tables: no two values of one
// model may share one, also when a subgraph built on its own (with its own
// counter, as a parser or a pass may build it) is attached to a node.
TEST(Graph, DenseValueIdsStayUniqueWhenASubgraphJoins) {
  Graph g;
  Value* c = g.addInput("c", Type::tensor(DataType::kBool, Shape::fromValues({})));
  Value* x = g.addInput("x", f32({2}));
  Node* iff = g.addNode("If", "", {c}, {"y"});
  auto branch = std::make_unique<Graph>();  // its own context: ids from 0 again
  Value* bx = branch->addInput("bx", f32({2}));
  Node* inner = branch->addNode("Neg", "", {bx}, {"inner"});
  auto nested = std::make_unique<Graph>();
  nested->addInput("nx", f32({2}));
  inner->setAttr(Attribute::makeGraph("body", std::move(nested)));
  branch->addOutput(inner->output(0));
  iff->setAttr(Attribute::makeGraph("then_branch", std::move(branch)));
  g.addOutput(iff->output(0));

  std::set<uint32_t> ids;
  size_t values = 0;
  std::function<void(const Graph&)> collect = [&](const Graph& sg) {
    sg.forEachValue([&](const Value* v) {
      ++values;
      ids.insert(v->denseId());
      EXPECT_LT(v->denseId(), g.valueIdBound()) << v->name();
    });
    for (const auto& n : sg.nodes())
      for (const Graph* sub : n->subgraphs()) collect(*sub);
  };
  collect(g);
  EXPECT_EQ(ids.size(), values);
  EXPECT_EQ(values, 6u);  // c, x, y; bx, inner; nx
  EXPECT_NE(x->denseId(), bx->denseId());
  // Node ids too (the branch's Neg was node 1 of its own counter, as the If
  // is of the model's), and the branch's names are taken.
  EXPECT_NE(inner->id(), iff->id());
  EXPECT_EQ(findNodeRecursive(g, inner->id()), inner);
  EXPECT_NE(g.freshName("bx"), "bx");
}

// The verifier keeps per-value state by dense id; a value of another model
// (whose id collides) is reported, not mixed up with this model's value.
TEST(Verifier, AValueOfAnotherModelIsReportedNotConfused) {
  // b outlives a: a's node reads b's value until a is destroyed (found by
  // ASan: destroyed the other way round, a's teardown touched freed memory).
  Model b;
  Model a;
  Value* x = a.graph().addInput("x", f32({2}));
  Value* alien = b.graph().addInput("alien", f32({2}));
  ASSERT_EQ(x->denseId(), alien->denseId());
  Node* n = a.graph().addNode("Add", "", {x, alien}, {"y"});
  a.graph().addOutput(n->output(0));
  std::string all;
  for (const auto& p : verifyModel(a)) all += p.message + "\n";
  EXPECT_NE(all.find("value 'alien' has the id of 'x' (it belongs to another model)"),
            std::string::npos)
      << all;
  EXPECT_EQ(all.find("'x' records"), std::string::npos) << all;  // x's use list is intact
}

TEST(Tensor, CopyOnWriteLeavesOtherCopiesAlone) {
  Tensor a = Tensor::fromVector<float>(DataType::kFloat, {3}, {1, 2, 3});
  Tensor b = a;
  b.mutableData<float>()[0] = 42;
  EXPECT_EQ(a.data<float>()[0], 1);
  EXPECT_EQ(b.data<float>()[0], 42);
}

TEST(Shape, ProductOverflowIsDetected) {
  EXPECT_FALSE(checkedProduct({int64_t{1} << 40, int64_t{1} << 40}).has_value());
  EXPECT_EQ(*checkedProduct({2, 3, 4}), 24);
  EXPECT_EQ(*checkedProduct({}), 1);
}

}  // namespace
}  // namespace passlab::ir

namespace passlab::ir {
namespace {

// Type lists split only at top-level commas: "seq(map(string, float))" is one type.
TEST(OpRegistry, TypeConstraintsWithNestedTypesParseWhole) {
  const OpSchema* zipMap = OpRegistry::instance().find("ai.onnx.ml", "ZipMap", 1);
  ASSERT_NE(zipMap, nullptr);
  const TypeConstraint* t = zipMap->constraint("T");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->allowed.size(), 2u);
  EXPECT_EQ(t->allowed[0], "seq(map(string, float))");
  EXPECT_EQ(t->allowed[1], "seq(map(int64, float))");
}

}  // namespace
}  // namespace passlab::ir
