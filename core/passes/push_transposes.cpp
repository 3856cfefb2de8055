// push_transposes — Transposes pushed through elementwise ops and reductions until they cancel,
// merge, or are absorbed.
//
// Rule transpose_through_chain:
//   Before:  t = Transpose(x, p1); u = Relu(Add(t, c)); y = Transpose(u, p2)
//   After:   u = Relu(Add(x, c')); y = Transpose(u, q), q[i] = p1[p2[i]]   (no Transpose when q is
//            the identity; c' = c transposed back by p1's inverse, folded)
//   Algebra: an elementwise op commutes with a permutation of the axes of all
//   its operands: f(T(x), c) = T(f(x, T^-1(c))) (c first broadcast to full
//   rank); a reduction over axes A of T(x) is T of the reduction over p1[A]
//   of x (without keepdims, and a Squeeze, T drops those axes; an Unsqueeze
//   inserts its size-1 axes in place in x's result, and T leaves them there);
//   an op with axis parameters (Softmax, Gather,
//   Slice, Pad, Resize, Q/DQ per axis, ...: transpose_axis_ops.h) on T(x) is
//   T of the op on x with its axes mapped through p1. So the first Transpose
//   moves down the chain to meet the second, and the two compose.
//   Conditions: every value from t to u feeds only the next node of the chain
//   (not graph outputs, not read in subgraphs); side operands are constants
//   of rank at most x's; reductions, Squeeze and Unsqueeze have constant
//   axes; axis parameters are constants and those ops keep the rank; the
//   second Transpose has the rank the chain ends with; at most 64 ops
//   between the Transposes.
//   Cost: it fires only when the chain ends in a Transpose, so at least one
//   Transpose goes and none is added (ONNX Runtime's rule: push only when
//   Transposes cancel or merge).
// Rule transposes_into_binary:
//   Before:  y = Add(Transpose(a, p), Transpose(b, p))      (a, b of the same rank)
//   After:   y = Transpose(Add(a, b), p)
//   Algebra: the same permutation on both operands of an elementwise op.
// Rule reduce_absorbs_transpose:
//   Before:  t = Transpose(x, p); y = ReduceMean(t, axes = A, keepdims = 0)
//   After:   y = ReduceMean(x, axes = p[A], keepdims = 0)
//   Algebra: the reduction sees the same elements; the result equals when the
//   axes it keeps are in the same order in t and in x (keepdims = 1: when p
//   leaves every kept axis in place).
// Rule transposes_through_concat:
//   Before:  c = Concat(Transpose(a, p), Reshape(b, s), axis = k); y = Transpose(c, q); z = f(c)
//            (q the inverse of p)
//   After:   c2 = Concat(a, Reshape(b, s'), axis = p[k]); y = c2; z = f(Transpose(c2, p))
//   Algebra: Concat along k of T_p(x_i) is T_p of Concat along p[k] of the
//   x_i. An input that is no Transpose by p joins as T_q of itself, which
//   for a Reshape whose q moves only dims of size 1 is a Reshape to the
//   permuted shape s' (the elements keep their order), and for a constant
//   is the constant permuted. The inverse Transposes after the Concat then
//   cancel; other readers keep a Transpose by p of the new Concat.
//   Conditions: every input read only by the Concat; at least one Transpose
//   input, all by the same p; a reader Transposes the result back by q (so
//   at least two Transposes go and at most one comes: GPT-2's key cache,
//   Concat(Transpose(past_k), k_new) read by the attention MatMul and
//   transposed back for `present`, loses one node per layer).
// Exact: the same elements meet the same operations in the same order (a
// reduction may sum in another memory order: last bits).
// Opsets: 1-28 (reduce axes: attribute or input, rewritten in the same form).
#include <algorithm>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/transpose_axis_ops.h"

