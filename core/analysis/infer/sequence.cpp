// Sequences and optionals: the element type travels inside seq(...) and
// optional(...) types; shapes of elements are joined where several meet.
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

const ir::Type* innerOf(const ir::Type& t, ir::Type::Kind kind) {
  return t.kind() == kind ? t.inner() : nullptr;
}

ir::DataType dtypeAttr(InferContext& ctx, ir::DataType fallback) {
  if (!ctx.hasAttr("dtype")) return fallback;
  auto v = static_cast<int32_t>(ctx.attrInt("dtype", 0));
  return ir::isKnownDtype(v) ? static_cast<ir::DataType>(v) : fallback;
}

}  // namespace

void inferSequenceConstruct(InferContext& ctx) {
  ir::Type elem;
  for (size_t i = 0; i < ctx.inputCount(); ++i)
    elem = i == 0 ? ctx.inputType(i) : joinTypes(elem, ctx.inputType(i));
  if (!elem.isUndefined()) ctx.setOutputType(0, ir::Type::sequence(elem));
}

void inferSequenceEmpty(InferContext& ctx) {
  ctx.setOutputType(0, ir::Type::sequence(ir::Type::tensor(dtypeAttr(ctx, ir::DataType::kFloat))));
}

void inferSequenceAt(InferContext& ctx) {
  if (const ir::Type* inner = innerOf(ctx.inputType(0), ir::Type::Kind::kSequence))
    ctx.setOutputType(0, *inner);
}

void inferSequenceInsert(InferContext& ctx) {
  const ir::Type& seq = ctx.inputType(0);
  const ir::Type* inner = innerOf(seq, ir::Type::Kind::kSequence);
  if (!inner) return;
  if (ctx.node().opType() == "SequenceInsert" && ctx.hasInput(1))
    ctx.setOutputType(0, ir::Type::sequence(joinTypes(*inner, ctx.inputType(1))));
  else
    ctx.setOutputType(0, seq);
}

void inferSequenceLength(InferContext& ctx) {
  ctx.setOutput(0, ir::DataType::kInt64, ir::Shape());
}

void inferSplitToSequence(InferContext& ctx) {
  const ir::Type& in = ctx.inputType(0);
  if (!in.isTensor()) return;
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) {
    ctx.setOutputType(0, ir::Type::sequence(ir::Type::tensor(in.elemType())));
    return;
  }
  auto axis = ctx.axis(ctx.attrInt("axis", 0), static_cast<int64_t>(x->rank()));
  if (!axis) return;
  std::vector<ir::Dim> dims = x->dims();
  auto a = static_cast<size_t>(*axis);
  if (!ctx.hasInput(1)) {
    if (ctx.attrInt("keepdims", 1) != 0)
      dims[a] = ir::Dim(1);
    else
      dims.erase(dims.begin() + *axis);
  } else {
    auto split = ctx.inputInts(1);
    const ir::Shape* ss = ctx.inputShape(1);
    ir::Dim part;
    if (split && ss && ss->rank() == 0 && !split->empty()) {
      // A scalar split: equal parts, the last may be smaller.
      if (dims[a].isStatic() && (*split)[0] > 0 && dims[a].value() % (*split)[0] == 0)
        part = ir::Dim((*split)[0]);
    } else if (split && !split->empty()) {
      bool same = true;
      for (int64_t s : *split) same = same && s == (*split)[0];
      if (same) part = ir::Dim((*split)[0]);
    }
    dims[a] = part;
  }
  ctx.setOutputType(0, ir::Type::sequence(ir::Type::tensor(in.elemType(), ir::Shape(dims))));
}

void inferConcatFromSequence(InferContext& ctx) {
  const ir::Type* inner = innerOf(ctx.inputType(0), ir::Type::Kind::kSequence);
  if (!inner || !inner->isTensor()) return;
  ctx.setOutputElem(0, inner->elemType());
  if (!inner->hasShape()) return;
  std::vector<ir::Dim> dims = inner->shape()->dims();
  bool newAxis = ctx.attrInt("new_axis", 0) != 0;
  auto rank = static_cast<int64_t>(dims.size()) + (newAxis ? 1 : 0);
  auto axis = ctx.axis(ctx.attrInt("axis", 0), rank);
  if (!axis) return;
  if (newAxis)
    dims.insert(dims.begin() + *axis, ir::Dim());
  else
    dims[static_cast<size_t>(*axis)] = ir::Dim();
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

void inferSequenceMap(InferContext& ctx) {
  ir::Graph* body = ctx.attrGraph("body");
  if (!body) {
    ctx.fail("body is missing");
    return;
  }
  std::vector<ir::Type> bound;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const ir::Type& t = ctx.inputType(i);
    const ir::Type* inner = innerOf(t, ir::Type::Kind::kSequence);
    bound.push_back(inner ? *inner : t);
  }
  std::vector<ir::Type> out = ctx.session().inferSubgraph(*body, bound);
  for (size_t i = 0; i < ctx.outputCount() && i < out.size(); ++i)
    if (!out[i].isUndefined()) ctx.setOutputType(i, ir::Type::sequence(out[i]));
}

void inferOptional(InferContext& ctx) {
  if (ctx.hasInput(0) && !ctx.inputType(0).isUndefined()) {
    ctx.setOutputType(0, ir::Type::optional(ctx.inputType(0)));
  } else if (const ir::Attribute* a = ctx.node().attr("type");
             a && a->type() == ir::AttrType::kTypeProto) {
    ctx.setOutputType(0, ir::Type::optional(a->tp));
  }
}

void inferOptionalGetElement(InferContext& ctx) {
  const ir::Type& t = ctx.inputType(0);
  if (const ir::Type* inner = innerOf(t, ir::Type::Kind::kOptional))
    ctx.setOutputType(0, *inner);
  else if (!t.isUndefined())
    ctx.setOutputType(0, t);  // opset 18 accepts a plain tensor or sequence
}

void inferOptionalHasElement(InferContext& ctx) {
  ctx.setOutput(0, ir::DataType::kBool, ir::Shape());
}

}  // namespace passlab::analysis::infer
