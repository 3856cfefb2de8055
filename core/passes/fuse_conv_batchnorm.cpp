// fuse_conv_batchnorm — fold an inference BatchNormalization into the Conv that feeds it.
//
// Before:  t = Conv(x, W, b); y = BatchNormalization(t, scale, B, mean, var)
// After:   y = Conv(x, W', b')
// Algebra (per output channel m; b = 0 when the Conv has no bias):
//   y = scale[m] * (t - mean[m]) / sqrt(var[m] + eps) + B[m]
//   s[m]  = scale[m] / sqrt(var[m] + eps)
//   W'[m] = W[m] * s[m]                 (every weight of output channel m)
//   b'[m] = (b[m] - mean[m]) * s[m] + B[m]
// folded in float64 and rounded once to the weights' type (the fused Conv
// differs from the pair by about one rounding per weight: changesNumerics).
// Conditions: t feeds only the BatchNormalization (not a graph output, not
// read in a subgraph); W, b, scale, B, mean and var are constants (an
// initializer that is also a graph input can be overridden and is not
// constant; from opset 7, W may also be computed from constants only, with
// static dims: then W' = Mul(W, s) is a node over an [M,1,1,..] constant,
// which the executor computes once, computed_from_constants.h) of a float type with one value per
// output channel; the BatchNormalization is in inference mode (is_test = 1 before opset 7,
// training_mode = 0 from 14, spatial = 1 before 9) and its extra outputs are
// unused. New weights are new initializers; the old ones go when unused.
// Opsets: 1-28 (BatchNormalization 1, 6, 7, 9, 14, 15; Conv 1, 11, 22).
#include <cmath>

#include "core/passes/computed_from_constants.h"
#include "core/passes/conv_weight_fold.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

// The statistics of a BatchNormalization with `channels` channels, or why not.
struct BnParams {
  std::vector<double> scale, bias, mean, var;
  double eps;
};
// A parameter computed from constants (the onnx_light_* models' statistics are
// ConstantOfShape outputs larger than fold_constants' budget) is computed
// here, with the pipeline's kernels.
std::optional<BnParams> bnParams(const ir::Node& bn, int64_t channels, const MatchContext& c,
                                 Text& why) {
  static const char* names[] = {"scale", "B", "mean", "var"};
  BnParams p;
  std::vector<double>* dst[] = {&p.scale, &p.bias, &p.mean, &p.var};
  for (size_t i = 0; i < 4; ++i) {
    auto v = fusion::floatValues(bn.input(i + 1));
    if (!v && c.evaluator)
      if (auto t = fusion::valueFromConstants(bn.input(i + 1), *c.evaluator, c.opset))
        v = fusion::floatValues(*t);
    if (!v) {
      why = Text::of("BatchNormalization %1 is not constant", names[i]);
      if (bn.input(i + 1) && rewrite::constantValue(bn.input(i + 1)))
        why = Text::of("BatchNormalization %1 is not a float constant", names[i]);
      return std::nullopt;
    }
    if (static_cast<int64_t>(v->size()) != channels) {
      why = Text::of("BatchNormalization %1 has %2 values for %3 channels", names[i],
                     std::to_string(v->size()), std::to_string(channels));
      return std::nullopt;
    }
    *dst[i] = std::move(*v);
  }
  p.eps = bn.attrFloat("epsilon", 1e-5f);
  return p;
}

fusion::Rules rules() {
  fusion::Rules r;
  // BatchNormalization(Conv(x, W, b)) -> Conv(x, W*s, (b-mean)*s + B), s = scale/sqrt(var+eps)
  fusion::addRule(
      r, "conv_batchnorm", "BatchNormalization(Conv(x, W, b)) -> Conv(x, W', b')",
      {"BatchNormalization"}, [](ir::Node& bn, const MatchContext& c) {
        if (Text why = fusion::whyNotOpset(c, 1, 28, "fuse_conv_batchnorm"); !why.empty())
          return MatchResult::failure(why);
        ir::Node* conv = producerOp(bn.input(0), "Conv");
        if (!conv) return MatchResult::failure("the input is not produced by a Conv");
        if (Text why = rewrite::whyNotSoleConsumer(bn.input(0)); !why.empty())
          return MatchResult::failure(Text::of("Conv output %1", why));
        if (Text why = fusion::whyNotInferenceBatchNorm(bn, c); !why.empty())
          return MatchResult::failure(why);
        // W as values, or (computed from constants) only its dims and type.
        Text whyNotW;
        auto w = foldableConvWeight(*conv, c.opset, whyNotW);
        if (!w) return MatchResult::failure(whyNotW);
        const ir::DataType wType = w->type;
        int64_t m = w->dims[0];
        std::optional<std::vector<double>> bias;
        if (conv->input(2)) {
          bias = fusion::floatValues(conv->input(2));
          if (!bias) return MatchResult::failure("Conv bias is not constant");
          if (static_cast<int64_t>(bias->size()) != m)
            return MatchResult::failure("Conv bias does not have one value per output channel");
        }
        Text why;
        auto p = bnParams(bn, m, c, why);
        if (!p) return MatchResult::failure(why);
        ir::DataType biasType =
            conv->input(2) ? rewrite::constantValue(conv->input(2))->dtype() : wType;
        return MatchResult::success({&bn, conv}, [&bn, conv, w = *w, bias, p = *p, m,
                                                  biasType](rewrite::Rewriter& rw) {
          std::vector<double> s(m), nb(m);
          for (int64_t k = 0; k < m; ++k) {
            s[k] = p.scale[k] / std::sqrt(p.var[k] + p.eps);
            nb[k] = ((bias ? (*bias)[k] : 0.0) - p.mean[k]) * s[k] + p.bias[k];
          }
          ir::Graph& g = *conv->owner();
          // W' = W * s; for a computed W a node over s as [M, 1, 1, ...], computed once.
          ir::Value* nW = scaledConvWeight(rw, conv, w, s, false, "_bn", "_bn_scale", {conv, &bn});
          ir::Value* nB =
              addConstant(rw, g, conv, conv->name().empty() ? "bias_bn" : conv->name() + "_bias_bn",
                          fusion::floatTensor(biasType, {m}, nb), {conv, &bn});
          ir::Node* fused = fusion::addDerived(rw, "Conv", {conv->input(0), nW, nB}, conv,
                                               {conv, &bn}, conv, {bn.output(0)});
          fusion::replaceAndErase(rw, bn.output(0), fused->output(0), {&bn, conv});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseConvBatchnorm() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_conv_batchnorm"), rules());
}

}  // namespace passlab::passes
