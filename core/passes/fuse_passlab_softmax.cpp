// fuse_passlab_softmax — a Softmax over the last axis with the scale and the
// additive mask before it, or the decomposed Exp / ReduceSum / Div softmax,
// becomes one ai.passlab FusedSoftmax that makes one pass per row with a
// vectorized exp (non-standard).
//
// Before:  t = x / c  or  x * c                (any number of scalar constants)
//          t = t + M  or  t - M                (optional, a float tensor)
//          y = Softmax(t, last axis)
//          or e = Exp(t [- ReduceMax(t, -1)]), y = Div(e, ReduceSum(e, -1, keepdims))
// After:   y = ai.passlab.FusedSoftmax<scale, mask_subtract>(x, M?)
// Algebra: the kernel computes softmax(scale * x +/- M) over the last axis,
// subtracting the row maximum (the decomposed form without it computes the
// same quotient); the scales are multiplied into one factor and its exp is a
// polynomial within 2 ulp of expf: results agree within rounding
// (changesNumerics).
// Conditions: float32; the Softmax over the last axis (before opset 13 the
// axis must be the last one, so the 2-D view is the same row); at least one
// scale or mask, or the decomposed form (a Softmax alone is not a fusion);
// the mask broadcasts into the scores without widening them (inferred
// shapes); each intermediate read only by the next step and not a graph
// output. A Softmax inside an attention is left to fuse_passlab_attention,
// which runs first in the fused level.
// Near misses, with the reason: the Softmax not over the last axis, nothing
// to fuse, not float32, a ReduceSum over other axes, an intermediate read
// elsewhere.
// Opsets: 1-28 (ReduceSum's axes as an input from 13, ReduceMax's from 18).
#include <algorithm>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"