namespace passlab::passes {

namespace {

bool isReduce(const ir::Node& n) {
  static const std::vector<std::string> ops = {
      "ReduceSum", "ReduceMean", "ReduceMax",       "ReduceMin",    "ReduceProd",
      "ReduceL1",  "ReduceL2",   "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"};
  return n.domain().empty() && std::find(ops.begin(), ops.end(), n.opType()) != ops.end();
}

std::vector<int64_t> inverse(const std::vector<int64_t>& p) {
  std::vector<int64_t> q(p.size());
  for (size_t i = 0; i < p.size(); ++i) q[p[i]] = static_cast<int64_t>(i);
  return q;
}

bool isPerm(const std::vector<int64_t>& p) {
  std::vector<int64_t> s = p;
  std::sort(s.begin(), s.end());
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] != static_cast<int64_t>(i)) return false;
  return true;
}

// A reduction's axes normalized against `rank`; nullopt when not constant or "all".
std::optional<std::vector<int64_t>> reduceAxes(const ir::Node& n, int64_t rank) {
  auto a = rewrite::intsFromAttrOrInput(n, "axes", 1);
  if (!a || a->empty()) return std::nullopt;
  return normalizeAxes(*a, rank);
}

// Sets a reduction's axes the way the node carries them (attribute or input).
void setAxes(rewrite::Rewriter& rw, ir::Node* n, const std::vector<int64_t>& axes) {
  setIntsParam(rw, n, "axes", 1, !n->hasAttr("axes") && n->input(1) != nullptr, axes);
}

// The type `v` would have with its dims permuted: dims[i] of the result = dims[perm[i]].
ir::Type permutedType(const ir::Value* v, const std::vector<int64_t>& perm) {
  const ir::Type& t = v->type();
  if (!t.isTensor() || !t.hasShape() || t.shape()->rank() != perm.size()) return ir::Type();
  std::vector<ir::Dim> d;
  for (int64_t p : perm) d.push_back((*t.shape())[static_cast<size_t>(p)]);
  return ir::Type::tensor(t.elemType(), ir::Shape(d));
}

struct ChainStep {
  ir::Node* node;
  std::vector<std::optional<ir::Tensor>> folded;  // per input: new constant, or keep
  std::vector<int64_t> axes;                      // reductions, Squeeze, Unsqueeze: axes of x
  std::vector<AxisAttribute> attrs;               // axis attributes mapped to x
  std::vector<int64_t> permAfter;  // the old result is Transpose(new result, permAfter)
};

// The perm after dropping the axes `gone` of x (a reduction without keepdims,
// a Squeeze): the remaining entries, renumbered.
std::vector<int64_t> withoutAxes(const std::vector<int64_t>& perm,
                                 const std::vector<int64_t>& goneOfX) {
  std::vector<int64_t> out;
  for (int64_t p : perm) {
    if (std::find(goneOfX.begin(), goneOfX.end(), p) != goneOfX.end()) continue;
    int64_t below = 0;
    for (int64_t g : goneOfX) below += g < p ? 1 : 0;
    out.push_back(p - below);
  }
  return out;
}

// The perm after inserting size-1 axes at `inserted` (axes of the result, the
// same for x's result): they stay in place, the others follow `perm`.
std::vector<int64_t> withAxes(const std::vector<int64_t>& perm,
                              const std::vector<int64_t>& inserted) {
  const size_t rank = perm.size() + inserted.size();
  std::vector<bool> isNew(rank, false);
  for (int64_t a : inserted) isNew[static_cast<size_t>(a)] = true;
  std::vector<int64_t> kept;  // kept[m]: the position of x's m-th old axis
  for (size_t j = 0; j < rank; ++j)
    if (!isNew[j]) kept.push_back(static_cast<int64_t>(j));
  std::vector<int64_t> out(rank);
  for (size_t j = 0, k = 0; j < rank; ++j)
    out[j] = isNew[j] ? static_cast<int64_t>(j) : kept[static_cast<size_t>(perm[k++])];
  return out;
}

