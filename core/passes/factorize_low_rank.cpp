// factorize_low_rank — precision: a MatMul / Gemm weight of low effective
// rank replaced by two thinner ones (lossy: the check holds the outputs to
// the accuracy budget).
//
// Before:  y = MatMul(a, w)                 (w a float32 constant [K, N])
// After:   h = MatMul(a, w1); y = MatMul(h, w2)   (w1 [K, r], w2 [r, N])
// w = U S V^T (singular value decomposition, Eigen's BDCSVD in double);
// w1 = U_r sqrt(S_r), w2 = sqrt(S_r) V_r^T with r the fewest singular values
// that keep all but `energy_loss` of sum(s^2) (the squared Frobenius norm:
// the relative error of the product is at most sqrt(energy_loss) of the
// weight's). It fires only when r (K + N) <= (1 - min_saving) K N, so the
// weights and the FLOPs of the product shrink by min_saving at least. With
// `rank` > 0 every weight it takes keeps that many singular values instead
// (at most min(K, N)); `passlab-cli precision --pass factorize_low_rank`
// searches the smallest rank per layer that holds the accuracy budget and
// runs the pass once per layer with its rank. Gemm
// (transA = 0): its B (transposed first with transB) factorized the same way,
// y = Gemm(MatMul(a, w1), w2, C) with alpha and beta kept.
// Running it again changes nothing: w1 and w2 are full rank, and too thin to
// save anything. The decomposition comes from the Evaluator when it is a
// WeightSvdSource holding it (the rank search's trials: one per layer).
#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <cmath>

#include "core/passes/function_pass.h"
#include "core/passes/fusion_utils.h"
#include "core/passes/matrix_weight.h"
#include "core/passes/pass.h"
#include "core/passes/pass_catalog.h"
#include "core/passes/rule_helpers.h"
#include "core/passes/weight_svd.h"
#include "core/support/strings.h"

namespace passlab::passes {

namespace {

constexpr const char* kId = "factorize_low_rank";

using Matrix = Eigen::MatrixXd;

struct Factors {
  ir::Tensor w1, w2;  // [K, r], [r, N] float32
  int64_t rank = 0;
};

ir::Tensor floatTensor(const Matrix& m) {
  std::vector<float> v(static_cast<size_t>(m.size()));
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      v[static_cast<size_t>(r * m.cols() + c)] = static_cast<float>(m(r, c));
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, {m.rows(), m.cols()}, v);
}

// The weight as a K x N matrix (transposed when `transposed`).
Matrix weightMatrix(const ir::Tensor& t, bool transposed) {
  auto d = t.data<float>();
  const int64_t rows = t.dims()[0], cols = t.dims()[1];
  Matrix m(transposed ? cols : rows, transposed ? rows : cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const double v = d[static_cast<size_t>(r * cols + c)];
      if (transposed)
        m(c, r) = v;
      else
        m(r, c) = v;
    }
  return m;
}

// The fewest singular values keeping all but `loss` of the energy.
int64_t rankFor(const Eigen::Ref<const Eigen::VectorXd>& s, double loss) {
  const double total = s.squaredNorm();
  if (total == 0) return 0;
  double kept = 0;
  for (Eigen::Index i = 0; i < s.size(); ++i) {
    kept += s(i) * s(i);
    if (total - kept <= loss * total) return i + 1;
  }
  return s.size();
}

class Factorizer {
 public:
  explicit Factorizer(PassContext& ctx)
      : ctx_(ctx),
        rw_(ctx.rewriter),
        g_(ctx.model().graph()),
        loss_(ctx.doubleOption("energy_loss")),
        saving_(ctx.doubleOption("min_saving")),
        fixedRank_(ctx.intOption("rank")) {}

  Status run() {
    PASSLAB_RETURN_IF_ERROR(forEachMatrixNode(ctx_, kId, [&](ir::Node& n) {
      Factors f;
      Text why = whyNot(n, f);
      if (why.empty()) replace(n, f);
      return why;
    }));
    if (ctx_.note && factorized_ > 0)
      *ctx_.note =
          Text::of("%1 weights factorized: %2 -> %3 parameters", std::to_string(factorized_),
                   std::to_string(paramsBefore_), std::to_string(paramsAfter_));
    return Status::ok();
  }

