// Random generators: RandomNormal, RandomUniform (shape from an attribute),
// RandomNormalLike, RandomUniformLike (shape of the input), Bernoulli (one draw
// per input probability) and Multinomial (sample_size class draws per row of
// unnormalized log-probabilities).
//
// With a `seed` attribute every run gives the same values (the generator is
// re-seeded per run); without one, a generator seeded once from the system
// keeps going from run to run.
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <random>
#include <vector>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

class Generator {
 public:
  explicit Generator(const ir::Node& n)
      : seeded_(n.hasAttr("seed")),
        seed_(static_cast<uint64_t>(static_cast<int64_t>(n.attrFloat("seed", 0.0f)))),
        engine_(seeded_ ? seed_ : std::random_device{}()) {}
  // The engine for one run.
  std::mt19937_64& start() {
    if (seeded_) engine_.seed(seed_);
    return engine_;
  }

 private:
  bool seeded_;
  uint64_t seed_;
  std::mt19937_64 engine_;
};

// The output dtype: the `dtype` attribute, else `fallback`; must be in `allowed`.
Expected<DataType> outputType(const ir::Node& n, DataType fallback, TypeSet allowed) {
  DataType dt = fallback;
  if (n.hasAttr("dtype")) {
    int64_t v = n.attrInt("dtype", 0);
    if (!ir::isKnownDtype(static_cast<int32_t>(v)))
      return invalidArgument("dtype " + std::to_string(v) + " is not an element type");
    dt = static_cast<DataType>(v);
  }
  if (!allowed.contains(dt))
    return invalidArgument("dtype " + std::string(ir::dtypeName(dt)) +
                           " is not allowed here (allowed: " + allowed.toString() + ")");
  return dt;
}

enum class Dist { kNormal, kUniform };

// Fills t (a float type) with draws.
Status fill(Tensor& t, Dist dist, double a, double b, std::mt19937_64& g) {
  return dispatch<types::kFloats>(t.dtype(), [&](auto tag) -> Status {
    using S = typename decltype(tag)::type;
    S* out = t.mutableData<S>();
    if (dist == Dist::kNormal) {
      std::normal_distribution<double> d(a, b);
      for (int64_t i = 0; i < t.numel(); ++i) out[i] = store<S>(static_cast<ComputeT<S>>(d(g)));
    } else {
      std::uniform_real_distribution<double> d(a, b);
      for (int64_t i = 0; i < t.numel(); ++i) out[i] = store<S>(static_cast<ComputeT<S>>(d(g)));
    }
    return Status::ok();
  });
}

// RandomNormal / RandomUniform (`like`: *Like, shaped as input 0).
template <Dist kDist, bool kLike>
class RandomFill final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    const ir::Node& n = b.node();
    auto k = std::unique_ptr<RandomFill>(new RandomFill(n));
    if constexpr (!kLike) {
      if (!n.hasAttr("shape")) return invalidArgument("the shape attribute is required");
      k->shape_ = n.attrInts("shape");
      for (int64_t d : k->shape_)
        if (d < 0)
          return invalidArgument("shape " + dimsToString(k->shape_) + " has a negative dim");
      PASSLAB_ASSIGN_OR_RETURN(k->dtype_, outputType(n, DataType::kFloat, types::kFloats));
    } else if (n.hasAttr("dtype")) {
      PASSLAB_ASSIGN_OR_RETURN(k->dtype_, outputType(n, DataType::kFloat, types::kFloats));
    }
    if (kDist == Dist::kNormal) {
      k->a_ = n.attrFloat("mean", 0.0f);
      k->b_ = n.attrFloat("scale", 1.0f);
    } else {
      k->a_ = n.attrFloat("low", 0.0f);
      k->b_ = n.attrFloat("high", 1.0f);
      if (!(k->a_ <= k->b_)) return invalidArgument("low is above high");
    }
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    Dims dims = shape_;
    DataType dt = dtype_;
    if constexpr (kLike) {
      dims = ctx.input(0).dims();
      if (dt == DataType::kUndefined) dt = ctx.input(0).dtype();
      if (!types::kFloats.contains(dt))
        return invalidArgument("the output type " + std::string(ir::dtypeName(dt)) +
                               " is not a float type; set dtype");
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dt, dims));
    std::lock_guard<std::mutex> lock(mu_);
    return fill(*y, kDist, a_, b_, gen_.start());
  }

 private:
  explicit RandomFill(const ir::Node& n) : gen_(n) {}
  Generator gen_;
  std::mutex mu_;
  Dims shape_;
  DataType dtype_ = DataType::kUndefined;
  double a_ = 0, b_ = 1;
};

