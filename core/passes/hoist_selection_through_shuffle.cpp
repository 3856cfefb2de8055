// hoist_selection_through_shuffle — a Gather, Split or Slice that takes whole
// groups out of a channel shuffle selects them before the shuffle's Transpose,
// and the Transpose goes (issue 24; ONNX Runtime gathers on the pre-transpose
// axis the same way).
//
// Before:  r = Reshape(x, [N, 2, C/2, H, W]); t = Transpose<perm = [0,2,1,3,4]>(r)
//          y = Reshape(t, [N, C, H, W]); e = Slice<start 0, step 2, axis 1>(y)
// After:   e = Reshape(Slice(r, [0], [1], axes = [1]), [N, C/2, H, W])   (group 0, unshuffled)
// Before:  r = Reshape(x, [N*C/2, 2, H*W]); t = Transpose<perm = [1,0,2]>(r)
//          y = Reshape(t, [2, N, C/2, H, W]); a = Gather(y, 0); b = Gather(y, 1)
//          (ShuffleNetV2's own channel split; Split(y, [1, 1]) likewise)
// After:   a = Reshape(Gather(r, 0, axis = 1), [N, C/2, H, W]); b = ... Gather(r, 1, axis = 1)
// Algebra: each result takes one index k of an axis a of the Transpose's
// output t (a Gather with one index, a Split into parts of 1, a Slice of
// one element; through a Reshape after t that keeps axis a, or that merges
// axes a-1 and a into one, where a Slice with step t[a] from k takes the
// whole axis a-1: element k + j*t[a] is t[.., j, k, ..]). Taking index k of
// t's axis a is taking index k of r's axis perm[a] and transposing the rest;
// when the remaining axes that are not 1 keep their order under perm, that
// transpose moves no data, so a Reshape to the result's shape does it.
// Conditions: static shapes for r, t, the Reshape after t and the results;
// every reader of t (and of that Reshape) is such a selection (a consumer
// that needs the whole shuffled tensor keeps the Transpose alive, and the
// rewrite would only add nodes), neither is a graph output; Gather indices
// and Slice parameters are constants, in range; Split parts all 1 (the
// contiguous halves of a shuffle are themselves interleaved, not a group).
// Exact (the same elements, moved). Opsets: 5-28 (Reshape's shape input).
#include <map>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

using rewrite::nodeText;

// The shuffle a selection reads: v = t or v = Reshape(t), t = Transpose(r).
struct Shuffle {
  ir::Node* transpose = nullptr;
  ir::Node* reshape = nullptr;  // after the Transpose, or nullptr
  ir::Value* r = nullptr;
  std::vector<int64_t> perm, rDims, tDims, vDims;
};

// What one selection takes: index picks[o] of t's axis `axis` for output o.
struct Selection {
  ir::Node* node = nullptr;
  int64_t axis = 0;
  std::vector<int64_t> picks;
};

int64_t product(const std::vector<int64_t>& d, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= d[i];
  return p;
}

std::optional<Shuffle> findShuffle(ir::Value* v, Text& why) {
  Shuffle s;
  s.transpose = producerOp(v, "Transpose");
  if (!s.transpose) {
    s.reshape = producerOp(v, "Reshape");
    s.transpose = s.reshape ? producerOp(s.reshape->input(0), "Transpose") : nullptr;
  }
  if (!s.transpose) {
    why = "the input is not a Transpose, or a Reshape of one";
    return std::nullopt;
  }
  s.r = s.transpose->input(0);
  auto perm = fusion::transposePerm(*s.transpose);
  auto rd = fusion::dimsOf(s.r), td = fusion::dimsOf(s.transpose->output(0)),
       vd = fusion::dimsOf(v);
  if (!perm || !rd || !td || !vd || perm->size() != rd->size()) {
    why = "the shapes around the Transpose are not static";
    return std::nullopt;
  }
  s.perm = *perm;
  s.rDims = *rd;
  s.tDims = *td;
  s.vDims = *vd;
  return s;
}

