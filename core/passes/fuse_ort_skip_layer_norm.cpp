// fuse_ort_skip_layer_norm — a residual Add followed by a layer norm becomes
// ONNX Runtime's SkipLayerNormalization (ONNX Runtime target).
//
// Before:  s = Add(a, b)            (a may be Add(m, bias), bias a constant 1-D [H])
//          y = LayerNorm(s)         (a LayerNormalization node over the last axis, or
//                                    the decomposed subgraph of fuse_layer_normalization)
// After:   y[, s] = com.microsoft.SkipLayerNormalization(a, b, gamma[, beta])
//          or SkipLayerNormalization(m, b, gamma, beta, bias) with the bias folded in;
//          s (input + skip + bias) comes out as output 3 when something else reads it
// Algebra: SkipLayerNormalization computes LayerNorm(input + skip + bias) over
// the last axis with gamma and beta, and returns the sum as
// input_skip_bias_sum; the additions are the same, in float (changesNumerics:
// the kernel sums in a different order and normalizes in float).
// Conditions: the layer norm normalizes the last axis only, with constant
// gamma (ones when the subgraph has none) and beta [H]; a and b are not
// constants, have s's type and shape, rank 3 ([batch, sequence, hidden], as
// ONNX Runtime's kernels expect); neither is an embedding lookup (Gather
// from a constant table: that Add belongs to EmbedLayerNormalization, see
// fuse_ort_embed_layer_norm, and ONNX Runtime's fusion leaves it alone too);
// the bias Add's result is read only by the residual Add.
// Opsets: 1-28.
#include "core/passes/layer_norm_match.h"
#include "core/passes/ort_fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

MatchResult skipLayerNorm(ir::Node& root, const MatchContext&) {
  Text why;
  auto m = fusion::matchAnyLayerNorm(root, why);
  if (!m) return MatchResult::failure(why);
  if (m->axes != 1)
    return MatchResult::failure(Text::of(
        "the layer norm normalizes %1 axes; SkipLayerNormalization normalizes the last one",
        std::to_string(m->axes)));
  ir::Node* add = producerOp(m->x, "Add");
  if (!add || add->inputCount() != 2)
    return MatchResult::failure("the layer norm input is not an Add");
  ir::Value* a = add->input(0);
  ir::Value* b = add->input(1);
  if (rewrite::isConstant(a) || rewrite::isConstant(b))
    return MatchResult::failure("the Add has a constant operand (a bias, not a residual)");
  if (!rewrite::sameTensorType(a, m->x) || !rewrite::sameTensorType(b, m->x))
    return MatchResult::failure("the Add broadcasts (its operands do not both have its shape)");
  if (rankOf(m->x) != 3)
    return MatchResult::failure(
        Text::of("the Add's result is not [batch, sequence, hidden] (rank %1)",
                 std::to_string(rankOf(m->x).value_or(-1))));
  if (ortfusion::isEmbeddingLookup(a) || ortfusion::isEmbeddingLookup(b))
    return MatchResult::failure(
        "an operand is an embedding lookup (Gather from a constant table): left for "
        "EmbedLayerNormalization");
  // A bias Add on one side folds into the op's bias input.
  std::optional<ortfusion::BiasAdd> bias;
  for (ir::Value* side : {a, b}) {
    Text ignored;
    auto ba = ortfusion::biasAddOf(side, ignored);
    if (ba && rewrite::whyNotReadOnlyBy(side, {add}).empty()) {
      bias = ba;
      if (side == b) std::swap(a, b);
      break;
    }
  }
  std::vector<ir::Node*> nodes = m->nodes;
  nodes.push_back(add);
  if (bias) nodes.push_back(bias->add);
  // Readers of the sum other than the layer norm get output 3.
  const bool sumUsed = !rewrite::whyNotReadOnlyBy(m->x, m->nodes).empty();
  ir::Value* input = bias ? bias->input : a;
  ir::Value* biasV = bias ? bias->bias : nullptr;
  return MatchResult::success(
      nodes, [m = *m, input, b, biasV, nodes, sumUsed](rewrite::Rewriter& rw) {
        ir::Graph& g = *m.last->owner();
        std::vector<const ir::Node*> from(nodes.begin(), nodes.end());
        // Before the first reader of the sum, so that they all follow the new node.
        ir::Node* before = ortfusion::beforeReaders(g, m.x, m.last);
        std::vector<ir::Value*> ins{
            input, b,
            addConstant(rw, g, before, "skip_ln_gamma",
                        fusion::floatTensor(m.dtype, m.normDims, m.gamma), from)};
        if (!m.beta.empty())
          ins.push_back(addConstant(rw, g, before, "skip_ln_beta",
                                    fusion::floatTensor(m.dtype, m.normDims, m.beta), from));
        if (biasV) {
          if (m.beta.empty()) ins.push_back(nullptr);
          ins.push_back(biasV);
        }
        ir::Node* sln = ortfusion::addMsNode(rw, "SkipLayerNormalization", ins, before, from,
                                             {m.last->output(0)}, sumUsed ? 4 : 1);
        rw.setAttr(sln, ir::Attribute::makeFloat("epsilon", static_cast<float>(m.epsilon)));
        if (sumUsed) {
          rw.setType(sln->output(3), m.x->type());
          rw.replaceAllUsesWith(m.x, sln->output(3));
        }
        fusion::replaceAndErase(rw, m.last->output(0), sln->output(0), nodes);
      });
}

fusion::Rules rules() {
  fusion::Rules r;
  // LayerNorm(a + b [+ bias]) -> SkipLayerNormalization(a, b, gamma, beta[, bias])
  fusion::addRule(r, "ort_skip_layer_norm",
                  "LayerNorm(a + b [+ bias]) -> com.microsoft SkipLayerNormalization",
                  {"LayerNormalization", "Div", "Mul", "Add"}, skipLayerNorm);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseOrtSkipLayerNorm() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_ort_skip_layer_norm"), rules());
}

}  // namespace passlab::passes
