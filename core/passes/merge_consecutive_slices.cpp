// merge_consecutive_slices — Slices of Slices, Slices of Concats and sibling Slices merged.
//
// Rule slice_of_slice:
//   Before:  t = Slice(x, s1, e1, a1, st1); y = Slice(t, s2, e2, a2, st2)
//   After:   y = Slice(x, s, e, a, st)
//   Algebra: on an axis only one Slice cuts, its parameters are kept. On an
//   axis both cut (x's dim d static): the first selects r1.start + i*st1 for
//   i < c1 (resolved against d), the second j-th element of that is
//   i = r2.start + j*st2 (resolved against c1), so together they select
//   start = r1.start + r2.start*st1, step = st1*st2, count c2.
//   Conditions: t feeds only the second Slice; parameters constant.
// Rule slice_of_concat:
//   Before:  t = Concat(a, b, c, axis = k); y = Slice(t, [s], [e], axes = [k])   (step 1)
//   After:   y is b when [s, e) is exactly b's range along k
//   Conditions: the sizes along k of the inputs before b and of b are static.
//   The Concat stays while something else reads it.
// Rule slices_to_split:
//   Before:  y1 = Slice(x, [0], [a], axes = [k]); y2 = Slice(x, [a], [d], axes = [k])
//   After:   y1, y2 = Split(x, [a, d - a], axis = k)
//   Conditions: at least two Slices of x on the same single axis k with step 1
//   and constant bounds, x's dim d along k static, each Slice's range
//   non-empty and one segment of the partition of [0, d) that the ranges'
//   bounds make (overlapping ranges do not split); two Slices of the same
//   range read the same output. Parts no Slice reads become unused outputs.
// Exact (data movement only). Reshape, Squeeze/Unsqueeze and Concat chains are
// merged by simplify_op_chains (issue 4), not here.
// Opsets: 1-28; Slice parameters are attributes before 10 (no steps) and
// inputs from 10; Split's sizes are an attribute before 13 and an input from 13.
// Cost: slices_to_split places the Split before the first of the Slices in
// the graph's order (a scan: O(N) once per merged group).
#include <algorithm>
#include <climits>
#include <map>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

MatchResult sliceOfSlice(ir::Node& outer, const MatchContext& c) {
  ir::Node* inner = producerOp(outer.input(0), "Slice");
  if (!inner) return MatchResult::failure("the input is not produced by a Slice");
  if (Text why = rewrite::whyNotSoleConsumer(outer.input(0)); !why.empty())
    return MatchResult::failure(Text::of("inner Slice output %1", why));
  ir::Value* x = inner->input(0);
  auto rank = rankOf(x);
  if (!rank) return MatchResult::failure("the rank of the sliced tensor is unknown");
  Text why;
  auto p1 = fusion::sliceParams(*inner, *rank, why);
  if (!p1) return MatchResult::failure(why);
  auto p2 = fusion::sliceParams(outer, *rank, why);
  if (!p2) return MatchResult::failure(why);
  auto xd = x->type().shape();
  fusion::SliceParams m;
  std::map<int64_t, size_t> in1;
  for (size_t i = 0; i < p1->axes.size(); ++i) in1[p1->axes[i]] = i;
  std::vector<bool> used1(p1->axes.size(), false);
  for (size_t j = 0; j < p2->axes.size(); ++j) {
    int64_t a = p2->axes[j];
    auto it = in1.find(a);
    if (it == in1.end()) {
      m.starts.push_back(p2->starts[j]);
      m.ends.push_back(p2->ends[j]);
      m.axes.push_back(a);
      m.steps.push_back(p2->steps[j]);
      continue;
    }
    size_t i = it->second;
    used1[i] = true;
    const ir::Dim& dim = (*xd)[static_cast<size_t>(a)];
    if (!dim.isStatic())
      return MatchResult::failure(
          Text::of("both Slices cut axis %1, whose size is not static", std::to_string(a)));
    fusion::SliceRange r1 =
        fusion::resolveSlice(p1->starts[i], p1->ends[i], p1->steps[i], dim.value());
    fusion::SliceRange r2 =
        fusion::resolveSlice(p2->starts[j], p2->ends[j], p2->steps[j], r1.count);
    int64_t step = r1.step * r2.step;
    int64_t start = r1.start + r2.start * r1.step;
    int64_t end = start + r2.count * step;
    if (r2.count == 0) {
      start = 0;
      end = 0;
      step = 1;
    } else if (end < 0) {
      end = INT64_MIN;  // past the front (a negative end would count from the back)
    }
    m.starts.push_back(start);
    m.ends.push_back(end);
    m.axes.push_back(a);
    m.steps.push_back(step);
  }
  for (size_t i = 0; i < p1->axes.size(); ++i)
    if (!used1[i]) {
      m.starts.push_back(p1->starts[i]);
      m.ends.push_back(p1->ends[i]);
      m.axes.push_back(p1->axes[i]);
      m.steps.push_back(p1->steps[i]);
    }
  bool asAttrs = c.opset < 10;
  if (asAttrs)
    for (int64_t s : m.steps)
      if (s != 1) return MatchResult::failure("Slice before opset 10 has no steps");
  return MatchResult::success({&outer, inner}, [&outer, inner, x, m,
                                                asAttrs](rewrite::Rewriter& rw) {
    ir::Node* n = fusion::addSliceNode(rw, x, &outer, m, asAttrs, {inner, &outer}, outer.output(0));
    fusion::replaceAndErase(rw, outer.output(0), n->output(0), {&outer, inner});
  });
}

