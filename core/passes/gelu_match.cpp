#include "core/passes/gelu_match.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

#include "core/passes/fusion_utils.h"
#include "core/support/strings.h"

namespace passlab::passes::fusion {

namespace {

// How a matcher steps from a value to the node reading it: the backward
// matchers take its only reader and check the whole subgraph at the end
// (whyNotGeluResult), the forward one takes only a sole consumer.
enum class Follow { kOnlyReader, kSoleConsumer };

ir::Node* next(const ir::Value* v, Follow f) {
  return f == Follow::kOnlyReader ? rewrite::onlyReader(v) : rewrite::soleConsumer(v);
}

bool binaryWith(const ir::Node* n, const ir::Value* v) {
  return n && n->inputCount() == 2 && (n->input(0) == v || n->input(1) == v);
}

// 1 + v: the Add node reading v with a constant 1.
ir::Node* plusOne(ir::Value* v, Follow f) {
  ir::Node* a = defaultOp(next(v, f), "Add");
  return binaryWith(a, v) && isScalarNear(otherOperand(*a, v), 1.0) ? a : nullptr;
}

// x * p * 0.5 after `p` (the 1 + f(...) factor), in any association:
// (x * p) * 0.5, x * (p * 0.5), (x * 0.5) * p. Appends its nodes to `nodes`
// and returns the last one, or nullptr.
ir::Node* halfProduct(ir::Value* p, ir::Value* x, std::vector<ir::Node*>& nodes, Follow f) {
  ir::Node* m1 = defaultOp(next(p, f), "Mul");
  if (!binaryWith(m1, p)) return nullptr;
  ir::Value* o = otherOperand(*m1, p);
  if (o == x || isScalarNear(o, 0.5)) {  // (x * p) * 0.5 or x * (p * 0.5)
    ir::Node* m2 = defaultOp(next(m1->output(0), f), "Mul");
    if (!binaryWith(m2, m1->output(0))) return nullptr;
    ir::Value* o2 = otherOperand(*m2, m1->output(0));
    if (o == x ? !isScalarNear(o2, 0.5) : o2 != x) return nullptr;
    nodes.insert(nodes.end(), {m1, m2});
    return m2;
  }
  ir::Node* h = producerOp(o, "Mul");  // (x * 0.5) * p
  if (binaryWith(h, x) && isScalarNear(otherOperand(*h, x), 0.5)) {
    nodes.insert(nodes.end(), {h, m1});
    return m1;
  }
  return nullptr;
}

// ---- by shape, backwards from the Erf / Tanh (fuse_gelu) ----

// x^3 as Pow(x, 3) or two Muls: the nodes, or empty.
std::vector<ir::Node*> cubeOf(ir::Value* v, ir::Value*& x) {
  ir::Node* n = v ? v->producer() : nullptr;
  if (defaultOp(n, "Pow") && isScalarNear(n->input(1), 3.0)) {
    x = n->input(0);
    return {n};
  }
  if (!defaultOp(n, "Mul")) return {};
  for (size_t i = 0; i < 2; ++i) {
    ir::Node* sq = producerOp(n->input(i), "Mul");
    if (sq && sq->input(0) == sq->input(1) && sq->input(0) == n->input(1 - i)) {
      x = sq->input(0);
      return {sq, n};
    }
  }
  return {};
}

// The end shared by the forms rooted at the Erf / Tanh: 1 + f, times x and 0.5.
std::optional<GeluMatch> closeFromRoot(ir::Node& root, ir::Value* x, std::vector<ir::Node*> nodes,
                                       bool tanh, Text& why) {
  const char* what = tanh ? "Tanh" : "Erf";
  ir::Node* p = plusOne(root.output(0), Follow::kOnlyReader);
  if (!p) {
    why = Text::of("the %1 result is not the operand of an Add of 1", what);
    return std::nullopt;
  }
  nodes.push_back(p);
  GeluMatch m{x, tanh, std::move(nodes), nullptr};
  m.last = halfProduct(p->output(0), x, m.nodes, Follow::kOnlyReader);
  if (!m.last) {
    why = Text::of("1 + %1(...) is not multiplied by x and 0.5", what);
    return std::nullopt;
  }
  if (why = whyNotGeluResult(m); !why.empty()) return std::nullopt;
  return m;
}

// ---- by value (fuse_ort_gelu) ----

// The values x may be, seen from the Mul that consumes `p`: the other operand
// ((x * p) * 0.5), the other operand of the next Mul (x * (p * 0.5)), or the
// non-0.5 operand of the Mul producing the other operand ((x * 0.5) * p).
std::vector<ir::Value*> xCandidates(ir::Value* p) {
  std::vector<ir::Value*> out;
  ir::Node* m1 = defaultOp(rewrite::onlyReader(p), "Mul");
  if (!m1) return out;
  ir::Value* o = otherOperand(*m1, p);
  if (!o) return out;
  if (isScalarNear(o, 0.5)) {
    if (ir::Node* m2 = defaultOp(rewrite::onlyReader(m1->output(0)), "Mul"))
      if (ir::Value* x = otherOperand(*m2, m1->output(0))) out.push_back(x);
    return out;
  }
  out.push_back(o);
  if (ir::Node* h = producerOp(o, "Mul"))
    for (size_t i = 0; i < 2; ++i)
      if (isScalarNear(h->input(1 - i), 0.5)) out.push_back(h->input(i));
  return out;
}

// `v` as a function of x at `at`: v is x, a scalar constant, or an
// Add/Sub/Mul/Div/Pow/Sqrt/Neg of such values. The nodes on the way are
// added to `cone`. nullopt when something else is reached.
std::optional<double> evalAt(const ir::Value* v, const ir::Value* x, double at,
                             std::vector<ir::Node*>& cone, int depth = 0) {
  if (v == x) return at;
  if (!v || depth > 16) return std::nullopt;
  if (rewrite::isConstant(v)) return scalarValue(v);
  ir::Node* n = v->producer();
  if (!n || !n->domain().empty()) return std::nullopt;
  const std::string& op = n->opType();
  static const std::map<std::string, int> kArity = {{"Add", 2}, {"Sub", 2},  {"Mul", 2}, {"Div", 2},
                                                    {"Pow", 2}, {"Sqrt", 1}, {"Neg", 1}};
  auto it = kArity.find(op);
  if (it == kArity.end() || static_cast<int>(n->inputCount()) != it->second) return std::nullopt;
  if (n->outputCount() != 1 || !isFloatType(elemTypeOf(v))) return std::nullopt;
  double a[2] = {0, 0};
  for (size_t i = 0; i < n->inputCount(); ++i) {
    auto r = evalAt(n->input(i), x, at, cone, depth + 1);
    if (!r) return std::nullopt;
    a[i] = *r;
  }
  if (std::find(cone.begin(), cone.end(), n) == cone.end()) cone.push_back(n);
  if (op == "Add") return a[0] + a[1];
  if (op == "Sub") return a[0] - a[1];
  if (op == "Mul") return a[0] * a[1];
  if (op == "Div") return a[0] / a[1];
  if (op == "Pow") return std::pow(a[0], a[1]);
  if (op == "Sqrt") return std::sqrt(a[0]);
  return -a[0];
}

double innerReference(bool tanh, double x) {
  if (!tanh) return x / std::sqrt(2.0);
  return std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x);
}

// "" when the argument of the Erf/Tanh is the GELU argument of x; else why not.
Text whyNotGeluArgument(ir::Value* arg, ir::Value* x, bool tanh, std::vector<ir::Node*>& cone) {
  for (double at : {-3.0, -1.25, -0.5, 0.1, 0.75, 1.5, 2.5}) {
    auto got = evalAt(arg, x, at, cone);
    if (!got)
      return Text::of("the %1 input is not built from x and scalar constants alone",
                      (tanh ? "Tanh" : "Erf"));
    double want = innerReference(tanh, at);
    if (std::fabs(*got - want) > 1e-4 * std::max(1.0, std::fabs(want))) {
      return Text::of("the %1 input is not %2 (at x = %3 it is %4, not %5)", tanh ? "Tanh" : "Erf",
                      tanh ? "sqrt(2/pi) * (x + 0.044715 x^3)" : "x / sqrt(2)",
                      str::printed("%g", at), str::printed("%.6g", *got),
                      str::printed("%.6g", want));
    }
  }
  return "";
}

// ---- forward from x (the ai.passlab activation recognizer) ----

// The erf GELU starting at `first`: Div(x, sqrt 2) or Mul(x, 1/sqrt 2).
ir::Node* erfFrom(ir::Node* first, ir::Value* x, std::vector<ir::Node*>& nodes) {
  const Follow f = Follow::kSoleConsumer;
  bool div = defaultOp(first, "Div") && first->inputCount() == 2 && first->input(0) == x &&
             isScalarNear(first->input(1), std::numbers::sqrt2);
  bool mul = defaultOp(first, "Mul") && binaryWith(first, x) &&
             isScalarNear(otherOperand(*first, x), std::numbers::sqrt2 / 2);
  if (!div && !mul) return nullptr;
  ir::Node* erf = defaultOp(next(first->output(0), f), "Erf");
  if (!erf) return nullptr;
  ir::Node* add = plusOne(erf->output(0), f);
  if (!add) return nullptr;
  nodes.insert(nodes.end(), {first, erf, add});
  return halfProduct(add->output(0), x, nodes, f);
}

// The tanh GELU starting at `first`: Pow(x, 3) or Mul(x, x).
ir::Node* tanhFrom(ir::Node* first, ir::Value* x, std::vector<ir::Node*>& nodes) {
  const Follow f = Follow::kSoleConsumer;
  ir::Value* cube = nullptr;
  if (defaultOp(first, "Pow") && first->inputCount() == 2 && first->input(0) == x &&
      isScalarNear(first->input(1), 3.0)) {
    nodes.push_back(first);
    cube = first->output(0);
  } else if (defaultOp(first, "Mul") && first->inputCount() == 2 && first->input(0) == x &&
             first->input(1) == x) {
    ir::Node* m = defaultOp(next(first->output(0), f), "Mul");
    if (!binaryWith(m, first->output(0)) || otherOperand(*m, first->output(0)) != x) return nullptr;
    nodes.insert(nodes.end(), {first, m});
    cube = m->output(0);
  } else {
    return nullptr;
  }
  ir::Node* k = defaultOp(next(cube, f), "Mul");
  if (!binaryWith(k, cube) || !isScalarNear(otherOperand(*k, cube), 0.044715)) return nullptr;
  ir::Node* inner = defaultOp(next(k->output(0), f), "Add");
  if (!binaryWith(inner, k->output(0)) || otherOperand(*inner, k->output(0)) != x) return nullptr;
  ir::Node* scale = defaultOp(next(inner->output(0), f), "Mul");
  if (!binaryWith(scale, inner->output(0)) ||
      !isScalarNear(otherOperand(*scale, inner->output(0)), std::sqrt(2.0 / std::numbers::pi)))
    return nullptr;
  ir::Node* th = defaultOp(next(scale->output(0), f), "Tanh");
  if (!th) return nullptr;
  ir::Node* add = plusOne(th->output(0), f);
  if (!add) return nullptr;
  nodes.insert(nodes.end(), {k, inner, scale, th, add});
  return halfProduct(add->output(0), x, nodes, f);
}

}  // namespace

