// push_transposes, rule transpose_through_split:
//   Before:  t = Transpose(x, p); a, b = Split(t, axis = k)
//            ya = Transpose(a, pa); yb = Transpose(b, pb); z = f(b)
//   After:   a', b' = Split(x, axis = p[k])
//            ya = Transpose(a', p[pa]); yb = Transpose(b', p[pb]); z = f(Transpose(b', p))
//            (a Transpose whose composed perm is the identity goes)
//   Algebra: a Split along k of T_p(x) is T_p of the Split along p[k] of x,
//   part by part (the sizes along the axis are the same); T_pa after T_p is
//   one Transpose by p[pa].
//   Cost: ONNX Runtime's rule, push when Transposes cancel or merge: it fires
//   when fewer Transposes remain (t goes; each reader Transpose is merged or
//   goes; a part read otherwise, or a graph output, needs T_p back).
//   Conditions: t is read by the Split alone, as its data; the reader
//   Transposes are in the Split's graph (a reader in a subgraph is "other").
#include "core/passes/fusion_utils.h"
#include "core/passes/push_transposes_rules.h"
#include "core/passes/transpose_perm.h"

namespace passlab::passes {

namespace {

// How one output of the Split is read.
struct SplitPart {
  std::vector<ir::Node*> transposes;        // readers that Transpose it
  std::vector<std::vector<int64_t>> perms;  // their perms composed with p
  bool others = false;                      // read otherwise, or a graph output
};

SplitPart partReaders(const ir::Value* out, const ir::Node& split, const std::vector<int64_t>& p) {
  SplitPart part;
  part.others = out->isGraphOutput();
  for (const ir::Use& u : rewrite::usesInNodeOrder(out)) {
    const ir::Node& reader = *u.node;
    auto p2 = isDefaultOp(reader, "Transpose") && reader.owner() == split.owner()
                  ? fusion::transposePerm(reader)
                  : std::nullopt;
    if (p2 && p2->size() == p.size() && isPerm(*p2)) {
      part.transposes.push_back(u.node);
      part.perms.push_back(composePerms(p, *p2));
    } else {
      part.others = true;
    }
  }
  return part;
}

// Transposes left after the rewrite: the merged ones that are not the
// identity, and T_p for each part read otherwise.
size_t transposesAfter(const std::vector<SplitPart>& parts) {
  size_t n = 0;
  for (const SplitPart& part : parts) {
    n += part.others ? 1 : 0;
    for (const auto& q : part.perms) n += isIdentityPerm(q) ? 0 : 1;
  }
  return n;
}

void rewriteSplit(rewrite::Rewriter& rw, ir::Node& split, ir::Node& t,
                  const std::vector<int64_t>& p, int64_t newAxis,
                  const std::vector<SplitPart>& parts, const std::vector<ir::Node*>& nodes) {
  std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
  std::vector<ir::Value*> ins = split.inputs();
  ins[0] = t.input(0);
  ir::Node* s2 =
      fusion::addDerived(rw, "Split", ins, &split, from, &split, {}, split.outputCount());
  rw.setAttr(s2, ir::Attribute::makeInt("axis", newAxis));
  const std::vector<int64_t> back = inversePerm(p);
  for (size_t i = 0; i < parts.size(); ++i) {
    ir::Value* part = s2->output(i);
    ir::Type ty = permutedType(split.output(i), back);
    if (!ty.isUndefined()) rw.setType(part, ty);
    for (size_t k = 0; k < parts[i].transposes.size(); ++k) {
      ir::Node* reader = parts[i].transposes[k];
      ir::Value* result = part;
      if (!isIdentityPerm(parts[i].perms[k])) {
        ir::Node* tr =
            fusion::addDerived(rw, "Transpose", {part}, reader, from, nullptr, {reader->output(0)});
        rw.setAttr(tr, ir::Attribute::makeInts("perm", parts[i].perms[k]));
        result = tr->output(0);
      }
      fusion::replaceAndErase(rw, reader->output(0), result, {reader});
    }
    if (parts[i].others) {
      ir::Node* tr =
          fusion::addDerived(rw, "Transpose", {part}, &split, from, nullptr, {split.output(i)});
      rw.setAttr(tr, ir::Attribute::makeInts("perm", p));
      fusion::replaceAndErase(rw, split.output(i), tr->output(0), {});
    }
  }
  fusion::eraseDead(rw, {&split, &t});
}

}  // namespace

Text whyNotSoleTranspose(ir::Value* v, SoleTranspose& out) {
  out.node = producerOp(v, "Transpose");
  if (!out.node) return "the input is not produced by a Transpose";
  if (Text why = rewrite::whyNotSoleConsumer(v); !why.empty())
    return Text::of("Transpose output %1", std::move(why));
  auto p = fusion::transposePerm(*out.node);
  if (!p || !isPerm(*p)) return "the perm is unknown";
  out.perm = std::move(*p);
  return "";
}

MatchResult transposeThroughSplit(ir::Node& split, const MatchContext&) {
  SoleTranspose st;
  if (Text why = whyNotSoleTranspose(split.input(0), st); !why.empty())
    return MatchResult::failure(std::move(why));
  ir::Node* t = st.node;
  const std::vector<int64_t>* p = &st.perm;
  auto axis = normalizeAxes({split.attrInt("axis", 0)}, static_cast<int64_t>(p->size()));
  if (!axis) return MatchResult::failure("the Split axis is out of range");
  std::vector<SplitPart> parts;
  std::vector<ir::Node*> nodes{&split, t};
  size_t before = 1;  // t
  for (size_t i = 0; i < split.outputCount(); ++i) {
    parts.push_back(partReaders(split.output(i), split, *p));
    before += parts.back().transposes.size();
    nodes.insert(nodes.end(), parts.back().transposes.begin(), parts.back().transposes.end());
  }
  const size_t after = transposesAfter(parts);
  if (after >= before)
    return MatchResult::failure(
        Text::of("it would leave %1 Transposes of %2 (the parts are not transposed back)",
                 std::to_string(after), std::to_string(before)));
  const int64_t newAxis = (*p)[static_cast<size_t>((*axis)[0])];
  return MatchResult::success(nodes,
                              [&split, t, perm = *p, newAxis, parts, nodes](rewrite::Rewriter& rw) {
                                rewriteSplit(rw, split, *t, perm, newAxis, parts, nodes);
                              });
}

}  // namespace passlab::passes
