// replace_computed_reshape_shapes — a Reshape whose target shape is computed at run time, and a
// Transpose that only moves dims of size 1, become Reshapes to a constant shape.
//
// Before:  s = Concat(Unsqueeze(Gather(Shape(h), 0)), [1], [12]); y = Reshape(x, s)
//          t = Transpose<perm = [0,2,1,3]>(q)          (q: [batch, 1, 2, 2])
// After:   y = Reshape(x, [-1, 1, 12])                  (the Shape chain is left dead)
//          t = Reshape(q, [-1, 2, 1, 2])
// Rules (one row each, the rule as its comment):
// - reshape_shape_from_type: the result's shape, as shape inference knows it,
//   has at most one dim that is not a static number; that dim becomes -1
//   (the one Reshape infers from the element count). Conditions: the shape
//   input is not already a constant; every static dim is at least 1 (a 0
//   would make -1 ambiguous, and with allowzero = 0 a 0 means "copy");
//   allowzero (opset 14) is 0 or the shape has no 0. Exact.
// - reshape_shape_copying_input_dims (issue 24, ONNX Runtime's reshape
//   fusion): the shape is a Concat of one-element parts; a part
//   Unsqueeze(Gather(Shape(x), i)) with x the Reshape's own data and i its
//   own position becomes 0 ("copy", allowzero = 0), constants stay, a part
//   whose dim inference knows becomes that number, and at most one other
//   becomes -1 — only where no copied dim may be 0 (option assume_nonempty),
//   see reshape_copy_dims.h. Fires only with a copied dim of unknown size
//   (the rule above covers the rest). Exact.
// - transpose_of_unit_dims: the dims of size other than 1 keep their order
//   under `perm`, so the data's layout does not change: a Reshape to the
//   result's shape (at most one dim not static, as above). Exact.
// Both trust the inferred result shape: a model whose declared value_info
// contradicts its operators is outside them (shape inference reports such
// contradictions). The dead shape arithmetic goes in the basic cleanup that
// follows; consecutive Reshapes then merge. Opsets: 5-28 (Reshape takes its
// shape as an input from opset 5).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/reshape_copy_dims.h"

namespace passlab::passes {

namespace {

// The constant shape for a value of type `t`: static dims as they are, one
// unknown or symbolic dim as -1; nullopt (with the reason) otherwise.
std::optional<std::vector<int64_t>> constantShape(const ir::Value* v, Text& why) {
  if (!v->type().hasShape()) {
    why = "the result's shape is unknown";
    return std::nullopt;
  }
  const ir::Shape& s = *v->type().shape();
  std::vector<int64_t> out;
  int unknown = 0;
  for (size_t k = 0; k < s.rank(); ++k) {
    if (s[k].isStatic()) {
      if (s[k].value() == 0) {
        why = Text::of("dim %1 of the result is 0", std::to_string(k));
        return std::nullopt;
      }
      out.push_back(s[k].value());
    } else {
      ++unknown;
      out.push_back(-1);
    }
  }
  if (unknown > 1) {
    why = Text::of("the result has %1 dims that are not static numbers", std::to_string(unknown));
    return std::nullopt;
  }
  return out;
}

ir::Node* addReshape(rewrite::Rewriter& rw, ir::Node& at, ir::Value* x,
                     const std::vector<int64_t>& shape) {
  ir::Value* s = addConstant(rw, *at.owner(), &at, "shape", ir::Tensor::fromInt64s(shape), {&at});
  return fusion::addDerived(rw, "Reshape", {x, s}, &at, {&at}, nullptr, {at.output(0)});
}

// "" when `reshape` computes its shape at run time and the opset is one the
// pass was written for; else the reason.
Text whyNotComputedShape(const ir::Node& reshape, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 5, 28, "replace_computed_reshape_shapes"); !why.empty())
    return why;
  if (!reshape.input(1)) return "Reshape has no shape input";
  if (rewrite::constantValue(reshape.input(1))) return "the shape is already a constant";
  return {};
}

