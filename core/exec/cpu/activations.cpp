// Activation functions: the elementwise ones on the generic UnaryKernel (see
// elementwise.h) with their attributes, and PRelu, whose slope broadcasts to
// the input's shape.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#include "core/support/x86_intrinsics.h"
#endif

#include "core/exec/cpu/activation_rows.h"
#include "core/exec/cpu/elementwise.h"
#include "core/exec/cpu/erf_rows.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/sigmoid_rows.h"
#include "core/support/cpu_isa.h"

namespace passlab::exec::cpu {

namespace {

// Reads a float attribute into the compute type.
struct Attrs {
  explicit Attrs(const KernelBuild& b) : node(b.node()) {}
  float get(std::string_view name, float fallback) const { return node.attrFloat(name, fallback); }
  const ir::Node& node;
};

// y = max(0, min(1, alpha * x + beta))
struct HardSigmoidOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit HardSigmoidOp(const KernelBuild& b)
      : alpha(Attrs(b).get("alpha", 0.2f)), beta(Attrs(b).get("beta", 0.5f)) {}
  template <class C>
  C operator()(C x) const {
    C v = C(alpha) * x + C(beta);
    return v < C(0) ? C(0) : (v > C(1) ? C(1) : v);
  }
#if defined(__SSE2__)
  // The same with maxps/minps, operands in the order that matches the ?:
  // exactly (maxps(0, v) is v for NaN and -0, as `v < 0 ? 0 : v`).
  void floatN(const float* x, float* y, int64_t n) const {
    int64_t i = 0;
    const __m128 a = _mm_set1_ps(alpha), b = _mm_set1_ps(beta), zero = _mm_setzero_ps(),
                 one = _mm_set1_ps(1.0f);
    for (; i + 4 <= n; i += 4) {
      const __m128 v = _mm_add_ps(_mm_mul_ps(a, _mm_loadu_ps(x + i)), b);
      _mm_storeu_ps(y + i, _mm_min_ps(one, _mm_max_ps(zero, v)));
    }
    for (; i < n; ++i) y[i] = (*this)(x[i]);
  }
#endif
  float alpha, beta;
};

#if defined(__SSE2__)
// HardSwishOp::floatN's operations on 16 lanes (AVX-512F: the same maxps /
// minps operand order, so the same results): fewer divisions to wait for
// (ppocr_cls's 18 HardSwish, 5-38K elements each: 0.133 -> 0.105 ms).
// Returns the elements done.
__attribute__((target("avx512f"))) int64_t hardSwishAvx512(const float* x, float* y, int64_t n) {
  const __m512 six = _mm512_set1_ps(6.0f), half = _mm512_set1_ps(0.5f), zero = _mm512_setzero_ps(),
               one = _mm512_set1_ps(1.0f);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 xv = _mm512_loadu_ps(x + i);
    const __m512 v = _mm512_add_ps(_mm512_div_ps(xv, six), half);
    _mm512_storeu_ps(y + i, _mm512_mul_ps(xv, _mm512_min_ps(one, _mm512_max_ps(zero, v))));
  }
  return i;
}

// The same on 8 lanes (AVX2 CPUs: picodet int8's 33 HardSwish between
// DequantizeLinear and QuantizeLinear took 4x the AVX-512 time on SSE2).
__attribute__((target("avx2"))) int64_t hardSwishAvx2(const float* x, float* y, int64_t n) {
  const __m256 six = _mm256_set1_ps(6.0f), half = _mm256_set1_ps(0.5f), zero = _mm256_setzero_ps(),
               one = _mm256_set1_ps(1.0f);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 xv = _mm256_loadu_ps(x + i);
    const __m256 v = _mm256_add_ps(_mm256_div_ps(xv, six), half);
    _mm256_storeu_ps(y + i, _mm256_mul_ps(xv, _mm256_min_ps(one, _mm256_max_ps(zero, v))));
  }
  return i;
}
#endif

// y = x * max(0, min(1, x / 6 + 0.5))
struct HardSwishOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    C v = x / C(6) + C(0.5);
    v = v < C(0) ? C(0) : (v > C(1) ? C(1) : v);
    return x * v;
  }
