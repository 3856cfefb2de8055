// fuse_passlab_attention — the scaled, masked dot-product attention of one
// head batch becomes one ai.passlab FusedAttention, which never holds more
// than a tile of rows of the scores (non-standard).
//
// Before:  s = MatMul(Q', Kt')                 (Q' = Q [/ or * c], Kt' = Kt [/ or * c])
//          s = s / c  or  s * c                 (any number of scalar constants)
//          s = s * M                            (optional, a float tensor: Megatron)
//          s = s + A  or  s - A                 (optional, a float tensor)
//          s = Where(B, s, f) or Where(B, f, s) (optional, B bool, f a scalar constant)
//          s = s + A                            (optional, when the Add is outside the Where:
//                                                GPT-2 with a padding mask)
//          y = MatMul(Softmax(s, last axis), V)
// After:   y = ai.passlab.FusedAttention<scale, k_transposed = 1, mask_subtract,
//                mask_filter_value = f, mask_keep, mask_add_after_bool>(Q, Kt, V, M?, A?, B?)
//          A Shape of an intermediate score tensor (GPT-2 and Megatron slice their
//          masks with the scores' length) becomes Concat(Shape(Q)[:-1], Shape(Kt)[-1:]).
// Algebra: the kernel computes scale * Q·Kt, then the masks in this order, the
// softmax over the last axis and the product with V: the chain's ops. The
// scale factors on Q and Kt move onto the product (scale = their product),
// the softmax's exp is a polynomial within 2 ulp of expf and the products run
// on oneDNN's sgemm: results agree within rounding (changesNumerics).
// Conditions: float32 Q, Kt, V, scores and masks (B bool); Q, Kt and V of
// known rank >= 2; Softmax over the last axis (before opset 13 its axis is
// the last one, so the 2-D view is the same); every step keeps the scores'
// shape (a mask broadcasts into it without widening; checked on the inferred
// shapes, symbols alike); each intermediate read only by the next step, or,
// for the scores, also by Shape nodes (when Q's batch dims are the scores'),
// never a graph output nor read in a subgraph; the probabilities read by one
// MatMul, as its left operand.
// Near misses, with the reason: the Softmax not over the last axis, the
// probabilities read elsewhere, the scores not a MatMul, a mask of another
// shape or type, an intermediate with another consumer, not float32.
// Opsets: 9-28 (Where from 9).
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"