// Reductions (keepdims or not), Squeeze and Unsqueeze: their axes mapped to x.
std::optional<ChainStep> axesStep(ir::Node& next, const ir::Value* cur,
                                  const std::vector<int64_t>& perm, Text& why) {
  ChainStep s{&next, std::vector<std::optional<ir::Tensor>>(next.inputCount()), {}, {}, perm};
  if (next.input(0) != cur) {
    why = Text::of("%1 reads the chain as its axes", next.opType());
    return std::nullopt;
  }
  const bool unsqueeze = next.opType() == "Unsqueeze";
  const auto rank = static_cast<int64_t>(perm.size());
  auto given = rewrite::intsFromAttrOrInput(next, "axes", 1);
  auto axes =
      given && !given->empty()
          ? normalizeAxes(*given, unsqueeze ? rank + static_cast<int64_t>(given->size()) : rank)
          : std::nullopt;
  if (!axes) {
    why = !given           ? Text::of("%1 axes are not constant", next.opType())
          : given->empty() ? Text::of("%1 has no axes (it works on every axis)", next.opType())
                           : Text::of("%1 axes are out of range", next.opType());
    return std::nullopt;
  }
  if (unsqueeze) {
    s.axes = *axes;
    s.permAfter = withAxes(perm, *axes);
    return s;
  }
  for (int64_t a : *axes) s.axes.push_back(perm[static_cast<size_t>(a)]);
  const bool keepdims = next.opType() != "Squeeze" && next.attrInt("keepdims", 1) == 1;
  if (!keepdims) s.permAfter = withoutAxes(perm, s.axes);
  return s;
}

// An elementwise op: its constant side operands transposed back.
std::optional<ChainStep> elementwiseStep(ir::Node& next, const ir::Value* cur,
                                         const std::vector<int64_t>& perm, Text& why) {
  ChainStep s{&next, std::vector<std::optional<ir::Tensor>>(next.inputCount()), {}, {}, perm};
  const auto r = static_cast<int64_t>(perm.size());
  const size_t data = next.opType() == "Clip" ? 1 : next.inputCount();
  for (size_t i = 0; i < data; ++i) {
    ir::Value* in = next.input(i);
    if (in == cur) continue;
    auto c = rewrite::constantValue(in);
    if (!c) {
      why = Text::of("%1 has a non-constant side operand", next.opType());
      return std::nullopt;
    }
    if (static_cast<int64_t>(c->rank()) > r) {
      why = "a side operand has a higher rank than x";
      return std::nullopt;
    }
    if (c->numel() == 1 && c->rank() == 0) continue;  // a scalar stays
    auto tt = fusion::transposeTensor(fusion::withRank(*c, static_cast<size_t>(r)), inverse(perm));
    if (!tt) {
      why = "a side operand cannot be transposed here";
      return std::nullopt;
    }
    s.folded[i] = std::move(*tt);
  }
  return s;
}

// The step at `next`, which reads `cur` = Transpose(x's value, perm).
std::optional<ChainStep> stepThrough(ir::Node& next, const ir::Value* cur,
                                     const std::vector<int64_t>& perm, const MatchContext& ctx,
                                     Text& why) {
  if (isReduce(next) || isDefaultOp(next, "Squeeze") || isDefaultOp(next, "Unsqueeze"))
    return axesStep(next, cur, perm, why);
  if (fusion::isElementwise(next) && next.opType() != "Identity")
    return elementwiseStep(next, cur, perm, why);
  if (hasAxisParameters(next)) {
    Text inner;
    auto remap = remapAxesThroughTranspose(next, cur, perm, ctx.opset, inner);
    if (!remap) {
      why = Text::of("the chain meets %1, which it cannot pass: %2", fusion::nodeText(next), inner);
      return std::nullopt;
    }
    ChainStep s{&next, std::move(remap->inputs), {}, std::move(remap->attrs), perm};
    s.folded.resize(std::max(s.folded.size(), next.inputCount()));
    return s;
  }
  why = Text::of("the chain meets %1, which a Transpose does not pass", fusion::nodeText(next));
  return std::nullopt;
}

