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
//   A Shape may read any value of the chain: the value is T(v) for the new
//   value v, so the Shape becomes Shape(v) gathered by the perm (or, when
//   the dims it returns are consecutive in v, Shape(v) with start/end).
//   ONNX Runtime's quantized elementwise ops (com.microsoft QLinearAdd,
//   QLinearMul, QLinearSigmoid, QLinearLeakyRelu) pass like their float ops,
//   its QLinearReduceMean like ReduceMean (axes attribute), its
//   QLinearAveragePool and QLinearGlobalAveragePool when the chain moves
//   channels last to first (or back) by flipping channels_last
//   (transpose_through_qlinear_pool.cpp), its QLinearSoftmax, QuantizeLinear
//   and DequantizeLinear like Softmax, QuantizeLinear and DequantizeLinear
//   (transpose_axis_ops.h), and its QLinearConcat like Concat
//   (transposes_through_concat).
//   Conditions: every value from t to u feeds only the next node of the chain
//   and Shapes (not graph outputs, not read in subgraphs); side operands are constants
//   of rank at most x's; reductions, Squeeze and Unsqueeze have constant
//   axes; axis parameters are constants and those ops keep the rank; the
//   second Transpose has the rank the chain ends with; at most 64 ops
//   between the Transposes.
//   Cost: it fires only when the chain ends in a Transpose, so at least one
//   Transpose goes and none is added (ONNX Runtime's rule: push only when
//   Transposes cancel or merge), and when the Gathers for Shapes are no more
//   than the Transposes that go.
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
// Rules transposes_through_concat (Concat and com.microsoft QLinearConcat)
// and transpose_through_split: their own files (push_transposes_rules.h).
// Exact: the same elements meet the same operations in the same order (a
// reduction may sum in another memory order: last bits).
// Opsets: 1-28 (reduce axes: attribute or input, rewritten in the same form).
#include <algorithm>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/push_transposes_rules.h"
#include "core/passes/transpose_axis_ops.h"
#include "core/passes/transpose_perm.h"

