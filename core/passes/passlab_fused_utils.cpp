#include "core/passes/passlab_fused_utils.h"

#include <limits>
#include <unordered_set>

#include "core/passes/gelu_match.h"

namespace passlab::passes::fusedops {

namespace {

std::optional<float> constScalar(const ir::Value* v) {
  auto s = fusion::scalarValue(v);
  if (!s) return std::nullopt;
  return static_cast<float>(*s);
}

}  // namespace

std::optional<std::vector<float>> activationParams(const ir::Node& n, int64_t opset, Text& why) {
  const std::string& op = n.opType();
  if (op == "LeakyRelu") return std::vector<float>{n.attrFloat("alpha", 0.01f)};
  if (op == "HardSigmoid")
    return std::vector<float>{n.attrFloat("alpha", 0.2f), n.attrFloat("beta", 0.5f)};
  if (op == "Gelu") {
    std::string mode = n.attrString("approximate", "none");
    if (mode != "none" && mode != "tanh") {
      why = Text::of("Gelu approximate '%1' is not known", mode);
      return std::nullopt;
    }
    return std::vector<float>{mode == "tanh" ? 1.0f : 0.0f};
  }
  if (op == "Clip") {
    const float inf = std::numeric_limits<float>::infinity();
    if (opset < 11) return std::vector<float>{n.attrFloat("min", -inf), n.attrFloat("max", inf)};
    std::vector<float> p = {-inf, inf};
    for (size_t i = 1; i <= 2; ++i) {
      if (n.inputCount() <= i || !n.input(i)) continue;
      auto s = constScalar(n.input(i));
      if (!s) {
        why = Text::of("Clip %1 is not a constant scalar", (i == 1 ? "min" : "max"));
        return std::nullopt;
      }
      p[i - 1] = *s;
    }
    return p;
  }
  return std::vector<float>{};
}

std::optional<Activation> activationAfter(ir::Value* t, const rewrite::MatchContext& c, Text& why) {
  if (!t || t->uses().empty()) {
    why = Text::of("'%1' has no consumer", (t ? t->name() : std::string("?")));
    return std::nullopt;
  }
  if (t->isGraphOutput()) {
    why = Text::of("'%1' is a graph output", t->name());
    return std::nullopt;
  }
  for (const ir::Use& u : t->uses())
    if (u.node->owner() != t->owner()) {
      why = Text::of("'%1' is used inside a subgraph", t->name());
      return std::nullopt;
    }
  if (t->uses().size() == 1) {
    ir::Node* n = t->uses()[0].node;
    static const std::unordered_set<std::string> kSingle = {
        "Relu", "LeakyRelu", "Clip", "Sigmoid", "Tanh", "HardSigmoid", "HardSwish", "Gelu"};
    if (n->domain().empty() && kSingle.count(n->opType()) && n->input(0) == t) {
      auto p = activationParams(*n, c.opset, why);
      if (!p) return std::nullopt;
      if (n->opType() == "Clip" && n->inputCount() > 1 && c.opset < 11) {
        why = "Clip has inputs before opset 11";
        return std::nullopt;
      }
      return Activation{n->opType(), *p, {n}, n->output(0)};
    }
  }
  // The decomposed GELU: every use of t is part of it.
  for (const ir::Use& u : t->uses()) {
    if (auto m = fusion::matchGeluFrom(*u.node, t)) {  // core/passes/gelu_match.h
      const std::vector<ir::Node*>& nodes = m->nodes;
      ir::Node* last = m->last;
      const bool tanhApprox = m->tanh;
      std::unordered_set<const ir::Node*> in(nodes.begin(), nodes.end());
      bool all = true;
      for (const ir::Use& v : t->uses()) all = all && in.count(v.node);
      if (!all) {
        why = Text::of("'%1' feeds a GELU subgraph and also other nodes", t->name());
        return std::nullopt;
      }
      if (Text w = rewrite::whyNotClosed(nodes, last); !w.empty()) {
        why = Text::of("inside the GELU subgraph, %1", w);
        return std::nullopt;
      }
      return Activation{"Gelu", {tanhApprox ? 1.0f : 0.0f}, nodes, last->output(0)};
    }
  }
  if (t->uses().size() == 1)
    why = Text::of("the consumer of '%1' (%2) is not an activation", t->name(),
                   fusion::nodeText(*t->uses()[0].node));
  else
    why = Text::of("'%1' has %2 consumers that are not a GELU subgraph", t->name(),
                   std::to_string(t->uses().size()));
  return std::nullopt;
}

bool sameShape(const ir::Value* a, const ir::Value* b) {
  if (!a || !b || !a->type().isTensor() || !b->type().isTensor() || !a->type().hasShape() ||
      !b->type().hasShape())
    return false;
  const ir::Shape& x = *a->type().shape();
  const ir::Shape& y = *b->type().shape();
  if (x.rank() != y.rank()) return false;
  for (size_t i = 0; i < x.rank(); ++i)
    if (!x[i].sameAs(y[i])) return false;
  return true;
}

bool isFused(const ir::Node* n, std::string_view op) {
  return n && n->domain() == kDomain && n->opType() == op;
}

ir::Node* addFused(rewrite::Rewriter& rw, const std::string& op,
                   const std::vector<ir::Value*>& inputs, ir::Node* before,
                   const std::vector<const ir::Node*>& from, const ir::Value* typeLike) {
  if (!rw.model().opsetVersion(kDomain)) rw.setOpsetVersion(kDomain, ir::passlab_ops::kVersion);
  ir::Node* n = rw.addNode(*before->owner(), op, kDomain, inputs, 1, before, "", from);
  if (typeLike && !typeLike->type().isUndefined()) rw.setType(n->output(0), typeLike->type());
  return n;
}

}  // namespace passlab::passes::fusedops