#if defined(__SSE2__)
  // The same with maxps/minps, operands in the order that matches the ?:
  // exactly (maxps(0, v) is v for NaN and -0, as `v < 0 ? 0 : v`).
  void floatN(const float* x, float* y, int64_t n) const {
    int64_t i = cpu_isa::hasAvx512f()   ? hardSwishAvx512(x, y, n)
                : cpu_isa::hasAvx2Fma() ? hardSwishAvx2(x, y, n)
                                        : 0;
    const __m128 six = _mm_set1_ps(6.0f), half = _mm_set1_ps(0.5f), zero = _mm_setzero_ps(),
                 one = _mm_set1_ps(1.0f);
    for (; i + 4 <= n; i += 4) {
      const __m128 xv = _mm_loadu_ps(x + i);
      const __m128 v = _mm_add_ps(_mm_div_ps(xv, six), half);
      _mm_storeu_ps(y + i, _mm_mul_ps(xv, _mm_min_ps(one, _mm_max_ps(zero, v))));
    }
    for (; i < n; ++i) y[i] = (*this)(x[i]);
  }
#endif
};

// ln(1 + exp(x)) without overflow for large x.
template <class C>
C softplus(C x) {
  return x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// y = ln(1 + exp(x)); float32 rows on softplusRow (activation_rows.h).
struct SoftplusOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return softplus(x);
  }
  void floatN(const float* x, float* y, int64_t n) const { softplusRow(x, y, n); }
};

// y = x / (1 + |x|)
struct SoftsignOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return x / (C(1) + std::fabs(x));
  }
};

// y = x for x >= 0, alpha * (exp(x) - 1) otherwise
struct EluOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit EluOp(const KernelBuild& b) : alpha(Attrs(b).get("alpha", 1.0f)) {}
  template <class C>
  C operator()(C x) const {
    return x < C(0) ? C(alpha) * std::expm1(x) : x;
  }
  // The same within a few ulp, vectorized (activation_rows.h).
  void floatN(const float* x, float* y, int64_t n) const { eluRow(x, alpha, y, n); }
  float alpha;
};

// y = gamma * x for x > 0, gamma * alpha * (exp(x) - 1) otherwise
struct SeluOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit SeluOp(const KernelBuild& b)
      : alpha(Attrs(b).get("alpha", 1.67326319217681884765625f)),
        gamma(Attrs(b).get("gamma", 1.05070102214813232421875f)) {}
  template <class C>
  C operator()(C x) const {
    return x > C(0) ? C(gamma) * x : C(gamma) * (C(alpha) * std::exp(x) - C(alpha));
  }
  // gamma times eluRow (alpha expm1(x) within a few ulp, where alpha exp(x) -
  // alpha cancels near 0); a zero result is +0 as the formula's.
  void floatN(const float* x, float* y, int64_t n) const {
    eluRow(x, alpha, y, n);
    for (int64_t i = 0; i < n; ++i) y[i] = y[i] == 0.0f ? 0.0f : gamma * y[i];
  }
  float alpha, gamma;
};

// y = max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
struct CeluOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit CeluOp(const KernelBuild& b) : alpha(Attrs(b).get("alpha", 1.0f)) {}
  template <class C>
  C operator()(C x) const {
    C a = C(alpha);
    return x > C(0) ? x : a * std::expm1(x / a);
  }
  // alpha expm1(x / alpha) from eluRow (within kEluMaxUlp, vectorized) for
  // x <= 0 and NaN, x itself above 0, a block at a time.
  void floatN(const float* x, float* y, int64_t n) const {
    constexpr int64_t kBlock = 256;
    float t[kBlock];
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
      const int64_t m = std::min(kBlock, n - i0);
      for (int64_t j = 0; j < m; ++j) t[j] = x[i0 + j] / alpha;
      eluRow(t, alpha, t, m);
      for (int64_t j = 0; j < m; ++j) y[i0 + j] = x[i0 + j] > 0.0f ? x[i0 + j] : t[j];
    }
  }
  float alpha;
};

