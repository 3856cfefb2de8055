// fuse_passlab_layer_norm — a layer norm (the decomposed subgraph at any
// opset, or a LayerNormalization node), with the residual Add before it when
// there is one, becomes one ai.passlab FusedLayerNorm that makes one pass over
// each row (non-standard).
//
// Before:  [s = Add(a, b)]                      (a residual: a and b of s's shape)
//          y = LayerNorm(s) * gamma [+ beta]    (the PyTorch or TensorFlow decomposed
//                                                subgraph of fuse_layer_normalization,
//                                                or a LayerNormalization node)
// After:   y = ai.passlab.FusedLayerNorm<axis = -k, epsilon>(s, gamma, beta)
//          or  y[, s] = ai.passlab.FusedLayerNorm<axis = -k, epsilon>(a, gamma, beta, b)
//          with the sum as output 1 when something else reads it (the residual
//          stream of a transformer)
// Algebra: FusedLayerNorm computes (s - E[s]) / sqrt(Var[s] + eps) * gamma +
// beta over the last k axes, s = a + b: the subgraph's ops; the sum is
// exact, the statistics are summed in float in another order
// (changesNumerics).
// Conditions: float32 x; the layer norm over trailing axes of static size,
// with constant gamma (ones when absent) and beta, every intermediate read only
// inside the subgraph, the result of x's shape (what layer_norm_match checks);
// for the residual: an Add of two non-constant operands of s's type and shape.
// Near misses, with the reason: not float32, and every reason of the layer
// norm matcher (a ReduceMean over other axes, a non-constant gamma, an
// intermediate read elsewhere, ...).
// Opsets: 1-28 (ReduceMean's axes as an attribute or, from 18, an input;
// LayerNormalization nodes from 17 or as exported below it).
#include <algorithm>

#include "core/passes/layer_norm_match.h"
#include "core/passes/ort_fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/passlab_fused_utils.h"

namespace passlab::passes {

namespace {

MatchResult fuse(ir::Node& root, const MatchContext& c) {
  if (c.standardOnly)
    return MatchResult::failure("standard ONNX only: FusedLayerNorm is ai.passlab");
  Text why;
  auto m = fusion::matchAnyLayerNorm(root, why);
  if (!m) return MatchResult::failure(why);
  if (m->dtype != ir::DataType::kFloat)
    return MatchResult::failure(Text::of("'%1' is not float32", m->x->name()));
  // The residual Add: both operands of the sum's type and shape, neither a constant.
  ir::Node* add = producerOp(m->x, "Add");
  ir::Value* a = nullptr;
  ir::Value* b = nullptr;
  if (add && add->inputCount() == 2 && add->owner() == root.owner() && !m->x->isGraphOutput() &&
      !rewrite::isConstant(add->input(0)) && !rewrite::isConstant(add->input(1)) &&
      rewrite::sameTensorType(add->input(0), m->x) &&
      rewrite::sameTensorType(add->input(1), m->x)) {
    a = add->input(0);
    b = add->input(1);
  } else {
    add = nullptr;
  }
  std::vector<ir::Node*> nodes = m->nodes;
  if (add) nodes.push_back(add);
  // Readers of the sum other than the layer norm (in the same graph) get output 1.
  bool sumUsed = false;
  if (add) {
    for (const ir::Use& u : m->x->uses())
      if (std::find(m->nodes.begin(), m->nodes.end(), u.node) == m->nodes.end()) sumUsed = true;
  }
  return MatchResult::success(nodes, [m = *m, a, b, nodes, sumUsed](rewrite::Rewriter& rw) {
    ir::Graph& g = *m.last->owner();
    std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
    // Before the first reader of the sum, so that they all follow the new node.
    ir::Node* before = a ? ortfusion::beforeReaders(g, m.x, m.last) : m.last;
    std::vector<ir::Value*> ins{
        a ? a : m.x, addConstant(rw, g, before, "ln_scale",
                                 fusion::floatTensor(m.dtype, m.normDims, m.gamma), from)};
    if (!m.beta.empty())
      ins.push_back(addConstant(rw, g, before, "ln_bias",
                                fusion::floatTensor(m.dtype, m.normDims, m.beta), from));
    if (b) {
      if (m.beta.empty()) ins.push_back(nullptr);
      ins.push_back(b);
    }
    if (!rw.model().opsetVersion(fusedops::kDomain))
      rw.setOpsetVersion(fusedops::kDomain, ir::passlab_ops::kVersion);
    ir::Node* f =
        rw.addNode(g, "FusedLayerNorm", fusedops::kDomain, ins, sumUsed ? 2 : 1, before, "", from);
    rw.setType(f->output(0), m.last->output(0)->type());
    rw.setAttr(f, ir::Attribute::makeInt("axis", -m.axes));
    rw.setAttr(f, ir::Attribute::makeFloat("epsilon", static_cast<float>(m.epsilon)));
    if (sumUsed) {
      rw.setType(f->output(1), m.x->type());
      rw.replaceAllUsesWith(m.x, f->output(1));
    }
    fusion::replaceAndErase(rw, m.last->output(0), f->output(0), nodes);
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // LayerNorm([a + b]) -> ai.passlab.FusedLayerNorm(a, gamma, beta[, b])
  fusion::addRule(r, "passlab_layer_norm",
                  "[a + b ->] layer norm -> ai.passlab.FusedLayerNorm (one pass per row)",
                  {"LayerNormalization", "Div", "Mul", "Add"}, fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFusePasslabLayerNorm() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_passlab_layer_norm"), rules());
}

}  // namespace passlab::passes
