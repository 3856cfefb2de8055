#include "core/layout/graph_walk.h"

#include <deque>
#include <unordered_map>

namespace passlab::layout {

const ir::Node* consumerIn(const ir::Graph& g, const ir::Node* user) {
  while (user != nullptr && user->owner() != &g) {
    const ir::Graph* owner = user->owner();
    user = owner ? owner->parentNode() : nullptr;
  }
  return user;
}

std::vector<const ir::Node*> topologicalOrder(const ir::Graph& g) {
  std::vector<const ir::Node*> order;
  order.reserve(g.nodeCount());
  std::unordered_map<const ir::Node*, size_t> pos;
  pos.reserve(g.nodeCount() * 2);
  for (const auto& n : g.nodes()) {
    pos.emplace(n.get(), order.size());
    order.push_back(n.get());
  }
  // Producer of each input (direct or read by a nested body) must come earlier.
  auto predecessors = [&](const ir::Node* n, auto&& visit) {
    auto visitValue = [&](const ir::Value* v) {
      if (v == nullptr || v->producer() == nullptr) return;
      auto it = pos.find(v->producer());
      if (it != pos.end()) visit(it->second);
    };
    for (const ir::Value* v : n->inputs()) visitValue(v);
    for (const ir::Graph* sub : n->subgraphs())
      sub->forEachNodeRecursive([&](ir::Node* inner) {
        for (const ir::Value* v : inner->inputs())
          if (v && v->owner() == &g) visitValue(v);
      });
  };
  bool sorted = true;
  for (size_t i = 0; i < order.size() && sorted; ++i)
    predecessors(order[i], [&](size_t p) {
      if (p >= i) sorted = false;
    });
  if (sorted) return order;

  std::vector<size_t> indegree(order.size(), 0);
  std::vector<std::vector<size_t>> succ(order.size());
  for (size_t i = 0; i < order.size(); ++i)
    predecessors(order[i], [&](size_t p) {
      if (p == i) return;
      ++indegree[i];
      succ[p].push_back(i);
    });
  std::vector<const ir::Node*> out;
  out.reserve(order.size());
  std::vector<bool> done(order.size(), false);
  // A min-index queue keeps the file's order among ready nodes.
  std::deque<size_t> ready;
  for (size_t i = 0; i < order.size(); ++i)
    if (indegree[i] == 0) ready.push_back(i);
  while (!ready.empty()) {
    size_t i = ready.front();
    ready.pop_front();
    done[i] = true;
    out.push_back(order[i]);
    for (size_t s : succ[i])
      if (--indegree[s] == 0) ready.push_back(s);
  }
  for (size_t i = 0; i < order.size(); ++i)
    if (!done[i]) out.push_back(order[i]);
  return out;
}

}  // namespace passlab::layout
