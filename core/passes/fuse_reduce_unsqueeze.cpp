// fuse_reduce_unsqueeze — a reduction without kept dims followed by the Unsqueeze that puts them
// back.
//
// Before:  t = ReduceMean(x, axes = [1, 2], keepdims = 0); y = Unsqueeze(t, axes = [1, 2])
// After:   y = ReduceMean(x, axes = [1, 2], keepdims = 1)
// Algebra: keepdims = 1 leaves a dim of size 1 at each reduced axis; dropping
// them (keepdims = 0) and inserting size-1 dims at the same positions of the
// result (Unsqueeze axes are positions in its output, whose rank is x's
// rank) gives the same tensor, element for element.
// Conditions: t feeds only the Unsqueeze (not a graph output, not read in a
// subgraph); the reduced axes and the Unsqueeze axes are constants and, once
// normalized against x's rank, the same set; a reduction over all axes
// (axes omitted, noop_with_empty_axes = 0) needs x's rank; an empty axes list
// with noop_with_empty_axes = 1 reduces nothing and is left alone.
// Ops: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1,
// ReduceL2, ReduceLogSum, ReduceLogSumExp, ReduceSumSquare, ArgMax, ArgMin.
// Exact. Opsets: 1-28; reduce axes are an attribute before 18 (before 13 for
// ReduceSum) and an input after; Unsqueeze axes an attribute before 13 and an
// input after; ArgMax/ArgMin take one `axis` attribute.
#include <algorithm>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

bool isReduce(const ir::Node* n) {
  static const std::vector<std::string> ops = {
      "ReduceSum", "ReduceMean",   "ReduceMax",       "ReduceMin",       "ReduceProd", "ReduceL1",
      "ReduceL2",  "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare", "ArgMax",     "ArgMin"};
  return n && n->domain().empty() && std::find(ops.begin(), ops.end(), n->opType()) != ops.end();
}

fusion::Rules rules() {
  fusion::Rules r;
  // Unsqueeze(Reduce(x, axes, keepdims=0), axes) -> Reduce(x, axes, keepdims=1)
  fusion::addRule(
      r, "reduce_unsqueeze",
      "Unsqueeze(Reduce(x, axes, keepdims=0), axes) -> Reduce(x, keepdims=1)", {"Unsqueeze"},
      [](ir::Node& un, const MatchContext&) {
        ir::Value* t = un.input(0);
        ir::Node* red = t ? t->producer() : nullptr;
        if (!isReduce(red)) return MatchResult::failure("the input is not produced by a reduction");
        if (Text why = rewrite::whyNotSoleConsumer(t); !why.empty())
          return MatchResult::failure(Text::of("%1 output %2", red->opType(), why));
        if (red->attrInt("keepdims", 1) != 0)
          return MatchResult::failure(Text::of("%1 already keeps the reduced dims", red->opType()));
        auto rank = rankOf(red->input(0));
        std::vector<int64_t> axes;
        bool arg = red->opType() == "ArgMax" || red->opType() == "ArgMin";
        if (arg) {
          axes = {red->attrInt("axis", 0)};
        } else {
          auto a = rewrite::intsFromAttrOrInput(*red, "axes", 1);
          if (!a)
            return MatchResult::failure(
                Text::of("%1 axes are given as a non-constant input", red->opType()));
          axes = *a;
          if (axes.empty()) {
            if (red->attrInt("noop_with_empty_axes", 0) != 0)
              return MatchResult::failure(
                  Text::of("%1 reduces nothing (empty axes, noop)", red->opType()));
            if (!rank) return MatchResult::failure("the rank of the reduced tensor is unknown");
            for (int64_t i = 0; i < *rank; ++i) axes.push_back(i);
          }
        }
        auto ra = normalizeAxes(axes, rank);
        if (!ra) return MatchResult::failure("the reduced axes are not valid for the input rank");
        auto ua = rewrite::intsFromAttrOrInput(un, "axes", 1);
        if (!ua) return MatchResult::failure("Unsqueeze axes are not constant");
        auto nu = normalizeAxes(*ua, rank);
        if (!nu) return MatchResult::failure("the Unsqueeze axes are not valid for the input rank");
        std::sort(ra->begin(), ra->end());
        std::sort(nu->begin(), nu->end());
        if (*ra != *nu)
          return MatchResult::failure(
              Text::of("Unsqueeze inserts %1, not the reduced %2", intsText(*nu), intsText(*ra)));
        return MatchResult::success({&un, red}, [&un, red](rewrite::Rewriter& rw) {
          ir::Node* n = fusion::addDerived(rw, red->opType(), red->inputs(), &un, {red, &un}, red,
                                           {un.output(0)});
          rw.setAttr(n, ir::Attribute::makeInt("keepdims", 1));
          fusion::replaceAndErase(rw, un.output(0), n->output(0), {&un, red});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseReduceUnsqueeze() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_reduce_unsqueeze"), rules());
}

}  // namespace passlab::passes
