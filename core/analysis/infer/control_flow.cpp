// If, Loop and Scan: bodies are inferred with their inputs bound from the
// node. A loop-carried value whose shape changes between iterations is
// generalised (differing dims become unknown) and the body inferred once more,
// so at most two visits per body and nesting level.
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

ir::Type scalarOf(ir::DataType t) {
  return ir::Type::tensor(t, ir::Shape());
}

// The type with `dim` inserted at `axis` (a scan/loop output stacked along an axis).
ir::Type stacked(const ir::Type& elem, const ir::Dim& dim, int64_t axis) {
  if (!elem.isTensor()) return elem.isUndefined() ? elem : ir::Type();
  if (!elem.hasShape()) return ir::Type::tensor(elem.elemType());
  std::vector<ir::Dim> dims = elem.shape()->dims();
  auto rank = static_cast<int64_t>(dims.size()) + 1;
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return ir::Type::tensor(elem.elemType());
  dims.insert(dims.begin() + axis, dim);
  return ir::Type::tensor(elem.elemType(), ir::Shape(std::move(dims)));
}

// The type with the dim at `axis` removed (one slice of a scan input).
ir::Type sliced(const ir::Type& t, int64_t axis) {
  if (!t.isTensor() || !t.hasShape()) return t.isTensor() ? ir::Type::tensor(t.elemType()) : t;
  std::vector<ir::Dim> dims = t.shape()->dims();
  auto rank = static_cast<int64_t>(dims.size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return ir::Type::tensor(t.elemType());
  dims.erase(dims.begin() + axis);
  return ir::Type::tensor(t.elemType(), ir::Shape(std::move(dims)));
}

// Infers `body` with `bound` inputs; carried values [first, first+count) of the
// inputs correspond to body outputs [outFirst, outFirst+count). Re-infers once
// with generalised carried types when an iteration would change them.
std::vector<ir::Type> inferCarried(InferContext& ctx, ir::Graph& body, std::vector<ir::Type> bound,
                                   size_t first, size_t outFirst, size_t count) {
  std::vector<ir::Type> out = ctx.session().inferSubgraph(body, bound);
  bool changed = false;
  for (size_t i = 0; i < count && outFirst + i < out.size() && first + i < bound.size(); ++i) {
    ir::Type joined = joinTypes(bound[first + i], out[outFirst + i]);
    if (joined != bound[first + i] && !bound[first + i].isUndefined()) {
      bound[first + i] = joined;
      changed = true;
    }
  }
  if (changed) out = ctx.session().inferSubgraph(body, bound);
  for (size_t i = 0; i < count && outFirst + i < out.size() && first + i < bound.size(); ++i)
    out[outFirst + i] = joinTypes(bound[first + i], out[outFirst + i]);
  return out;
}

}  // namespace

void inferIf(InferContext& ctx) {
  ir::Graph* thenG = ctx.attrGraph("then_branch");
  ir::Graph* elseG = ctx.attrGraph("else_branch");
  if (!thenG || !elseG) {
    ctx.fail("then_branch or else_branch is missing");
    return;
  }
  // A condition known at inference time picks its branch; otherwise both must fit.
  std::optional<int64_t> cond;
  if (auto c = ctx.inputInts(0); c && c->size() == 1) cond = (*c)[0];
  ir::Graph* taken = cond ? (*cond ? thenG : elseG) : nullptr;
  std::vector<ir::Type> t = ctx.session().inferSubgraph(*thenG, {}, cond && !*cond);
  std::vector<ir::Type> e = ctx.session().inferSubgraph(*elseG, {}, cond && *cond);
  if (t.size() != e.size() || t.size() != ctx.outputCount()) {
    ctx.fail("branches have " + std::to_string(t.size()) + " and " + std::to_string(e.size()) +
             " outputs, the node " + std::to_string(ctx.outputCount()));
    return;
  }
  for (size_t i = 0; i < t.size(); ++i) {
    if (!taken) {
      ctx.setOutputType(i, joinTypes(t[i], e[i]));
      continue;
    }
    const ir::Value* v = taken->outputs()[i];
    ctx.setOutputType(i, v->type());
    if (const KnownValue* k = ctx.session().knownValue(v)) ctx.setOutputValue(i, *k);
  }
}

