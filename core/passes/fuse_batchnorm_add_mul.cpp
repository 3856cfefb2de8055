// fuse_batchnorm_add_mul — fold a per-channel Mul/Div (scale) or Add/Sub (shift) that
// follows an inference BatchNormalization into the BatchNormalization's scale and B.
//
// Before:  t = BatchNormalization(x, scale, B, mean, var); y = Mul(t, s)   or  y = Add(t, c)
// After:   y = BatchNormalization(x, scale * s, B * s, mean, var)         or  (x, scale, B + c,
// ...) Algebra (per channel m; BN(x)[m] = scale[m] * (x - mean[m]) / sqrt(var[m] + eps) + B[m]):
//   BN(x)[m] * s[m] = BN with scale[m] * s[m] and B[m] * s[m]
//   BN(x)[m] / s[m] = BN with scale[m] / s[m] and B[m] / s[m]
//   BN(x)[m] + c[m] = BN with B[m] + c[m];  BN(x)[m] - c[m] = BN with B[m] - c[m]
// folded in float64 and rounded once (changesNumerics: the last bits move).
// Where the Conv before the BatchNormalization has constant weights,
// fuse_conv_batchnorm folds the whole chain into the Conv instead; this pass
// is for the rest: a BatchNormalization after a Conv whose weights are
// computed (the ConstantOfShape weights the size budget keeps), or one that
// starts a pre-activation block (densenet's BatchNormalization, Mul, Add,
// Relu, Conv). The statistics mean and var are left as they are.
// Conditions: t feeds only this node (not a graph output, not read in a
// subgraph); the BatchNormalization is in inference mode with its extra
// outputs unused; its scale and B are float constants with one value per
// channel; the other operand is a constant of the same type that varies only
// along axis 1 (scalar, [C], [C,1,1], [1,C,1,1]) without widening the
// result; Sub(c, t) and Div(c, t) are not affine in t the same way and stay;
// Div by zero stays. New scale and B are new initializers; the old ones go
// when unused. Opsets: 7-28 (numpy broadcasting of Add/Sub/Mul/Div; the
// BatchNormalization versions 7, 9, 14, 15).
#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

MatchResult fuse(ir::Node& op, const MatchContext& c) {
  if (Text why = fusion::whyNotOpset(c, 7, 28, "fuse_batchnorm_add_mul"); !why.empty())
    return MatchResult::failure(why);
  const std::string& kind = op.opType();
  const bool commutes = kind == "Add" || kind == "Mul";
  size_t bnSide = 0;
  ir::Node* bn = producerOp(op.input(0), "BatchNormalization");
  if (!bn && commutes) {
    bn = producerOp(op.input(1), "BatchNormalization");
    bnSide = 1;
  }
  if (!bn) {
    if (producerOp(op.input(1), "BatchNormalization"))
      return MatchResult::failure(
          Text::of("%1(c, BatchNormalization(x)) is not a per-channel %2 of the BatchNormalization",
                   kind, (kind == "Sub" ? "shift" : "scale")));
    return MatchResult::failure("no input is produced by a BatchNormalization");
  }
  ir::Value* t = op.input(bnSide);
  ir::Value* cst = op.input(1 - bnSide);
  if (Text why = rewrite::whyNotSoleConsumer(t); !why.empty())
    return MatchResult::failure(Text::of("BatchNormalization output %1", why));
  if (Text why = fusion::whyNotInferenceBatchNorm(*bn, c); !why.empty())
    return MatchResult::failure(why);
  auto scale = fusion::floatValues(bn->input(1));
  auto bias = fusion::floatValues(bn->input(2));
  if (!scale) return MatchResult::failure("BatchNormalization scale is not a float constant");
  if (!bias) return MatchResult::failure("BatchNormalization B is not a float constant");
  const int64_t channels = static_cast<int64_t>(scale->size());
  if (static_cast<int64_t>(bias->size()) != channels)
    return MatchResult::failure("BatchNormalization scale and B differ in length");
  auto xrank = rankOf(bn->input(0));
  if (!xrank) xrank = rankOf(t);
  if (!xrank) return MatchResult::failure("the BatchNormalization input's rank is unknown");
  const int64_t rank = *xrank;
  if (rank < 2) return MatchResult::failure("the BatchNormalization input has no channel axis");
  Text why;
  auto per = fusion::perChannelValues(cst, rank, 1, channels, why);
  if (!per) return MatchResult::failure(why);
  const ir::DataType dtype = fusion::constDtype(bn->input(1));
  if (fusion::constDtype(cst) != dtype || fusion::constDtype(bn->input(2)) != dtype)
    return MatchResult::failure("the constant's type differs from the BatchNormalization's scale");
  const bool scales = kind == "Mul" || kind == "Div";
  if (kind == "Div")
    for (double v : *per)
      if (v == 0) return MatchResult::failure("divides by zero");
  return MatchResult::success({&op, bn}, [&op, bn, scale = *scale, bias = *bias, per = *per, kind,
                                          scales, dtype, channels](rewrite::Rewriter& rw) {
    std::vector<double> ns = scale, nb = bias;
    for (int64_t k = 0; k < channels; ++k) {
      if (kind == "Mul") {
        ns[k] *= per[k];
        nb[k] *= per[k];
      } else if (kind == "Div") {
        ns[k] /= per[k];
        nb[k] /= per[k];
      } else {
        nb[k] += kind == "Add" ? per[k] : -per[k];
      }
    }
    ir::Graph& g = *bn->owner();
    ir::Value* nScale = bn->input(1);
    if (scales)
      nScale = addConstant(rw, g, bn, bn->input(1)->name() + "_scaled",
                           fusion::floatTensor(dtype, {channels}, ns), {bn, &op});
    ir::Value* nBias = addConstant(rw, g, bn, bn->input(2)->name() + "_folded",
                                   fusion::floatTensor(dtype, {channels}, nb), {bn, &op});
    ir::Node* fused = fusion::addDerived(rw, "BatchNormalization",
                                         {bn->input(0), nScale, nBias, bn->input(3), bn->input(4)},
                                         bn, {bn, &op}, bn, {op.output(0)});
    fusion::replaceAndErase(rw, op.output(0), fused->output(0), {&op, bn});
  });
}

fusion::Rules rules() {
  fusion::Rules r;
  // BN(x) * s -> BN(x) with scale*s, B*s; BN(x) / s -> scale/s, B/s   (s per channel)
  fusion::addRule(r, "batchnorm_mul",
                  "BatchNormalization(x) * or / s -> BatchNormalization with scale and B "
                  "scaled, s per channel",
                  {"Mul", "Div"}, fuse);
  // BN(x) + c -> BN(x) with B + c; BN(x) - c -> B - c   (c per channel)
  fusion::addRule(r, "batchnorm_add",
                  "BatchNormalization(x) +/- c -> BatchNormalization with B +/- c, c per channel",
                  {"Add", "Sub"}, fuse);
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseBatchnormAddMul() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_batchnorm_add_mul"), rules());
}

}  // namespace passlab::passes