// The Reshape again with `shape` as a constant.
MatchResult withConstantShape(ir::Node& reshape, std::vector<int64_t> shape) {
  ir::Value* x = reshape.input(0);
  return MatchResult::success({&reshape}, [&reshape, x, shape](rewrite::Rewriter& rw) {
    ir::Node* r = addReshape(rw, reshape, x, shape);
    fusion::replaceAndErase(rw, reshape.output(0), r->output(0), {&reshape});
  });
}

MatchResult reshapeFromType(ir::Node& reshape, const MatchContext& c) {
  Text why = whyNotComputedShape(reshape, c);
  if (!why.empty()) return MatchResult::failure(why);
  auto shape = constantShape(reshape.output(0), why);
  if (!shape) return MatchResult::failure(why);
  return withConstantShape(reshape, std::move(*shape));
}

MatchResult reshapeCopyingInputDims(ir::Node& reshape, const MatchContext& c) {
  Text why = whyNotComputedShape(reshape, c);
  if (!why.empty()) return MatchResult::failure(why);
  auto shape = shapeCopyingInputDims(reshape, c.boolOption("assume_nonempty", false), why);
  if (!shape) return MatchResult::failure(why);
  return withConstantShape(reshape, std::move(*shape));
}

MatchResult transposeOfUnitDims(ir::Node& transpose, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 5, 28, "replace_computed_reshape_shapes"); !why.empty())
    return MatchResult::failure(why);
  ir::Value* x = transpose.input(0);
  if (!x || !x->type().hasShape()) return MatchResult::failure("the input's shape is unknown");
  const ir::Shape& xs = *x->type().shape();
  auto perm = fusion::transposePerm(transpose);
  if (!perm || perm->size() != xs.rank()) return MatchResult::failure("perm does not fit the rank");
  std::vector<bool> seen(perm->size(), false);
  for (int64_t p : *perm) {
    if (p < 0 || p >= static_cast<int64_t>(perm->size()) || seen[static_cast<size_t>(p)])
      return MatchResult::failure("perm is not a permutation");
    seen[static_cast<size_t>(p)] = true;
  }
  // The input dims that are not 1, in the order the result lists them, must
  // be in increasing order: then every element keeps its linear position.
  int64_t last = -1;
  for (int64_t p : *perm) {
    const ir::Dim& d = xs[static_cast<size_t>(p)];
    if (d.isStatic() && d.value() == 1) continue;
    if (p < last)
      return MatchResult::failure(Text::of(
          "moves dim %1, which is not known to be 1, across another such dim", std::to_string(p)));
    last = p;
  }
  Text why;
  auto shape = constantShape(transpose.output(0), why);
  if (!shape) return MatchResult::failure(why);
  return MatchResult::success({&transpose}, [&transpose, x, shape = *shape](rewrite::Rewriter& rw) {
    ir::Node* r = addReshape(rw, transpose, x, shape);
    fusion::replaceAndErase(rw, transpose.output(0), r->output(0), {&transpose});
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // Reshape(x, computed s) -> Reshape(x, constant), the result's shape known but for one dim
  fusion::addRule(r, "reshape_shape_from_type",
                  "Reshape(x, computed shape) -> Reshape(x, constant shape), at most one dim "
                  "of the result unknown (-1)",
                  {"Reshape"}, reshapeFromType);
  // Reshape(x, Concat(.., Shape(x)[i] at position i, ..)) -> Reshape(x, [.., 0, ..])
  fusion::addRule(r, "reshape_shape_copying_input_dims",
                  "Reshape(x, computed shape) -> Reshape(x, constant shape), dims read from x "
                  "at their own position written 0 (copy), one other unknown -1",
                  {"Reshape"}, reshapeCopyingInputDims);
  // Transpose that moves only dims of size 1 -> Reshape
  fusion::addRule(r, "transpose_of_unit_dims",
                  "Transpose moving only dims of size 1 -> Reshape to the result's shape",
                  {"Transpose"}, transposeOfUnitDims);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeReplaceComputedReshapeShapes() {
  return std::make_unique<PatternPass>(catalogInfo("replace_computed_reshape_shapes"), rules());
}

}  // namespace passlab::passes
