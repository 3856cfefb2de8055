// replace_reduce_mean_with_global_pool — a mean over every spatial axis becomes GlobalAveragePool.
//
// Before:  y = ReduceMean(x, axes = [2, 3], keepdims = 1)          (x: [N, C, H, W])
// After:   y = GlobalAveragePool(x)
// Before:  t = ReduceMean(x, axes = [2, 3], keepdims = 0); y = Flatten(t, axis = 1)
// After:   t = GlobalAveragePool(x);                       y = Flatten(t, axis = 1)
// Algebra: GlobalAveragePool is the mean over all axes after the first two,
// with those axes kept as size 1. With keepdims = 0 the [N, C] result differs
// from [N, C, 1, 1] only in trailing unit dims, which a Flatten at axis 1 or
// a Reshape to a constant shape (with no 0, which would copy a dim, past
// index 1) removes the same way, so the consumers need not change.
// Conditions: x of known rank >= 3 and a float type; the axes (an attribute
// before opset 18, a constant input from 18) are exactly 2..rank-1; with
// keepdims = 0 the result is not a graph output and every consumer is such a
// Flatten or Reshape. Exact up to summation order (GlobalAveragePool and
// ReduceMean both sum then divide).
// Opsets: 1-28.
#include <algorithm>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

// "" when every consumer of the [N, C] result also accepts [N, C, 1, ...].
Text whyConsumersNeedRank2(const ir::Value* t) {
  if (t->isGraphOutput()) return "the [N, C] result is a graph output";
  if (!t->hasUses()) return "the result is unused";
  for (const ir::Use& u : t->uses()) {
    const ir::Node* n = u.node;
    if (n->owner() != t->owner()) return "the result is used inside a subgraph";
    if (n->domain().empty() && n->opType() == "Flatten" && n->attrInt("axis", 1) == 1) continue;
    if (n->domain().empty() && n->opType() == "Reshape" && u.inputIndex == 0) {
      auto s =
          n->hasAttr("shape") ? std::optional(n->attrInts("shape")) : constantInts(n->input(1));
      if (!s) return "a Reshape of the result has a non-constant shape";
      for (size_t i = 2; i < s->size(); ++i)
        if ((*s)[i] == 0) return "a Reshape of the result copies a dim past index 1";
      continue;
    }
    return Text::of(
        "keepdims = 0 and the result feeds %1 (only Flatten/Reshape consumers are kept unchanged)",
        fusion::nodeText(*n));
  }
  return "";
}

fusion::Rules rules() {
  fusion::Rules r;
  // ReduceMean(x, axes = spatial) -> GlobalAveragePool(x)
  fusion::addRule(
      r, "reduce_mean_spatial", "ReduceMean(x, axes=[2..r-1]) -> GlobalAveragePool(x)",
      {"ReduceMean"}, [](ir::Node& n, const MatchContext&) {
        auto rank = rankOf(n.input(0));
        if (!rank || *rank < 3) return MatchResult::failure("x is not known to have rank >= 3");
        if (!fusion::isFloatType(elemTypeOf(n.input(0))))
          return MatchResult::failure("x is not a float tensor");
        auto axes = rewrite::intsFromAttrOrInput(n, "axes", 1);
        if (!axes) return MatchResult::failure("ReduceMean axes are a non-constant input");
        auto na = normalizeAxes(*axes, rank);
        if (!na || na->empty()) return MatchResult::failure("ReduceMean axes are empty or invalid");
        std::sort(na->begin(), na->end());
        std::vector<int64_t> spatial;
        for (int64_t i = 2; i < *rank; ++i) spatial.push_back(i);
        if (*na != spatial)
          return MatchResult::failure(Text::of("ReduceMean reduces %1, not every spatial axis %2",
                                               intsText(*na), intsText(spatial)));
        if (n.attrInt("keepdims", 1) == 0)
          if (Text why = whyConsumersNeedRank2(n.output(0)); !why.empty())
            return MatchResult::failure(why);
        bool keep = n.attrInt("keepdims", 1) != 0;
        return MatchResult::success({&n}, [&n, keep](rewrite::Rewriter& rw) {
          ir::Node* g = fusion::addDerived(rw, "GlobalAveragePool", {n.input(0)}, &n, {&n}, nullptr,
                                           {keep ? n.output(0) : nullptr});
          fusion::replaceAndErase(rw, n.output(0), g->output(0), {&n});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeReplaceReduceMeanWithGlobalPool() {
  return std::make_unique<PatternPass>(catalogInfo("replace_reduce_mean_with_global_pool"),
                                       rules());
}

}  // namespace passlab::passes
