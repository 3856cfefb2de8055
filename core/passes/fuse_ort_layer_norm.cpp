// fuse_ort_layer_norm — below opset 17, the decomposed layer norm subgraph
// becomes ONNX Runtime's LayerNormalization (ONNX Runtime target).
//
// Before:  the PyTorch or TensorFlow form of fuse_layer_normalization:
//          (x - E[x]) / sqrt(Var[x] + eps) [* gamma] [+ beta], or
//          x * a + (beta - E[x] * a) with a = gamma / sqrt(Var[x] + eps)
// After:   y = LayerNormalization(x, gamma[, beta], axis = -k, epsilon = eps)
//          (default domain, opset < 17)
// Algebra: as in fuse_layer_normalization. ONNX has no LayerNormalization
// before opset 17; ONNX Runtime registers its own in the default domain from
// opset 1 with the same inputs, attributes and definition, and its
// transformer optimizer emits it for such models. Other runtimes reject the
// node, so the pass only runs when non-standard output is allowed. From opset
// 17 fuse_layer_normalization makes the standard op. Results agree within
// rounding (changesNumerics).
// Conditions: those of fuse_layer_normalization (see layer_norm_match.h):
// constant eps, gamma and beta broadcasting to the static normalized shape,
// intermediates read only inside the subgraph, a float x.
// Opsets: 1-16.
#include "core/passes/fusion_utils.h"
#include "core/passes/layer_norm_match.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

MatchResult pytorchForm(ir::Node& root, const MatchContext&) {
  Text why;
  auto m = fusion::matchLayerNormPyTorch(root, why);
  return m ? fusion::toLayerNormalization(std::move(*m)) : MatchResult::failure(why);
}

MatchResult tfForm(ir::Node& root, const MatchContext&) {
  Text why;
  auto m = fusion::matchLayerNormTf(root, why);
  return m ? fusion::toLayerNormalization(std::move(*m)) : MatchResult::failure(why);
}

fusion::Rules rules() {
  fusion::Rules r;
  // (x - E[x]) / sqrt(Var[x] + eps) * g + b -> LayerNormalization (ONNX Runtime's, opset < 17)
  fusion::addRule(r, "ort_layer_norm",
                  "(x - E[x]) / sqrt(Var[x] + eps) * g + b -> LayerNormalization (opset < 17)",
                  {"Div", "Mul"}, pytorchForm);
  // x * a + (beta - E[x] * a) -> LayerNormalization (ONNX Runtime's, opset < 17)
  fusion::addRule(r, "ort_layer_norm_tf",
                  "x*a + (b - E[x]*a), a = g/sqrt(Var[x]+eps) -> LayerNormalization (opset < 17)",
                  {"Add"}, tfForm);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseOrtLayerNorm() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_ort_layer_norm"), rules());
}

}  // namespace passlab::passes