MatchResult throughChain(ir::Node& t1, const MatchContext& ctx) {
  auto p1 = fusion::transposePerm(t1);
  if (!p1 || !isPerm(*p1)) return MatchResult::failure("the perm is unknown");
  std::vector<int64_t> perm = *p1;  // the chain's value is Transpose(x's value, perm)
  std::vector<ChainStep> chain;
  ir::Value* cur = t1.output(0);
  ir::Node* t2 = nullptr;
  Text why;
  for (int steps = 0; steps < 64; ++steps) {
    ir::Node* next = rewrite::soleConsumer(cur, &why);
    if (!next) return MatchResult::failure(Text::of("on the way to another Transpose: %1", why));
    if (next->owner() != t1.owner()) return MatchResult::failure("the chain enters a subgraph");
    if (isDefaultOp(*next, "Transpose")) {
      t2 = next;
      break;
    }
    auto s = stepThrough(*next, cur, perm, ctx, why);
    if (!s) return MatchResult::failure(why);
    perm = s->permAfter;
    chain.push_back(std::move(*s));
    cur = next->output(0);
  }
  if (!t2) return MatchResult::failure("no Transpose within 64 ops");
  if (chain.empty())
    return MatchResult::failure("consecutive Transposes (fuse_consecutive_transposes)");
  auto p2 = fusion::transposePerm(*t2);
  if (!p2 || p2->size() != perm.size())
    return MatchResult::failure("the second perm differs in rank");
  std::vector<int64_t> q(p2->size());
  bool identity = true;
  for (size_t i = 0; i < q.size(); ++i) {
    q[i] = perm[static_cast<size_t>((*p2)[i])];
    identity = identity && q[i] == static_cast<int64_t>(i);
  }
  std::vector<ir::Node*> nodes{&t1};
  for (auto& s : chain) nodes.push_back(s.node);
  nodes.push_back(t2);
  return MatchResult::success(nodes, [&t1, t2, chain, q, identity, nodes](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    ir::Value* cur = t1.input(0);
    ir::Value* old = t1.output(0);
    for (const auto& s : chain) {
      std::vector<ir::Value*> ins = s.node->inputs();
      ins.resize(std::max(ins.size(), s.folded.size()),
                 nullptr);  // an optional input made explicit
      for (size_t i = 0; i < ins.size(); ++i) {
        if (ins[i] == old)
          ins[i] = cur;
        else if (s.folded[i])
          ins[i] = addConstant(rw, *t2->owner(), t2,
                               (ins[i] ? ins[i]->name() : s.node->output(0)->name()) + "_t",
                               *s.folded[i], from);
      }
      ir::Node* n = fusion::addDerived(rw, s.node->opType(), ins, t2, from, s.node);
      ir::Type ty = permutedType(s.node->output(0), inverse(s.permAfter));
      if (!ty.isUndefined()) rw.setType(n->output(0), ty);
      if (!s.axes.empty()) setAxes(rw, n, s.axes);
      for (const AxisAttribute& a : s.attrs) rw.setAttr(n, a.toAttribute());
      old = s.node->output(0);
      cur = n->output(0);
    }
    ir::Value* result = cur;
    if (!identity) {
      ir::Node* t = fusion::addDerived(rw, "Transpose", {cur}, t2, from, nullptr, {t2->output(0)});
      rw.setAttr(t, ir::Attribute::makeInts("perm", q));
      result = t->output(0);
    }
    fusion::replaceAndErase(rw, t2->output(0), result, nodes);
  });
}

