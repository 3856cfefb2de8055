// factorize_low_rank — precision: a MatMul / Gemm / 1x1 Conv weight of low
// effective rank replaced by two thinner ones (lossy: the check holds the
// outputs to the accuracy budget).
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
// Conv with a kernel of ones (W [M, C, 1, 1], any spatial rank) in one group:
// w = W^T as C x M, h = Conv(x, w1^T as [r, C, 1, 1]) with the node's strides,
// pads, dilations and auto_pad (a padded position reads zeros, so h is 0
// there), y = Conv(h, w2^T as [M, r, 1, 1], B) with stride 1 and no padding:
// the FLOPs per output position shrink as the weights do.
// A weight is an initializer that is not a graph input or a Constant node's
// tensor (paddle2onnx writes every weight so); a Constant node left unread
// goes with the node that read it.
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
#include "core/passes/subgraph_skips.h"
#include "core/passes/weight_svd.h"
#include "core/rewrite/match_utils.h"
#include "core/support/strings.h"

namespace passlab::passes {

namespace {

constexpr const char* kId = "factorize_low_rank";
constexpr const char* kWeightIsAnInput =
    "the weight is also a graph input (overridable); freeze_initializer_inputs makes it a "
    "constant";

using Matrix = Eigen::MatrixXd;

struct Factors {
  ir::Tensor w1, w2;  // [K, r], [r, N] float32 (a Conv's: [r, C, 1..], [M, r, 1..])
  int64_t rank = 0;
};

// `m` as float32 with dims `dims` (default: its rows and columns), row-major.
ir::Tensor floatTensor(const Matrix& m, std::vector<int64_t> dims = {}) {
  std::vector<float> v(static_cast<size_t>(m.size()));
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      v[static_cast<size_t>(r * m.cols() + c)] = static_cast<float>(m(r, c));
  if (dims.empty()) dims = {m.rows(), m.cols()};
  return ir::Tensor::fromVector<float>(ir::DataType::kFloat, dims, v);
}

// A Conv weight's dims for `rows` x `cols` with the kernel's trailing ones.
std::vector<int64_t> convDims(int64_t rows, int64_t cols, size_t rank) {
  std::vector<int64_t> d(rank, 1);
  d[0] = rows;
  d[1] = cols;
  return d;
}

// The weight as a K x N matrix (transposed when `transposed`): its first
// dimension the rows, the others flattened the columns.
Matrix weightMatrix(const ir::Tensor& t, bool transposed) {
  auto d = t.data<float>();
  const int64_t rows = t.dims()[0], cols = rows ? t.numel() / rows : 0;
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
    PASSLAB_RETURN_IF_ERROR(forEachMatrixNode(ctx_, kId, MatrixOps::AlsoConv, [&](ir::Node& n) {
      Factors f;
      Text why = whyNot(n, f);
      if (why.empty()) replace(n, f);
      return why;
    }));
    // With the count of the layers left inside subgraphs: the pass does not
    // enter If/Loop/Scan bodies.
    const size_t left = nodesInSubgraphs(g_, {"MatMul", "Gemm", "Conv"});
    if (ctx_.note && factorized_ + left > 0) {
      Text note;
      if (factorized_ > 0)
        note = Text::of("%1 weights factorized: %2 -> %3 parameters", std::to_string(factorized_),
                        std::to_string(paramsBefore_), std::to_string(paramsAfter_));
      *ctx_.note =
          withNodesLeftInSubgraphs(note, left, "the pass does not enter If/Loop/Scan bodies");
    }
    return Status::ok();
  }

 private:
  Text whyNot(const ir::Node& n, Factors& f) const {
    LowRankWeight shape;
    if (Text why = whyNotLowRankWeight(n, &shape); !why.empty()) return why;
    const auto* source = dynamic_cast<const WeightSvdSource*>(ctx_.evaluator);
    const WeightSvd* shared = source ? source->svdOf(n) : nullptr;
    WeightSvd own;
    if (!shared) own = decomposeWeight(*constantFloat(n.input(1)), shape.transposed);
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
    const Matrix w1 = u.leftCols(r) * root.asDiagonal();              // K x r
    const Matrix w2 = root.asDiagonal() * v.leftCols(r).transpose();  // r x N
    if (shape.conv) {  // [out channels, in channels, 1, ...]: the transposes
      const size_t rank = constantFloat(n.input(1))->rank();
      f.w1 = floatTensor(w1.transpose(), convDims(r, k, rank));
      f.w2 = floatTensor(w2.transpose(), convDims(cols, r, rank));
    } else {
      f.w1 = floatTensor(w1);
      f.w2 = floatTensor(w2);
    }
    f.rank = r;
    return "";
  }

  void replace(ir::Node& n, const Factors& f) {
    const std::vector<const ir::Node*> from{&n};
    const std::string base = n.output(0)->name();
    paramsBefore_ += constantFloat(n.input(1))->numel();
    paramsAfter_ += f.w1.numel() + f.w2.numel();
    ir::Value* w1 = addConstant(rw_, g_, &n, base + "_w1", f.w1, from);
    ir::Value* w2 = addConstant(rw_, g_, &n, base + "_w2", f.w2, from);
    ir::Node* y = nullptr;
    if (n.opType() == "Conv") {
      // The node's geometry on the first Conv; the second is a plain 1x1.
      ir::Node* h = fusion::addDerived(rw_, "Conv", {n.input(0), w1}, &n, from, &n);
      std::vector<ir::Value*> ins{h->output(0), w2};
      if (n.input(2)) ins.push_back(n.input(2));
      y = fusion::addDerived(rw_, "Conv", ins, &n, from, nullptr, {n.output(0)});
      fusion::replaceAndErase(rw_, n.output(0), y->output(0), {&n});
      ++factorized_;
      return;
    }
    ir::Node* h = fusion::addDerived(rw_, "MatMul", {n.input(0), w1}, &n, from);
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

Text whyNotLowRankWeight(const ir::Node& n, LowRankWeight* shape) {
  LowRankWeight s;
  if (const ir::Value* b = n.input(1); b && b->isInitializer() && b->isGraphInput())
    return kWeightIsAnInput;
  if (n.opType() != "Conv") {
    if (Text why = whyNotConstantMatrixWeight(n); !why.empty()) return why;
    const std::vector<int64_t> d = constantFloat(n.input(1))->dims();
    s.transposed = n.opType() == "Gemm" && n.attrInt("transB", 0) != 0;
    s.k = s.transposed ? d[1] : d[0];
    s.n = s.transposed ? d[0] : d[1];
  } else {
    auto weight = rewrite::constantValue(n.input(1));
    if (!weight) return "the weight is not a constant initializer";
    const ir::Tensor& w = *weight;
    if (w.dtype() != ir::DataType::kFloat || w.rank() < 3)
      return Text::of("the weight is %1, not a float32 Conv weight", w.summary());
    if (n.attrInt("group", 1) != 1) return "a grouped Conv";
    for (size_t i = 2; i < w.rank(); ++i)
      if (w.dims()[i] != 1) return Text::of("the kernel is %1, not 1x1", w.summary());
    s.transposed = true;
    s.conv = true;
    s.k = w.dims()[1];
    s.n = w.dims()[0];
  }
  if (shape) *shape = s;
  return "";
}

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
