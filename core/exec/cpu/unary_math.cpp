// Elementwise unary math on the generic UnaryKernel (see elementwise.h):
// rounding, roots, logarithms, trigonometric and hyperbolic functions, Erf,
// Sign, Abs and the floating-point predicates IsNaN and IsInf.
#include <cmath>
#include <type_traits>

#include "core/exec/cpu/activation_rows.h"
#include "core/exec/cpu/elementwise.h"
#include "core/exec/cpu/erf_rows.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/sigmoid_rows.h"
#include "core/exec/cpu/trig_rows.h"

namespace passlab::exec::cpu {

namespace {

using ir::DataType;

// Each row takes the types of the op's newest version for every version: a type
// a later version added is harmless for older ones.

// y = |x|
struct AbsOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C x) const {
    if constexpr (std::is_unsigned_v<C>) {
      return x;
    } else if constexpr (std::is_integral_v<C>) {
      // |INT_MIN| wraps to INT_MIN, as two's complement negation does.
      using U = std::make_unsigned_t<C>;
      return x < 0 ? static_cast<C>(U(0) - static_cast<U>(x)) : x;
    } else {
      return std::fabs(x);
    }
  }
};

// y = ceil(x), floor(x), round-half-to-even(x)
struct CeilOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return std::ceil(x);
  }
};
struct FloorOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return std::floor(x);
  }
};
struct RoundOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    // Halves go to the even neighbour (2.5 -> 2, -1.5 -> -2): the default
    // round-to-nearest-even mode, which the executor never changes.
    return std::nearbyint(x);
  }
};

// y = sqrt(x), 1 / x
struct SqrtOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return std::sqrt(x);
  }
};
struct ReciprocalOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return C(1) / x;
  }
};

// y = ln(x)
struct LogOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return std::log(x);
  }
  // The same within a few ulp, vectorized (activation_rows.h).
  void floatN(const float* x, float* y, int64_t n) const { logRow(x, y, n); }
};

// y = -1, 0 or 1 by the sign of x (NaN stays NaN)
struct SignOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (std::isnan(x)) return x;
    }
    if constexpr (std::is_unsigned_v<C>) {
      return x > 0 ? C(1) : C(0);
    } else {
      return x > 0 ? C(1) : (x < 0 ? C(-1) : C(0));
    }
  }
};

// y = erf(x)
struct ErfOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C x) const {
    if constexpr (std::is_integral_v<C>) {
      // Integer inputs (allowed by the schema) give erf rounded to -1, 0 or 1.
      return static_cast<C>(std::round(std::erf(static_cast<double>(x))));
    } else {
      return std::erf(x);
    }
  }
  // float32 on the vectorized rows of erf_rows.h (within 8 ulp of erf).
  void floatN(const float* x, float* y, int64_t n) const { erfRow(x, y, n); }
};

// Trigonometric and hyperbolic functions and their inverses.
#define PASSLAB_FLOAT_UNARY(Name, expr)               \
  struct Name {                                       \
    static constexpr TypeSet kTypes = types::kFloats; \
    template <class C>                                \
    C operator()(C x) const {                         \
      return expr;                                    \
    }                                                 \
  };