// The axis of t that axis b of v is (v = t, or a Reshape keeping it), or -1.
int64_t keptAxis(const Shuffle& s, size_t b) {
  if (!s.reshape) return static_cast<int64_t>(b);
  const int64_t before = product(s.vDims, 0, b);
  for (size_t a = 0; a < s.tDims.size(); ++a)
    if (product(s.tDims, 0, a) == before && s.tDims[a] == s.vDims[b])
      return static_cast<int64_t>(a);
  return -1;
}

std::optional<Selection> gatherSelection(ir::Node& g, const Shuffle& s, Text& why) {
  auto idx = constantInts(g.input(1));
  auto r = static_cast<int64_t>(s.vDims.size());
  int64_t b = g.attrInt("axis", 0);
  if (b < 0) b += r;
  if (!idx || idx->size() != 1) {
    why = Text::of("%1: the indices are not one constant", nodeText(g));
    return std::nullopt;
  }
  int64_t a = (b >= 0 && b < r) ? keptAxis(s, static_cast<size_t>(b)) : -1;
  if (a < 0) {
    why = Text::of("%1: axis %2 is not an axis of the Transpose's result", nodeText(g),
                   std::to_string(b));
    return std::nullopt;
  }
  int64_t k = (*idx)[0] < 0 ? (*idx)[0] + s.tDims[a] : (*idx)[0];
  if (k < 0 || k >= s.tDims[a]) {
    why = Text::of("%1: the index is out of range", nodeText(g));
    return std::nullopt;
  }
  return Selection{.node = &g, .axis = a, .picks = {k}};
}

std::optional<Selection> splitSelection(ir::Node& sp, const Shuffle& s, Text& why) {
  auto r = static_cast<int64_t>(s.vDims.size());
  int64_t b = sp.attrInt("axis", 0);
  if (b < 0) b += r;
  int64_t a = (b >= 0 && b < r) ? keptAxis(s, static_cast<size_t>(b)) : -1;
  if (a < 0) {
    why = Text::of(
        "%1: axis %2 is not an axis of the Transpose's result (contiguous parts of shuffled "
        "channels interleave the groups; a group is every group-th channel, a Slice with a step)",
        nodeText(sp), std::to_string(b));
    return std::nullopt;
  }
  if (static_cast<int64_t>(sp.outputCount()) != s.tDims[a]) {
    why = Text::of(
        "%1: its parts are not single indices of the shuffled axis (a contiguous part of a shuffle "
        "is itself interleaved)",
        nodeText(sp));
    return std::nullopt;
  }
  for (const ir::Value* o : sp.outputs()) {
    auto d = fusion::dimsOf(o);
    if (!d || (*d)[b] != 1) {
      why = Text::of("%1: its parts are not known to be single indices", nodeText(sp));
      return std::nullopt;
    }
  }
  Selection sel{.node = &sp, .axis = a, .picks = {}};
  for (int64_t k = 0; k < s.tDims[a]; ++k) sel.picks.push_back(k);
  return sel;
}

std::optional<Selection> sliceSelection(ir::Node& sl, const Shuffle& s, Text& why) {
  auto p = fusion::sliceParams(sl, static_cast<int64_t>(s.vDims.size()), why);
  if (!p) return std::nullopt;
  if (p->axes.size() != 1) {
    why = Text::of("%1: slices more than one axis", nodeText(sl));
    return std::nullopt;
  }
  const auto b = static_cast<size_t>(p->axes[0]);
  fusion::SliceRange range =
      fusion::resolveSlice(p->starts[0], p->ends[0], p->steps[0], s.vDims[b]);
  if (int64_t a = keptAxis(s, b); a >= 0 && range.count == 1)
    return Selection{.node = &sl, .axis = a, .picks = {range.start}};
  // v's axis b merging t's axes a-1 and a: step t[a] from k < t[a] over all of a-1.
  if (s.reshape) {
    const int64_t before = product(s.vDims, 0, b);
    for (size_t a = 1; a < s.tDims.size(); ++a)
      if (product(s.tDims, 0, a - 1) == before && s.tDims[a - 1] * s.tDims[a] == s.vDims[b] &&
          range.step == s.tDims[a] && range.start < s.tDims[a] && range.count == s.tDims[a - 1])
        return Selection{.node = &sl, .axis = static_cast<int64_t>(a), .picks = {range.start}};
  }
  why = Text::of("%1: does not take one index, or every group-th element, of a shuffled axis",
                 nodeText(sl));
  return std::nullopt;
}

