// replace_batchnorm_with_mul_add — an inference BatchNormalization nothing can absorb becomes Mul +
// Add.
//
// Before:  y = BatchNormalization(x, scale, B, mean, var, epsilon = eps)
// After:   y = Add(Mul(x, s), t)       s, t of shape [C, 1, ..., 1]
// Algebra: s = scale / sqrt(var + eps), t = B - mean * s (folded in float64,
// rounded once: changesNumerics), so y = x * s + t per channel.
// Why: two plain elementwise ops that any backend runs (and that other
// passes move or fuse: fuse_conv_add_mul, push_transposes), instead of an op
// that needs its own kernel. It adds a node, so the default level leaves it
// out; a BatchNormalization after a Conv, Gemm or 2-D MatMul with constant
// weights is folded into them instead (fuse_conv_batchnorm,
// fuse_gemm_batchnorm), and this pass says so and leaves it.
// Conditions: inference mode (is_test = 1 before opset 7, spatial = 1 before
// 9, training_mode = 0 from 14), the extra outputs unused, the statistics
// float constants with one value per channel, x of known rank >= 2.
// Opsets: 1-28.
#include <cmath>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

// The Conv, Gemm or 2-D MatMul before `bn` whose constant weights can absorb
// it (what fuse_conv_batchnorm and fuse_gemm_batchnorm fold), or nullptr. A
// producer with non-constant weights, or a batched MatMul (its channel axis
// is a row axis), absorbs nothing: then this pass replaces the node.
ir::Node* absorbingProducer(const ir::Node& bn) {
  ir::Node* p = bn.input(0) ? bn.input(0)->producer() : nullptr;
  if (!p || !p->domain().empty() || !rewrite::whyNotSoleConsumer(bn.input(0)).empty())
    return nullptr;
  const std::string& op = p->opType();
  if (op != "Conv" && op != "Gemm" && op != "MatMul") return nullptr;
  if (!rewrite::isConstant(p->input(1))) return nullptr;
  if (op != "Conv" && rankOf(bn.input(0)) != 2) return nullptr;
  return p;
}

fusion::Rules rules() {
  fusion::Rules r;
  // BatchNormalization(x) -> x * s + t
  fusion::addRule(
      r, "batchnorm_to_mul_add", "BatchNormalization(x) -> x * s + t", {"BatchNormalization"},
      [](ir::Node& bn, const MatchContext& c) {
        if (c.opset < 7 && bn.attrInt("is_test", 0) != 1)
          return MatchResult::failure("BatchNormalization has is_test = 0 (training mode)");
        if (c.opset < 9 && bn.attrInt("spatial", 1) != 1)
          return MatchResult::failure("BatchNormalization has spatial = 0");
        if (bn.attrInt("training_mode", 0) != 0)
          return MatchResult::failure("BatchNormalization is in training mode");
        if (Text why = fusion::whyExtraOutputsUsed(bn); !why.empty())
          return MatchResult::failure(why);
        if (ir::Node* p = absorbingProducer(bn))
          return MatchResult::failure(
              Text::of("it follows a %1 whose weights can absorb it (fuse_conv_batchnorm, "
                       "fuse_gemm_batchnorm)",
                       p->opType()));
        auto rank = rankOf(bn.input(0));
        if (!rank || *rank < 2) return MatchResult::failure("the rank of x is unknown");
        std::vector<std::vector<double>> v(4);
        static const char* names[] = {"scale", "B", "mean", "var"};
        for (size_t i = 0; i < 4; ++i) {
          auto f = fusion::floatValues(bn.input(i + 1));
          if (!f)
            return MatchResult::failure(
                Text::of("BatchNormalization %1 is not constant", names[i]));
          v[i] = std::move(*f);
          if (v[i].size() != v[0].size())
            return MatchResult::failure("the statistics have different lengths");
        }
        ir::DataType dt = fusion::constDtype(bn.input(1));
        if (elemTypeOf(bn.input(0)) != dt)
          return MatchResult::failure("x and the statistics have different types");
        double eps = bn.attrFloat("epsilon", 1e-5f);
        int64_t ch = static_cast<int64_t>(v[0].size());
        std::vector<int64_t> dims(static_cast<size_t>(*rank - 1), 1);
        dims[0] = ch;
        return MatchResult::success({&bn}, [&bn, v, eps, ch, dims, dt](rewrite::Rewriter& rw) {
          std::vector<double> s(ch), t(ch);
          for (int64_t k = 0; k < ch; ++k) {
            s[k] = v[0][k] / std::sqrt(v[3][k] + eps);
            t[k] = v[1][k] - v[2][k] * s[k];
          }
          ir::Graph& g = *bn.owner();
          ir::Value* sv =
              addConstant(rw, g, &bn, "bn_scale", fusion::floatTensor(dt, dims, s), {&bn});
          ir::Value* tv =
              addConstant(rw, g, &bn, "bn_shift", fusion::floatTensor(dt, dims, t), {&bn});
          ir::Node* mul =
              fusion::addDerived(rw, "Mul", {bn.input(0), sv}, &bn, {&bn}, nullptr, {bn.output(0)});
          ir::Node* add = fusion::addDerived(rw, "Add", {mul->output(0), tv}, &bn, {&bn}, nullptr,
                                             {bn.output(0)});
          fusion::replaceAndErase(rw, bn.output(0), add->output(0), {&bn});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeReplaceBatchnormWithMulAdd() {
  return std::make_unique<PatternPass>(catalogInfo("replace_batchnorm_with_mul_add"), rules());
}

}  // namespace passlab::passes
