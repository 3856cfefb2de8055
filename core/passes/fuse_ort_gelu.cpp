// fuse_ort_gelu — the erf and tanh GELU subgraphs, with the bias Add before
// them, become ONNX Runtime's Gelu, BiasGelu or FastGelu (ONNX Runtime target).
//
// Before (erf):   y = x * 0.5 * (1 + Erf(x / sqrt(2)))
// After:          y = com.microsoft.Gelu(x)
// Before (tanh):  y = x * 0.5 * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
// After:          y = com.microsoft.FastGelu(x)
// With a bias:    x = Add(m, b), b a constant 1-D [last dim of m]:
//                 y = com.microsoft.BiasGelu(m, b) (erf), FastGelu(m, b) (tanh)
// Also:           Gelu(Add(m, b)) (ONNX, opset >= 20, either approximation),
//                 com.microsoft.Gelu / FastGelu of Add(m, b)
//                 -> BiasGelu(m, b) / FastGelu(m, b)
// Algebra: Gelu(x) = 0.5 x (1 + erf(x / sqrt 2)); FastGelu is the tanh
// approximation with the same constants; both ONNX Runtime ops add the bias
// along the last dim first. The product of x, 0.5 and the (1 + ...) factor is
// matched in any association; the argument of the Erf or Tanh is recognized
// by value rather than by shape: it must be built from x and scalar
// constants with Add/Sub/Mul/Div/Pow/Sqrt/Neg only, and equal x / sqrt(2)
// (erf) or sqrt(2/pi) (x + 0.044715 x^3) (tanh) within a relative 1e-4 at
// seven points. That covers x / 1.4142, x * 0.7071, Pow(x, 3), x * x * x and
// Megatron's sqrt(2/pi) x (1 + 0.044715 x x) alike. The kernels evaluate the
// same formulas, so results agree within rounding (changesNumerics).
// Conditions: every intermediate read only inside the subgraph (not a graph
// output, not in a subgraph); x of a float type; the result of x's type and
// shape; for the bias, the Add's result read only by the GELU subgraph.
// Opsets: 1-28 (the ONNX Gelu root from 20).
#include <cmath>
#include <map>

#include "core/passes/ort_fusion_utils.h"
#include "core/passes/pass.h"

