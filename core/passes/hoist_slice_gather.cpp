// hoist_slice_gather — Slice and Gather moved before the elementwise op they read, so less is
// computed.
//
// Before:  t = Mul(x, c); y = Slice(t, starts, ends, axes, steps)
// After:   u = Slice(x, starts, ends, axes, steps); y = Mul(u, c')     (c' = c sliced, folded)
// Before:  t = Relu(x);    y = Gather(t, idx, axis)
// After:   y = Relu(Gather(x, idx, axis))
// Algebra: an elementwise op computes each output element from the operand
// elements at the same (broadcast) position, so selecting elements after it
// equals selecting the matching operand elements before it. Per operand and
// sliced (gathered) axis: an operand that has that axis at full size is
// sliced the same way; one that broadcasts along it (size 1, or missing)
// is left as is on that axis (a Gather of a single index removes the axis:
// a constant operand with size 1 there loses it too).
// Conditions: t feeds only the Slice/Gather (not a graph output, not read in a
// subgraph); the Slice/Gather parameters are constants; the selection is
// smaller than t (else there is nothing to save); at most one operand is not
// a constant (a second would need a second Slice: more nodes), and at least
// one is not (an all-constant op is fold_constants' job); every operand
// dim on a selected axis is known to be full-size or 1; Gather indices are a
// scalar or 1-D, in range. Exact (the same elements are computed).
// Elementwise ops: unary math and activations (Clip with scalar bounds), the
// broadcasting binary ops (Add, Sub, Mul, Div, Pow, Max, Min, comparisons,
// logic, Mod, BitShift, PRelu excluded: its slope broadcasts one way), Where.
// Opsets: 1-28 (Slice parameters attributes before 10, inputs from 10).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

// How one operand of the elementwise op is treated.
struct OperandPlan {
  ir::Value* value = nullptr;
  std::optional<ir::Tensor> folded;  // a constant, already selected
  bool needsNode = false;            // a non-constant that needs its own Slice/Gather
  std::vector<int64_t> axes;         // the operand's axes to select (Slice: per selected axis)
  std::vector<size_t> which;         // index into the selection's axis list
};

// Which of `op`'s inputs broadcast: the data inputs (Clip bounds are scalars and stay).
size_t dataInputs(const ir::Node& op) {
  if (op.opType() == "Clip") return 1;
  return op.inputCount();
}

// Plans the operands of `op` for a selection on `axes` (normalized against
// rank `r` of op's output `t`). `why` on failure.
std::optional<std::vector<OperandPlan>> planOperands(const ir::Node& op, const ir::Value* t,
                                                     const std::vector<int64_t>& axes, Text& why) {
  int64_t r = *rankOf(t);
  const auto& td = t->type().shape()->dims();
  std::vector<OperandPlan> plans;
  int nonConst = 0, needs = 0;
  for (size_t i = 0; i < dataInputs(op); ++i) {
    OperandPlan p;
    p.value = op.input(i);
    auto ru = rankOf(p.value);
    if (!p.value || !ru || *ru > r) {
      why = "an operand's rank is unknown";
      return std::nullopt;
    }
    const auto& ud = p.value->type().shape()->dims();
    for (size_t k = 0; k < axes.size(); ++k) {
      int64_t au = axes[k] - (r - *ru);
      if (au < 0) continue;
      const ir::Dim& dim = ud[static_cast<size_t>(au)];
      if (dim.sameAs(td[static_cast<size_t>(axes[k])])) {
        p.axes.push_back(au);
        p.which.push_back(k);
      } else if (!(dim.isStatic() && dim.value() == 1)) {
        why = Text::of("operand '%1' is neither full-size nor 1 along axis %2", p.value->name(),
                       std::to_string(axes[k]));
        return std::nullopt;
      }
    }
    bool constant = rewrite::isConstant(p.value);
    if (!constant) ++nonConst;
    if (!constant && !p.axes.empty()) {
      p.needsNode = true;
      ++needs;
    }
    plans.push_back(std::move(p));
  }
  if (nonConst == 0) {
    why = "every operand is constant (fold_constants folds it)";
    return std::nullopt;
  }
  if (needs > 1) {
    why = "two non-constant operands would each need a Slice (more nodes)";
    return std::nullopt;
  }
  return plans;
}