 private:
  Text whyNot(const ir::Node& n, Factors& f) const {
    if (Text why = whyNotConstantMatrixWeight(n); !why.empty()) return why;
    const auto* source = dynamic_cast<const WeightSvdSource*>(ctx_.evaluator);
    const WeightSvd* shared = source ? source->svdOf(n) : nullptr;
    WeightSvd own;
    if (!shared)
      own = decomposeWeight(*n.input(1)->initializer(),
                            n.opType() == "Gemm" && n.attrInt("transB", 0) != 0);
    const WeightSvd& svd = shared ? *shared : own;
    const Eigen::Map<const Matrix> u(svd.u.data(), svd.k, svd.size),
        v(svd.v.data(), svd.n, svd.size);
    const Eigen::Map<const Eigen::VectorXd> values(svd.s.data(), svd.size);
    const int64_t k = svd.k, cols = svd.n;
    const int64_t r = fixedRank_ > 0 ? std::min({fixedRank_, k, cols})
                                     : std::max<int64_t>(1, rankFor(values, loss_));
    if (static_cast<double>(r * (k + cols)) > (1 - saving_) * static_cast<double>(k * cols))
      return Text::of("rank %1 of %2 x %3 saves less than min_saving", std::to_string(r),
                      std::to_string(k), std::to_string(cols));
    const Eigen::VectorXd root = values.head(r).cwiseSqrt();
    f.w1 = floatTensor(u.leftCols(r) * root.asDiagonal());
    f.w2 = floatTensor(root.asDiagonal() * v.leftCols(r).transpose());
    f.rank = r;
    return "";
  }

  void replace(ir::Node& n, const Factors& f) {
    const std::vector<const ir::Node*> from{&n};
    const std::string base = n.output(0)->name();
    paramsBefore_ += n.input(1)->initializer()->numel();
    paramsAfter_ += f.w1.numel() + f.w2.numel();
    ir::Value* w1 = addConstant(rw_, g_, &n, base + "_w1", f.w1, from);
    ir::Value* w2 = addConstant(rw_, g_, &n, base + "_w2", f.w2, from);
    ir::Node* h = fusion::addDerived(rw_, "MatMul", {n.input(0), w1}, &n, from);
    ir::Node* y = nullptr;
    if (n.opType() == "MatMul") {
      y = fusion::addDerived(rw_, "MatMul", {h->output(0), w2}, &n, from, nullptr, {n.output(0)});
    } else {
      std::vector<ir::Value*> ins{h->output(0), w2};
      if (n.input(2)) ins.push_back(n.input(2));
      y = fusion::addDerived(rw_, "Gemm", ins, &n, from, &n, {n.output(0)});
      rw_.setAttr(y, ir::Attribute::makeInt("transB", 0));
    }
    fusion::replaceAndErase(rw_, n.output(0), y->output(0), {&n});
    ++factorized_;
  }

  PassContext& ctx_;
  rewrite::Rewriter& rw_;
  ir::Graph& g_;
  double loss_, saving_;
  int64_t fixedRank_;  // 0: by energy
  size_t factorized_ = 0;
  int64_t paramsBefore_ = 0, paramsAfter_ = 0;
};

std::atomic<size_t> decompositions{0};

}  // namespace

WeightSvd decomposeWeight(const ir::Tensor& w, bool transposed) {
  const Matrix m = weightMatrix(w, transposed);
  Eigen::BDCSVD<Matrix> svd(m, Eigen::ComputeThinU | Eigen::ComputeThinV);
  ++decompositions;
  WeightSvd out;
  out.k = m.rows();
  out.n = m.cols();
  out.size = svd.singularValues().size();
  out.u.assign(svd.matrixU().data(), svd.matrixU().data() + svd.matrixU().size());
  out.s.assign(svd.singularValues().data(), svd.singularValues().data() + out.size);
  out.v.assign(svd.matrixV().data(), svd.matrixV().data() + svd.matrixV().size());
  return out;
}

size_t weightDecompositions() {
  return decompositions.load();
}

std::unique_ptr<Pass> makeFactorizeLowRank() {
  return std::make_unique<FunctionPass>(catalogInfo(kId),
                                        [](PassContext& ctx) { return Factorizer(ctx).run(); });
}

}  // namespace passlab::passes
