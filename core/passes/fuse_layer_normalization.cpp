// fuse_layer_normalization — the decomposed layer norm subgraph becomes one LayerNormalization.
//
// Before (PyTorch export):
//   mean = ReduceMean(x, axes = [-1])          d  = Sub(x, mean)
//   sq   = Pow(d, 2)  or  Mul(d, d)            var = ReduceMean(sq, axes = [-1])
//   std  = Sqrt(Add(var, eps))                 n  = Div(d, std)  or  Mul(d, Reciprocal(std))
//   y    = Add(Mul(n, gamma), beta)            (the Mul and the Add are optional)
// Before (TensorFlow/Keras export, tf2onnx):
//   r = Reciprocal(Sqrt(Add(var, eps)))  (var as above)   a = Mul(r, gamma)
//   y = Add(Mul(x, a), Sub(beta, Mul(mean, a)))
// After:   y = LayerNormalization(x, gamma, beta, axis = -k, epsilon = eps)
// Algebra: both compute (x - E[x]) / sqrt(E[(x - E[x])^2] + eps) * gamma + beta
// over the last k axes; the TF form distributes it as x*a + (beta - E[x]*a)
// with a = gamma / sqrt(var + eps). LayerNormalization computes the same
// statistics (in float32 for 16-bit inputs: stash_type 1), so results agree
// within rounding (changesNumerics).
// Conditions: opset >= 17 (LayerNormalization); both ReduceMeans reduce the
// same trailing axes of x with keepdims = 1 (axes as an attribute before 18,
// as a constant input from 18: both handled); the two Subs, when there are
// two, read the same x and mean; eps, gamma and beta are constants (gamma and
// beta broadcast to the normalized shape, which must be static, and are
// expanded to it, without widening the result beyond x's shape); x is a
// float type; every intermediate is read only inside the pattern (not a
// graph output, not read in a subgraph). Without a constant gamma the scale
// is ones and a Mul by a non-constant stays after.
// Opsets: 17-28.
#include "core/passes/fusion_utils.h"
#include "core/passes/layer_norm_match.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

// Rooted at the normalizing Div (or Mul by a Reciprocal).
MatchResult pytorchForm(ir::Node& root, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 17, 28, "LayerNormalization"); !why.empty())
    return MatchResult::failure(why);
  Text why;
  auto m = fusion::matchLayerNormPyTorch(root, why);
  return m ? fusion::toLayerNormalization(std::move(*m)) : MatchResult::failure(why);
}

// Rooted at the final Add of the TF form: Add(Mul(x, a), Sub(beta, Mul(mean, a))).
MatchResult tfForm(ir::Node& root, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 17, 28, "LayerNormalization"); !why.empty())
    return MatchResult::failure(why);
  Text why;
  auto m = fusion::matchLayerNormTf(root, why);
  return m ? fusion::toLayerNormalization(std::move(*m)) : MatchResult::failure(why);
}

fusion::Rules rules() {
  fusion::Rules r;
  // (x - mean) / sqrt(var + eps) * gamma + beta -> LayerNormalization(x, gamma, beta)
  fusion::addRule(r, "layer_norm", "(x - E[x]) / sqrt(Var[x] + eps) * g + b -> LayerNormalization",
                  {"Div", "Mul"}, pytorchForm);
  // x * a + (beta - E[x] * a), a = g / sqrt(Var[x] + eps) -> LayerNormalization
  fusion::addRule(r, "layer_norm_tf",
                  "x*a + (b - E[x]*a), a = g/sqrt(Var[x]+eps) -> LayerNormalization", {"Add"},
                  tfForm);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseLayerNormalization() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_layer_normalization"), rules());
}

}  // namespace passlab::passes