// Sin and Cos: float32 on the vectorized rows of trig_rows.h.
struct SinOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return std::sin(x);
  }
  void floatN(const float* x, float* y, int64_t n) const { sinRow(x, y, n); }
};
struct CosOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return std::cos(x);
  }
  void floatN(const float* x, float* y, int64_t n) const { cosRow(x, y, n); }
};
PASSLAB_FLOAT_UNARY(TanOp, std::tan(x))
PASSLAB_FLOAT_UNARY(AsinOp, std::asin(x))
PASSLAB_FLOAT_UNARY(AcosOp, std::acos(x))
PASSLAB_FLOAT_UNARY(AtanOp, std::atan(x))
PASSLAB_FLOAT_UNARY(SinhOp, std::sinh(x))
PASSLAB_FLOAT_UNARY(CoshOp, std::cosh(x))
PASSLAB_FLOAT_UNARY(AsinhOp, std::asinh(x))
PASSLAB_FLOAT_UNARY(AcoshOp, std::acosh(x))
PASSLAB_FLOAT_UNARY(AtanhOp, std::atanh(x))
// y = tanh(x); float32 on the vectorized rows of sigmoid_rows.h (within 2
// ulp of std::tanh, which the other types and the scalar form use).
struct TanhOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C x) const {
    return std::tanh(x);
  }
  void floatN(const float* x, float* y, int64_t n) const { tanhRow(x, y, n); }
};
#undef PASSLAB_FLOAT_UNARY

// y = isnan(x)
struct IsNaNOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  bool operator()(C x) const {
    return std::isnan(x);
  }
};

// y = isinf(x), restricted to one sign by detect_negative / detect_positive
struct IsInfOp {
  static constexpr TypeSet kTypes = types::kFloats;
  explicit IsInfOp(const KernelBuild& b)
      : negative(b.node().attrInt("detect_negative", 1) != 0),
        positive(b.node().attrInt("detect_positive", 1) != 0) {}
  template <class C>
  bool operator()(C x) const {
    return std::isinf(x) && (x > 0 ? positive : negative);
  }
  bool negative, positive;
};

const KernelDef kRows[] = {
    unaryRow<AbsOp>("Abs", 1, kOpsetMax, "cpu.Abs"),
    unaryRow<CeilOp>("Ceil", 1, kOpsetMax, "cpu.Ceil"),
    unaryRow<FloorOp>("Floor", 1, kOpsetMax, "cpu.Floor"),
    unaryRow<RoundOp>("Round", 11, kOpsetMax, "cpu.Round"),
    unaryRow<SqrtOp>("Sqrt", 1, kOpsetMax, "cpu.Sqrt"),
    unaryRow<ReciprocalOp>("Reciprocal", 1, kOpsetMax, "cpu.Reciprocal"),
    unaryRow<LogOp>("Log", 1, kOpsetMax, "cpu.Log"),
    unaryRow<SignOp>("Sign", 9, kOpsetMax, "cpu.Sign"),
    unaryRow<ErfOp>("Erf", 9, kOpsetMax, "cpu.Erf"),
    unaryRow<SinOp>("Sin", 7, kOpsetMax, "cpu.Sin"),
    unaryRow<CosOp>("Cos", 7, kOpsetMax, "cpu.Cos"),
    unaryRow<TanOp>("Tan", 7, kOpsetMax, "cpu.Tan"),
    unaryRow<AsinOp>("Asin", 7, kOpsetMax, "cpu.Asin"),
    unaryRow<AcosOp>("Acos", 7, kOpsetMax, "cpu.Acos"),
    unaryRow<AtanOp>("Atan", 7, kOpsetMax, "cpu.Atan"),
    unaryRow<SinhOp>("Sinh", 9, kOpsetMax, "cpu.Sinh"),
    unaryRow<CoshOp>("Cosh", 9, kOpsetMax, "cpu.Cosh"),
    unaryRow<AsinhOp>("Asinh", 9, kOpsetMax, "cpu.Asinh"),
    unaryRow<AcoshOp>("Acosh", 9, kOpsetMax, "cpu.Acosh"),
    unaryRow<AtanhOp>("Atanh", 9, kOpsetMax, "cpu.Atanh"),
    unaryRow<TanhOp>("Tanh", 1, kOpsetMax, "cpu.Tanh"),
    unaryRow<IsNaNOp>("IsNaN", 9, kOpsetMax, "cpu.IsNaN"),
    unaryRow<IsInfOp>("IsInf", 10, kOpsetMax, "cpu.IsInf"),
};

}  // namespace

std::span<const KernelDef> unaryMathKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