ir::Node* elementwiseProducer(const ir::Value* t, Text& why) {
  ir::Node* op = t ? t->producer() : nullptr;
  if (!op || !fusion::isElementwise(*op) || op->opType() == "Identity") {
    why = "the input is not produced by an elementwise op";
    return nullptr;
  }
  if (Text w = rewrite::whyNotSoleConsumer(t); !w.empty()) {
    why = Text::of("%1 output %2", op->opType(), w);
    return nullptr;
  }
  if (!rankOf(t)) {
    why = Text::of("the rank of the %1 result is unknown", op->opType());
    return nullptr;
  }
  return op;
}

// Rebuilds `op` over `inputs` before `root`, replacing root's result.
void rebuild(rewrite::Rewriter& rw, ir::Node& root, ir::Node* op, std::vector<ir::Value*> inputs) {
  for (size_t i = inputs.size(); i < op->inputCount(); ++i) inputs.push_back(op->input(i));
  ir::Node* n =
      fusion::addDerived(rw, op->opType(), inputs, &root, {op, &root}, op, {root.output(0)});
  fusion::replaceAndErase(rw, root.output(0), n->output(0), {&root, op});
}

MatchResult hoistSlice(ir::Node& s, const MatchContext& c) {
  Text why;
  ir::Node* op = elementwiseProducer(s.input(0), why);
  if (!op) return MatchResult::failure(why);
  int64_t r = *rankOf(s.input(0));
  auto p = fusion::sliceParams(s, r, why);
  if (!p) return MatchResult::failure(why);
  auto in = fusion::dimsOf(s.input(0));
  auto out = fusion::dimsOf(s.output(0));
  if (in && out && *in == *out) return MatchResult::failure("the Slice keeps every element");
  auto plans = planOperands(*op, s.input(0), p->axes, why);
  if (!plans) return MatchResult::failure(why);
  for (auto& pl : *plans) {
    if (pl.axes.empty() || pl.needsNode) continue;
    fusion::SliceParams q;
    for (size_t k = 0; k < pl.axes.size(); ++k) {
      q.starts.push_back(p->starts[pl.which[k]]);
      q.ends.push_back(p->ends[pl.which[k]]);
      q.axes.push_back(pl.axes[k]);
      q.steps.push_back(p->steps[pl.which[k]]);
    }
    auto t = rewrite::constantValue(pl.value);
    pl.folded = fusion::sliceTensor(*t, q.starts, q.ends, q.axes, q.steps);
    if (!pl.folded) return MatchResult::failure("a constant operand cannot be sliced here");
  }
  bool asAttrs = c.opset < 10;
  return MatchResult::success({&s, op}, [&s, op, plans = *plans, p = *p,
                                         asAttrs](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> ins;
    for (const auto& pl : plans) {
      if (pl.folded) {
        ins.push_back(
            addConstant(rw, *s.owner(), &s, pl.value->name() + "_sliced", *pl.folded, {&s}));
      } else if (pl.needsNode) {
        fusion::SliceParams q;
        for (size_t k = 0; k < pl.axes.size(); ++k) {
          q.starts.push_back(p.starts[pl.which[k]]);
          q.ends.push_back(p.ends[pl.which[k]]);
          q.axes.push_back(pl.axes[k]);
          q.steps.push_back(p.steps[pl.which[k]]);
        }
        ins.push_back(fusion::addSliceNode(rw, pl.value, &s, q, asAttrs, {&s}, nullptr)->output(0));
      } else {
        ins.push_back(pl.value);
      }
    }
    rebuild(rw, s, op, ins);
  });
}

