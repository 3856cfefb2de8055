#include "core/passes/passlab_fused_utils.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <unordered_set>

namespace passlab::passes::fusedops {

namespace {

ir::Node* defaultOp(ir::Node* n, std::string_view op) {
  return n && n->domain().empty() && n->opType() == op ? n : nullptr;
}

// The one consumer of `v` in its own graph (not a graph output), or nullptr.
ir::Node* onlyConsumer(const ir::Value* v) {
  if (!v || v->isGraphOutput() || v->uses().size() != 1) return nullptr;
  ir::Node* u = v->uses()[0].node;
  return u->owner() == v->owner() ? u : nullptr;
}

bool binaryWith(const ir::Node* n, const ir::Value* v) {
  return n && n->inputCount() == 2 && (n->input(0) == v || n->input(1) == v);
}

// x * p * 0.5 after `p` (the 1 + f(...) factor), in any association: the
// nodes go to `nodes`; returns the last one or nullptr.
ir::Node* halfProduct(ir::Value* p, ir::Value* x, std::vector<ir::Node*>& nodes) {
  ir::Node* m1 = defaultOp(onlyConsumer(p), "Mul");
  if (!binaryWith(m1, p)) return nullptr;
  ir::Value* o = fusion::otherOperand(*m1, p);
  if (o == x) {  // (x * p) * 0.5
    ir::Node* m2 = defaultOp(onlyConsumer(m1->output(0)), "Mul");
    if (!binaryWith(m2, m1->output(0)) ||
        !fusion::isScalarNear(fusion::otherOperand(*m2, m1->output(0)), 0.5))
      return nullptr;
    nodes.insert(nodes.end(), {m1, m2});
    return m2;
  }
  if (fusion::isScalarNear(o, 0.5)) {  // x * (p * 0.5)
    ir::Node* m2 = defaultOp(onlyConsumer(m1->output(0)), "Mul");
    if (!binaryWith(m2, m1->output(0)) || fusion::otherOperand(*m2, m1->output(0)) != x)
      return nullptr;
    nodes.insert(nodes.end(), {m1, m2});
    return m2;
  }
  ir::Node* h = producerOp(o, "Mul");  // (x * 0.5) * p
  if (binaryWith(h, x) && fusion::isScalarNear(fusion::otherOperand(*h, x), 0.5)) {
    nodes.insert(nodes.end(), {h, m1});
    return m1;
  }
  return nullptr;
}

// Add(v, 1) after v: the node or nullptr.
ir::Node* plusOne(ir::Value* v) {
  ir::Node* a = defaultOp(onlyConsumer(v), "Add");
  return binaryWith(a, v) && fusion::isScalarNear(fusion::otherOperand(*a, v), 1.0) ? a : nullptr;
}

// The erf GELU starting at `first`, a node reading x: Div(x, sqrt 2) or Mul(x, 1/sqrt 2).
ir::Node* erfForm(ir::Node* first, ir::Value* x, std::vector<ir::Node*>& nodes) {
  bool div = defaultOp(first, "Div") && first->inputCount() == 2 && first->input(0) == x &&
             fusion::isScalarNear(first->input(1), std::numbers::sqrt2);
  bool mul = defaultOp(first, "Mul") && binaryWith(first, x) &&
             fusion::isScalarNear(fusion::otherOperand(*first, x), std::numbers::sqrt2 / 2);
  if (!div && !mul) return nullptr;
  ir::Node* erf = defaultOp(onlyConsumer(first->output(0)), "Erf");
  if (!erf) return nullptr;
  ir::Node* add = plusOne(erf->output(0));
  if (!add) return nullptr;
  nodes.insert(nodes.end(), {first, erf, add});
  return halfProduct(add->output(0), x, nodes);
}

// The tanh GELU starting at `first`, a node reading x: Pow(x, 3) or Mul(x, x).
ir::Node* tanhForm(ir::Node* first, ir::Value* x, std::vector<ir::Node*>& nodes) {
  ir::Value* cube = nullptr;
  if (defaultOp(first, "Pow") && first->inputCount() == 2 && first->input(0) == x &&
      fusion::isScalarNear(first->input(1), 3.0)) {
    nodes.push_back(first);
    cube = first->output(0);
  } else if (defaultOp(first, "Mul") && first->inputCount() == 2 && first->input(0) == x &&
             first->input(1) == x) {
    ir::Node* m = defaultOp(onlyConsumer(first->output(0)), "Mul");
    if (!binaryWith(m, first->output(0)) || fusion::otherOperand(*m, first->output(0)) != x)
      return nullptr;
    nodes.insert(nodes.end(), {first, m});
    cube = m->output(0);
  } else {
    return nullptr;
  }
  ir::Node* k = defaultOp(onlyConsumer(cube), "Mul");
  if (!binaryWith(k, cube) || !fusion::isScalarNear(fusion::otherOperand(*k, cube), 0.044715))
    return nullptr;
  ir::Node* inner = defaultOp(onlyConsumer(k->output(0)), "Add");
  if (!binaryWith(inner, k->output(0)) || fusion::otherOperand(*inner, k->output(0)) != x)
    return nullptr;
  ir::Node* scale = defaultOp(onlyConsumer(inner->output(0)), "Mul");
  const double c = std::sqrt(2.0 / std::numbers::pi);
  if (!binaryWith(scale, inner->output(0)) ||
      !fusion::isScalarNear(fusion::otherOperand(*scale, inner->output(0)), c))
    return nullptr;
  ir::Node* th = defaultOp(onlyConsumer(scale->output(0)), "Tanh");
  if (!th) return nullptr;
  ir::Node* add = plusOne(th->output(0));
  if (!add) return nullptr;
  nodes.insert(nodes.end(), {k, inner, scale, th, add});
  return halfProduct(add->output(0), x, nodes);
}

std::optional<float> constScalar(const ir::Value* v) {
  auto s = fusion::scalarValue(v);
  if (!s) return std::nullopt;
  return static_cast<float>(*s);
}

}  // namespace

std::optional<std::vector<float>> activationParams(const ir::Node& n, int64_t opset,
                                                   std::string& why) {
  const std::string& op = n.opType();
  if (op == "LeakyRelu") return std::vector<float>{n.attrFloat("alpha", 0.01f)};
  if (op == "HardSigmoid")
    return std::vector<float>{n.attrFloat("alpha", 0.2f), n.attrFloat("beta", 0.5f)};
  if (op == "Gelu") {
    std::string mode = n.attrString("approximate", "none");
    if (mode != "none" && mode != "tanh") {
      why = "Gelu approximate '" + mode + "' is not known";
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
        why = std::string("Clip ") + (i == 1 ? "min" : "max") + " is not a constant scalar";
        return std::nullopt;
      }
      p[i - 1] = *s;
    }
    return p;
  }
  return std::vector<float>{};
}