// One axis, step 1, constant bounds: the Slice's [start, end) on an axis of size d.
struct Range {
  int64_t axis, start, end;
};
std::optional<Range> simpleRange(const ir::Node& s, Text& why) {
  auto rank = rankOf(s.input(0));
  if (!rank) {
    why = "the rank of the sliced tensor is unknown";
    return std::nullopt;
  }
  auto p = fusion::sliceParams(s, *rank, why);
  if (!p) return std::nullopt;
  if (p->axes.size() != 1 || p->steps[0] != 1) {
    why = "the Slice cuts more than one axis or has a step other than 1";
    return std::nullopt;
  }
  const ir::Dim& dim = (*s.input(0)->type().shape())[static_cast<size_t>(p->axes[0])];
  if (!dim.isStatic()) {
    why = "the sliced axis has no static size";
    return std::nullopt;
  }
  fusion::SliceRange r = fusion::resolveSlice(p->starts[0], p->ends[0], 1, dim.value());
  if (r.count == 0) {
    why = "the Slice is empty";
    return std::nullopt;
  }
  return Range{p->axes[0], r.start, r.start + r.count};
}

MatchResult sliceOfConcat(ir::Node& s, const MatchContext&) {
  ir::Node* cat = producerOp(s.input(0), "Concat");
  if (!cat) return MatchResult::failure("the input is not produced by a Concat");
  Text why;
  auto r = simpleRange(s, why);
  if (!r) return MatchResult::failure(why);
  auto rank = rankOf(s.input(0));
  int64_t axis = cat->attrInt("axis", 0);
  if (axis < 0) axis += *rank;
  if (axis != r->axis) return MatchResult::failure("the Slice cuts another axis than the Concat's");
  int64_t offset = 0;
  for (ir::Value* in : cat->inputs()) {
    auto d = fusion::dimsOf(in);
    if (!d || static_cast<int64_t>(d->size()) != *rank)
      return MatchResult::failure("a Concat input has no static shape");
    int64_t size = (*d)[axis];
    if (offset == r->start && offset + size == r->end) {
      if (Text w = rewrite::Rewriter::canReplace(s.output(0), in); !w.empty())
        return MatchResult::failure(w);
      return MatchResult::success({&s}, [&s, cat, in](rewrite::Rewriter& rw) {
        fusion::replaceAndErase(rw, s.output(0), in, {&s, cat});
      });
    }
    offset += size;
    if (offset > r->start) break;
  }
  return MatchResult::failure("the Slice range is not exactly one Concat input");
}