Text whyNotGeluResult(const GeluMatch& m) {
  if (Text why = rewrite::whyNotClosed(m.nodes, m.last); !why.empty()) return why;
  if (!isFloatType(elemTypeOf(m.x))) return "x is not a float tensor";
  // A constant of higher rank than x (0.5 as [1, 1]) broadcasts the result to a
  // larger shape than Gelu(x) has.
  if (!rewrite::sameTensorType(m.x, m.last->output(0)))
    return "the result does not have x's type and shape (a constant broadcasts it, or a shape is "
           "unknown)";
  return "";
}

std::optional<GeluMatch> matchGeluErf(ir::Node& erf, Text& why) {
  ir::Node* scale = erf.input(0) ? erf.input(0)->producer() : nullptr;
  ir::Value* x = nullptr;
  if (defaultOp(scale, "Div") && isScalarNear(scale->input(1), std::sqrt(2.0)))
    x = scale->input(0);
  else if (defaultOp(scale, "Mul")) {
    for (size_t i = 0; i < 2 && !x; ++i)
      if (isScalarNear(scale->input(1 - i), 1.0 / std::sqrt(2.0))) x = scale->input(i);
  }
  if (!x) {
    why = "the Erf input is not x / sqrt(2)";
    return std::nullopt;
  }
  return closeFromRoot(erf, x, {scale, &erf}, false, why);
}

