// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (opsets 12+), as the
// ONNX reference computes them.
//
// Input X is [N, C] or [N, C, d1, ...], the target [N] or [N, d1, ...] holds
// class indices. Each position's loss is -X[n, t, d] (for SoftmaxCrossEntropy,
// of log_softmax over C) times its weight: weight[t] when a weight input is
// given, else 1; 0 where t == ignore_index. "none" keeps the target's shape,
// "sum" adds, "mean" divides the sum by the sum of the weights. A target out
// of [0, C) that is not ignore_index is an error. Accumulation is in double.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

double readFloat(const Tensor& t, int64_t i) {
  double out = 0;
  (void)dispatch<types::kFloats>(t.dtype(), [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    out = static_cast<double>(load(t.data<S>()[i]));
    return Status::ok();
  });
  return out;
}

template <bool kSoftmax>
class Loss final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    std::string reduction = b.node().attrString("reduction", "mean");
    if (reduction != "none" && reduction != "sum" && reduction != "mean")
      return invalidArgument("reduction must be none, sum or mean, got '" + reduction + "'");
    std::optional<int64_t> ignore;
    if (b.node().hasAttr("ignore_index")) ignore = b.node().attrInt("ignore_index", 0);
    return std::unique_ptr<Kernel>(new Loss(reduction, ignore));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& target = ctx.input(1);
    if (x.rank() < 2) return invalidArgument("the input must be [N, C, ...], got " + x.describe());
    const int64_t N = x.dim(0), C = x.dim(1);
    Dims expected{N};
    expected.insert(expected.end(), x.dims().begin() + 2, x.dims().end());
    if (target.dims() != expected)
      return invalidArgument("target " + target.describe() + " must have shape " +
                             dimsToString(expected) + " for input " + x.describe());
    PASSLAB_ASSIGN_OR_RETURN(std::vector<int64_t> t, readInts(target, "target"));
    const bool hasWeight = ctx.has(2);
    if (hasWeight) {
      const Tensor& w = ctx.input(2);
      if (w.rank() != 1 || w.dim(0) != C || w.dtype() != x.dtype())
        return invalidArgument("weight " + w.describe() + " must be a vector of " +
                               std::to_string(C) + " elements of the input's type");
    }
    const int64_t D = N * C == 0 ? 0 : x.numel() / (N * C);
    // log_softmax over C, or X itself.
    std::vector<double> logp(static_cast<size_t>(x.numel()));
    for (int64_t i = 0; i < x.numel(); ++i) logp[static_cast<size_t>(i)] = readFloat(x, i);
    if constexpr (kSoftmax) {
      for (int64_t n = 0; n < N; ++n)
        for (int64_t d = 0; d < D; ++d) {
          auto at = [&](int64_t c) -> double& {
            return logp[static_cast<size_t>((n * C + c) * D + d)];
          };
          double mx = -INFINITY;
          for (int64_t c = 0; c < C; ++c) mx = std::max(mx, at(c));
          double sum = 0;
          for (int64_t c = 0; c < C; ++c) sum += std::exp(at(c) - mx);
          const double lse = mx + std::log(sum);
          for (int64_t c = 0; c < C; ++c) at(c) -= lse;
        }
    }
    std::vector<double> loss(static_cast<size_t>(N * D)), weight(static_cast<size_t>(N * D));
    for (int64_t n = 0; n < N; ++n)
      for (int64_t d = 0; d < D; ++d) {
        const size_t k = static_cast<size_t>(n * D + d);
        const int64_t cls = t[k];
        if (ignore_ && cls == *ignore_) continue;  // loss and weight 0
        if (cls < 0 || cls >= C)
          return invalidArgument("target " + std::to_string(cls) + " at position " +
                                 std::to_string(k) + " is out of range [0, " + std::to_string(C) +
                                 ")");
        const double w = hasWeight ? readFloat(ctx.input(2), cls) : 1.0;
        weight[k] = w;
        loss[k] = -logp[static_cast<size_t>((n * C + cls) * D + d)] * w;
      }
    Dims outDims = reduction_ == "none" ? target.dims() : Dims{};
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), outDims));
    std::vector<double> out;
    if (reduction_ == "none") {
      out = loss;
    } else {
      double sum = 0, wsum = 0;
      for (size_t k = 0; k < loss.size(); ++k) {
        sum += loss[k];
        wsum += weight[k];
      }
      out.push_back(reduction_ == "sum" ? sum : sum / wsum);
    }
    write(*y, out);
    if (kSoftmax && ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor * lp, ctx.allocate(1, x.dtype(), x.dims()));
      write(*lp, logp);
    }
    return Status::ok();
  }

 private:
  Loss(std::string reduction, std::optional<int64_t> ignore)
      : reduction_(std::move(reduction)), ignore_(ignore) {}

  static void write(Tensor& t, const std::vector<double>& v) {
    (void)dispatch<types::kFloats>(t.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      S* p = t.mutableData<S>();
      for (size_t i = 0; i < v.size(); ++i) p[i] = store<S>(static_cast<ComputeT<S>>(v[i]));
      return Status::ok();
    });
  }

  std::string reduction_;
  std::optional<int64_t> ignore_;
};

const KernelDef kRows[] = {
    {"", "NegativeLogLikelihoodLoss", 12, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.NegativeLogLikelihoodLoss", makeKernel<Loss<false>>},
    {"", "SoftmaxCrossEntropyLoss", 12, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.SoftmaxCrossEntropyLoss", makeKernel<Loss<true>>},
};

}  // namespace

std::span<const KernelDef> lossKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
