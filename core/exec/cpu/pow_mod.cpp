// Pow (base and exponent of different types from opset 12; the result has the
// base's type) and Mod (integer modulo with the divisor's sign, or C fmod).
#include <cmath>
#include <type_traits>

#include "core/exec/cpu/binary_legacy.h"
#include "core/exec/cpu/families.h"

namespace passlab::exec::cpu {

namespace {

// Integer x^n for n >= 0 by squaring (wrapping like repeated multiplication).
template <class C>
C intPow(C x, uint64_t n) {
  using U = std::conditional_t<std::is_signed_v<C>, int64_t, uint64_t>;
  U r = 1, b = static_cast<U>(x);
  while (n) {
    if (n & 1) r = static_cast<U>(static_cast<uint64_t>(r) * static_cast<uint64_t>(b));
    b = static_cast<U>(static_cast<uint64_t>(b) * static_cast<uint64_t>(b));
    n >>= 1;
  }
  return static_cast<C>(r);
}

// x^y for a base of compute type C and an exponent of compute type E.
template <class C, class E>
C power(C x, E y) {
  if constexpr (std::is_integral_v<C> && std::is_integral_v<E>) {
    if constexpr (std::is_signed_v<E>) {
      if (y < 0) return static_cast<C>(std::pow(static_cast<double>(x), static_cast<double>(y)));
    }
    return intPow(x, static_cast<uint64_t>(y));
  } else if constexpr (std::is_integral_v<C>) {
    // An integer base with a float exponent: computed in double, truncated.
    return static_cast<C>(std::pow(static_cast<double>(x), static_cast<double>(y)));
  } else if constexpr (std::is_same_v<E, double> && !std::is_same_v<C, double>) {
    return static_cast<C>(std::pow(static_cast<double>(x), y));
  } else {
    return std::pow(x, static_cast<C>(y));
  }
}

// Base types of Pow-15 and exponent types; bool is neither.
constexpr TypeSet kPowBaseTypes = types::kFloats | types::kInts;
constexpr TypeSet kPowExpTypes = types::kNumeric;

class Pow final : public Kernel {
 public:
  explicit Pow(const KernelBuild& b) : rule_(b) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    PASSLAB_ASSIGN_OR_RETURN(Tensor y, rule_.operand(x, ctx.input(1)));
    PASSLAB_ASSIGN_OR_RETURN(Dims dims, broadcastShapes(x.dims(), y.dims()));
    return dispatch<kPowBaseTypes>(x.dtype(), [&](auto xt) -> Status {
      using S = typename decltype(xt)::type;
      return dispatch<kPowExpTypes>(y.dtype(), [&](auto yt) -> Status {
        using T = typename decltype(yt)::type;
        PASSLAB_ASSIGN_OR_RETURN(Tensor * z, ctx.allocate(0, x.dtype(), dims));
        if (y.numel() == 1 && fastScalar<S>(x, load(y.data<T>()[0]), *z, ctx.threads()))
          return Status::ok();
        loop<S, T>(x, y, *z, ctx.threads());
        return Status::ok();
      });
    });
  }

 private:
  // x^c for the common constant exponents of float models (2, 0.5, ...); false
  // when c is not one of them.
  template <class S, class E>
  static bool fastScalar(const Tensor& x, E c, Tensor& z, int threads) {
    using C = ComputeT<S>;
    if constexpr (!std::is_floating_point_v<C>) {
      return false;
    } else {
      if (z.numel() != x.numel()) return false;
      const double e = static_cast<double>(c);
      if (e != 2.0 && e != 3.0 && e != 1.0 && e != 0.5) return false;
      const S* in = x.data<S>();
      S* out = z.mutableData<S>();
      parallelFor(x.numel(), threads, kElementwiseGrain, [&](int64_t b, int64_t end) {
        for (int64_t i = b; i < end; ++i) {
          C v = load(in[i]);
          // sqrt differs from pow(v, 0.5) only at -inf (pow gives +inf).
          C r = e == 2.0        ? v * v
                : e == 3.0      ? v * v * v
                : e == 1.0      ? v
                : std::isinf(v) ? std::fabs(v)
                                : std::sqrt(v);
          out[i] = store<S>(r);
        }
      });
      return true;
    }
  }

  template <class S, class T>
  static void loop(const Tensor& x, const Tensor& y, Tensor& z, int threads) {
    const S* px = x.data<S>();
    const T* py = y.data<T>();
    S* pz = z.mutableData<S>();
    BroadcastWalker<2> walker(z.dims(), {&x.dims(), &y.dims()});
    parallelFor(walker.total(), threads, kElementwiseGrain, [&](int64_t begin, int64_t end) {
      walker.walk(begin, end,
                  [&](int64_t o, const std::array<int64_t, 2>& off, int64_t n,
                      const std::array<int64_t, 2>& st) {
                    const S* a = px + off[0];
                    const T* b = py + off[1];
                    for (int64_t i = 0; i < n; ++i)
                      pz[o + i] = store<S>(power(load(a[i * st[0]]), load(b[i * st[1]])));
                  });
    });
  }

  LegacyBroadcast rule_;
};

// c = a mod b: with fmod=0 the result takes the divisor's sign (Python's %),
// with fmod=1 the dividend's (C fmod). An integer division by zero gives 0.
struct ModOp {
  static constexpr TypeSet kTypes = types::kNumeric;
  explicit ModOp(const KernelBuild& b) : fmod(b.node().attrInt("fmod", 0) != 0) {}
  static Status check(const KernelBuild& b) {
    int64_t f = b.node().attrInt("fmod", 0);
    if (f != 0 && f != 1) return invalidArgument("fmod must be 0 or 1, got " + std::to_string(f));
    return Status::ok();
  }
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) {
      if (b == 0) return C(0);
      if constexpr (std::is_signed_v<C>) {
        if (b == -1) return C(0);  // INT_MIN % -1 traps in C++
        C r = static_cast<C>(a % b);
        if (!fmod && r != 0 && ((r < 0) != (b < 0))) r = static_cast<C>(r + b);
        return r;
      } else {
        return static_cast<C>(a % b);
      }
    } else {
      C r = std::fmod(a, b);
      if (!fmod && r != C(0) && ((r < C(0)) != (b < C(0)))) r += b;
      return r;
    }
  }
  bool fmod;
};

const KernelDef kRows[] = {
    // Both loops read element i of X and of an exponent of Z's size (which
    // then has Z's width) before writing element i of Z: in place (kInPlace).
    {"", "Pow", 1, kOpsetMax, kPowBaseTypes, 0, Tier::kReference, "cpu.Pow", makeKernel<Pow>,
     kInPlace},
    legacyBinaryRow<ModOp>("Mod", 10, kOpsetMax, "cpu.Mod"),
};

}  // namespace

std::span<const KernelDef> powModKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