std::optional<GeluMatch> matchGeluTanh(ir::Node& tanh, Text& why) {
  ir::Node* u = producerOp(tanh.input(0), "Mul");
  ir::Value* s = nullptr;
  if (u)
    for (size_t i = 0; i < 2 && !s; ++i)
      if (isScalarNear(u->input(1 - i), std::sqrt(2.0 / M_PI))) s = u->input(i);
  if (!s) {
    why = "the Tanh input is not sqrt(2/pi) * (...)";
    return std::nullopt;
  }
  ir::Node* add = producerOp(s, "Add");
  if (!add) {
    why = "sqrt(2/pi) multiplies no Add";
    return std::nullopt;
  }
  for (size_t i = 0; i < 2; ++i) {
    ir::Value* x = add->input(i);
    ir::Node* k = producerOp(add->input(1 - i), "Mul");
    if (!k) continue;
    for (size_t j = 0; j < 2; ++j) {
      if (!isScalarNear(k->input(1 - j), 0.044715)) continue;
      ir::Value* cx = nullptr;
      std::vector<ir::Node*> nodes = cubeOf(k->input(j), cx);
      if (nodes.empty() || cx != x) continue;
      nodes.insert(nodes.end(), {k, add, u, &tanh});
      return closeFromRoot(tanh, x, std::move(nodes), true, why);
    }
  }
  why = "the Add is not x + 0.044715 * x^3";
  return std::nullopt;
}

