// eliminate_dead_nodes — redundancy by position: results nobody uses.
//
// Before:  a = Relu(x); b = Neg(a); y = Abs(x)   (outputs: y)
// After:   y = Abs(x)
// Also drops initializers no node reads (unless they are graph inputs, which
// belong to the model's interface).
// Conditions: a node goes when none of its outputs is used by any node (in any
// subgraph) or listed as a graph output. ONNX ops have no side effects, so
// this is exact. Subgraph inputs and outputs are positional and stay.
#include "core/passes/pass.h"

namespace passlab::passes {

namespace {

class EliminateDeadNodes final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{
        .id = "eliminate_dead_nodes",
        .category = Category::kStructural,
        .kind = "redundant node: meaningless by position (unused result)",
        .summaryEn = "Remove nodes whose results nobody uses, and unused initializers",
        .summaryZh = "删除结果无人使用的节点以及未被使用的初始值",
        .minOpset = 1,
        .maxOpset = 28,
    };
    return kInfo;
  }

  Status run(ir::Model& model, PassContext& ctx) const override {
    sweep(model.graph(), ctx);
    return Status::ok();
  }

 private:
  static void sweep(ir::Graph& g, PassContext& ctx) {
    // Subgraphs first: dropping a dead node inside a body can free an outer value.
    for (const auto& n : g.nodes())
      if (n->hasSubgraphs())
        for (ir::Graph* sub : n->subgraphs()) sweep(*sub, ctx);
    // Last to first, so a chain of dead nodes goes in one visit each.
    std::vector<ir::Node*> order;
    for (const auto& n : g.nodes()) order.push_back(n.get());
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      ir::Node* n = *it;
      if (ctx.filter && !ctx.filter->allows(n->id())) continue;
      bool used = false;
      for (ir::Value* out : n->outputs())
        if (out && (out->hasUses() || out->isGraphOutput())) used = true;
      if (used) continue;
      ctx.rewriter.removeNode(n);
    }
    std::vector<ir::Value*> inits = g.initializers();
    for (ir::Value* v : inits)
      if (!v->hasUses() && !v->isGraphOutput() && !v->isGraphInput())
        ctx.rewriter.removeInitializer(v);
  }
};

}  // namespace

std::unique_ptr<Pass> makeEliminateDeadNodes() {
  return std::make_unique<EliminateDeadNodes>();
}

}  // namespace passlab::passes
