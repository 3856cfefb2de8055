// fuse_shared_input_matmuls — MatMuls of one input by constant weights become one MatMul and a
// Split.
//
// Before:  q = MatMul(x, Wq); k = MatMul(x, Wk); v = MatMul(x, Wv)      (W*: [K, N*])
// After:   t = MatMul(x, Concat(Wq, Wk, Wv, axis = 1)); q, k, v = Split(t, [Nq, Nk, Nv], axis = -1)
// Algebra: x·[Wq | Wk | Wv] = [x·Wq | x·Wk | x·Wv] column block by column
// block; the Split takes the blocks apart. Each output element is the same
// dot product as before (the kernel may accumulate in another order:
// changesNumerics, last bits only). One larger GEMM reads x once.
// Conditions: at least `min_count` (default 3, the Q/K/V projections) MatMuls
// in one graph read x as their first operand and a 2-D constant of the same
// float type and the same K as their second; x has rank >= 2. The weights
// concatenated are a new initializer; the old ones go when unused.
// Opsets: 1-28; Split sizes are an attribute before 13 and an input from 13.
// Cost: the fused MatMul goes before the first of the MatMuls in the graph's
// order (a scan: O(N) once per fused group).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

fusion::Rules rules() {
  fusion::Rules r;
  // MatMul(x, W1), MatMul(x, W2), MatMul(x, W3) -> Split(MatMul(x, [W1 | W2 | W3]))
  fusion::addRule(
      r, "shared_input_matmuls",
      "MatMul(x, W1..Wn) with constant W -> Split(MatMul(x, Concat(W1..Wn)))", {"MatMul"},
      [](ir::Node& root, const MatchContext& c) {
        int64_t minCount = std::max<int64_t>(2, c.intOption("min_count", 3));
        ir::Value* x = root.input(0);
        auto rank = rankOf(x);
        if (!rank || *rank < 2) return MatchResult::failure("x is not known to have rank >= 2");
        auto w0 = rewrite::constantValue(root.input(1));
        if (!w0 || w0->rank() != 2 || !fusion::isFloatType(w0->dtype()))
          return MatchResult::failure("the weight is not a 2-D float constant");
        std::vector<ir::Node*> group;
        std::vector<ir::Tensor> weights;
        for (const ir::Use& u : rewrite::usesInNodeOrder(x)) {
          ir::Node* n = u.node;
          if (u.inputIndex != 0 || n->opType() != "MatMul" || !n->domain().empty() ||
              n->owner() != root.owner() || n->input(1) == x ||
              std::find(group.begin(), group.end(), n) != group.end())
            continue;
          auto w = rewrite::constantValue(n->input(1));
          if (!w || w->rank() != 2 || w->dtype() != w0->dtype() || w->dims()[0] != w0->dims()[0] ||
              w->bytes().size() < w->expectedBytes())
            continue;
          group.push_back(n);
          weights.push_back(*w);
        }
        if (static_cast<int64_t>(group.size()) < minCount)
          return MatchResult::failure(
              Text::of("%1 MatMul(s) of this input with constant weights (at least %2 are fused)",
                       std::to_string(group.size()), std::to_string(minCount)));
        bool asAttr = c.opset < 13;
        return MatchResult::success(group, [x, group, weights, asAttr](rewrite::Rewriter& rw) {
          ir::Graph& g = *group[0]->owner();
          ir::Node* first = fusion::firstInOrder(g, group);
          std::vector<const ir::Node*> from(group.begin(), group.end());
          int64_t k = weights[0].dims()[0], total = 0;
          std::vector<int64_t> sizes;
          for (const auto& w : weights) {
            sizes.push_back(w.dims()[1]);
            total += w.dims()[1];
          }
          size_t eb = static_cast<size_t>(ir::dtypeBits(weights[0].dtype()) / 8);
          std::vector<std::byte> bytes(static_cast<size_t>(k * total) * eb);
          int64_t col = 0;
          for (const auto& w : weights) {
            int64_t n = w.dims()[1];
            for (int64_t row = 0; row < k; ++row)
              std::memcpy(bytes.data() + (row * total + col) * eb, w.bytes().data() + row * n * eb,
                          static_cast<size_t>(n) * eb);
            col += n;
          }
          ir::Tensor cat(weights[0].dtype(), {k, total}, ir::makeHeapBuffer(std::move(bytes)));
          ir::Value* wv = addConstant(rw, g, first, "fused_weight", std::move(cat), from);
          ir::Node* mm = rw.addNode(g, "MatMul", "", {x, wv}, 1, first, "", from);
          std::vector<ir::Value*> ins{mm->output(0)};
          if (!asAttr)
            ins.push_back(addConstant(rw, g, first, "split", ir::Tensor::fromInt64s(sizes), from));
          ir::Node* split = rw.addNode(g, "Split", "", ins, group.size(), first, "", from);
          rw.setAttr(split, ir::Attribute::makeInt("axis", -1));
          if (asAttr) rw.setAttr(split, ir::Attribute::makeInts("split", sizes));
          for (size_t i = 0; i < group.size(); ++i) {
            rw.setType(split->output(i), group[i]->output(0)->type());
            rw.replaceAllUsesWith(group[i]->output(0), split->output(i));
          }
          fusion::eraseDead(rw, group);
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseSharedInputMatmuls() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_shared_input_matmuls"), rules());
}

}  // namespace passlab::passes