std::optional<GeluMatch> matchGeluByValue(ir::Node& root, Text& why) {
  const bool tanh = root.opType() == "Tanh";
  const char* what = tanh ? "Tanh" : "Erf";
  ir::Node* p = defaultOp(rewrite::onlyReader(root.output(0)), "Add");
  if (!p || !isScalarNear(otherOperand(*p, root.output(0)), 1.0)) {
    why = Text::of("the %1 result is not the operand of an Add of 1", what);
    return std::nullopt;
  }
  std::vector<ir::Value*> xs = xCandidates(p->output(0));
  if (xs.empty()) {
    why = Text::of("1 + %1(...) is not multiplied by x and 0.5", what);
    return std::nullopt;
  }
  for (ir::Value* x : xs) {
    std::vector<ir::Node*> nodes;
    ir::Node* last = halfProduct(p->output(0), x, nodes, Follow::kOnlyReader);
    if (!last) {
      why = Text::of("1 + %1(...) is not multiplied by x and 0.5", what);
      continue;
    }
    GeluMatch m{x, tanh, {}, last};
    why = whyNotGeluArgument(root.input(0), x, tanh, m.nodes);
    if (!why.empty()) continue;
    m.nodes.push_back(&root);
    m.nodes.push_back(p);
    for (ir::Node* n : nodes)
      if (std::find(m.nodes.begin(), m.nodes.end(), n) == m.nodes.end()) m.nodes.push_back(n);
    if (why = whyNotGeluResult(m); !why.empty()) return std::nullopt;
    return m;
  }
  return std::nullopt;
}

std::optional<GeluMatch> matchGeluFrom(ir::Node& first, ir::Value* x) {
  for (bool tanh : {false, true}) {
    GeluMatch m{x, tanh, {}, nullptr};
    m.last = tanh ? tanhFrom(&first, x, m.nodes) : erfFrom(&first, x, m.nodes);
    if (m.last) return m;
  }
  return std::nullopt;
}

}  // namespace passlab::passes::fusion