namespace passlab::passes {

namespace {

bool isReduce(const ir::Node& n) {
  static const std::vector<std::string> ops = {
      "ReduceSum", "ReduceMean", "ReduceMax",       "ReduceMin",    "ReduceProd",
      "ReduceL1",  "ReduceL2",   "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"};
  return n.domain().empty() && std::find(ops.begin(), ops.end(), n.opType()) != ops.end();
}

// ONNX Runtime's com.microsoft QLinearReduceMean: a ReduceMean between a
// dequantize and a quantize (data, scale, zero point, scale, zero point);
// its axes are an attribute.
bool isQLinearReduceMean(const ir::Node& n) {
  return n.domain() == "com.microsoft" && n.opType() == "QLinearReduceMean";
}

// A reduction's axes as given (attribute or constant input); nullopt when not
// constant (or, for QLinearReduceMean, not an attribute: its input 1 is a scale).
std::optional<std::vector<int64_t>> givenAxes(const ir::Node& n) {
  if (isQLinearReduceMean(n) && !n.hasAttr("axes")) return std::nullopt;
  return rewrite::intsFromAttrOrInput(n, "axes", 1);
}

// A reduction's axes normalized against `rank`; nullopt when not constant or "all".
std::optional<std::vector<int64_t>> reduceAxes(const ir::Node& n, int64_t rank) {
  auto a = givenAxes(n);
  if (!a || a->empty()) return std::nullopt;
  return normalizeAxes(*a, rank);
}

// Sets a reduction's axes the way the node carries them (attribute or input).
void setAxes(rewrite::Rewriter& rw, ir::Node* n, const std::vector<int64_t>& axes) {
  setIntsParam(rw, n, "axes", 1, !n->hasAttr("axes") && n->input(1) != nullptr, axes);
}

struct ChainStep {
  ir::Node* node;
  std::vector<std::optional<ir::Tensor>> folded;  // per input: new constant, or keep
  std::vector<int64_t> axes;                      // reductions, Squeeze, Unsqueeze: axes of x
  std::vector<AxisAttribute> attrs;               // axis attributes mapped to x
  std::vector<int64_t> permAfter;  // the old result is Transpose(new result, permAfter)
};

// Reductions (keepdims or not), Squeeze and Unsqueeze: their axes mapped to x.
std::optional<ChainStep> axesStep(ir::Node& next, const ir::Value* cur,
                                  const std::vector<int64_t>& perm, Text& why) {
  ChainStep s{&next, std::vector<std::optional<ir::Tensor>>(next.inputCount()), {}, {}, perm};
  const bool quantized = isQLinearReduceMean(next);
  for (size_t i = 1; i < next.inputCount(); ++i)
    if (next.input(i) == cur) {
      why = quantized ? Text::of("%1 reads the chain as a scale or zero point", next.opType())
                      : Text::of("%1 reads the chain as its axes", next.opType());
      return std::nullopt;
    }
  const bool unsqueeze = next.opType() == "Unsqueeze";
  const auto rank = static_cast<int64_t>(perm.size());
  auto given = givenAxes(next);
  auto axes =
      given && !given->empty()
          ? normalizeAxes(*given, unsqueeze ? rank + static_cast<int64_t>(given->size()) : rank)
          : std::nullopt;
  if (!axes && quantized && !next.hasAttr("axes")) {
    why = Text::of("%1 has no axes attribute", next.opType());
    return std::nullopt;
  }
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

// ONNX Runtime's quantized elementwise ops (com.microsoft, QOperator form):
// per-tensor scales and zero points around the data operands.
bool isQLinearElementwise(const ir::Node& n) {
  if (n.domain() != "com.microsoft") return false;
  const std::string& op = n.opType();
  return op == "QLinearAdd" || op == "QLinearMul" || op == "QLinearSigmoid" ||
         op == "QLinearLeakyRelu";
}

// The inputs of an elementwise op that broadcast with the chain; the others
// are scalars (Clip's bounds, QLinear scales and zero points) and stay.
std::vector<size_t> broadcastInputs(const ir::Node& n) {
  if (n.opType() == "Clip" || n.opType() == "QLinearSigmoid" || n.opType() == "QLinearLeakyRelu")
    return {0};
  if (isQLinearElementwise(n)) return {0, 3};
  std::vector<size_t> all(n.inputCount());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

// An elementwise op: its constant side operands transposed back.
std::optional<ChainStep> elementwiseStep(ir::Node& next, const ir::Value* cur,
                                         const std::vector<int64_t>& perm, Text& why) {
  ChainStep s{&next, std::vector<std::optional<ir::Tensor>>(next.inputCount()), {}, {}, perm};
  const auto r = static_cast<int64_t>(perm.size());
  const std::vector<size_t> data = broadcastInputs(next);
  for (size_t i = 0; i < next.inputCount(); ++i) {
    const bool isData = std::find(data.begin(), data.end(), i) != data.end();
    if (next.input(i) == cur && !isData) {
      why = Text::of("%1 reads the chain as a scalar parameter", next.opType());
      return std::nullopt;
    }
  }
  for (size_t i : data) {
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
    auto tt =
        fusion::transposeTensor(fusion::withRank(*c, static_cast<size_t>(r)), inversePerm(perm));
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
  if (isReduce(next) || isQLinearReduceMean(next) || isDefaultOp(next, "Squeeze") ||
      isDefaultOp(next, "Unsqueeze"))
    return axesStep(next, cur, perm, why);
  if (isQLinearPool(next)) {
    auto channelsLast = flippedChannelsLast(next, cur, perm, why);
    if (!channelsLast) return std::nullopt;
    return ChainStep{&next,
                     std::vector<std::optional<ir::Tensor>>(next.inputCount()),
                     {},
                     {{"channels_last", {*channelsLast}, false}},
                     perm};
  }
  if ((fusion::isElementwise(next) && next.opType() != "Identity") || isQLinearElementwise(next))
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

// A Shape that reads a value of the chain: the value is Transpose(v, perm)
// for the value v that replaces it (x for the first), so the Shape is
// Shape(v) gathered by perm (its start..end part).
struct ShapeRead {
  ir::Node* shape;
  size_t step;                // 0: reads t1's output; k: the output of chain step k - 1
  std::vector<int64_t> dims;  // the dims of v it returns, in order
  size_t rank;                // v's
};

// How the new Shape says it: all of v's shape, a start..end part (opset 15+),
// or gathered.
enum class ShapeForm { kWhole, kPart, kGathered };

ShapeForm shapeForm(const ShapeRead& r, int64_t opset) {
  bool consecutive = !r.dims.empty();
  for (size_t i = 1; i < r.dims.size(); ++i)
    consecutive = consecutive && r.dims[i] == r.dims[i - 1] + 1;
  if (consecutive && r.dims.size() == r.rank) return ShapeForm::kWhole;
  return consecutive && opset >= 15 ? ShapeForm::kPart : ShapeForm::kGathered;
}

// The dims of v that Shape(Transpose(v, perm), start, end) returns.
std::vector<int64_t> shapeDims(const ir::Node& shape, const std::vector<int64_t>& perm) {
  const auto r = static_cast<int64_t>(perm.size());
  auto clampAxis = [r](int64_t a) { return std::clamp(a < 0 ? a + r : a, int64_t{0}, r); };
  const int64_t start = clampAxis(shape.attrInt("start", 0));
  const int64_t end = clampAxis(shape.attrInt("end", r));
  std::vector<int64_t> dims;
  for (int64_t i = start; i < end; ++i) dims.push_back(perm[static_cast<size_t>(i)]);
  return dims;
}

// The next node of the chain after `cur`: its one reader other than Shapes
// (which go to `shapes`), in the chain's graph; nullptr with `why`.
ir::Node* nextOnChain(const ir::Value* cur, const ir::Node& t1, size_t step,
                      const std::vector<int64_t>& perm, std::vector<ShapeRead>& shapes, Text& why) {
  if (cur->isGraphOutput()) {
    why = Text::of("'%1' is a graph output", cur->name());
    return nullptr;
  }
  ir::Node* next = nullptr;
  size_t readers = 0;
  for (const ir::Use& u : cur->uses()) {
    if (u.node->owner() != t1.owner()) {
      why = Text::of("'%1' is used inside a subgraph", cur->name());
      return nullptr;
    }
    if (isDefaultOp(*u.node, "Shape")) {
      shapes.push_back({u.node, step, shapeDims(*u.node, perm), perm.size()});
      continue;
    }
    if (u.node != next) ++readers;  // one node reading it twice (Mul(t, t)) is one reader
    next = u.node;
  }
  if (readers != 1) {
    why = readers == 0 ? Text::of("'%1' is read by Shape only", cur->name())
                       : Text::of("'%1' has %2 consumers", cur->name(), std::to_string(readers));
    return nullptr;
  }
  return next;
}

// The new node for chain step `s`: its op on `ins`, with its attributes.
ir::Node* addStepNode(rewrite::Rewriter& rw, const ChainStep& s, const std::vector<ir::Value*>& ins,
                      ir::Node* before, const std::vector<const ir::Node*>& from) {
  const ir::Node& old = *s.node;
  ir::Node* n = rw.addNode(*before->owner(), old.opType(), old.domain(), ins, 1, before, "", from);
  for (const ir::Attribute& a : old.attributes())
    if (auto c = copyAttribute(a)) rw.setAttr(n, std::move(*c));
  ir::Type ty = permutedType(old.output(0), inversePerm(s.permAfter));
  if (!ty.isUndefined()) rw.setType(n->output(0), ty);
  if (!s.axes.empty()) setAxes(rw, n, s.axes);
  for (const AxisAttribute& a : s.attrs) rw.setAttr(n, a.toAttribute());
  return n;
}

// Shape(v) in place of a Shape read of the chain (before it: v comes first).
void replaceShapeRead(rewrite::Rewriter& rw, const ShapeRead& r, ir::Value* v, int64_t opset,
                      const std::vector<const ir::Node*>& from) {
  ir::Graph& g = *r.shape->owner();
  ir::Node* shape = rw.addNode(g, "Shape", "", {v}, 1, r.shape, "", from);
  ir::Value* result = shape->output(0);
  switch (shapeForm(r, opset)) {
    case ShapeForm::kWhole:
      break;
    case ShapeForm::kPart:
      rw.setAttr(shape, ir::Attribute::makeInt("start", r.dims.front()));
      rw.setAttr(shape, ir::Attribute::makeInt("end", r.dims.back() + 1));
      break;
    case ShapeForm::kGathered: {
      ir::Value* idx = addConstant(rw, g, r.shape, r.shape->output(0)->name() + "_dims",
                                   ir::Tensor::fromInt64s(r.dims), from);
      result = rw.addNode(g, "Gather", "", {result, idx}, 1, r.shape, "", from)->output(0);
      break;
    }
  }
  rw.setType(result, r.shape->output(0)->type());
  fusion::replaceAndErase(rw, r.shape->output(0), result, {r.shape});
}

MatchResult throughChain(ir::Node& t1, const MatchContext& ctx) {
  auto p1 = fusion::transposePerm(t1);
  if (!p1 || !isPerm(*p1)) return MatchResult::failure("the perm is unknown");
  std::vector<int64_t> perm = *p1;  // the chain's value is Transpose(x's value, perm)
  std::vector<ChainStep> chain;
  std::vector<ShapeRead> shapes;
  ir::Value* cur = t1.output(0);
  ir::Node* t2 = nullptr;
  Text why;
  for (int steps = 0; steps < 64; ++steps) {
    ir::Node* next = nextOnChain(cur, t1, chain.size(), perm, shapes, why);
    if (!next) return MatchResult::failure(Text::of("on the way to another Transpose: %1", why));
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
  const std::vector<int64_t> q = composePerms(perm, *p2);
  const bool identity = isIdentityPerm(q);
  // Cost: the Gathers the Shapes need, against the Transposes that go.
  const size_t removed = identity ? 2 : 1;
  const auto gathers =
      static_cast<size_t>(std::count_if(shapes.begin(), shapes.end(), [&](const ShapeRead& r) {
        return shapeForm(r, ctx.opset) == ShapeForm::kGathered;
      }));
  if (gathers > removed)
    return MatchResult::failure(
        Text::of("the Shapes it reads would need %1 Gathers for %2 Transposes",
                 std::to_string(gathers), std::to_string(removed)));
  std::vector<ir::Node*> nodes{&t1};  // the chain; with the Shapes, what the match changes
  for (auto& s : chain) nodes.push_back(s.node);
  nodes.push_back(t2);
  std::vector<ir::Node*> changed = nodes;
  for (const ShapeRead& r : shapes) changed.push_back(r.shape);
  const int64_t opset = ctx.opset;
  return MatchResult::success(
      changed, [&t1, t2, chain, shapes, q, identity, nodes,
                from = std::vector<const ir::Node*>(changed.begin(), changed.end()),
                opset](rewrite::Rewriter& rw) {
        std::vector<ir::Value*> replacing{t1.input(0)};  // per step: the new value
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
              ins[i] = addConstant(rw, *t2->owner(), s.node,
                                   (ins[i] ? ins[i]->name() : s.node->output(0)->name()) + "_t",
                                   *s.folded[i], from);
          }
          // Each new node where its old one was, so a Shape read of it (and what
          // reads that) still comes after it.
          ir::Node* n = addStepNode(rw, s, ins, s.node, from);
          old = s.node->output(0);
          cur = n->output(0);
          replacing.push_back(cur);
        }
        for (const ShapeRead& r : shapes) replaceShapeRead(rw, r, replacing[r.step], opset, from);
        ir::Value* result = cur;
        if (!identity) {
          ir::Node* t =
              fusion::addDerived(rw, "Transpose", {cur}, t2, from, nullptr, {t2->output(0)});
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
    ir::Type ty = permutedType(op.output(0), inversePerm(perm));
    if (!ty.isUndefined()) rw.setType(n->output(0), ty);
    ir::Node* t = fusion::addDerived(rw, "Transpose", {n->output(0)}, &op, {ta, tb, &op}, nullptr,
                                     {op.output(0)});
    rw.setAttr(t, ir::Attribute::makeInts("perm", perm));
    fusion::replaceAndErase(rw, op.output(0), t->output(0), {&op, ta, tb});
  });
}

// A new node of red's op (in its domain), attributes and output type, on `ins`.
ir::Node* addReductionLike(rewrite::Rewriter& rw, ir::Node& red, const std::vector<ir::Value*>& ins,
                           const std::vector<const ir::Node*>& from) {
  if (red.domain().empty())
    return fusion::addDerived(rw, red.opType(), ins, &red, from, &red, {red.output(0)});
  ir::Node* n = rw.addNode(*red.owner(), red.opType(), red.domain(), ins, 1, &red, "", from);
  for (const ir::Attribute& a : red.attributes())
    if (auto c = copyAttribute(a)) rw.setAttr(n, std::move(*c));
  rw.setType(n->output(0), red.output(0)->type());
  return n;
}

MatchResult reduceAbsorbs(ir::Node& red, const MatchContext&) {
  SoleTranspose st;
  if (Text why = whyNotSoleTranspose(red.input(0), st); !why.empty())
    return MatchResult::failure(std::move(why));
  ir::Node* t = st.node;
  const std::vector<int64_t>* p = &st.perm;
  int64_t r = static_cast<int64_t>(p->size());
  auto axes = reduceAxes(red, r);
  if (!axes && isQLinearReduceMean(red) && !red.hasAttr("axes"))
    return MatchResult::failure(Text::of("%1 has no axes attribute", red.opType()));
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
    ir::Node* n = addReductionLike(rw, red, ins, {t, &red});
    setAxes(rw, n, na);
    fusion::replaceAndErase(rw, red.output(0), n->output(0), {&red, t});
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
  // Reduce(Transpose(x, p), A) -> Reduce(x, p[A]) when the kept axes stay in order;
  // also ONNX Runtime's com.microsoft QLinearReduceMean
  std::vector<rewrite::OpKey> reductions{{"com.microsoft", "QLinearReduceMean"}};
  for (const char* op :
       {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
        "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"})
    reductions.push_back({"", op});
  r.push_back(std::make_unique<rewrite::RulePattern>(
      "reduce_absorbs_transpose", "Reduce(Transpose(x, p), A) -> Reduce(x, p[A])",
      std::move(reductions), reduceAbsorbs));
  // Concat(Transpose(a, p), b) read by Transpose(., p^-1) -> Concat(a, b', p[axis]);
  // also ONNX Runtime's com.microsoft QLinearConcat (its data inputs; scales and zero points kept)
  r.push_back(std::make_unique<rewrite::RulePattern>(
      "transposes_through_concat",
      "Transpose(Concat(Transpose(a, p), b), p^-1) -> Concat(a, b', p[axis])",
      std::vector<rewrite::OpKey>{{"", "Concat"}, {"com.microsoft", "QLinearConcat"}},
      transposesThroughConcat));
  // Transpose(Split(Transpose(x, p), k)_i, p_i) -> Transpose(Split(x, p[k])_i, p[p_i])
  fusion::addRule(
      r, "transpose_through_split",
      "Transpose(Split(Transpose(x, p), k)_i, p_i) -> Transpose(Split(x, p[k])_i, p[p_i])",
      {"Split"}, transposeThroughSplit);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makePushTransposes() {
  return std::make_unique<PatternPass>(catalogInfo("push_transposes"), rules());
}

}  // namespace passlab::passes
