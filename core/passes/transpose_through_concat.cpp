// push_transposes, rule transposes_through_concat:
//   Before:  c = Concat(Transpose(a, p), Reshape(b, s), axis = k); y = Transpose(c, q); z = f(c)
//            (q the inverse of p)
//   After:   c2 = Concat(a, Reshape(b, s'), axis = p[k]); y = c2; z = f(Transpose(c2, p))
//   Algebra: Concat along k of T_p(x_i) is T_p of Concat along p[k] of the
//   x_i. An input that is no Transpose by p joins as T_q of itself, which
//   for a Reshape whose q moves only dims of size 1 is a Reshape to the
//   permuted shape s' (the elements keep their order), and for a constant
//   is the constant permuted. The inverse Transposes after the Concat then
//   cancel; other readers keep a Transpose by p of the new Concat.
//   Conditions: every (data) input read only by the Concat; at least one Transpose
//   input, all by the same p; a reader Transposes the result back by q (so
//   at least two Transposes go and at most one comes: GPT-2's key cache,
//   Concat(Transpose(past_k), k_new) read by the attention MatMul and
//   transposed back for `present`, loses one node per layer).
//   ONNX Runtime's com.microsoft QLinearConcat (Y_scale, Y_zp, then X_i,
//   X_i_scale, X_i_zp per input) passes the same way, as in ONNX Runtime's
//   transpose optimizer: only its data inputs X_i are Transposes, Reshapes
//   or constants that move; the per-tensor scales and zero points stay, and
//   the new node is a QLinearConcat with the same inputs in the same order.
#include <algorithm>

#include "core/passes/fusion_utils.h"
#include "core/passes/push_transposes_rules.h"
#include "core/passes/transpose_perm.h"

namespace passlab::passes {

namespace {

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

constexpr const char* kMsDomain = "com.microsoft";

bool isQLinearConcat(const ir::Node& n) {
  return n.domain() == kMsDomain && n.opType() == "QLinearConcat";
}

}  // namespace

MatchResult transposesThroughConcat(ir::Node& cat, const MatchContext&) {
  const bool quantized = isQLinearConcat(cat);
  if (!quantized && !isDefaultOp(cat, "Concat"))
    return MatchResult::failure("not a Concat or a com.microsoft QLinearConcat");
  // The inputs that are concatenated: all of a Concat's; a QLinearConcat's
  // X_i at 2, 5, 8, ... (the others are scales and zero points).
  std::vector<bool> isData(cat.inputCount(), !quantized);
  if (quantized) {
    if (cat.inputCount() < 5 || (cat.inputCount() - 2) % 3 != 0)
      return MatchResult::failure(
          Text::of("the QLinearConcat has %1 inputs, not 2 + 3 per data input",
                   std::to_string(cat.inputCount())));
    for (size_t i = 2; i < cat.inputCount(); i += 3) isData[i] = true;
  }
  std::optional<std::vector<int64_t>> p;
  for (size_t i = 0; i < cat.inputCount(); ++i)
    if (ir::Node* t = isData[i] ? producerOp(cat.input(i), "Transpose") : nullptr) {
      p = fusion::transposePerm(*t);
      break;
    }
  if (!p || !isPerm(*p)) return MatchResult::failure("no input is a Transpose with a known perm");
  const int64_t r = static_cast<int64_t>(p->size());
  const std::vector<int64_t> q = inversePerm(*p);
  if (!cat.hasAttr("axis")) return MatchResult::failure("the Concat has no axis attribute");
  auto axis = normalizeAxes({cat.attrInt("axis", 0)}, r);
  if (!axis) return MatchResult::failure("the Concat axis is out of range");
  std::vector<ConcatPart> parts;
  std::vector<ir::Node*> nodes{&cat};
  for (size_t i = 0; i < cat.inputCount(); ++i) {
    ir::Value* in = cat.input(i);
    ConcatPart part;
    if (!isData[i]) {  // a scale or zero point: kept
      part.source = in;
      parts.push_back(std::move(part));
      continue;
    }
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
  return MatchResult::success(nodes, [&cat, parts, inverses, others, newAxis, perm = *p, q, nodes,
                                      quantized](rewrite::Rewriter& rw) {
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
    ir::Node* c2 = nullptr;
    if (quantized) {  // the same op in its domain, with its attributes
      c2 = rw.addNode(g, cat.opType(), cat.domain(), ins, 1, &cat, "", from);
      for (const ir::Attribute& a : cat.attributes())
        if (auto c = copyAttribute(a)) rw.setAttr(c2, std::move(*c));
    } else {
      c2 = fusion::addDerived(rw, "Concat", ins, &cat, from, &cat);
    }
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

}  // namespace passlab::passes