// y[i] = 1 with probability x[i], else 0.
class Bernoulli final : public Kernel {
 public:
  static constexpr TypeSet kOutTypes = types::kNumeric | types::kBool;
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto k = std::unique_ptr<Bernoulli>(new Bernoulli(b.node()));
    if (b.node().hasAttr("dtype")) {
      PASSLAB_ASSIGN_OR_RETURN(k->dtype_, outputType(b.node(), DataType::kFloat, kOutTypes));
    }
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const DataType dt = dtype_ == DataType::kUndefined ? x.dtype() : dtype_;
    std::vector<double> p(static_cast<size_t>(x.numel()));
    PASSLAB_RETURN_IF_ERROR(dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const S* in = x.data<S>();
      for (int64_t i = 0; i < x.numel(); ++i) {
        p[static_cast<size_t>(i)] = static_cast<double>(load(in[i]));
        if (!(p[static_cast<size_t>(i)] >= 0 && p[static_cast<size_t>(i)] <= 1))
          return invalidArgument("probability " + std::to_string(p[static_cast<size_t>(i)]) +
                                 " is outside [0, 1]");
      }
      return Status::ok();
    }));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dt, x.dims()));
    std::lock_guard<std::mutex> lock(mu_);
    std::mt19937_64& g = gen_.start();
    std::uniform_real_distribution<double> u(0.0, 1.0);
    return dispatch<kOutTypes>(dt, [&](auto tag) -> Status {
      using D = typename decltype(tag)::type;
      D* out = y->mutableData<D>();
      for (size_t i = 0; i < p.size(); ++i) {
        bool hit = u(g) < p[i];
        if constexpr (std::is_same_v<D, bool>) {
          out[i] = hit;
        } else {
          out[i] = store<D>(static_cast<ComputeT<D>>(hit ? 1 : 0));
        }
      }
      return Status::ok();
    });
  }

 private:
  explicit Bernoulli(const ir::Node& n) : gen_(n) {}
  Generator gen_;
  std::mutex mu_;
  DataType dtype_ = DataType::kUndefined;
};

// For each row of x [batch, classes] (unnormalized log-probabilities), sample_size
// class indices drawn with probabilities softmax(row).
class Multinomial final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto k = std::unique_ptr<Multinomial>(new Multinomial(b.node()));
    k->samples_ = b.node().attrInt("sample_size", 1);
    if (k->samples_ < 0)
      return invalidArgument("sample_size must not be negative, got " +
                             std::to_string(k->samples_));
    PASSLAB_ASSIGN_OR_RETURN(
        k->dtype_, outputType(b.node(), DataType::kInt32, {DataType::kInt32, DataType::kInt64}));
    return std::unique_ptr<Kernel>(std::move(k));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 2)
      return invalidArgument("the input must be [batch, classes], got " + x.describe());
    const int64_t batch = x.dim(0), classes = x.dim(1);
    if (classes == 0 && samples_ > 0) return invalidArgument("no classes to draw from");
    std::vector<double> logits(static_cast<size_t>(x.numel()));
    PASSLAB_RETURN_IF_ERROR(dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      for (int64_t i = 0; i < x.numel(); ++i)
        logits[static_cast<size_t>(i)] = static_cast<double>(load(x.data<S>()[i]));
      return Status::ok();
    }));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dtype_, {batch, samples_}));
    std::lock_guard<std::mutex> lock(mu_);
    std::mt19937_64& g = gen_.start();
    std::vector<double> cdf(static_cast<size_t>(classes));
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int64_t r = 0; r < batch; ++r) {
      const double* row = logits.data() + r * classes;
      double mx = -std::numeric_limits<double>::infinity();
      for (int64_t c = 0; c < classes; ++c) mx = std::max(mx, row[c]);
      double total = 0;
      for (int64_t c = 0; c < classes; ++c) {
        total += std::exp(row[c] - mx);
        cdf[static_cast<size_t>(c)] = total;
      }
      for (int64_t s = 0; s < samples_; ++s) {
        const double v = u(g) * total;
        auto it = std::upper_bound(cdf.begin(), cdf.end(), v);
        int64_t c = std::min<int64_t>(it - cdf.begin(), classes - 1);
        if (dtype_ == DataType::kInt32)
          y->mutableData<int32_t>()[r * samples_ + s] = static_cast<int32_t>(c);
        else
          y->mutableData<int64_t>()[r * samples_ + s] = c;
      }
    }
    return Status::ok();
  }

 private:
  explicit Multinomial(const ir::Node& n) : gen_(n) {}
  Generator gen_;
  std::mutex mu_;
  int64_t samples_ = 1;
  DataType dtype_ = DataType::kInt32;
};

const KernelDef kRows[] = {
    {"", "RandomNormal", 1, kOpsetMax, types::kAll, kAnyType, Tier::kReference, "cpu.RandomNormal",
     makeKernel<RandomFill<Dist::kNormal, false>>},
    {"", "RandomUniform", 1, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.RandomUniform", makeKernel<RandomFill<Dist::kUniform, false>>},
    {"", "RandomNormalLike", 1, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.RandomNormalLike", makeKernel<RandomFill<Dist::kNormal, true>>},
    {"", "RandomUniformLike", 1, kOpsetMax, types::kAll, kAnyType, Tier::kReference,
     "cpu.RandomUniformLike", makeKernel<RandomFill<Dist::kUniform, true>>},
    {"", "Bernoulli", 15, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Bernoulli",
     makeKernel<Bernoulli>},
    {"", "Multinomial", 7, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Multinomial",
     makeKernel<Multinomial>},
};

}  // namespace

std::span<const KernelDef> randomKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