namespace passlab::passes {

namespace {

using ortfusion::kMsDomain;
using rewrite::MatchContext;
using rewrite::MatchResult;

using fusion::defaultOp;
using fusion::onlyConsumer;

// The values x may be, seen from the Mul that consumes `p`: the other operand
// ((x * p) * 0.5), the other operand of the next Mul (x * (p * 0.5)), or the
// non-0.5 operand of the Mul producing the other operand ((x * 0.5) * p).
std::vector<ir::Value*> xCandidates(ir::Value* p) {
  std::vector<ir::Value*> out;
  ir::Node* m1 = defaultOp(onlyConsumer(p), "Mul");
  if (!m1) return out;
  ir::Value* o = fusion::otherOperand(*m1, p);
  if (!o) return out;
  if (fusion::isScalarNear(o, 0.5)) {
    if (ir::Node* m2 = defaultOp(onlyConsumer(m1->output(0)), "Mul"))
      if (ir::Value* x = fusion::otherOperand(*m2, m1->output(0))) out.push_back(x);
    return out;
  }
  out.push_back(o);
  if (ir::Node* h = producerOp(o, "Mul"))
    for (size_t i = 0; i < 2; ++i)
      if (fusion::isScalarNear(h->input(1 - i), 0.5)) out.push_back(h->input(i));
  return out;
}

// `v` as a function of x at `at`: v is x, a scalar constant, or an
// Add/Sub/Mul/Div/Pow/Sqrt/Neg of such values. The nodes on the way are
// added to `cone`. nullopt when something else is reached.
std::optional<double> evalAt(const ir::Value* v, const ir::Value* x, double at,
                             std::vector<ir::Node*>& cone, int depth = 0) {
  if (v == x) return at;
  if (!v || depth > 16) return std::nullopt;
  if (rewrite::isConstant(v)) return fusion::scalarValue(v);
  ir::Node* n = v->producer();
  if (!n || !n->domain().empty()) return std::nullopt;
  const std::string& op = n->opType();
  static const std::map<std::string, int> kArity = {{"Add", 2}, {"Sub", 2},  {"Mul", 2}, {"Div", 2},
                                                    {"Pow", 2}, {"Sqrt", 1}, {"Neg", 1}};
  auto it = kArity.find(op);
  if (it == kArity.end() || static_cast<int>(n->inputCount()) != it->second) return std::nullopt;
  if (n->outputCount() != 1 || !fusion::isFloatType(elemTypeOf(v))) return std::nullopt;
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
std::string whyNotGeluArgument(ir::Value* arg, ir::Value* x, bool tanh,
                               std::vector<ir::Node*>& cone) {
  for (double at : {-3.0, -1.25, -0.5, 0.1, 0.75, 1.5, 2.5}) {
    auto got = evalAt(arg, x, at, cone);
    if (!got)
      return std::string("the ") + (tanh ? "Tanh" : "Erf") +
             " input is not built from x and scalar constants alone";
    double want = innerReference(tanh, at);
    if (std::fabs(*got - want) > 1e-4 * std::max(1.0, std::fabs(want))) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "the %s input is not %s (at x = %g it is %.6g, not %.6g)",
                    tanh ? "Tanh" : "Erf", tanh ? "sqrt(2/pi) * (x + 0.044715 x^3)" : "x / sqrt(2)",
                    at, *got, want);
      return buf;
    }
  }
  return "";
}

// The new node: Gelu/BiasGelu (erf) or FastGelu (tanh), absorbing a bias Add before x when
// there is one that only the matched nodes read.
MatchResult finish(ir::Value* x, std::vector<ir::Node*> nodes, ir::Node* last, bool tanh) {
  if (std::string why = fusion::whyNotClosed(nodes, last); !why.empty())
    return MatchResult::failure(why);
  if (!fusion::isFloatType(elemTypeOf(x))) return MatchResult::failure("x is not a float tensor");
  if (!rewrite::sameTensorType(x, last->output(0)))
    return MatchResult::failure(
        "the result does not have x's type and shape (a constant broadcasts it, or a shape is "
        "unknown)");
  std::string ignored;
  auto bias = ortfusion::biasAddOf(x, ignored);
  if (bias && !ortfusion::onlyUsedBy(x, nodes)) bias.reset();
  if (bias) nodes.push_back(bias->add);
  return MatchResult::success(nodes, [x, nodes, last, tanh, bias](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    std::vector<ir::Value*> ins{x};
    if (bias) ins = {bias->input, bias->bias};
    std::string op = tanh ? "FastGelu" : (bias ? "BiasGelu" : "Gelu");
    ir::Node* g = ortfusion::addMsNode(rw, op, ins, last, from, {last->output(0)});
    fusion::replaceAndErase(rw, last->output(0), g->output(0), nodes);
  });
}

// Rooted at the Erf or the Tanh.
MatchResult decomposed(ir::Node& root, const MatchContext&) {
  const bool tanh = root.opType() == "Tanh";
  const char* what = tanh ? "Tanh" : "Erf";
  ir::Node* p = defaultOp(onlyConsumer(root.output(0)), "Add");
  if (!p || !fusion::isScalarNear(fusion::otherOperand(*p, root.output(0)), 1.0))
    return MatchResult::failure(std::string("the ") + what +
                                " result is not the operand of an Add of 1");
  std::vector<ir::Value*> xs = xCandidates(p->output(0));
  if (xs.empty())
    return MatchResult::failure(std::string("1 + ") + what +
                                "(...) is not multiplied by x and 0.5");
  std::string why;
  for (ir::Value* x : xs) {
    std::vector<ir::Node*> nodes;
    ir::Node* last = fusion::geluHalfProduct(p->output(0), x, nodes);
    if (!last) {
      why = std::string("1 + ") + what + "(...) is not multiplied by x and 0.5";
      continue;
    }
    std::vector<ir::Node*> cone;
    why = whyNotGeluArgument(root.input(0), x, tanh, cone);
    if (!why.empty()) continue;
    std::vector<ir::Node*> all = cone;
    all.push_back(&root);
    all.push_back(p);
    for (ir::Node* n : nodes)
      if (std::find(all.begin(), all.end(), n) == all.end()) all.push_back(n);
    return finish(x, all, last, tanh);
  }
  return MatchResult::failure(why);
}

// Rooted at a GELU node (ONNX Gelu, com.microsoft Gelu or FastGelu without a
// bias) whose input is a bias Add.
MatchResult biasIntoGelu(ir::Node& root, const MatchContext& c) {
  bool tanh = false;
  if (root.domain().empty()) {
    if (c.opset < 20) return MatchResult::failure("Gelu needs opset >= 20");
    std::string approx = "none";
    if (const ir::Attribute* a = root.attr("approximate")) approx = a->s;
    if (approx != "none" && approx != "tanh")
      return MatchResult::failure("Gelu approximate = '" + approx + "' is unknown");
    tanh = approx == "tanh";
  } else {
    tanh = root.opType() == "FastGelu";
    if (root.inputCount() > 1 && root.input(1))
      return MatchResult::failure("the FastGelu already has a bias");
  }
  ir::Value* x = root.input(0);
  std::string why;
  auto bias = ortfusion::biasAddOf(x, why);
  if (!bias) return MatchResult::failure("the GELU input is not a bias Add: " + why);
  if (!ortfusion::onlyUsedBy(x, {&root}))
    return MatchResult::failure("the bias Add's result '" + x->name() + "' has other uses");
  if (!fusion::isFloatType(elemTypeOf(x))) return MatchResult::failure("x is not a float tensor");
  ir::Node* gelu = &root;
  std::vector<ir::Node*> nodes{gelu, bias->add};
  return MatchResult::success(nodes, [bias, nodes, gelu, tanh](rewrite::Rewriter& rw) {
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    ir::Node* g = ortfusion::addMsNode(rw, tanh ? "FastGelu" : "BiasGelu",
                                       {bias->input, bias->bias}, gelu, from, {gelu->output(0)});
    fusion::replaceAndErase(rw, gelu->output(0), g->output(0), nodes);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // x * 0.5 * (1 + Erf(x / sqrt(2))) -> Gelu(x); with x = m + b: BiasGelu(m, b)
  fusion::addRule(r, "ort_gelu_erf",
                  "x * 0.5 * (1 + Erf(x / sqrt(2))) -> com.microsoft Gelu(x) or BiasGelu(m, b)",
                  {"Erf"}, decomposed);
  // x * 0.5 * (1 + Tanh(sqrt(2/pi) (x + 0.044715 x^3))) -> FastGelu(x) or FastGelu(m, b)
  fusion::addRule(r, "ort_gelu_tanh",
                  "x * 0.5 * (1 + Tanh(sqrt(2/pi) (x + 0.044715 x^3))) -> com.microsoft FastGelu",
                  {"Tanh"}, decomposed);
  // Gelu(m + b) -> BiasGelu(m, b) or FastGelu(m, b)
  r.push_back(std::make_unique<rewrite::RulePattern>(
      "ort_bias_gelu", "Gelu(m + b) -> com.microsoft BiasGelu(m, b) or FastGelu(m, b)",
      std::vector<rewrite::OpKey>{{"", "Gelu"}, {kMsDomain, "Gelu"}, {kMsDomain, "FastGelu"}},
      biasIntoGelu));
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseOrtGelu() {
  PassInfo info{"fuse_ort_gelu",
                Category::kStructural,
                "fusion: into ONNX Runtime contrib ops",
                "Fuse the erf and tanh GELU subgraphs, with the bias Add before them, into ONNX "
                "Runtime's Gelu, BiasGelu or FastGelu (com.microsoft)",
                "将 erf 与 tanh 形式的 GELU 子图（连同其前的偏置 Add）融合为 ONNX Runtime 的 "
                "Gelu、BiasGelu 或 FastGelu（com.microsoft）",
                {},
                1,
                28,
                true,
                true};
  return std::make_unique<PatternPass>(std::move(info), rules());
}

}  // namespace passlab::passes