void inferLoop(InferContext& ctx) {
  ir::Graph* body = ctx.attrGraph("body");
  if (!body) {
    ctx.fail("body is missing");
    return;
  }
  size_t carried = ctx.inputCount() >= 2 ? ctx.inputCount() - 2 : 0;
  if (body->inputs().size() != carried + 2 || body->outputs().size() < carried + 1) {
    ctx.fail("body has " + std::to_string(body->inputs().size()) + " inputs and " +
             std::to_string(body->outputs().size()) + " outputs for " + std::to_string(carried) +
             " loop-carried values");
    return;
  }
  std::vector<ir::Type> bound{scalarOf(ir::DataType::kInt64), scalarOf(ir::DataType::kBool)};
  for (size_t i = 0; i < carried; ++i) bound.push_back(ctx.inputType(2 + i));
  std::vector<ir::Type> out = inferCarried(ctx, *body, bound, 2, 1, carried);
  for (size_t i = 0; i < ctx.outputCount(); ++i) {
    if (i < carried) {
      ctx.setOutputType(i, out[1 + i]);
    } else if (1 + i < out.size()) {
      // Scan outputs are stacked along a new first axis, one entry per iteration.
      ctx.setOutputType(i, stacked(out[1 + i], ir::Dim(), 0));
    }
  }
}

void inferScan(InferContext& ctx) {
  ir::Graph* body = ctx.attrGraph("body");
  if (!body) {
    ctx.fail("body is missing");
    return;
  }
  bool v8 = ctx.opset() < 9;
  size_t first = v8 ? 1 : 0;  // opset 8 starts with the optional sequence_lens
  int64_t m = ctx.attrInt("num_scan_inputs", 0);
  size_t total = ctx.inputCount() > first ? ctx.inputCount() - first : 0;
  if (m <= 0 || static_cast<size_t>(m) > total) {
    ctx.fail("num_scan_inputs " + std::to_string(m) + " does not fit " + std::to_string(total) +
             " inputs");
    return;
  }
  size_t states = total - static_cast<size_t>(m);
  if (body->inputs().size() != total || body->outputs().size() < states) {
    ctx.fail("body has " + std::to_string(body->inputs().size()) + " inputs for " +
             std::to_string(total) + " scan and state values");
    return;
  }
  std::vector<int64_t> inAxes = ctx.attrInts("scan_input_axes");
  std::vector<int64_t> outAxes = ctx.attrInts("scan_output_axes");
  // The sequence length: the scan axis of the first scan input.
  ir::Dim seq, batch;
  std::vector<ir::Type> bound;
  for (size_t i = 0; i < total; ++i) {
    const ir::Type& t = ctx.inputType(first + i);
    if (i < states) {
      bound.push_back(v8 ? sliced(t, 0) : t);
      continue;
    }
    size_t k = i - states;
    int64_t axis = v8 ? 1 : (k < inAxes.size() ? inAxes[k] : 0);
    if (k == 0 && t.isTensor() && t.hasShape()) {
      auto rank = static_cast<int64_t>(t.shape()->rank());
      int64_t a = axis < 0 ? axis + rank : axis;
      if (a >= 0 && a < rank) seq = (*t.shape())[static_cast<size_t>(a)];
      if (v8 && rank > 0) batch = (*t.shape())[0];
    }
    ir::Type element = v8 ? sliced(sliced(t, 0), 0) : sliced(t, axis);
    bound.push_back(element);
  }
  std::vector<ir::Type> out = inferCarried(ctx, *body, bound, 0, 0, states);
  for (size_t i = 0; i < ctx.outputCount() && i < out.size(); ++i) {
    if (i < states) {
      ctx.setOutputType(i, v8 ? stacked(out[i], batch, 0) : out[i]);
      continue;
    }
    size_t k = i - states;
    if (v8) {
      ctx.setOutputType(i, stacked(stacked(out[i], seq, 0), batch, 0));
    } else {
      ctx.setOutputType(i, stacked(out[i], seq, k < outAxes.size() ? outAxes[k] : 0));
    }
  }
}

}  // namespace passlab::analysis::infer
