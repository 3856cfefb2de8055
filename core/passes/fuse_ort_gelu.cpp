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
#include "core/passes/gelu_match.h"
#include "core/passes/ort_fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

using ortfusion::kMsDomain;

// The new node: Gelu/BiasGelu (erf) or FastGelu (tanh), absorbing a bias Add before x when
// there is one that only the matched nodes read.
MatchResult finish(const fusion::GeluMatch& m) {
  ir::Value* x = m.x;
  ir::Node* last = m.last;
  const bool tanh = m.tanh;
  std::vector<ir::Node*> nodes = m.nodes;
  Text ignored;
  auto bias = ortfusion::biasAddOf(x, ignored);
  if (bias && !rewrite::whyNotReadOnlyBy(x, nodes).empty()) bias.reset();
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

// Rooted at the Erf or the Tanh (core/passes/gelu_match.h: the argument by value).
MatchResult decomposed(ir::Node& root, const MatchContext&) {
  Text why;
  auto m = fusion::matchGeluByValue(root, why);
  if (!m) return MatchResult::failure(why);
  return finish(*m);
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
      return MatchResult::failure(Text::of("Gelu approximate = '%1' is unknown", approx));
    tanh = approx == "tanh";
  } else {
    tanh = root.opType() == "FastGelu";
    if (root.inputCount() > 1 && root.input(1))
      return MatchResult::failure("the FastGelu already has a bias");
  }
  ir::Value* x = root.input(0);
  Text why;
  auto bias = ortfusion::biasAddOf(x, why);
  if (!bias) return MatchResult::failure(Text::of("the GELU input is not a bias Add: %1", why));
  if (!rewrite::whyNotReadOnlyBy(x, {&root}).empty())
    return MatchResult::failure(Text::of("the bias Add's result '%1' has other uses", x->name()));
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
  return std::make_unique<PatternPass>(catalogInfo("fuse_ort_gelu"), rules());
}

}  // namespace passlab::passes