MatchResult intoBinary(ir::Node& op, const MatchContext&) {
  if (!fusion::isElementwiseBinary(op)) return MatchResult::failure("not a binary elementwise op");
  ir::Node* ta = producerOp(op.input(0), "Transpose");
  ir::Node* tb = producerOp(op.input(1), "Transpose");
  if (!ta || !tb) return MatchResult::failure("not both operands are Transposes");
  if (ta == tb) return MatchResult::failure("both operands are the same Transpose");
  auto pa = fusion::transposePerm(*ta), pb = fusion::transposePerm(*tb);
  if (!pa || !pb || *pa != *pb) return MatchResult::failure("the Transposes have different perms");
  if (rankOf(ta->input(0)) != rankOf(tb->input(0)) || !rankOf(ta->input(0)))
    return MatchResult::failure("the operands' ranks differ or are unknown");
  for (ir::Node* t : {ta, tb})
    if (Text why = rewrite::whyNotSoleConsumer(t->output(0)); !why.empty())
      return MatchResult::failure(Text::of("Transpose output %1", why));
  std::vector<int64_t> perm = *pa;
  return MatchResult::success({&op, ta, tb}, [&op, ta, tb, perm](rewrite::Rewriter& rw) {
    ir::Node* n =
        fusion::addDerived(rw, op.opType(), {ta->input(0), tb->input(0)}, &op, {ta, tb, &op}, &op);
    ir::Type ty = permutedType(op.output(0), inverse(perm));
    if (!ty.isUndefined()) rw.setType(n->output(0), ty);
    ir::Node* t = fusion::addDerived(rw, "Transpose", {n->output(0)}, &op, {ta, tb, &op}, nullptr,
                                     {op.output(0)});
    rw.setAttr(t, ir::Attribute::makeInts("perm", perm));
    fusion::replaceAndErase(rw, op.output(0), t->output(0), {&op, ta, tb});
  });
}

MatchResult reduceAbsorbs(ir::Node& red, const MatchContext&) {
  ir::Node* t = producerOp(red.input(0), "Transpose");
  if (!t) return MatchResult::failure("the input is not produced by a Transpose");
  if (Text why = rewrite::whyNotSoleConsumer(red.input(0)); !why.empty())
    return MatchResult::failure(Text::of("Transpose output %1", why));
  auto p = fusion::transposePerm(*t);
  if (!p) return MatchResult::failure("the perm is unknown");
  int64_t r = static_cast<int64_t>(p->size());
  auto axes = reduceAxes(red, r);
  if (!axes) return MatchResult::failure(Text::of("%1 axes are not constant", red.opType()));
  std::vector<bool> reduced(static_cast<size_t>(r), false);
  for (int64_t a : *axes) reduced[a] = true;
  bool keep = red.attrInt("keepdims", 1) != 0;
  int64_t last = -1;
  for (int64_t i = 0; i < r; ++i) {
    if (reduced[i]) continue;
    if (keep ? (*p)[i] != i : (*p)[i] < last)
      return MatchResult::failure("the Transpose reorders the axes the reduction keeps");
    last = (*p)[i];
  }
  std::vector<int64_t> na;
  for (int64_t a : *axes) na.push_back((*p)[a]);
  std::sort(na.begin(), na.end());
  return MatchResult::success({&red, t}, [&red, t, na](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> ins = red.inputs();
    ins[0] = t->input(0);
    ir::Node* n = fusion::addDerived(rw, red.opType(), ins, &red, {t, &red}, &red, {red.output(0)});
    setAxes(rw, n, na);
    fusion::replaceAndErase(rw, red.output(0), n->output(0), {&red, t});
  });
}

// What joins the new Concat in place of one input of the old one.
struct ConcatPart {
  ir::Value* source = nullptr;         // the Transpose's input, or the Reshape's data
  ir::Node* gone = nullptr;            // the Transpose or Reshape it replaces
  std::vector<int64_t> reshapeTo;      // for a Reshape: the permuted shape
  std::optional<ir::Tensor> constant;  // for a constant: permuted
};

// Which dims of a value are known to be 1 (a symbolic dim may not be).
std::optional<std::vector<bool>> unitDims(const ir::Value* v) {
  const ir::Type& t = v->type();
  if (!t.isTensor() || !t.hasShape()) return std::nullopt;
  std::vector<bool> unit;
  for (const ir::Dim& d : t.shape()->dims()) unit.push_back(d.isStatic() && d.value() == 1);
  return unit;
}

// True when permuting by q moves only dims known to be 1: the others keep
// their order, so the elements do too.
bool movesOnlyUnitDims(const std::vector<bool>& unit, const std::vector<int64_t>& q) {
  int64_t last = -1;
  for (int64_t from : q) {
    if (unit[static_cast<size_t>(from)]) continue;
    if (from < last) return false;
    last = from;
  }
  return true;
}

