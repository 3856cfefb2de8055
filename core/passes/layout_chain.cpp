#include "core/passes/layout_chain.h"

#include <unordered_set>

namespace passlab::passes {

std::vector<ir::Node*> readOutsideChain(const ir::Graph& graph,
                                        const std::vector<ir::Node*>& converted) {
  std::unordered_set<const ir::Node*> gone(converted.begin(), converted.end());
  std::unordered_set<const ir::Value*> outputs(graph.outputs().begin(), graph.outputs().end());
  std::vector<ir::Node*> out;
  for (ir::Node* n : converted) {
    const ir::Value* y = n->output(0);
    bool read = outputs.count(y) > 0;
    for (const ir::Use& u : y->uses()) read = read || !gone.count(u.node);
    if (read) out.push_back(n);
  }
  return out;
}

void removeConverted(rewrite::Rewriter& rw, const ir::Graph& graph,
                     const std::vector<ir::Node*>& converted) {
  std::unordered_set<const ir::Value*> outputs(graph.outputs().begin(), graph.outputs().end());
  auto unread = [&](const ir::Node* n) {
    for (size_t i = 0; i < n->outputCount(); ++i)
      if (const ir::Value* v = n->output(i); v && (!v->uses().empty() || outputs.count(v)))
        return false;
    return true;
  };
  std::vector<ir::Node*> left(converted.rbegin(), converted.rend());
  for (bool progress = true; progress && !left.empty();) {
    progress = false;
    std::vector<ir::Node*> still;
    for (ir::Node* n : left) {
      if (unread(n)) {
        rw.removeNode(n);
        progress = true;
      } else {
        still.push_back(n);
      }
    }
    left.swap(still);
  }
}

}  // namespace passlab::passes