MatchResult slicesToSplit(ir::Node& root, const MatchContext& c) {
  Text why;
  auto rr = simpleRange(root, why);
  if (!rr) return MatchResult::failure(why);
  ir::Value* x = root.input(0);
  int64_t d = (*x->type().shape())[static_cast<size_t>(rr->axis)].value();
  std::vector<std::pair<ir::Node*, Range>> group;
  std::vector<ir::Node*> seen;
  for (const ir::Use& u : rewrite::usesInNodeOrder(x)) {
    ir::Node* n = u.node;
    if (u.inputIndex != 0 || n->opType() != "Slice" || !n->domain().empty() ||
        n->owner() != root.owner() || std::find(seen.begin(), seen.end(), n) != seen.end())
      continue;
    seen.push_back(n);
    Text w;
    auto r = simpleRange(*n, w);
    if (!r || r->axis != rr->axis) continue;
    group.push_back({n, *r});
  }
  if (group.size() < 2) return MatchResult::failure("no other Slice of the same input and axis");
  std::vector<int64_t> cuts{0, d};
  for (const auto& [n, r] : group) {
    cuts.push_back(r.start);
    cuts.push_back(r.end);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<size_t> part(group.size());
  for (size_t i = 0; i < group.size(); ++i) {
    auto it = std::lower_bound(cuts.begin(), cuts.end(), group[i].second.start);
    if (it + 1 == cuts.end() || *(it + 1) != group[i].second.end)
      return MatchResult::failure("the Slices of this input overlap; they do not split it");
    part[i] = static_cast<size_t>(it - cuts.begin());
  }
  std::vector<int64_t> sizes;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) sizes.push_back(cuts[i + 1] - cuts[i]);
  if (sizes.size() < 2) return MatchResult::failure("the Slices all take the whole axis");
  std::vector<int> outputsPerPart(sizes.size(), 0);
  for (size_t i = 0; i < group.size(); ++i)
    if (group[i].first->output(0)->isGraphOutput() && ++outputsPerPart[part[i]] > 1)
      return MatchResult::failure("two Slices of the same range are both graph outputs");
  std::vector<ir::Node*> nodes;
  for (const auto& g : group) nodes.push_back(g.first);
  int64_t axis = rr->axis;
  bool asAttr = c.opset < 13;
  return MatchResult::success(
      nodes, [x, group, part, sizes, axis, asAttr, nodes](rewrite::Rewriter& rw) {
        ir::Graph& g = *nodes[0]->owner();
        ir::Node* first = fusion::firstInOrder(g, nodes);
        std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
        std::vector<ir::Value*> ins{x};
        if (!asAttr)
          ins.push_back(addConstant(rw, g, first, "split", ir::Tensor::fromInt64s(sizes), from));
        ir::Node* split = rw.addNode(g, "Split", "", ins, sizes.size(), first, "", from);
        rw.setAttr(split, ir::Attribute::makeInt("axis", axis));
        if (asAttr) rw.setAttr(split, ir::Attribute::makeInts("split", sizes));
        for (size_t i = 0; i < group.size(); ++i) {
          ir::Value* out = split->output(part[i]);
          if (out->type().isUndefined()) rw.setType(out, group[i].first->output(0)->type());
          rw.replaceAllUsesWith(group[i].first->output(0), out);
        }
        for (ir::Node* n : nodes) removeWithConstants(rw, n);
      });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Slice(Slice(x, p1), p2) -> Slice(x, p)   (axes cut twice need a static size)
  fusion::addRule(r, "slice_of_slice", "Slice(Slice(x)) -> Slice(x)", {"Slice"}, sliceOfSlice);
  // Slice(Concat(a, b, c), range of b) -> b
  fusion::addRule(r, "slice_of_concat", "Slice(Concat(a, b, c), exactly b's range) -> b", {"Slice"},
                  sliceOfConcat);
  // Slice(x, [0, a)), Slice(x, [a, d)) -> Split(x, [a, d - a])
  fusion::addRule(r, "slices_to_split", "Slices of x partitioning one axis -> Split(x)", {"Slice"},
                  slicesToSplit);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeMergeConsecutiveSlices() {
  return std::make_unique<PatternPass>(catalogInfo("merge_consecutive_slices"), rules());
}

}  // namespace passlab::passes