namespace passlab::passes {

namespace {

struct Attention {
  ir::Node* softmax = nullptr;
  ir::Node* pv = nullptr;  // MatMul(P, V)
  ir::Node* qk = nullptr;  // MatMul(Q, Kt)
  ir::Value* q = nullptr;
  ir::Value* kt = nullptr;
  ir::Value* v = nullptr;
  ir::Value* mul = nullptr;  // mask_mul
  ir::Value* add = nullptr;  // mask_add
  bool subtract = false;
  bool addAfterBool = false;  // Where(b, s, f) + A: the Add outside the Where
  ir::Value* cond = nullptr;  // mask_bool
  bool keep = true;
  float filter = -10000.0f;
  double scale = 1.0;
  std::vector<ir::Node*> nodes;    // the chain, softmax and the two MatMuls
  std::vector<ir::Node*> shapes;   // Shape nodes reading scores
  std::vector<ir::Value*> scores;  // the intermediate score tensors
};

bool isF32(const ir::Value* v) {
  return v && elemTypeOf(v) == ir::DataType::kFloat;
}

// "" when `m` broadcasts into `s` without widening it (rank and dims known).
Text whyNotInto(const ir::Value* m, const ir::Value* s, const char* what) {
  if (!m->type().hasShape() || !s->type().hasShape())
    return Text::of("the %1 '%2' or the scores have no known shape", what, m->name());
  const ir::Shape& ms = *m->type().shape();
  const ir::Shape& ss = *s->type().shape();
  if (ms.rank() > ss.rank())
    return Text::of("the %1 '%2' (%3) widens the scores (%4)", what, m->name(), typeText(m),
                    typeText(s));
  for (size_t i = 0; i < ms.rank(); ++i) {
    const ir::Dim& d = ms[ms.rank() - 1 - i];
    if (d.sameAs(ir::Dim(1)) || d.sameAs(ss[ss.rank() - 1 - i])) continue;
    return Text::of("the %1 '%2' (%3) does not provably broadcast into the scores (%4)", what,
                    m->name(), typeText(m), typeText(s));
  }
  return "";
}

// The readers of a score tensor `v` other than `next`: "" when there are none
// but Shape nodes of the same graph (collected), else the reason.
Text whyNotPrivate(ir::Value* v, const ir::Node* next, std::vector<ir::Node*>& shapes) {
  if (v->isGraphOutput()) return Text::of("'%1' is a graph output", v->name());
  int nextUses = 0;
  for (const ir::Use& u : v->uses()) {
    if (u.node == next) {
      ++nextUses;
      continue;
    }
    if (u.node->owner() != v->owner()) return Text::of("'%1' is used inside a subgraph", v->name());
    if (u.node->domain().empty() && u.node->opType() == "Shape" && u.node->attributes().empty()) {
      shapes.push_back(u.node);
      continue;
    }
    return Text::of("'%1' has another consumer (%2)", v->name(), fusion::nodeText(*u.node));
  }
  if (nextUses != 1)
    return Text::of("'%1' is read twice by %2", v->name(), fusion::nodeText(*next));
  return "";
}

// Strips Div/Mul by scalar constants read only by the next step off an operand
// of the product, multiplying `scale`.
ir::Value* stripOperandScale(ir::Value* v, double& scale, std::vector<ir::Node*>& nodes) {
  for (;;) {
    ir::Node* n = v->producer();
    if (!n || !n->domain().empty() || n->inputCount() != 2 || n->outputCount() != 1 ||
        v->isGraphOutput() || v->uses().size() != 1 || !isF32(v))
      return v;
    if (n->opType() == "Div") {
      auto c = fusion::scalarValue(n->input(1));
      if (!c || *c == 0 || rewrite::isConstant(n->input(0)) || rankOf(n->input(1)) > rankOf(v))
        return v;
      scale /= *c;
      v = n->input(0);
    } else if (n->opType() == "Mul") {
      size_t ci = fusion::scalarValue(n->input(1)) ? 1 : 0;
      auto c = fusion::scalarValue(n->input(ci));
      if (!c || rewrite::isConstant(n->input(1 - ci)) || rankOf(n->input(ci)) > rankOf(v)) return v;
      scale *= *c;
      v = n->input(1 - ci);
    } else {
      return v;
    }
    nodes.push_back(n);
  }
}

// True when `x` may come from a step of the score chain (the product, a scale
// or a mask, the Where among them): which operand of a mask's Add or Mul
// holds the scores.
bool fromProduct(const ir::Value* x) {
  const ir::Node* p = x->producer();
  return p && p->domain().empty() &&
         (p->opType() == "MatMul" || p->opType() == "Mul" || p->opType() == "Div" ||
          p->opType() == "Where");
}

// Which operand of a mask's Add or Mul producing `out` holds the scores: the
// one from the score chain when only one is; else (both may, as in
// s + (1 - m) * -10000 or Where(b, s, f) + (1 - m) * -10000) the one of out's
// shape when only one is; else the first.
size_t scoresOperand(const ir::Node& n, const ir::Value* out) {
  const bool pa = fromProduct(n.input(0)), pb = fromProduct(n.input(1));
  if (pa != pb) return pa ? 0 : 1;
  const bool a = fusedops::sameShape(n.input(0), out), b = fusedops::sameShape(n.input(1), out);
  return a != b && b ? 1 : 0;
}

// Everything from the Softmax input back to the Q·Kt MatMul; false with `why`.
bool peel(Attention& a, Text& why) {
  ir::Value* s = a.softmax->input(0);
  ir::Node* next = a.softmax;
  enum Stage { kWhere, kAdd, kMul, kScale };
  int stage = kWhere;
  for (int guard = 0; guard < 16; ++guard) {
    if (!isF32(s)) {
      why = Text::of("'%1' is not float32", s->name());
      return false;
    }
    if (Text w = whyNotPrivate(s, next, a.shapes); !w.empty()) {
      why = w;
      return false;
    }
    a.scores.push_back(s);
    ir::Node* n = s->producer();
    if (!n || !n->domain().empty() || n->outputCount() != 1) {
      why = Text::of("the scores '%1' do not come from a MatMul of Q and Kᵀ", s->name());
      return false;
    }
    const std::string& op = n->opType();
    if (op == "MatMul") {
      a.qk = n;
      break;
    }
    ir::Value* inner = nullptr;
    // A Where inside the additive mask (GPT-2 with a padding mask: Where(b, s, f)
    // + A) is taken when nothing but that Add was peeled.
    const bool whereInsideAdd = stage == kMul && a.add && !a.cond && !a.mul && a.nodes.size() == 1;
    if (op == "Where" && (stage <= kWhere || whereInsideAdd) && n->inputCount() == 3) {
      const bool keep = fusion::scalarValue(n->input(2)).has_value();
      const size_t fi = keep ? 2 : 1;
      auto f = fusion::scalarValue(n->input(fi));
      if (!f || rankOf(n->input(fi)) > rankOf(s)) {
        why = "the Where does not write a scalar constant where the mask is off";
        return false;
      }
      ir::Value* c = n->input(0);
      if (elemTypeOf(c) != ir::DataType::kBool) {
        why = "the Where condition is not bool";
        return false;
      }
      if (Text w = whyNotInto(c, s, "mask"); !w.empty()) {
        why = w;
        return false;
      }
      a.cond = c;
      a.keep = keep;
      a.filter = static_cast<float>(*f);
      a.addAfterBool = whereInsideAdd;
      inner = n->input(keep ? 1 : 2);
      stage = whereInsideAdd ? kMul : kAdd;
    } else if ((op == "Add" || op == "Sub") && stage <= kAdd) {
      // The scores are the operand that leads on to the product: for Add
      // either, the one that is not a plain mask (an input or a constant).
      size_t si = op == "Add" ? scoresOperand(*n, s) : 0;
      ir::Value* m = n->input(1 - si);
      if (!isF32(m)) {
        why = Text::of("the additive mask '%1' is not float32", m->name());
        return false;
      }
      if (Text w = whyNotInto(m, s, "additive mask"); !w.empty()) {
        why = w;
        return false;
      }
      a.add = m;
      a.subtract = op == "Sub";
      inner = n->input(si);
      stage = kMul;
    } else if (op == "Mul" && stage <= kMul) {
      // A Mul by a non-scalar is the multiplicative mask; by a scalar constant, a scale.
      size_t ci = fusion::scalarValue(n->input(1)) ? 1 : 0;
      if (auto c = fusion::scalarValue(n->input(ci)); c && rankOf(n->input(ci)) <= rankOf(s)) {
        a.scale *= *c;
        inner = n->input(1 - ci);
        stage = kScale;
      } else {
        size_t si = scoresOperand(*n, s);
        ir::Value* m = n->input(1 - si);
        if (!isF32(m)) {
          why = Text::of("the multiplicative mask '%1' is not float32", m->name());
          return false;
        }
        if (Text w = whyNotInto(m, s, "multiplicative mask"); !w.empty()) {
          why = w;
          return false;
        }
        a.mul = m;
        inner = n->input(si);
        stage = kScale;
      }
    } else if (op == "Div" && n->inputCount() == 2) {
      auto c = fusion::scalarValue(n->input(1));
      if (!c || *c == 0 || rankOf(n->input(1)) > rankOf(s)) {
        why = "the scores are divided by something other than a scalar constant";
        return false;
      }
      a.scale /= *c;
      inner = n->input(0);
      stage = kScale;
    } else {
      why = Text::of(
          "the scores '%1' come from %2, not a scale, a mask or the Q·Kᵀ MatMul (in that order)",
          s->name(), fusion::nodeText(*n));
      return false;
    }
    if (!fusedops::sameShape(inner, s)) {
      why = Text::of("'%1' (%2) does not have the scores' shape (%3)", inner->name(),
                     typeText(inner), typeText(s));
      return false;
    }
    a.nodes.push_back(n);
    next = n;
    s = inner;
  }
  if (!a.qk) {
    why = "the chain before the Softmax is too long";
    return false;
  }
  a.nodes.push_back(a.qk);
  a.q = stripOperandScale(a.qk->input(0), a.scale, a.nodes);
  a.kt = stripOperandScale(a.qk->input(1), a.scale, a.nodes);
  return true;
}

MatchResult fuse(ir::Node& softmax, const MatchContext& c) {
  if (c.standardOnly)
    return MatchResult::failure("standard ONNX only: FusedAttention is ai.passlab");
  if (Text why = fusion::whyNotOpset(c, 9, 28, "fuse_passlab_attention"); !why.empty())
    return MatchResult::failure(why);
  ir::Value* x = softmax.input(0);
  auto rank = rankOf(x);
  if (!rank || *rank < 2) return MatchResult::failure("the Softmax input has no known rank >= 2");
  int64_t axis = softmax.attrInt("axis", c.opset < 13 ? 1 : -1);
  if (axis < 0) axis += *rank;
  if (axis != *rank - 1) return MatchResult::failure("the Softmax is not over the last axis");
  ir::Value* p = softmax.output(0);
  if (!isF32(p)) return MatchResult::failure("the Softmax is not on float32");
  if (p->isGraphOutput()) return MatchResult::failure("the probabilities are a graph output");
  if (p->uses().size() != 1 || p->uses()[0].node->owner() != softmax.owner())
    return MatchResult::failure(
        Text::of("the probabilities have %1 consumers (or one in a subgraph), not one MatMul",
                 std::to_string(p->uses().size())));
  ir::Node* pv = fusion::defaultOp(p->uses()[0].node, "MatMul");
  if (!pv || pv->input(0) != p || pv->input(1) == p)
    return MatchResult::failure("the probabilities are not the left operand of a MatMul");
  Attention a;
  a.softmax = &softmax;
  a.pv = pv;
  a.v = pv->input(1);
  Text why;
  if (!peel(a, why)) return MatchResult::failure(why);
  for (const ir::Value* t : {a.q, a.kt, a.v})
    if (!isF32(t) || rankOf(t).value_or(0) < 2)
      return MatchResult::failure(Text::of("'%1' is not a float32 tensor of rank >= 2", t->name()));
  if (!isF32(pv->output(0))) return MatchResult::failure("the result is not float32");
  // Shape readers of the scores: rebuilt from Q's leading dims and Kt's last.
  ir::Value* scores = a.qk->output(0);
  if (!a.shapes.empty()) {
    const auto& qs = a.q->type().shape();
    const auto& ss = scores->type().shape();
    bool ok = qs && ss && qs->rank() == ss->rank();
    for (size_t i = 0; ok && i + 1 < ss->rank(); ++i) ok = (*qs)[i].sameAs((*ss)[i]);
    if (!ok)
      return MatchResult::failure(Text::of(
          "the scores are read by a Shape node and Q's leading dims (%1) are not the scores' (%2)",
          typeText(a.q), typeText(scores)));
  }
  std::vector<ir::Node*> matched = a.nodes;
  matched.push_back(&softmax);
  matched.push_back(pv);
  const int64_t opset = c.opset;
  const int64_t r = *rank;
  return MatchResult::success(matched, [a, matched, opset, r](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from(matched.begin(), matched.end());
    ir::Graph& g = *a.pv->owner();
    // Inputs: Q, Kt, V, then the masks (absent ones empty, trailing ones dropped).
    std::vector<ir::Value*> ins{a.q, a.kt, a.v, a.mul, a.add, a.cond};
    while (ins.size() > 3 && !ins.back()) ins.pop_back();
    ir::Node* f = fusedops::addFused(rw, "FusedAttention", ins, a.pv, from, a.pv->output(0));
    rw.setAttr(f, ir::Attribute::makeFloat("scale", static_cast<float>(a.scale)));
    rw.setAttr(f, ir::Attribute::makeInt("k_transposed", 1));
    if (a.subtract) rw.setAttr(f, ir::Attribute::makeInt("mask_subtract", 1));
    if (a.cond) {
      rw.setAttr(f, ir::Attribute::makeFloat("mask_filter_value", a.filter));
      if (!a.keep) rw.setAttr(f, ir::Attribute::makeInt("mask_keep", 0));
      if (a.add && a.addAfterBool) rw.setAttr(f, ir::Attribute::makeInt("mask_add_after_bool", 1));
    }
    // Shape(scores) = Concat(Shape(Q)[:-1], Shape(Kt)[-1:]).
    for (ir::Node* sh : a.shapes) {
      auto i64 = [&](int64_t n) {
        return ir::Type::tensor(ir::DataType::kInt64, ir::Shape::fromValues({n}));
      };
      auto part = [&](ir::Value* t, int64_t start, int64_t end, int64_t n) {
        if (opset >= 15) {
          ir::Node* s = fusion::addDerived(rw, "Shape", {t}, sh, from);
          if (start != 0) rw.setAttr(s, ir::Attribute::makeInt("start", start));
          if (end != std::numeric_limits<int64_t>::max())
            rw.setAttr(s, ir::Attribute::makeInt("end", end));
          rw.setType(s->output(0), i64(n));
          return s->output(0);
        }
        ir::Node* s = fusion::addDerived(rw, "Shape", {t}, sh, from);
        rw.setType(s->output(0), i64(r));
        fusion::SliceParams sp{{start}, {end}, {0}, {1}};
        ir::Node* sl = fusion::addSliceNode(rw, s->output(0), sh, sp, opset < 10, from, nullptr);
        rw.setType(sl->output(0), i64(n));
        return sl->output(0);
      };
      ir::Value* lead = part(a.q, 0, -1, r - 1);
      ir::Value* last = part(a.kt, -1, std::numeric_limits<int64_t>::max(), 1);
      ir::Node* cat = fusion::addDerived(rw, "Concat", {lead, last}, sh, from);
      rw.setAttr(cat, ir::Attribute::makeInt("axis", 0));
      rw.setType(cat->output(0), i64(r));
      rw.replaceAllUsesWith(sh->output(0), cat->output(0));
      rw.removeNode(sh);
    }
    (void)g;
    std::vector<ir::Node*> dead{a.pv, a.softmax};
    dead.insert(dead.end(), a.nodes.begin(), a.nodes.end());
    fusion::replaceAndErase(rw, a.pv->output(0), f->output(0), dead);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // MatMul(Softmax(mask(scale * MatMul(Q, Kt))), V) -> ai.passlab.FusedAttention(Q, Kt, V, masks)
  fusion::addRule(r, "passlab_attention",
                  "Softmax(mask(Q·Kᵀ·scale))·V -> ai.passlab.FusedAttention (a tile of "
                  "scores at a time)",
                  {"Softmax"}, fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFusePasslabAttention() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_passlab_attention"), rules());
}

}  // namespace passlab::passes
