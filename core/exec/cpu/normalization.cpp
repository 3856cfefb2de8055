// Normalizations: BatchNormalization (inference, and training_mode=1, which
// normalizes with the batch's statistics and returns the updated running
// mean and variance), InstanceNormalization, LRN.
// Memory-bound loops, parallel over (batch, channel) planes; scale and shift
// are folded per channel first (y = x * a + b).
#include <array>
#include <cmath>
#include <type_traits>
#include <vector>

#include "core/exec/cpu/batch_norm_fold.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/half_convert.h"
#include "core/exec/cpu/plane_moments.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

bool isFloatType(ir::DataType t) {
  return types::kFloats.contains(t);
}

// y[n, p, i] = x[n, p, i] * a[p] + b[p] with x viewed as [N, P, inner].
template <class S>
void scaleShift(const S* x, S* y, int64_t N, int64_t P, int64_t inner, const std::vector<float>& a,
                const std::vector<float>& b, int threads) {
  parallelFor(N * P, threads, std::max<int64_t>(1, kElementwiseGrain / (inner + 1)),
              [&](int64_t b0, int64_t e0) {
                for (int64_t np = b0; np < e0; ++np) {
                  const float av = a[static_cast<size_t>(np % P)];
                  const float bv = b[static_cast<size_t>(np % P)];
                  const S* xp = x + np * inner;
                  S* yp = y + np * inner;
                  for (int64_t i = 0; i < inner; ++i)
                    yp[i] = store<S>(static_cast<ComputeT<S>>(load(xp[i]) * av + bv));
                }
              });
}

class BatchNorm final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    // BatchNormalization-6 says training with is_test = 0 (later versions by
    // their outputs, then training_mode); only its inference form runs here.
    if (b.opset() < 7 && b.node().attrInt("is_test", 0) == 0)
      return invalidArgument(
          "BatchNormalization-6 with is_test = 0 (training) is not supported; "
          "inference needs is_test = 1");
    auto k = std::unique_ptr<BatchNorm>(new BatchNorm(b.node().attrFloat("epsilon", 1e-5f)));
    k->training_ = b.opset() >= 14 && b.node().attrInt("training_mode", 0) != 0;
    k->momentum_ = b.node().attrFloat("momentum", 0.9f);
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    for (size_t i = 1; i < 5; ++i)
      if (!ctx.has(i)) return invalidArgument("input " + std::to_string(i) + " is required");
    const Tensor &scale = ctx.input(1), &bias = ctx.input(2), &mean = ctx.input(3),
                 &var = ctx.input(4);
    if (x.rank() < 2) return invalidArgument("X must have rank 2 or more, got " + x.describe());
    const int64_t N = x.dim(0);
    const int64_t P = scale.numel();
    if (P == 0 || N == 0 || x.numel() % (N * P) != 0 || bias.numel() != P || mean.numel() != P ||
        var.numel() != P)
      return invalidArgument("scale, B, mean and var (" + scale.describe() + ", " +
                             bias.describe() + ", " + mean.describe() + ", " + var.describe() +
                             ") do not match X " + x.describe());
    for (const Tensor* t : {&scale, &bias, &mean, &var})
      if (!isFloatType(t->dtype())) return invalidArgument("parameters must be floating point");
    if (training_) return runTraining(ctx, N, P);
    // Fold once per run (parameters are small); keep the folded values when
    // all four are the same on every run (KernelContext::invariantInput).
    const bool invariant = ctx.invariantInput(1) && ctx.invariantInput(2) &&
                           ctx.invariantInput(3) && ctx.invariantInput(4);
    if (!(invariant && folded_ && a_.size() == static_cast<size_t>(P))) {
      foldBatchNorm(scale, bias, mean, var, epsilon_, a_, b_);
      folded_ = invariant;
    }
    const int64_t inner = x.numel() / (N * P);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      scaleShift<S>(x.data<S>(), y->mutableData<S>(), N, P, inner, a_, b_, ctx.threads());
      return Status::ok();
    });
  }

  // Normalizes with the batch's mean and (population) variance per channel;
  // outputs 1 and 2 are the running statistics moved towards them:
  // running * momentum + batch * (1 - momentum).
  Status runTraining(KernelContext& ctx, int64_t N, int64_t P) {
    const Tensor& x = ctx.input(0);
    const int64_t inner = x.numel() / (N * P);
    std::vector<double> mean(static_cast<size_t>(P)), var(static_cast<size_t>(P));
    for (int64_t p = 0; p < P; ++p) {
      double sum = 0, sq = 0;
      for (int64_t n = 0; n < N; ++n)
        for (int64_t i = 0; i < inner; ++i) sum += floatAt(x, (n * P + p) * inner + i);
      const double m = sum / static_cast<double>(N * inner);
      for (int64_t n = 0; n < N; ++n)
        for (int64_t i = 0; i < inner; ++i) {
          double d = floatAt(x, (n * P + p) * inner + i) - m;
          sq += d * d;
        }
      mean[static_cast<size_t>(p)] = m;
      var[static_cast<size_t>(p)] = sq / static_cast<double>(N * inner);
    }
    std::vector<float> a(static_cast<size_t>(P)), b(static_cast<size_t>(P));
    for (int64_t p = 0; p < P; ++p) {
      const size_t k = static_cast<size_t>(p);
      double s = floatAt(ctx.input(1), p) / std::sqrt(var[k] + epsilon_);
      a[k] = static_cast<float>(s);
      b[k] = static_cast<float>(floatAt(ctx.input(2), p) - mean[k] * s);
    }
    // The running statistics moved, read before Y is written: Y may take the
    // memory of an input of its size (kInPlace), which may be one of them.
    std::array<std::vector<double>, 2> moved;
    for (size_t out = 1; out <= 2; ++out) {
      const Tensor& running = ctx.input(out + 2);
      const std::vector<double>& batch = out == 1 ? mean : var;
      std::vector<double>& m = moved[out - 1];
      m.resize(static_cast<size_t>(P));
      for (int64_t p = 0; p < P; ++p)
        m[static_cast<size_t>(p)] =
            floatAt(running, p) * momentum_ + batch[static_cast<size_t>(p)] * (1 - momentum_);
    }
    Status st = dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      scaleShift<S>(x.data<S>(), y->mutableData<S>(), N, P, inner, a, b, ctx.threads());
      return Status::ok();
    });
    if (!st) return st;
    for (size_t out = 1; out <= 2; ++out) {
      if (ctx.outputCount() <= out || !ctx.wantsOutput(out)) continue;
      const Tensor& running = ctx.input(out + 2);
      const std::vector<double>& m = moved[out - 1];
      st = dispatch<types::kFloats>(running.dtype(), [&](auto tag) -> Status {
        using S = typename decltype(tag)::type;
        PASSLAB_ASSIGN_OR_RETURN(Tensor * r, ctx.allocate(out, running.dtype(), running.dims()));
        S* dst = r->mutableData<S>();
        for (int64_t p = 0; p < P; ++p)
          dst[p] = store<S>(static_cast<ComputeT<S>>(m[static_cast<size_t>(p)]));
        return Status::ok();
      });
      if (!st) return st;
    }
    return Status::ok();
  }

 private:
  explicit BatchNorm(float eps) : epsilon_(eps) {}
  double epsilon_;
  bool training_ = false;
  double momentum_ = 0.9;
  std::vector<float> a_, b_;
  bool folded_ = false;  // a_, b_ hold the invariant parameters folded (kept across runs)
};