// y = x for x >= 0, alpha * x otherwise
struct LeakyReluOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit LeakyReluOp(const KernelBuild& b) : alpha(Attrs(b).get("alpha", 0.01f)) {}
  template <class C>
  C operator()(C x) const {
    return x < C(0) ? C(alpha) * x : x;
  }
#if defined(__SSE2__)
  // The same with a compare and a select (NaN and -0 are not < 0 and pass).
  void floatN(const float* x, float* y, int64_t n) const {
    int64_t i = 0;
    const __m128 a = _mm_set1_ps(alpha), zero = _mm_setzero_ps();
    for (; i + 4 <= n; i += 4) {
      const __m128 xv = _mm_loadu_ps(x + i);
      const __m128 neg = _mm_cmplt_ps(xv, zero);
      _mm_storeu_ps(y + i, _mm_or_ps(_mm_and_ps(neg, _mm_mul_ps(a, xv)), _mm_andnot_ps(neg, xv)));
    }
    for (; i < n; ++i) y[i] = (*this)(x[i]);
  }
#endif
  float alpha;
};

// y = x for x > alpha, 0 otherwise
struct ThresholdedReluOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit ThresholdedReluOp(const KernelBuild& b) : alpha(Attrs(b).get("alpha", 1.0f)) {}
  template <class C>
  C operator()(C x) const {
    return x > C(alpha) ? x : C(0);
  }
  float alpha;
};

// y = x * tanh(ln(1 + exp(x)))
struct MishOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return x * std::tanh(softplus(x));
  }
  // The same within a few ulp, vectorized (activation_rows.h).
  void floatN(const float* x, float* y, int64_t n) const { mishRow(x, y, n); }
};

// y = 0.5 x (1 + erf(x / sqrt 2)), or with approximate="tanh"
// y = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
struct GeluOp {
  static constexpr TypeSet kTypes = types::kFloats;
  static Expected<GeluOp> make(const KernelBuild& b) {
    std::string mode = b.node().attrString("approximate", "none");
    if (mode != "none" && mode != "tanh")
      return invalidArgument("approximate must be \"none\" or \"tanh\", got \"" + mode + "\"");
    return GeluOp{mode == "tanh"};
  }
  template <class C>
  C operator()(C x) const {
    if (tanhApprox) {
      const C k = static_cast<C>(std::numbers::sqrt2 / std::sqrt(std::numbers::pi));
      return C(0.5) * x * (C(1) + std::tanh(k * (x + C(0.044715) * x * x * x)));
    }
    return C(0.5) * x * (C(1) + std::erf(x * static_cast<C>(std::numbers::sqrt2 / 2)));
  }
  // float32: the erf form on geluErfRow (erf_rows.h), the tanh form on
  // geluTanhRow (activation_rows.h), both vectorized.
  void floatN(const float* x, float* y, int64_t n) const {
    if (!tanhApprox) return geluErfRow(x, nullptr, 1, 0, y, n);
    geluTanhRow(x, y, n);
  }
  bool tanhApprox;
};

// y = x * sigmoid(alpha * x)
struct SwishOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit SwishOp(const KernelBuild& b) : alpha(Attrs(b).get("alpha", 1.0f)) {}
  template <class C>
  C operator()(C x) const {
    C z = C(alpha) * x;
    C s = z >= C(0) ? C(1) / (C(1) + std::exp(-z)) : std::exp(z) / (C(1) + std::exp(z));
    return x * s;
  }
  // sigmoid(alpha x) from sigmoidRow (vectorized), a block at a time.
  void floatN(const float* x, float* y, int64_t n) const {
    constexpr int64_t kBlock = 256;
    float s[kBlock];
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
      const int64_t m = std::min(kBlock, n - i0);
      for (int64_t j = 0; j < m; ++j) s[j] = alpha * x[i0 + j];
      sigmoidRow(s, s, m);
      for (int64_t j = 0; j < m; ++j) y[i0 + j] = x[i0 + j] * s[j];
    }
  }
  float alpha;
};