std::optional<Selection> selectionOf(ir::Node& n, const Shuffle& s, Text& why) {
  if (n.domain() != "" && n.domain() != "ai.onnx") {
    why = Text::of("%1 needs the whole shuffled tensor", nodeText(n));
    return std::nullopt;
  }
  if (n.opType() == "Gather") return gatherSelection(n, s, why);
  if (n.opType() == "Split") return splitSelection(n, s, why);
  if (n.opType() == "Slice") return sliceSelection(n, s, why);
  why = Text::of("%1 needs the whole shuffled tensor", nodeText(n));
  return std::nullopt;
}

// "" when selecting one index of t's axis `a` leaves a Transpose that moves no data.
Text whyStillMoves(const Shuffle& s, int64_t a) {
  int64_t last = -1;
  for (size_t i = 0; i < s.perm.size(); ++i) {
    if (static_cast<int64_t>(i) == a || s.rDims[static_cast<size_t>(s.perm[i])] == 1) continue;
    if (s.perm[i] < last)
      return Text::of(
          "after taking one index of axis %1, perm %2 still moves data (not a shuffle of that "
          "axis)",
          std::to_string(a), intsText(s.perm));
    last = s.perm[i];
  }
  return "";
}

// Every selection reading the shuffle (through t or the Reshape after it).
std::optional<std::vector<Selection>> allSelections(const Shuffle& s, Text& why) {
  ir::Value* t = s.transpose->output(0);
  ir::Value* v = s.reshape ? s.reshape->output(0) : t;
  if (Text w = rewrite::whyNotReadOnlyBy(
          t, s.reshape ? std::vector<ir::Node*>{s.reshape} : std::vector<ir::Node*>{});
      s.reshape && !w.empty()) {
    why = Text::of("%1 (the shuffled tensor is needed whole)", w);
    return std::nullopt;
  }
  if (v->isGraphOutput()) {
    why = "the shuffled tensor is a graph output";
    return std::nullopt;
  }
  std::vector<Selection> sels;
  for (const ir::Use& u : rewrite::usesInNodeOrder(v)) {
    if (u.inputIndex != 0 || u.node->owner() != s.transpose->owner()) {
      why = Text::of("%1 needs the whole shuffled tensor", nodeText(*u.node));
      return std::nullopt;
    }
    if (!sels.empty() && sels.back().node == u.node) continue;
    auto sel = selectionOf(*u.node, s, why);
    if (!sel) return std::nullopt;
    if (Text w = whyStillMoves(s, sel->axis); !w.empty()) {
      why = w;
      return std::nullopt;
    }
    for (const ir::Value* o : u.node->outputs())
      if (!fusion::dimsOf(o)) {
        why = Text::of("%1: the result's shape is not static", nodeText(*u.node));
        return std::nullopt;
      }
    sels.push_back(*sel);
  }
  return sels;
}

