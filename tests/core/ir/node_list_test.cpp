// The graph's node order (an unrolled list, core/ir/node_list.h) against a
// plain vector doing the same edits: insertions before any node, removals,
// moves, undo and topological sorting, across many chunk splits and merges.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/undo_log.h"

namespace passlab::ir {
namespace {

std::vector<Node*> forward(const Graph& g) {
  std::vector<Node*> out;
  for (const auto& n : g.nodes()) out.push_back(n.get());
  return out;
}

std::vector<Node*> backward(const Graph& g) {
  std::vector<Node*> out;
  for (auto it = g.nodes().rbegin(); it != g.nodes().rend(); ++it) out.push_back(it->get());
  return out;
}

void expectOrder(const Graph& g, const std::vector<Node*>& ref) {
  ASSERT_EQ(g.nodeCount(), ref.size());
  ASSERT_EQ(forward(g), ref);
  std::vector<Node*> rev(ref.rbegin(), ref.rend());
  ASSERT_EQ(backward(g), rev);
  ASSERT_EQ(static_cast<size_t>(std::distance(g.nodes().begin(), g.nodes().end())), ref.size());
  if (!ref.empty()) {
    EXPECT_EQ(g.nodes().front().get(), ref.front());
    EXPECT_EQ(g.nodes().back().get(), ref.back());
  } else {
    EXPECT_TRUE(g.nodes().begin() == g.nodes().end());
  }
}

// Nodes without inputs or outputs: any of them may be removed or moved.
Node* freeNode(Graph& g, Node* before) {
  return g.addNode("Relu", "", {}, 0, before);
}

TEST(NodeList, RandomEditsMatchAVector) {
  Graph g;
  std::vector<Node*> ref;
  std::mt19937 rng(20261203);
  auto pick = [&]() -> Node* {
    return ref[std::uniform_int_distribution<size_t>(0, ref.size() - 1)(rng)];
  };
  auto erase = [&](Node* n) { ref.erase(std::find(ref.begin(), ref.end(), n)); };
  auto insertBefore = [&](Node* n, Node* before) {
    ref.insert(before ? std::find(ref.begin(), ref.end(), before) : ref.end(), n);
  };
  // Three phases: grow (splits), churn, shrink to a few (merges, empty chunks).
  const int phases[3][3] = {{70, 15, 15}, {40, 40, 20}, {10, 80, 10}};
  for (const auto& p : phases) {
    for (int op = 0; op < 6000; ++op) {
      int r = std::uniform_int_distribution<int>(0, 99)(rng);
      if (ref.empty() || r < p[0]) {
        // Mostly in the middle, sometimes at the ends.
        Node* before = ref.empty() || r % 10 == 0 ? nullptr : r % 10 == 1 ? ref.front() : pick();
        insertBefore(freeNode(g, before), before);
      } else if (r < p[0] + p[1]) {
        Node* n = pick();
        g.removeNode(n);
        erase(n);
      } else {
        Node* n = pick();
        Node* before = r % 3 == 0 ? nullptr : pick();
        if (before == n) continue;
        g.moveBefore(n, before);
        erase(n);
        insertBefore(n, before);
      }
      if (op % 500 == 0) expectOrder(g, ref);
      if (HasFatalFailure()) return;
    }
    expectOrder(g, ref);
  }
  while (!ref.empty()) {  // down to nothing, from the front
    g.removeNode(ref.front());
    ref.erase(ref.begin());
  }
  expectOrder(g, ref);
  Node* again = freeNode(g, nullptr);  // usable after emptying
  expectOrder(g, {again});
}

TEST(NodeList, InsertingBeforeOneNodeManyTimesKeepsTheOrder) {
  Graph g;
  Node* last = freeNode(g, nullptr);
  std::vector<Node*> ref;
  for (int i = 0; i < 1000; ++i) ref.push_back(freeNode(g, last));  // each just before `last`
  ref.push_back(last);
  expectOrder(g, ref);
  Node* first = ref.front();
  std::vector<Node*> front;
  for (int i = 0; i < 300; ++i)
    front.insert(front.begin(), freeNode(g, front.empty() ? first : front.front()));
  front.insert(front.end(), ref.begin(), ref.end());
  expectOrder(g, front);
}

TEST(NodeList, UndoRestoresTheOrderAcrossChunks) {
  Graph g;
  std::vector<Node*> original;
  for (int i = 0; i < 700; ++i) original.push_back(freeNode(g, nullptr));
  std::vector<Node*> edited = original;
  UndoLog undo;
  // Every third node, then a run of 150 (whole chunks emptied), then nodes
  // added before survivors and moved ones.
  for (size_t i = 0; i < original.size(); i += 3) {
    g.removeNode(original[i], &undo);
    edited.erase(std::find(edited.begin(), edited.end(), original[i]));
  }
  for (size_t i = 301; i < 451; ++i) {
    if (i % 3 == 0) continue;
    g.removeNode(original[i], &undo);
    edited.erase(std::find(edited.begin(), edited.end(), original[i]));
  }
  for (int k = 0; k < 200; ++k) {
    Node* before = edited[static_cast<size_t>(k * 7) % edited.size()];
    Node* n = freeNode(g, before);
    undo.nodeAdded(n);
    edited.insert(std::find(edited.begin(), edited.end(), before), n);
  }
  expectOrder(g, edited);
  undo.undo();
  expectOrder(g, original);
}

TEST(NodeList, SortingReordersAcrossChunks) {
  // A chain in reverse: node i reads node i-1, but node i comes first.
  Graph g;
  Value* x = g.addInput("x", Type::tensor(DataType::kFloat, Shape::fromValues({1})));
  const size_t n = 400;
  std::vector<Node*> nodes(n);
  for (size_t i = n; i-- > 0;) nodes[i] = g.addNode("Relu", "", {x}, 1);
  for (size_t i = 1; i < n; ++i) nodes[i]->setInput(0, nodes[i - 1]->output(0));
  expectOrder(g, std::vector<Node*>(nodes.rbegin(), nodes.rend()));
  ASSERT_TRUE(g.sortTopologically());
  expectOrder(g, nodes);
}

TEST(NodeList, MovingToTheEndOfAFullLastChunk) {
  Graph g;
  std::vector<Node*> ref;
  for (uint32_t i = 0; i < 3 * NodeList::kChunkCapacity; ++i) ref.push_back(freeNode(g, nullptr));
  // The last chunk is full: moving its first node, or a node of another
  // chunk, to the end needs a new chunk, made before the node leaves.
  for (size_t k : {ref.size() - NodeList::kChunkCapacity, size_t{0}, size_t{5}}) {
    Node* n = ref[k];
    g.moveBefore(n, nullptr);
    ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(k));
    ref.push_back(n);
    expectOrder(g, ref);
  }
  // And before the first node of a full chunk.
  Node* n = ref.back();
  g.moveBefore(n, ref[NodeList::kChunkCapacity]);
  ref.pop_back();
  ref.insert(ref.begin() + NodeList::kChunkCapacity, n);
  expectOrder(g, ref);
}

TEST(NodeList, PlacesOutsideTheGraphAreRefused) {
  Graph a;
  Graph b;
  Node* na = freeNode(a, nullptr);
  Node* nb = freeNode(b, nullptr);
  EXPECT_THROW(a.addNode("Relu", "", {}, 0, nb), std::logic_error);
  EXPECT_THROW(a.moveBefore(na, nb), std::logic_error);
  EXPECT_THROW(a.moveBefore(nb, nullptr), std::logic_error);
  UndoLog undo;
  Node* gone = freeNode(a, nullptr);
  a.removeNode(gone, &undo);
  EXPECT_THROW(a.addNode("Relu", "", {}, 0, gone), std::logic_error);  // held by the undo log
  EXPECT_THROW(a.moveBefore(na, gone), std::logic_error);
  EXPECT_THROW(a.moveBefore(gone, na), std::logic_error);
  EXPECT_THROW(a.removeNode(gone, &undo), std::logic_error);  // removed twice
  EXPECT_EQ(na->opType(), "Relu");                            // still alive
  expectOrder(a, {na});
  expectOrder(b, {nb});
}

}  // namespace
}  // namespace passlab::ir