// y = x + bias for x < -lambd, x - bias for x > lambd, 0 otherwise
struct ShrinkOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  explicit ShrinkOp(const KernelBuild& b)
      : bias(Attrs(b).get("bias", 0.0f)), lambd(Attrs(b).get("lambd", 0.5f)) {}
  template <class C>
  C operator()(C x) const {
    // Compared and shifted in double so integer inputs see the float attributes exactly.
    double v = static_cast<double>(x);
    double r = v < -lambd ? v + bias : (v > lambd ? v - bias : 0.0);
    return static_cast<C>(r);
  }
  float bias, lambd;
};

// y = x for x >= 0, slope * x otherwise; slope broadcasts to x's shape. Before
// opset 7 a 1-D slope of x's channel count runs along axis 1.
class PRelu final : public Kernel {
 public:
  static constexpr TypeSet kTypes = types::kNumeric;
  explicit PRelu(const KernelBuild& b) : legacy_(b.opset() < 7) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor slope = ctx.input(1);
    if (slope.dtype() != x.dtype())
      return invalidArgument("slope " + slope.describe() + " must have the type of X " +
                             x.describe());
    if (legacy_ && slope.rank() == 1 && x.rank() >= 2 && slope.dim(0) == x.dim(1) &&
        slope.dim(0) != 1) {
      Dims d(x.rank() - 1, 1);
      d[0] = slope.dim(0);
      slope = slope.view(d);
    }
    auto dims = broadcastShapes(x.dims(), slope.dims());
    if (!dims || dims.value() != x.dims())
      return invalidArgument("slope " + slope.describe() + " does not broadcast to X " +
                             x.describe());
    return dispatch<kTypes>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      binaryLoop<S, S>(
          x, slope, *y,
          [](C v, C s) -> C {
            if constexpr (std::is_unsigned_v<C>) {
              return v;
            } else {
              return v < C(0) ? static_cast<C>(s * v) : v;
            }
          },
          ctx.threads());
      return Status::ok();
    });
  }

 private:
  bool legacy_;
};

const KernelDef kRows[] = {
    unaryRow<HardSigmoidOp>("HardSigmoid", 1, kOpsetMax, "cpu.HardSigmoid"),
    unaryRow<HardSwishOp>("HardSwish", 14, kOpsetMax, "cpu.HardSwish"),
    unaryRow<SoftplusOp>("Softplus", 1, kOpsetMax, "cpu.Softplus"),
    unaryRow<SoftsignOp>("Softsign", 1, kOpsetMax, "cpu.Softsign"),
    unaryRow<EluOp>("Elu", 1, kOpsetMax, "cpu.Elu"),
    unaryRow<SeluOp>("Selu", 1, kOpsetMax, "cpu.Selu"),
    unaryRow<CeluOp>("Celu", 12, kOpsetMax, "cpu.Celu"),
    unaryRow<LeakyReluOp>("LeakyRelu", 1, kOpsetMax, "cpu.LeakyRelu"),
    unaryRow<ThresholdedReluOp>("ThresholdedRelu", 10, kOpsetMax, "cpu.ThresholdedRelu"),
    unaryRow<MishOp>("Mish", 18, kOpsetMax, "cpu.Mish"),
    {"", "Gelu", 20, kOpsetMax, GeluOp::kTypes, 0, Tier::kReference, "cpu.Gelu",
     makeKernel<CheckedUnary<GeluOp>>, kInPlace},
    unaryRow<SwishOp>("Swish", 24, kOpsetMax, "cpu.Swish"),
    unaryRow<ShrinkOp>("Shrink", 9, kOpsetMax, "cpu.Shrink"),
    // PRelu's output has X's shape; binaryLoop reads element i of X (and of a
    // slope of X's size) before writing it: in place (kInPlace). So Gelu's loop.
    {"", "PRelu", 1, kOpsetMax, PRelu::kTypes, 0, Tier::kReference, "cpu.PRelu", makeKernel<PRelu>,
     kInPlace},
};

}  // namespace

std::span<const KernelDef> activationKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
