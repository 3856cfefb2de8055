// The arithmetic of Add, Sub, Mul, Div, Max, Min and Mean as functors for the
// elementwise kernels (elementwise.h, binary_legacy.h): one definition for the
// current operators (binary_ops.cpp) and their opset 1-6 versions
// (legacy_arith.cpp).
#pragma once

#include <type_traits>

#include "core/exec/dtype_traits.h"

namespace passlab::exec::cpu::arith {

// y = a + b
struct AddOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a + b);
  }
};

// y = a - b
struct SubOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a - b);
  }
};

// y = a * b
struct MulOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a * b);
  }
};

// y = a / b (integers truncate toward zero; a zero divisor gives 0 instead of
// a trap; the most negative value over -1 wraps instead of overflowing)
struct DivOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<C>) {
        if (b == -1) return static_cast<C>(0 - static_cast<std::make_unsigned_t<C>>(a));
      }
    }
    return static_cast<C>(a / b);
  }
};

// y = max(a, b) (kMax) or min(a, b) (NaN propagates, as numpy's maximum)
template <bool kMax>
struct ExtremumOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    if constexpr (kMax)
      return a < b ? b : a;
    else
      return b < a ? b : a;
  }
};
using MaxOp = ExtremumOp<true>;
using MinOp = ExtremumOp<false>;

// y = (x0 + ... + xn) / count
struct MeanOp {
  static constexpr TypeSet kTypes = types::kFloats;
  template <class C>
  C operator()(C a, C b) const {
    return a + b;
  }
  template <class C>
  C finish(C acc, int count) const {
    return acc / static_cast<C>(count);
  }
};

// An operator restricted to the float types (the opset 1-5 Sum, Max, Min).
template <class Op>
struct FloatsOnly : Op {
  static constexpr TypeSet kTypes = types::kFloats;
};

}  // namespace passlab::exec::cpu::arith