std::optional<Activation> activationAfter(ir::Value* t, const rewrite::MatchContext& c,
                                          std::string& why) {
  if (!t || t->uses().empty()) {
    why = "'" + (t ? t->name() : std::string("?")) + "' has no consumer";
    return std::nullopt;
  }
  if (t->isGraphOutput()) {
    why = "'" + t->name() + "' is a graph output";
    return std::nullopt;
  }
  for (const ir::Use& u : t->uses())
    if (u.node->owner() != t->owner()) {
      why = "'" + t->name() + "' is used inside a subgraph";
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
    for (bool tanhApprox : {false, true}) {
      std::vector<ir::Node*> nodes;
      ir::Node* last = tanhApprox ? tanhForm(u.node, t, nodes) : erfForm(u.node, t, nodes);
      if (!last) continue;
      std::unordered_set<const ir::Node*> in(nodes.begin(), nodes.end());
      bool all = true;
      for (const ir::Use& v : t->uses()) all = all && in.count(v.node);
      if (!all) {
        why = "'" + t->name() + "' feeds a GELU subgraph and also other nodes";
        return std::nullopt;
      }
      if (std::string w = fusion::whyNotClosed(nodes, last); !w.empty()) {
        why = "inside the GELU subgraph, " + w;
        return std::nullopt;
      }
      return Activation{"Gelu", {tanhApprox ? 1.0f : 0.0f}, nodes, last->output(0)};
    }
  }
  if (t->uses().size() == 1)
    why = "the consumer of '" + t->name() + "' (" + fusion::nodeText(*t->uses()[0].node) +
          ") is not an activation";
  else
    why = "'" + t->name() + "' has " + std::to_string(t->uses().size()) +
          " consumers that are not a GELU subgraph";
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
  ir::Model& m = rw.model();
  if (!m.opsetVersion(kDomain)) m.setOpsetVersion(kDomain, 1);
  ir::Node* n = rw.addNode(*before->owner(), op, kDomain, inputs, 1, before, "", from);
  if (typeLike && !typeLike->type().isUndefined()) rw.setType(n->output(0), typeLike->type());
  return n;
}

}  // namespace passlab::passes::fusedops
