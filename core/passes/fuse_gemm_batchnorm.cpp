// fuse_gemm_batchnorm — fold an inference BatchNormalization into the Gemm or 2-D MatMul before it.
//
// Before:  t = Gemm(A, B, C, alpha, beta, transA, transB); y = BatchNormalization(t, g, b, mean,
// var)
//          (or t = MatMul(A, B) with 2-D operands)
// After:   y = Gemm(A, B', C', alpha, beta = 1, transA, transB)
// Algebra: t is [M, N] and the BatchNormalization's channels are its columns n:
//   s[n]  = g[n] / sqrt(var[n] + eps)
//   y     = t * s + (b - mean * s)
//         = alpha * op(A)·(op(B) * s) + (beta * C * s + b - mean * s)
//   B'    = op(B) with column n scaled by s[n] (row n of B when transB = 1)
//   C'    = beta * C * s + (b - mean * s), broadcast to [N] or [M, N]
// folded in float64 and rounded once (changesNumerics). A MatMul becomes a
// Gemm with alpha = beta = 1.
// Conditions: t feeds only the BatchNormalization (not a graph output, not
// read in a subgraph); B, C and the statistics are float constants; t is 2-D
// with N known; the BatchNormalization is in inference mode (as in
// fuse_conv_batchnorm). A batched (rank > 2) MatMul is not fused: the
// BatchNormalization's channel axis 1 is then a row axis of each product, not
// a column of B. Opsets: 7-28 (Gemm's C broadcasts without the legacy flag).
#include <cmath>

#include "core/passes/fusion_utils.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"

