// Reductions. The axes are an attribute until opset 13 for ReduceSum and
// until opset 18 for the other Reduce* ops, an optional input after.
#include "core/analysis/infer/helpers.h"
#include "core/analysis/infer/rules.h"

namespace passlab::analysis::infer {

namespace {

int64_t axesInputSince(const std::string& op) {
  return op == "ReduceSum" ? 13 : 18;
}

// Reducing a whole tracked tensor (shape arithmetic like ReduceProd(Shape(x))).
void reduceValue(InferContext& ctx, bool keepdims, size_t rank) {
  const KnownValue* in = ctx.inputValue(0);
  const std::string& op = ctx.node().opType();
  if (!in || (op != "ReduceProd" && op != "ReduceSum" && op != "ReduceMax" && op != "ReduceMin"))
    return;
  SymInt acc;
  for (size_t i = 0; i < in->elems.size(); ++i) {
    const SymInt& e = in->elems[i];
    if (i == 0) {
      acc = e;
    } else if (op == "ReduceProd") {
      acc = acc * e;
    } else if (op == "ReduceSum") {
      acc = acc + e;
    } else {
      auto a = acc.constant(), b = e.constant();
      acc = a && b ? SymInt(op == "ReduceMax" ? std::max(*a, *b) : std::min(*a, *b)) : SymInt();
    }
  }
  if (in->elems.empty()) {
    if (op == "ReduceProd") acc = SymInt(1);
    if (op == "ReduceSum") acc = SymInt(0);
  }
  KnownValue out = KnownValue::scalar(acc, in->dtype);
  if (keepdims) out.dims.assign(rank, 1);
  ctx.setOutputValue(0, std::move(out));
}

}  // namespace

void inferReduce(InferContext& ctx) {
  const std::string& op = ctx.node().opType();
  bool keepdims = ctx.attrInt("keepdims", 1) != 0;
  bool noopWhenEmpty = ctx.attrInt("noop_with_empty_axes", 0) != 0;
  const ir::Shape* x = ctx.inputShape(0);
  std::vector<int64_t> axes;
  AxesState state = readAxes(ctx, "axes", axesInputSince(op), 1, axes);
  if (state == AxesState::kKnown && axes.empty()) state = AxesState::kAbsent;
  if (state == AxesState::kAbsent && noopWhenEmpty) {
    copyShapeFrom(ctx, 0, 0);
    if (const KnownValue* v = ctx.inputValue(0)) ctx.setOutputValue(0, *v);
    return;
  }
  if (!x) return;
  auto rank = static_cast<int64_t>(x->rank());
  if (state == AxesState::kUnknown) {
    if (keepdims) {
      std::vector<ir::Dim> dims;
      for (const auto& d : x->dims())
        dims.push_back(d.isStatic() && d.value() == 1 ? d : ir::Dim());
      ctx.setOutputShape(0, ir::Shape(std::move(dims)));
    } else if (const ir::Shape* a = ctx.inputShape(1); a && a->rank() == 1 && (*a)[0].isStatic()) {
      int64_t remaining = rank - (*a)[0].value();
      if (remaining >= 0) ctx.setOutputShape(0, unknownShape(static_cast<size_t>(remaining)));
    }
    return;
  }
  std::vector<bool> reduce(static_cast<size_t>(rank), state == AxesState::kAbsent);
  if (state == AxesState::kKnown) {
    if (!normalizeAxes(ctx, axes, rank)) return;
    for (int64_t a : axes) reduce[static_cast<size_t>(a)] = true;
  }
  std::vector<ir::Dim> dims;
  bool all = true;
  for (size_t i = 0; i < reduce.size(); ++i) {
    if (!reduce[i])
      dims.push_back((*x)[i]), all = false;
    else if (keepdims)
      dims.emplace_back(1);
  }
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
  if (all) reduceValue(ctx, keepdims, reduce.size());
}

void inferArgReduce(InferContext& ctx) {
  const ir::Shape* x = ctx.inputShape(0);
  if (!x) return;
  bool keepdims = ctx.attrInt("keepdims", 1) != 0;
  auto axis = ctx.axis(ctx.attrInt("axis", 0), static_cast<int64_t>(x->rank()));
  if (!axis) return;
  std::vector<ir::Dim> dims;
  for (size_t i = 0; i < x->rank(); ++i) {
    if (static_cast<int64_t>(i) != *axis)
      dims.push_back((*x)[i]);
    else if (keepdims)
      dims.emplace_back(1);
  }
  ctx.setOutputShape(0, ir::Shape(std::move(dims)));
}

}  // namespace passlab::analysis::infer