namespace passlab::passes {

namespace {

bool isF32(const ir::Value* v) {
  return v && elemTypeOf(v) == ir::DataType::kFloat;
}

// True when `v` is read only by `next` (once, same graph) and is not a graph output.
bool privateTo(const ir::Value* v, const ir::Node* next) {
  return !v->isGraphOutput() && v->uses().size() == 1 && v->uses()[0].node == next;
}

// A Reduce* over the last axis of `x` with keepdims = 1.
bool reducesLastAxis(const ir::Node* n, const ir::Value* x) {
  if (!n || n->attrInt("keepdims", 1) != 1) return false;
  auto axes = rewrite::intsFromAttrOrInput(*n, "axes", 1);
  auto rank = rankOf(x);
  if (!axes || !rank || axes->size() != 1) return false;
  int64_t a = (*axes)[0] < 0 ? (*axes)[0] + *rank : (*axes)[0];
  return a == *rank - 1;
}

struct Chain {
  ir::Value* x = nullptr;
  ir::Value* mask = nullptr;
  bool subtract = false;
  double scale = 1.0;
  std::vector<ir::Node*> nodes;
};

// Peels the mask and the scales off `t` (the softmax input, read by `next`).
Text peel(ir::Value* t, ir::Node* next, Chain& c) {
  for (int guard = 0; guard < 8; ++guard) {
    ir::Node* n = t->producer();
    if (!n || !n->domain().empty() || n->inputCount() != 2 || n->outputCount() != 1 ||
        !privateTo(t, next) || !isF32(t))
      break;
    const std::string& op = n->opType();
    ir::Value* inner = nullptr;
    if ((op == "Add" || op == "Sub") && !c.mask && c.scale == 1.0) {
      size_t si = 0;
      if (op == "Add") {
        const bool a = fusedops::sameShape(n->input(0), t), b = fusedops::sameShape(n->input(1), t);
        si = a != b ? (a ? 0 : 1) : (rewrite::isConstant(n->input(0)) ? 1 : 0);
      }
      ir::Value* m = n->input(1 - si);
      if (!isF32(m) || !m->type().hasShape() || !t->type().hasShape()) break;
      const ir::Shape& ms = *m->type().shape();
      const ir::Shape& ts = *t->type().shape();
      bool into = ms.rank() <= ts.rank();
      for (size_t i = 0; into && i < ms.rank(); ++i) {
        const ir::Dim& d = ms[ms.rank() - 1 - i];
        into = d.sameAs(ir::Dim(1)) || d.sameAs(ts[ts.rank() - 1 - i]);
      }
      if (!into)
        return Text::of("the mask '%1' (%2) does not provably broadcast into the scores (%3)",
                        m->name(), typeText(m), typeText(t));
      c.mask = m;
      c.subtract = op == "Sub";
      inner = n->input(si);
    } else if (op == "Mul" || op == "Div") {
      size_t ci = op == "Div" || fusion::scalarValue(n->input(1)) ? 1 : 0;
      auto k = fusion::scalarValue(n->input(ci));
      if (!k || (op == "Div" && *k == 0) || rankOf(n->input(ci)) > rankOf(t)) break;
      c.scale = op == "Div" ? c.scale / *k : c.scale * *k;
      inner = n->input(1 - ci);
    } else {
      break;
    }
    if (!fusedops::sameShape(inner, t))
      return Text::of("'%1' (%2) does not have the shape of '%3' (%4)", inner->name(),
                      typeText(inner), t->name(), typeText(t));
    c.nodes.push_back(n);
    next = n;
    t = inner;
  }
  c.x = t;
  return "";
}

MatchResult finish(Chain c, ir::Node* last, bool decomposed) {
  if (!decomposed && c.nodes.empty())
    return MatchResult::failure(
        "a Softmax alone, with no scale or mask before it: nothing to fuse");
  if (!isF32(c.x)) return MatchResult::failure(Text::of("'%1' is not float32", c.x->name()));
  c.nodes.push_back(last);
  std::vector<ir::Node*> nodes = c.nodes;
  return MatchResult::success(nodes, [c = std::move(c), last](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from(c.nodes.begin(), c.nodes.end());
    std::vector<ir::Value*> ins{c.x};
    if (c.mask) ins.push_back(c.mask);
    ir::Node* f = fusedops::addFused(rw, "FusedSoftmax", ins, last, from, last->output(0));
    if (c.scale != 1.0)
      rw.setAttr(f, ir::Attribute::makeFloat("scale", static_cast<float>(c.scale)));
    if (c.subtract) rw.setAttr(f, ir::Attribute::makeInt("mask_subtract", 1));
    fusion::replaceAndErase(rw, last->output(0), f->output(0), c.nodes);
  });
}

MatchResult fuseSoftmax(ir::Node& sm, const MatchContext& c) {
  if (c.standardOnly) return MatchResult::failure("standard ONNX only: FusedSoftmax is ai.passlab");
  ir::Value* x = sm.input(0);
  auto rank = rankOf(x);
  if (!rank || *rank < 1) return MatchResult::failure("the Softmax input has no known rank");
  int64_t axis = sm.attrInt("axis", c.opset < 13 ? 1 : -1);
  if (axis < 0) axis += *rank;
  if (axis != *rank - 1) return MatchResult::failure("the Softmax is not over the last axis");
  if (!isF32(sm.output(0))) return MatchResult::failure("the Softmax is not on float32");
  Chain ch;
  if (Text why = peel(x, &sm, ch); !why.empty()) return MatchResult::failure(why);
  return finish(std::move(ch), &sm, false);
}

// Div(e, ReduceSum(e)) with e = Exp(t) or Exp(t - ReduceMax(t)).
MatchResult fuseDecomposed(ir::Node& div, const MatchContext& c) {
  if (c.standardOnly) return MatchResult::failure("standard ONNX only: FusedSoftmax is ai.passlab");
  ir::Node* exp = producerOp(div.input(0), "Exp");
  ir::Node* sum = producerOp(div.input(1), "ReduceSum");
  if (!exp || !sum || sum->input(0) != div.input(0))
    return MatchResult::failure("not Div(Exp(t), ReduceSum(Exp(t)))");
  ir::Value* e = div.input(0);
  if (!reducesLastAxis(sum, e))
    return MatchResult::failure("the ReduceSum is not over the last axis alone with keepdims = 1");
  if (!isF32(div.output(0))) return MatchResult::failure("the Div is not on float32");
  // e read by the Div and the ReduceSum only.
  if (e->isGraphOutput() || e->uses().size() != 2 || !privateTo(div.input(1), &div))
    return MatchResult::failure("the exponentials are read elsewhere");
  std::vector<ir::Node*> nodes{exp, sum};
  ir::Value* t = exp->input(0);
  ir::Node* next = exp;
  if (ir::Node* sub = producerOp(t, "Sub")) {
    ir::Node* mx = producerOp(sub->input(1), "ReduceMax");
    if (mx && mx->input(0) == sub->input(0) && reducesLastAxis(mx, sub->input(0)) &&
        privateTo(t, exp) && privateTo(sub->input(1), sub)) {
      ir::Value* u = sub->input(0);
      // u is read by the Sub and the ReduceMax only.
      if (u->isGraphOutput() || u->uses().size() != 2)
        return MatchResult::failure(
            Text::of("the shifted input '%1' is read elsewhere", u->name()));
      nodes.push_back(mx);
      nodes.push_back(sub);
      next = nullptr;  // u has two readers: no scale or mask peeled before it
      t = u;
    }
  }
  Chain ch;
  if (next) {
    if (Text why = peel(t, next, ch); !why.empty()) return MatchResult::failure(why);
  } else {
    ch.x = t;
  }
  ch.nodes.insert(ch.nodes.end(), nodes.begin(), nodes.end());
  return finish(std::move(ch), &div, true);
}

fusion::Rules rules() {
  fusion::Rules r;
  // Softmax(x * scale +/- M) -> ai.passlab.FusedSoftmax(x, M)
  fusion::addRule(r, "passlab_softmax",
                  "Softmax(scale * x +/- M) -> ai.passlab.FusedSoftmax (one pass per row)",
                  {"Softmax"}, fuseSoftmax);
  // Exp(t) / ReduceSum(Exp(t)) -> ai.passlab.FusedSoftmax
  fusion::addRule(r, "passlab_softmax_decomposed",
                  "Exp(t [- max]) / ReduceSum(Exp(t [- max])) -> ai.passlab.FusedSoftmax", {"Div"},
                  fuseDecomposed);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFusePasslabSoftmax() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_passlab_softmax"), rules());
}

}  // namespace passlab::passes
