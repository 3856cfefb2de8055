// The present output for fuse_ort_attention: the key/value cache after this
// step, Concat(Unsqueeze(K as [B, N, T, H]), Unsqueeze(V as [B, N, T, H])) on
// axis 0, which Attention's second output replaces.
#include <algorithm>

#include "core/passes/ort_attention_parts.h"

namespace passlab::passes::ortattention {

namespace {

// The present Concat that `u` (a reader of K or V, perhaps through a
// Transpose) feeds through an Unsqueeze, or nullptr.
ir::Node* presentThrough(ir::Node* u) {
  ir::Node* uq = u;
  if (u->domain().empty() && u->opType() == "Transpose") {
    Text w;
    uq = rewrite::soleConsumer(u->output(0), &w);
  }
  if (!uq || !uq->domain().empty() || uq->opType() != "Unsqueeze") return nullptr;
  Text w;
  ir::Node* cc = rewrite::soleConsumer(uq->output(0), &w);
  if (!cc || !cc->domain().empty() || cc->opType() != "Concat" || cc->inputCount() != 2 ||
      cc->attrInt("axis", 1) != 0)
    return nullptr;
  return cc;
}

}  // namespace

ir::Node* findPresent(const Desc& k, const Desc& v, const std::vector<ir::Node*>& nodes) {
  std::vector<ir::Node*> kvNodes = k.nodes;
  kvNodes.insert(kvNodes.end(), v.nodes.begin(), v.nodes.end());
  ir::Node* present = nullptr;
  for (ir::Node* n : kvNodes) {
    for (ir::Value* o : n->outputs()) {
      if (!o) continue;
      // The last such reader of the output wins.
      for (const ir::Use& u : o->uses()) {
        if (std::find(nodes.begin(), nodes.end(), u.node) != nodes.end()) continue;
        if (ir::Node* cc = presentThrough(u.node)) present = cc;
      }
      if (present) return present;
    }
  }
  return nullptr;
}

std::optional<std::vector<ir::Node*>> presentNodes(ir::Node* present, const Desc& k, const Desc& v,
                                                   Text& why) {
  std::vector<ir::Node*> pn{present};
  for (size_t i = 0; i < 2; ++i) {
    ir::Node* uq = producerOp(present->input(i), "Unsqueeze");
    auto ax = uq ? rewrite::intsFromAttrOrInput(*uq, "axes", 1) : std::nullopt;
    if (!uq || !ax || *ax != std::vector<int64_t>{0}) {
      why = "the present Concat does not stack two Unsqueeze(.., 0)";
      return std::nullopt;
    }
    auto d = describe(uq->input(0), why);
    const Desc& want = i == 0 ? k : v;
    if (!d || d->axes != std::array<int, 4>{0, 1, 2, 3} || d->reshape != want.reshape ||
        d->past != want.past || d->pastIndex != want.pastIndex) {
      why = Text::of("the present does not stack %1 as [B, N, T, H]", (i == 0 ? "K" : "V"));
      return std::nullopt;
    }
    pn.push_back(uq);
    for (ir::Node* n : d->nodes) pn.push_back(n);
  }
  return pn;
}

}  // namespace passlab::passes::ortattention