class InstanceNorm final : public Kernel {
 public:
  explicit InstanceNorm(const KernelBuild& b) : epsilon_(b.node().attrFloat("epsilon", 1e-5f)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& scale = ctx.input(1);
    const Tensor& bias = ctx.input(2);
    if (x.rank() < 3) return invalidArgument("X must have rank 3 or more, got " + x.describe());
    const int64_t N = x.dim(0), C = x.dim(1);
    if (scale.numel() != C || bias.numel() != C)
      return invalidArgument("scale and B must have " + std::to_string(C) + " elements");
    const int64_t inner = N * C == 0 ? 0 : x.numel() / (N * C);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* X = x.data<S>();
      S* Y = y->mutableData<S>();
      auto normalize = [&](int64_t nc, const float* xp, float* yp) {
        const PlaneMoments m = planeMoments(xp, inner);
        const double a = floatAt(scale, nc % C) / std::sqrt(m.variance + epsilon_);
        const double b = floatAt(bias, nc % C) - m.mean * a;
        affineRow(xp, yp, inner, static_cast<float>(a), static_cast<float>(b));
      };
      if constexpr (std::is_same_v<S, float>) {
        parallelFor(N * C, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
          for (int64_t nc = b0; nc < e0; ++nc) normalize(nc, X + nc * inner, Y + nc * inner);
        });
        return Status::ok();
      }
      if constexpr (std::is_same_v<S, Half>) {
        // float16: each plane widened in bulk (F16C when present), computed in float.
        parallelFor(N * C, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
          std::vector<float> buf(static_cast<size_t>(inner));
          for (int64_t nc = b0; nc < e0; ++nc) {
            halfToFloatN(&X[nc * inner].bits, buf.data(), inner);
            normalize(nc, buf.data(), buf.data());
            floatToHalfN(buf.data(), &Y[nc * inner].bits, inner);
          }
        });
        return Status::ok();
      }
      parallelFor(N * C, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
        for (int64_t nc = b0; nc < e0; ++nc) {
          const S* xp = X + nc * inner;
          double sum = 0, sq = 0;
          for (int64_t i = 0; i < inner; ++i) sum += load(xp[i]);
          double mean = inner ? sum / static_cast<double>(inner) : 0;
          for (int64_t i = 0; i < inner; ++i) {
            double d = load(xp[i]) - mean;
            sq += d * d;
          }
          double var = inner ? sq / static_cast<double>(inner) : 0;
          double a = floatAt(scale, nc % C) / std::sqrt(var + epsilon_);
          double b = floatAt(bias, nc % C) - mean * a;
          S* yp = Y + nc * inner;
          for (int64_t i = 0; i < inner; ++i)
            yp[i] = store<S>(static_cast<ComputeT<S>>(load(xp[i]) * a + b));
        }
      });
      return Status::ok();
    });
  }

 private:
  double epsilon_;
};