MatchResult hoistGather(ir::Node& g, const MatchContext&) {
  Text why;
  ir::Node* op = elementwiseProducer(g.input(0), why);
  if (!op) return MatchResult::failure(why);
  auto idx = rewrite::constantValue(g.input(1));
  if (!idx || idx->rank() > 1 || !ir::isInteger(idx->dtype()))
    return MatchResult::failure("Gather indices are not a constant scalar or 1-D list");
  bool scalar = idx->rank() == 0;
  std::vector<int64_t> indices = idx->toInt64Vector();
  int64_t r = *rankOf(g.input(0));
  int64_t axis = g.attrInt("axis", 0);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) return MatchResult::failure("Gather axis is out of range");
  const ir::Dim& dim = (*g.input(0)->type().shape())[static_cast<size_t>(axis)];
  if (!dim.isStatic()) return MatchResult::failure("the gathered axis has no static size");
  if (!scalar && static_cast<int64_t>(indices.size()) >= dim.value())
    return MatchResult::failure("the Gather selects as many elements as it reads");
  auto plans = planOperands(*op, g.input(0), {axis}, why);
  if (!plans) return MatchResult::failure(why);
  for (auto& pl : *plans) {
    if (pl.needsNode) continue;
    auto t = rewrite::constantValue(pl.value);
    if (!t) continue;
    int64_t ru = static_cast<int64_t>(t->rank());
    int64_t au = axis - (r - ru);
    if (au < 0) continue;
    if (pl.axes.empty()) {  // size 1 along the axis: only a scalar index drops it
      if (scalar) pl.folded = fusion::gatherTensor(*t, au, {0}, true);
    } else {
      pl.folded = fusion::gatherTensor(*t, au, indices, scalar);
    }
    if ((scalar || !pl.axes.empty()) && !pl.folded)
      return MatchResult::failure("a constant operand cannot be gathered here");
  }
  for (const auto& pl : *plans)
    if (scalar && !pl.needsNode && !pl.folded && !rewrite::isConstant(pl.value)) {
      int64_t ru = *rankOf(pl.value);
      if (axis - (r - ru) >= 0)
        return MatchResult::failure(
            Text::of("operand '%1' broadcasts along the gathered axis, which a scalar index "
                     "removes (it would need a Squeeze)",
                     pl.value->name()));
    }
  return MatchResult::success({&g, op}, [&g, op, plans = *plans, axis, r](rewrite::Rewriter& rw) {
    std::vector<ir::Value*> ins;
    for (const auto& pl : plans) {
      if (pl.folded) {
        ins.push_back(
            addConstant(rw, *g.owner(), &g, pl.value->name() + "_gathered", *pl.folded, {&g}));
      } else if (pl.needsNode) {
        int64_t au = axis - (r - *rankOf(pl.value));
        ir::Node* n = fusion::addDerived(rw, "Gather", {pl.value, g.input(1)}, &g, {&g}, &g);
        rw.setAttr(n, ir::Attribute::makeInt("axis", au));
        ins.push_back(n->output(0));
      } else {
        ins.push_back(pl.value);
      }
    }
    rebuild(rw, g, op, ins);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Slice(f(x, c)) -> f(Slice(x), Slice(c))   (f elementwise; Slice(c) folded)
  fusion::addRule(r, "slice_before_elementwise", "Slice(f(x, c)) -> f(Slice(x), Slice(c))",
                  {"Slice"}, hoistSlice);
  // Gather(f(x, c), i) -> f(Gather(x, i), Gather(c, i))   (f elementwise; Gather(c) folded)
  fusion::addRule(r, "gather_before_elementwise",
                  "Gather(f(x, c), i) -> f(Gather(x, i), Gather(c, i))", {"Gather"}, hoistGather);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeHoistSliceGather() {
  return std::make_unique<PatternPass>(catalogInfo("hoist_slice_gather"), rules());
}

}  // namespace passlab::passes
