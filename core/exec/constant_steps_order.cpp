#include "core/exec/constant_steps_order.h"

#include <algorithm>
#include <unordered_set>

#include "core/exec/compiler.h"

namespace passlab::exec {

namespace {

// Ops whose outputs may differ between runs on the same inputs.
bool nondeterministic(const ir::Node& n) {
  const std::string& op = n.opType();
  return op.starts_with("Random") || op == "Multinomial" || op == "Bernoulli" || op == "Dropout";
}

}  // namespace

InvariantValues invariantInitializers(const ir::Graph& g, bool mainGraph) {
  InvariantValues invariant;
  for (const ir::Value* v : g.initializers()) {
    if (!v->isGraphInput())
      invariant.emplace(v, Invariance::kAlways);
    else if (mainGraph)
      invariant.emplace(v, Invariance::kUnlessOverridden);
  }
  return invariant;
}

Invariance outputInvariance(const ir::Node& n, const InvariantValues& invariant) {
  Invariance out = n.hasSubgraphs() || nondeterministic(n) ? Invariance::kNo : Invariance::kAlways;
  for (const ir::Value* v : n.inputs()) {
    if (v == nullptr) continue;
    auto it = invariant.find(v);
    out = std::min(out, it == invariant.end() ? Invariance::kNo : it->second);
  }
  return out;
}

std::vector<const ir::Node*> constantNodesBeforeFirstReader(
    const std::vector<const ir::Node*>& order, const ir::Graph& g) {
  InvariantValues invariant = invariantInitializers(g, /*mainGraph=*/true);
  std::unordered_set<const ir::Node*> constant;
  for (const ir::Node* n : order) {
    Invariance out = outputInvariance(*n, invariant);
    if (out == Invariance::kNo) continue;
    constant.insert(n);
    for (const ir::Value* v : n->outputs())
      if (v) invariant.emplace(v, out);
  }
  if (constant.empty()) return order;

  std::vector<const ir::Node*> result;
  result.reserve(order.size());
  std::unordered_set<const ir::Node*> placed;
  // Places `n` after the constant-only nodes it depends on that are not
  // placed yet (depth first, in input order).
  auto place = [&](const ir::Node* n, auto& self) -> void {
    std::vector<const ir::Value*> deps(n->inputs().begin(), n->inputs().end());
    if (n->hasSubgraphs()) collectOuterReads(*n, g, deps);
    for (const ir::Value* v : deps) {
      const ir::Node* p = v ? v->producer() : nullptr;
      if (p && p->owner() == &g && constant.count(p) && !placed.count(p)) self(p, self);
    }
    placed.insert(n);
    result.push_back(n);
  };
  for (const ir::Node* n : order)
    if (!constant.count(n)) place(n, place);
  for (const ir::Node* n : order)
    if (!placed.count(n)) place(n, place);
  return result;
}

}  // namespace passlab::exec