MatchResult throughConcat(ir::Node& cat, const MatchContext&) {
  std::optional<std::vector<int64_t>> p;
  for (ir::Value* in : cat.inputs())
    if (ir::Node* t = producerOp(in, "Transpose")) {
      p = fusion::transposePerm(*t);
      break;
    }
  if (!p || !isPerm(*p)) return MatchResult::failure("no input is a Transpose with a known perm");
  const int64_t r = static_cast<int64_t>(p->size());
  const std::vector<int64_t> q = inverse(*p);
  if (!cat.hasAttr("axis")) return MatchResult::failure("the Concat has no axis attribute");
  auto axis = normalizeAxes({cat.attrInt("axis", 0)}, r);
  if (!axis) return MatchResult::failure("the Concat axis is out of range");
  std::vector<ConcatPart> parts;
  std::vector<ir::Node*> nodes{&cat};
  for (size_t i = 0; i < cat.inputCount(); ++i) {
    ir::Value* in = cat.input(i);
    ConcatPart part;
    if (in && rewrite::isConstant(in)) {
      auto c = rewrite::constantValue(in);
      if (c && static_cast<int64_t>(c->rank()) == r) part.constant = fusion::transposeTensor(*c, q);
      if (!part.constant)
        return MatchResult::failure(
            Text::of("constant input %1 cannot be permuted", std::to_string(i)));
      parts.push_back(std::move(part));
      continue;
    }
    if (Text why = rewrite::whyNotSoleConsumer(in); !why.empty())
      return MatchResult::failure(Text::of("input %1 %2", std::to_string(i), why));
    if (ir::Node* t = producerOp(in, "Transpose")) {
      if (fusion::transposePerm(*t) != p)
        return MatchResult::failure("the input Transposes have different perms");
      part.source = t->input(0);
      part.gone = t;
    } else if (ir::Node* reshape = producerOp(in, "Reshape")) {
      auto shape = constantInts(reshape->input(1));
      auto unit = unitDims(in);
      if (!shape || !unit || static_cast<int64_t>(shape->size()) != r ||
          static_cast<int64_t>(unit->size()) != r)
        return MatchResult::failure(Text::of("Reshape input %1 has no constant shape of rank %2",
                                             std::to_string(i), std::to_string(r)));
      if (std::find(shape->begin(), shape->end(), 0) != shape->end())
        return MatchResult::failure(
            Text::of("Reshape input %1 copies a dim (0 in its shape)", std::to_string(i)));
      if (!movesOnlyUnitDims(*unit, q))
        return MatchResult::failure(
            Text::of("Reshape input %1 would have to move dims that are not 1", std::to_string(i)));
      for (int64_t from : q) part.reshapeTo.push_back((*shape)[static_cast<size_t>(from)]);
      part.source = reshape->input(0);
      part.gone = reshape;
    } else {
      return MatchResult::failure(
          Text::of("input %1 is neither a Transpose, a Reshape nor a constant", std::to_string(i)));
    }
    nodes.push_back(part.gone);
    parts.push_back(std::move(part));
  }
  // The readers that transpose the result back, and whether anything else reads it.
  std::vector<ir::Node*> inverses;
  bool others = cat.output(0)->isGraphOutput();
  for (const ir::Use& u : rewrite::usesInNodeOrder(cat.output(0))) {
    const ir::Node& reader = *u.node;
    const bool transpose =
        reader.domain().empty() && reader.opType() == "Transpose" && reader.owner() == cat.owner();
    if (transpose && fusion::transposePerm(reader) == q)
      inverses.push_back(u.node);
    else
      others = true;
  }
  // So the rewrite leaves fewer nodes: the Transposes back and in go (one
  // each at least), a Reshape is replaced by one, and at most one Transpose
  // is added (for the other readers).
  if (inverses.empty()) return MatchResult::failure("no reader transposes the result back");
  for (ir::Node* t : inverses) nodes.push_back(t);
  const int64_t newAxis = (*p)[static_cast<size_t>((*axis)[0])];
  return MatchResult::success(nodes, [&cat, parts, inverses, others, newAxis, perm = *p, q,
                                      nodes](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    ir::Graph& g = *cat.owner();
    std::vector<ir::Value*> ins;
    for (size_t i = 0; i < parts.size(); ++i) {
      const ConcatPart& part = parts[i];
      if (part.constant) {
        ins.push_back(addConstant(rw, g, &cat, cat.input(i)->name() + "_t", *part.constant, from));
      } else if (!part.reshapeTo.empty()) {
        ir::Value* shape =
            addConstant(rw, g, &cat, cat.input(i)->name() + "_shape",
                        ir::Tensor::fromVector<int64_t>(
                            ir::DataType::kInt64, {static_cast<int64_t>(part.reshapeTo.size())},
                            part.reshapeTo),
                        from);
        ir::Node* reshape =
            fusion::addDerived(rw, "Reshape", {part.source, shape}, &cat, from, part.gone);
        ir::Type ty = permutedType(cat.input(i), q);
        if (!ty.isUndefined()) rw.setType(reshape->output(0), ty);
        ins.push_back(reshape->output(0));
      } else {
        ins.push_back(part.source);
      }
    }
    ir::Node* c2 = fusion::addDerived(rw, "Concat", ins, &cat, from, &cat);
    rw.setAttr(c2, ir::Attribute::makeInt("axis", newAxis));
    ir::Type ty = permutedType(cat.output(0), q);
    if (!ty.isUndefined()) rw.setType(c2->output(0), ty);
    for (ir::Node* t : inverses) fusion::replaceAndErase(rw, t->output(0), c2->output(0), {t});
    std::vector<ir::Node*> dead{&cat};
    for (const ConcatPart& part : parts)
      if (part.gone) dead.push_back(part.gone);
    if (others) {
      ir::Node* t = fusion::addDerived(rw, "Transpose", {c2->output(0)}, &cat, from, nullptr,
                                       {cat.output(0)});
      rw.setAttr(t, ir::Attribute::makeInts("perm", perm));
      fusion::replaceAndErase(rw, cat.output(0), t->output(0), dead);
    } else {
      fusion::eraseDead(rw, dead);
    }
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Transpose(f(Transpose(x, p1), c), p2) -> Transpose(f(x, c'), p1[p2])   (f elementwise or a
  // keepdims reduction; c' folded; no Transpose left when p1[p2] is the identity)
  fusion::addRule(r, "transpose_through_chain",
                  "Transpose(f(Transpose(x, p1), c), p2) -> Transpose(f(x, c'), p1[p2])",
                  {"Transpose"}, throughChain);
  // f(Transpose(a, p), Transpose(b, p)) -> Transpose(f(a, b), p)
  fusion::addRule(r, "transposes_into_binary",
                  "f(Transpose(a, p), Transpose(b, p)) -> Transpose(f(a, b), p)",
                  {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Equal", "Less", "Greater",
                   "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Mod"},
                  intoBinary);
  // Reduce(Transpose(x, p), A) -> Reduce(x, p[A]) when the kept axes stay in order
  fusion::addRule(r, "reduce_absorbs_transpose", "Reduce(Transpose(x, p), A) -> Reduce(x, p[A])",
                  {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                   "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"},
                  reduceAbsorbs);
  // Concat(Transpose(a, p), b) read by Transpose(., p^-1) -> Concat(a, b', p[axis])
  fusion::addRule(r, "transposes_through_concat",
                  "Transpose(Concat(Transpose(a, p), b), p^-1) -> Concat(a, b', p[axis])",
                  {"Concat"}, throughConcat);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makePushTransposes() {
  PassInfo info{
      .id = "push_transposes",
      .category = Category::kStructural,
      .kind = "hoisting: move data movement",
      .summaryEn =
          "Push Transposes through elementwise ops, reductions and Concats until they "
          "cancel or merge, fold the permutation into constant operands, and let "
          "reductions absorb them",
      .summaryZh =
          "将 Transpose 穿过逐元素算子、归约和 Concat 直至相互抵消或合并，将置换折入常量操作数，"
          "并让归约吸收 Transpose",
  };
  return std::make_unique<PatternPass>(std::move(info), rules());
}

}  // namespace passlab::passes
