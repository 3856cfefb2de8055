// eliminate_dead_nodes — redundancy by position: results nobody uses.
//
// Before:  a = Relu(x); b = Neg(a); y = Abs(x)   (outputs: y)
// After:   y = Abs(x)
// Also drops initializers no node reads (unless they are graph inputs, which
// belong to the model's interface).
// Conditions: a node goes when none of its outputs is used by any node (in any
// subgraph) or listed as a graph output. ONNX ops have no side effects, so
// this is exact. Subgraph inputs and outputs are positional and stay.
#include <algorithm>

#include "core/passes/node_policy.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

constexpr const char* kInfoId = "eliminate_dead_nodes";

class EliminateDeadNodes final : public Pass {
 public:
  const PassInfo& info() const override { return catalogInfo(kInfoId); }

  Status run(PassContext& ctx) const override { return sweep(ctx.model().graph(), ctx); }

 private:
  static Status sweep(ir::Graph& g, PassContext& ctx) {
    // Subgraphs first: dropping a dead node inside a body can free an outer value.
    for (const auto& n : g.nodes())
      if (n->hasSubgraphs())
        for (ir::Graph* sub : n->subgraphs()) PASSLAB_RETURN_IF_ERROR(sweep(*sub, ctx));
    // Last to first, so a chain of dead nodes goes in one visit each.
    std::vector<ir::Node*> order;
    for (const auto& n : g.nodes()) order.push_back(n.get());
    std::reverse(order.begin(), order.end());
    // No pattern name: like a pattern without a root op, nothing is noted for excluded nodes.
    PASSLAB_RETURN_IF_ERROR(forEachNode(ctx, kInfoId, {}, order, [&](ir::Node& n) {
      bool used = false;
      for (ir::Value* out : n.outputs())
        if (out && (out->hasUses() || out->isGraphOutput())) used = true;
      if (!used) ctx.rewriter.removeNode(&n);
      return Status::ok();
    }));
    std::vector<ir::Value*> inits = g.initializers();
    for (ir::Value* v : inits)
      if (!v->hasUses() && !v->isGraphOutput() && !v->isGraphInput())
        ctx.rewriter.removeInitializer(v);
    return Status::ok();
  }
};

}  // namespace

std::unique_ptr<Pass> makeEliminateDeadNodes() {
  return std::make_unique<EliminateDeadNodes>();
}

}  // namespace passlab::passes