namespace passlab::passes {

namespace {

fusion::Rules rules() {
  fusion::Rules r;
  // BatchNormalization(Gemm(A, B, C)) -> Gemm(A, B*s, C*s + b - mean*s); the same for a 2-D MatMul
  fusion::addRule(
      r, "gemm_batchnorm", "BatchNormalization(Gemm|MatMul(A, B, C)) -> Gemm(A, B', C')",
      {"BatchNormalization"}, [](ir::Node& bn, const MatchContext& c) {
        if (Text why = fusion::whyNotOpset(c, 7, 28, "fuse_gemm_batchnorm"); !why.empty())
          return MatchResult::failure(why);
        ir::Node* mm = producerOp(bn.input(0), "Gemm");
        bool isMatMul = false;
        if (!mm) {
          mm = producerOp(bn.input(0), "MatMul");
          isMatMul = mm != nullptr;
        }
        if (!mm) return MatchResult::failure("the input is not produced by a Gemm or MatMul");
        std::string what = isMatMul ? "MatMul" : "Gemm";
        if (Text why = rewrite::whyNotSoleConsumer(bn.input(0)); !why.empty())
          return MatchResult::failure(Text::of("%1 output %2", what, why));
        if (bn.attrInt("training_mode", 0) != 0)
          return MatchResult::failure("BatchNormalization is in training mode");
        if (c.opset < 9 && bn.attrInt("spatial", 1) != 1)
          return MatchResult::failure("BatchNormalization has spatial = 0");
        if (Text why = fusion::whyExtraOutputsUsed(bn); !why.empty())
          return MatchResult::failure(why);
        auto td = fusion::dimsOf(bn.input(0));
        if (!td || td->size() != 2)
          return MatchResult::failure(
              Text::of("%1 result is not a 2-D tensor of known shape (a batched MatMul's channel "
                       "axis is a row axis, which the weights cannot absorb)",
                       what));
        int64_t m = (*td)[0], n = (*td)[1];
        auto bt = rewrite::constantValue(mm->input(1));
        if (!bt) return MatchResult::failure(Text::of("%1 B is not constant", what));
        auto bvals = fusion::floatValues(*bt);
        if (!bvals || bt->rank() != 2)
          return MatchResult::failure(Text::of("%1 B is not a 2-D float constant", what));
        bool transB = !isMatMul && mm->attrInt("transB", 0) != 0;
        double beta = isMatMul ? 1.0 : mm->attrFloat("beta", 1.0f);
        std::vector<double> cvals;
        int64_t cm = 1, cn = 1;
        if (!isMatMul && mm->input(2)) {
          auto ct = rewrite::constantValue(mm->input(2));
          auto cv = ct ? fusion::floatValues(*ct) : std::nullopt;
          if (!cv) return MatchResult::failure("Gemm C is not a float constant");
          const auto& d = ct->dims();
          if (d.size() > 2) return MatchResult::failure("Gemm C has rank above 2");
          if (d.size() >= 1) cn = d.back();
          if (d.size() == 2) cm = d[0];
          if ((cn != 1 && cn != n) || (cm != 1 && cm != m))
            return MatchResult::failure("Gemm C does not broadcast to [M, N]");
          cvals = *cv;
        }
        static const char* names[] = {"scale", "B", "mean", "var"};
        std::vector<std::vector<double>> p(4);
        for (size_t i = 0; i < 4; ++i) {
          auto v = fusion::floatValues(bn.input(i + 1));
          if (!v)
            return MatchResult::failure(
                Text::of("BatchNormalization %1 is not constant", names[i]));
          if (static_cast<int64_t>(v->size()) != n)
            return MatchResult::failure(
                Text::of("BatchNormalization %1 does not have one value per column", names[i]));
          p[i] = std::move(*v);
        }
        double eps = bn.attrFloat("epsilon", 1e-5f);
        ir::Tensor btensor = *bt;
        ir::DataType ctype = btensor.dtype();
        return MatchResult::success({&bn, mm}, [&bn, mm, btensor, bv = *bvals, transB, beta, cvals,
                                                cm, cn, m, n, p, eps, ctype,
                                                isMatMul](rewrite::Rewriter& rw) {
          std::vector<double> s(n), shift(n);
          for (int64_t k = 0; k < n; ++k) {
            s[k] = p[0][k] / std::sqrt(p[3][k] + eps);
            shift[k] = p[1][k] - p[2][k] * s[k];
          }
          std::vector<double> nb = bv;
          int64_t rows = btensor.dims()[0], cols = btensor.dims()[1];
          for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j) nb[i * cols + j] *= s[transB ? i : j];
          int64_t outRows = cm == 1 ? 1 : m;
          std::vector<double> nc(outRows * n);
          for (int64_t i = 0; i < outRows; ++i)
            for (int64_t j = 0; j < n; ++j) {
              double cval = cvals.empty() ? 0.0 : cvals[(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)];
              nc[i * n + j] = beta * cval * s[j] + shift[j];
            }
          ir::Graph& g = *mm->owner();
          ir::Value* nB = addConstant(rw, g, mm, mm->input(1)->name() + "_bn",
                                      fusion::floatTensorLike(btensor, nb), {mm, &bn});
          std::vector<int64_t> cdims =
              outRows == 1 ? std::vector<int64_t>{n} : std::vector<int64_t>{m, n};
          ir::Value* nC =
              addConstant(rw, g, mm, "bias_bn", fusion::floatTensor(ctype, cdims, nc), {mm, &bn});
          ir::Node* gemm = fusion::addDerived(rw, "Gemm", {mm->input(0), nB, nC}, mm, {mm, &bn},
                                              isMatMul ? nullptr : mm, {bn.output(0)});
          if (!isMatMul) rw.setAttr(gemm, ir::Attribute::makeFloat("beta", 1.0f));
          fusion::replaceAndErase(rw, bn.output(0), gemm->output(0), {&bn, mm});
        });
      });
  return r;
}

}  // namespace

std::unique_ptr<Pass> makeFuseGemmBatchnorm() {
  return std::make_unique<PatternPass>(catalogInfo("fuse_gemm_batchnorm"), rules());
}

}  // namespace passlab::passes