// y = x / (bias + alpha / size * sum of x^2 over a window of channels)^beta
class Lrn final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    int64_t size = b.node().attrInt("size", 0);
    if (size < 1) return invalidArgument("size must be a positive integer");
    return std::unique_ptr<Kernel>(new Lrn(size, b.node().attrFloat("alpha", 1e-4f),
                                           b.node().attrFloat("beta", 0.75f),
                                           b.node().attrFloat("bias", 1.0f)));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2) return invalidArgument("X must have rank 2 or more, got " + x.describe());
    const int64_t N = x.dim(0), C = x.dim(1);
    const int64_t inner = N * C == 0 ? 0 : x.numel() / (N * C);
    const int64_t before = (size_ - 1) / 2, after = size_ - 1 - before;
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* X = x.data<S>();
      S* Y = y->mutableData<S>();
      const float k = alpha_ / static_cast<float>(size_);
      parallelFor(N * C, ctx.threads(), 1, [&](int64_t b0, int64_t e0) {
        std::vector<float> acc(static_cast<size_t>(inner));
        float* a = acc.data();
        for (int64_t nc = b0; nc < e0; ++nc) {
          int64_t n = nc / C, c = nc % C;
          std::fill(acc.begin(), acc.end(), 0.0f);
          for (int64_t cc = std::max<int64_t>(0, c - before); cc <= std::min(C - 1, c + after);
               ++cc) {
            const S* xp = X + (n * C + cc) * inner;
            for (int64_t i = 0; i < inner; ++i) {
              float v = load(xp[i]);
              a[i] += v * v;
            }
          }
          denominators(a, inner, k);
          const S* xp = X + nc * inner;
          S* yp = Y + nc * inner;
          for (int64_t i = 0; i < inner; ++i)
            yp[i] = store<S>(static_cast<ComputeT<S>>(load(xp[i]) / a[i]));
        }
      });
      return Status::ok();
    });
  }

 private:
  Lrn(int64_t size, float alpha, float beta, float bias)
      : size_(size), alpha_(alpha), beta_(beta), bias_(bias) {}

  // a[i] = (bias + k * a[i])^beta in place. beta = 0.75 (AlexNet, CaffeNet,
  // ZFNet, GoogLeNet) as d^0.5 * d^0.25, two square roots the loop vectorizes
  // (within 2 ulp of the power; std::pow per element was 10 of zfnet512's 54
  // ms, 1 thread); other betas std::pow.
  void denominators(float* a, int64_t n, float k) const {
    if (beta_ == 0.75f) {
      for (int64_t i = 0; i < n; ++i) {
        const float r = std::sqrt(bias_ + k * a[i]);
        a[i] = r * std::sqrt(r);
      }
      return;
    }
    for (int64_t i = 0; i < n; ++i) a[i] = std::pow(bias_ + k * a[i], beta_);
  }
  int64_t size_;
  float alpha_, beta_, bias_;
};

// BatchNormalization writes Y[i] from X[i] after reading (folding) all the
// parameters, and in training mode after reading X whole and the running
// statistics: it may run in place (kInPlace).
const KernelDef kRows[] = {
    {"", "BatchNormalization", 6, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.BatchNormalization", makeKernel<BatchNorm>, kInPlace},
    {"", "InstanceNormalization", 6, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.InstanceNormalization", makeKernel<InstanceNorm>},
    {"", "LRN", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.LRN", makeKernel<Lrn>},
};

}  // namespace

std::span<const KernelDef> normalizationKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