// The selection `sel` rebuilt on r: one node taking index picks[o] of r's
// axis perm[axis] for each output o, then a Reshape where shapes differ.
// `shapes`: the shape constants made so far, one per shape.
void rebuild(rewrite::Rewriter& rw, const Shuffle& s, const Selection& sel, int64_t opset,
             std::map<std::vector<int64_t>, ir::Value*>& shapes) {
  ir::Node& n = *sel.node;
  ir::Graph& g = *n.owner();
  const int64_t ra = s.perm[static_cast<size_t>(sel.axis)];
  // r's dims with axis ra taken down to one index (gone for a scalar Gather index).
  std::vector<int64_t> taken = s.rDims;
  taken[static_cast<size_t>(ra)] = 1;
  std::vector<ir::Value*> outs;
  if (n.opType() == "Split") {
    std::vector<ir::Value*> ins{s.r};
    for (size_t i = 1; i < n.inputCount(); ++i) ins.push_back(n.input(i));
    ir::Node* sp = fusion::addDerived(rw, "Split", ins, &n, {&n}, &n, {}, n.outputCount());
    rw.setAttr(sp, ir::Attribute::makeInt("axis", ra));
    outs = sp->outputs();
  } else if (n.opType() == "Gather") {
    ir::Node* ga = fusion::addDerived(rw, "Gather", {s.r, n.input(1)}, &n, {&n});
    rw.setAttr(ga, ir::Attribute::makeInt("axis", ra));
    if (auto idx = rewrite::constantValue(n.input(1)); idx && idx->dims().empty())
      taken.erase(taken.begin() + ra);
    outs = ga->outputs();
  } else {
    fusion::SliceParams p{
        .starts = {sel.picks[0]}, .ends = {sel.picks[0] + 1}, .axes = {ra}, .steps = {1}};
    outs = fusion::addSliceNode(rw, s.r, &n, p, opset < 10, {&n}, nullptr)->outputs();
  }
  std::vector<ir::Value*> finals;
  for (size_t o = 0; o < outs.size(); ++o) {
    ir::Value* want = n.output(o);
    ir::Value* got = outs[o];
    if (fusion::dimsOf(want) == taken) {
      rw.setType(got, want->type());
    } else {
      std::vector<int64_t> dims = *fusion::dimsOf(want);
      ir::Value*& shape = shapes[dims];
      if (!shape) shape = addConstant(rw, g, &n, "shape", ir::Tensor::fromInt64s(dims), {&n});
      got = fusion::addDerived(rw, "Reshape", {got, shape}, &n, {&n}, nullptr, {want})->output(0);
    }
    finals.push_back(got);
  }
  for (size_t o = 0; o + 1 < finals.size(); ++o) rw.replaceAllUsesWith(n.output(o), finals[o]);
  fusion::replaceAndErase(rw, n.output(finals.size() - 1), finals.back(),
                          {&n, s.reshape, s.transpose});
}

MatchResult selectionOfShuffle(ir::Node& root, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 5, 28, "hoist_selection_through_shuffle"); !why.empty())
    return MatchResult::failure(why);
  Text why;
  auto s = findShuffle(root.input(0), why);
  if (!s) return MatchResult::failure(why);
  auto sels = allSelections(*s, why);
  if (!sels) return MatchResult::failure(why);
  std::vector<ir::Node*> matched{&root};
  for (const Selection& sel : *sels)
    if (sel.node != &root) matched.push_back(sel.node);
  if (s->reshape) matched.push_back(s->reshape);
  matched.push_back(s->transpose);
  const int64_t opset = c.opset;
  return MatchResult::success(matched, [s = *s, sels = *sels, opset](rewrite::Rewriter& rw) {
    std::map<std::vector<int64_t>, ir::Value*> shapes;
    for (const Selection& sel : sels) rebuild(rw, s, sel, opset, shapes);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Gather/Split/Slice of whole groups of Reshape?(Transpose(r)) -> the same taken from r
  fusion::addRule(r, "selection_of_shuffle",
                  "Gather, Split or Slice of whole groups of a channel shuffle -> the same "
                  "selection before the Transpose, which goes",
                  {"Gather", "Split", "Slice"}, selectionOfShuffle);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeHoistSelectionThroughShuffle() {
  return std::make_unique<PatternPass>(catalogInfo("hoist_selection_through_shuffle"), rules());
}

}  // namespace passlab::passes
