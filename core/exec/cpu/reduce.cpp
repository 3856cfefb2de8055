// The Reduce* family: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd,
// ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp, ReduceSumSquare.
//
// Axes come from the `axes` attribute before the version that made them an
// input (13 for ReduceSum, 18 for the others). No axes reduce everything,
// unless noop_with_empty_axes is set: then no axis is reduced but the
// elementwise part still applies (ReduceSumSquare squares, ReduceL1 takes |x|).
// An empty reduction gives the op's identity (0 for sums, 1 for products,
// -inf for ReduceMax and ReduceLogSum, NaN for ReduceMean).
//
// Each op is an accumulator: `pre` maps an element into the accumulation type
// (double for floats, 64-bit for integers), `add` combines, `finish` gives the
// result. Loops are specialized for reductions over one block of axes
// (contiguous or strided by a contiguous inner block) and parallel over output
// elements. float32 sums, means, L1, L2, sums of squares, log sums, maxima
// and minima over one block run on vector rows (reduce_rows.h; `kRow` names
// the row operation): still summed in double, in another order.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/reduce_plan.h"
#include "core/exec/cpu/reduce_rows.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// The accumulation type for storage type S.
template <class S>
using AccT = std::conditional_t<
    std::is_floating_point_v<ComputeT<S>>, double,
    std::conditional_t<std::is_same_v<S, bool>, bool,
                       std::conditional_t<std::is_signed_v<S>, int64_t, uint64_t>>>;

template <class A>
constexpr bool kIsFloat = std::is_floating_point_v<A>;

struct SumOp {
  static constexpr RowOp kRow = RowOp::kSum;
  template <class A>
  static A init() {
    return A(0);
  }
  template <class A>
  static A pre(A x) {
    return x;
  }
  template <class A>
  static A add(A a, A b) {
    return a + b;
  }
  template <class A>
  static A finish(A a, int64_t) {
    return a;
  }
};
struct SumSquareOp : SumOp {
  static constexpr RowOp kRow = RowOp::kSumSquare;
  template <class A>
  static A pre(A x) {
    return x * x;
  }
};
struct L1Op : SumOp {
  static constexpr RowOp kRow = RowOp::kAbsSum;
  template <class A>
  static A pre(A x) {
    if constexpr (std::is_unsigned_v<A>) {
      return x;
    } else {
      return x < A(0) ? A(0) - x : x;
    }
  }
};
struct L2Op : SumSquareOp {
  template <class A>
  static A finish(A a, int64_t) {
    return static_cast<A>(std::sqrt(static_cast<double>(a)));
  }
};
struct MeanOp : SumOp {
  template <class A>
  static A finish(A a, int64_t n) {
    if constexpr (kIsFloat<A>) {
      return a / static_cast<A>(n);  // 0 / 0 = NaN for an empty reduction
    } else {
      return n == 0 ? A(0) : static_cast<A>(a / static_cast<A>(n));
    }
  }
};
struct LogSumOp : SumOp {
  template <class A>
  static A finish(A a, int64_t) {
    return static_cast<A>(std::log(static_cast<double>(a)));
  }
};
struct ProdOp {
  static constexpr RowOp kRow = RowOp::kNone;
  template <class A>
  static A init() {
    return A(1);
  }
  template <class A>
  static A pre(A x) {
    return x;
  }
  template <class A>
  static A add(A a, A b) {
    return a * b;
  }
  template <class A>
  static A finish(A a, int64_t) {
    return a;
  }
};
// Max and Min propagate NaN (as numpy's max).
template <bool kMax>
struct ExtremeOp {
  static constexpr RowOp kRow = kMax ? RowOp::kMax : RowOp::kMin;
  template <class A>
  static A init() {
    if constexpr (std::is_same_v<A, bool>) {
      return !kMax;
    } else if constexpr (kIsFloat<A>) {
      return kMax ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::infinity();
    } else {
      return kMax ? std::numeric_limits<A>::lowest() : std::numeric_limits<A>::max();
    }
  }
  template <class A>
  static A pre(A x) {
    return x;
  }
  template <class A>
  static A add(A a, A b) {
    if constexpr (kIsFloat<A>) {
      if (b != b) return b;
    }
    return (kMax ? b > a : b < a) ? b : a;
  }
  template <class A>
  static A finish(A a, int64_t) {
    return a;
  }
};

// The storage-to-accumulator conversion; bool and 64-bit types pass through.
template <class S>
AccT<S> toAcc(S v) {
  return static_cast<AccT<S>>(load(v));
}
template <class S, class A>
S fromAcc(A a) {
  if constexpr (std::is_same_v<S, bool>) {
    return a;
  } else {
    return store<S>(static_cast<ComputeT<S>>(a));
  }
}

// float32 reductions over one block of axes on vector rows (reduce_rows.h):
// contiguous rows reduce whole, strided ones add rows of up to kBlock inner
// elements into accumulators (double for sums, float for extremes). put(o, r)
// takes output o's accumulated value.
template <RowOp Op, class Put>
void reduceFloatBlock(const float* x, const ReducePlan& p, int threads, Put put) {
  const int64_t R = p.reducedCount;
  if (p.inner == 1) {
    parallelFor(p.outer, threads, std::max<int64_t>(1, kElementwiseGrain / (R + 1)),
                [&](int64_t b, int64_t e) {
                  for (int64_t o = b; o < e; ++o) put(o, reduceRowF32(Op, x + o * R, R));
                });
    return;
  }
  constexpr int64_t kBlock = 256;
  constexpr bool kExtreme = Op == RowOp::kMax || Op == RowOp::kMin;
  using Acc = std::conditional_t<kExtreme, float, double>;
  const Acc init = kExtreme ? static_cast<Acc>(reduceRowF32(Op, nullptr, 0)) : Acc(0);
  const int64_t I = p.inner;
  const int64_t blocks = (I + kBlock - 1) / kBlock;
  parallelFor(p.outer * blocks, threads,
              std::max<int64_t>(1, kElementwiseGrain / (R * std::min(I, kBlock) + 1)),
              [&](int64_t b, int64_t e) {
                Acc acc[kBlock];
                for (int64_t w = b; w < e; ++w) {
                  const int64_t o = w / blocks;
                  const int64_t i0 = (w % blocks) * kBlock;
                  const int64_t n = std::min(kBlock, I - i0);
                  std::fill(acc, acc + n, init);
                  if constexpr (kExtreme) {
                    for (int64_t r = 0; r < R; ++r)
                      extremeRowF32(Op, x + (o * R + r) * I + i0, acc, n);
                  } else {
                    addRowsF32(Op, x + o * R * I + i0, R, I, acc, n);
                  }
                  for (int64_t i = 0; i < n; ++i) put(o * I + i0 + i, static_cast<double>(acc[i]));
                }
              });
}

// Reduces x into y by the plan; `shift`, when given, is subtracted from every
// element before `pre` (per output element; ReduceLogSumExp's running max) and
// the element exponentiated.
template <class Op, class S, bool kExpShift>
void reduceInto(const S* x, S* y, const ReducePlan& p, const double* shift, int threads,
                double* accOut = nullptr) {
  using A = AccT<S>;
  auto elem = [&](S v, int64_t o) -> A {
    if constexpr (kExpShift) {
      return static_cast<A>(std::exp(static_cast<double>(load(v)) - shift[o]));
    } else {
      return Op::template pre<A>(toAcc(v));
    }
  };
  auto put = [&](int64_t o, A acc) {
    A r = Op::template finish<A>(acc, p.reducedCount);
    if (accOut) {
      accOut[o] = static_cast<double>(r);
    } else {
      y[o] = fromAcc<S>(r);
    }
  };
  if constexpr (std::is_same_v<S, float> && !kExpShift && Op::kRow != RowOp::kNone) {
    if (p.block) return reduceFloatBlock<Op::kRow>(x, p, threads, put);
  }
  const int64_t R = p.reducedCount;
  if (p.block && p.inner == 1) {
    // Contiguous rows of R elements.
    parallelFor(p.outer, threads, std::max<int64_t>(1, kElementwiseGrain / (R + 1)),
                [&](int64_t b, int64_t e) {
                  for (int64_t o = b; o < e; ++o) {
                    const S* row = x + o * R;
                    A acc = Op::template init<A>();
                    for (int64_t r = 0; r < R; ++r) acc = Op::template add<A>(acc, elem(row[r], o));
                    put(o, acc);
                  }
                });
    return;
  }
  if (p.block) {
    // [outer, R, inner]: accumulate rows of up to kBlock inner elements at a time.
    constexpr int64_t kBlock = 256;
    const int64_t I = p.inner;
    const int64_t blocks = (I + kBlock - 1) / kBlock;
    parallelFor(p.outer * blocks, threads,
                std::max<int64_t>(1, kElementwiseGrain / (R * std::min(I, kBlock) + 1)),
                [&](int64_t b, int64_t e) {
                  A acc[kBlock];
                  for (int64_t w = b; w < e; ++w) {
                    const int64_t o = w / blocks;
                    const int64_t i0 = (w % blocks) * kBlock;
                    const int64_t n = std::min(kBlock, I - i0);
                    for (int64_t i = 0; i < n; ++i) acc[i] = Op::template init<A>();
                    for (int64_t r = 0; r < R; ++r) {
                      const S* row = x + (o * R + r) * I + i0;
                      for (int64_t i = 0; i < n; ++i)
                        acc[i] = Op::template add<A>(acc[i], elem(row[i], o * I + i0 + i));
                    }
                    for (int64_t i = 0; i < n; ++i) put(o * I + i0 + i, acc[i]);
                  }
                });
    return;
  }
  // General: listed offsets of the reduced elements.
  const int64_t* offs = p.reducedOffsets.data();
  parallelFor(p.outCount, threads, std::max<int64_t>(1, kElementwiseGrain / (R + 1)),
              [&](int64_t b, int64_t e) {
                for (int64_t o = b; o < e; ++o) {
                  const S* base = x + p.baseOffset(o);
                  A acc = Op::template init<A>();
                  for (int64_t r = 0; r < R; ++r)
                    acc = Op::template add<A>(acc, elem(base[offs[r]], o));
                  put(o, acc);
                }
              });
}

// Which ops take axes as an input from which opset, and which types they take.
enum class Kind { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kLogSum, kLogSumExp, kSumSquare };

template <Kind K>
class Reduce final : public Kernel {
 public:
  static constexpr TypeSet kTypes =
      (K == Kind::kMax || K == Kind::kMin) ? (types::kNumeric | types::kBool) : types::kNumeric;

  explicit Reduce(const KernelBuild& b)
      : axesFromInput_(b.opset() >= (K == Kind::kSum ? 13 : 18)),
        attrAxes_(b.node().attrInts("axes")),
        keepDims_(b.node().attrInt("keepdims", 1) != 0),
        noop_(b.node().attrInt("noop_with_empty_axes", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    std::vector<int64_t> axes = attrAxes_;
    if (axesFromInput_ && ctx.has(1)) {
      const Tensor& a = ctx.input(1);
      if (a.rank() > 1) return invalidArgument("axes must be 1-D, got " + a.describe());
      PASSLAB_ASSIGN_OR_RETURN(axes, readInts(a, "axes"));
    }
    const auto rank = static_cast<int64_t>(x.rank());
    std::vector<bool> flags;
    if (axes.empty()) {
      flags.assign(static_cast<size_t>(rank), !noop_);
    } else {
      PASSLAB_ASSIGN_OR_RETURN(flags, reducedAxes(axes, rank));
    }
    ReducePlan plan = planReduction(x.dims(), flags, keepDims_);
    return dispatch<kTypes>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), plan.outDims));
      return compute<S>(ctx, x.data<S>(), y->mutableData<S>(), plan);
    });
  }

 private:
  template <class S>
  Status compute(KernelContext& ctx, const S* x, S* y, const ReducePlan& plan) {
    const int t = ctx.threads();
    if constexpr (K == Kind::kSum) reduceInto<SumOp, S, false>(x, y, plan, nullptr, t);
    if constexpr (K == Kind::kMean) reduceInto<MeanOp, S, false>(x, y, plan, nullptr, t);
    if constexpr (K == Kind::kMax) reduceInto<ExtremeOp<true>, S, false>(x, y, plan, nullptr, t);
    if constexpr (K == Kind::kMin) reduceInto<ExtremeOp<false>, S, false>(x, y, plan, nullptr, t);
    if constexpr (K == Kind::kProd) reduceInto<ProdOp, S, false>(x, y, plan, nullptr, t);
    if constexpr (K == Kind::kL1) reduceInto<L1Op, S, false>(x, y, plan, nullptr, t);
    if constexpr (K == Kind::kL2) reduceInto<L2Op, S, false>(x, y, plan, nullptr, t);
    if constexpr (K == Kind::kLogSum) reduceInto<LogSumOp, S, false>(x, y, plan, nullptr, t);
    if constexpr (K == Kind::kSumSquare) reduceInto<SumSquareOp, S, false>(x, y, plan, nullptr, t);
    if constexpr (K == Kind::kLogSumExp) {
      // log(sum(exp(x - m))) + m with m the largest finite element (0 when none).
      PASSLAB_ASSIGN_OR_RETURN(Tensor m, ctx.scratch(ir::DataType::kDouble, {plan.outCount}));
      double* shift = m.mutableData<double>();
      reduceInto<FiniteMaxOp, S, false>(x, nullptr, plan, nullptr, t, shift);
      for (int64_t o = 0; o < plan.outCount; ++o)
        if (!std::isfinite(shift[o])) shift[o] = 0;
      PASSLAB_ASSIGN_OR_RETURN(Tensor sums, ctx.scratch(ir::DataType::kDouble, {plan.outCount}));
      double* s = sums.mutableData<double>();
      reduceInto<SumOp, S, true>(x, nullptr, plan, shift, t, s);
      for (int64_t o = 0; o < plan.outCount; ++o)
        y[o] = fromAcc<S>(static_cast<AccT<S>>(std::log(s[o]) + shift[o]));
    }
    return Status::ok();
  }

  // The largest finite element (infinities skipped), for ReduceLogSumExp's shift.
  struct FiniteMaxOp : ExtremeOp<true> {
    static constexpr RowOp kRow = RowOp::kNone;  // skips infinities: no vector row
    template <class A>
    static A add(A a, A b) {
      if constexpr (kIsFloat<A>) {
        if (!std::isfinite(b)) return a;
      }
      return b > a ? b : a;
    }
  };

  bool axesFromInput_;
  std::vector<int64_t> attrAxes_;
  bool keepDims_, noop_;
};

const KernelDef kRows[] = {
    {"", "ReduceSum", 1, kOpsetMax, Reduce<Kind::kSum>::kTypes, 0, Tier::kReference,
     "cpu.ReduceSum", makeKernel<Reduce<Kind::kSum>>},
    {"", "ReduceMean", 1, kOpsetMax, Reduce<Kind::kMean>::kTypes, 0, Tier::kReference,
     "cpu.ReduceMean", makeKernel<Reduce<Kind::kMean>>},
    {"", "ReduceMax", 1, kOpsetMax, Reduce<Kind::kMax>::kTypes, 0, Tier::kReference,
     "cpu.ReduceMax", makeKernel<Reduce<Kind::kMax>>},
    {"", "ReduceMin", 1, kOpsetMax, Reduce<Kind::kMin>::kTypes, 0, Tier::kReference,
     "cpu.ReduceMin", makeKernel<Reduce<Kind::kMin>>},
    {"", "ReduceProd", 1, kOpsetMax, Reduce<Kind::kProd>::kTypes, 0, Tier::kReference,
     "cpu.ReduceProd", makeKernel<Reduce<Kind::kProd>>},
    {"", "ReduceL1", 1, kOpsetMax, Reduce<Kind::kL1>::kTypes, 0, Tier::kReference, "cpu.ReduceL1",
     makeKernel<Reduce<Kind::kL1>>},
    {"", "ReduceL2", 1, kOpsetMax, Reduce<Kind::kL2>::kTypes, 0, Tier::kReference, "cpu.ReduceL2",
     makeKernel<Reduce<Kind::kL2>>},
    {"", "ReduceLogSum", 1, kOpsetMax, Reduce<Kind::kLogSum>::kTypes, 0, Tier::kReference,
     "cpu.ReduceLogSum", makeKernel<Reduce<Kind::kLogSum>>},
    {"", "ReduceLogSumExp", 1, kOpsetMax, Reduce<Kind::kLogSumExp>::kTypes, 0, Tier::kReference,
     "cpu.ReduceLogSumExp", makeKernel<Reduce<Kind::kLogSumExp>>},
    {"", "ReduceSumSquare", 1, kOpsetMax, Reduce<Kind::kSumSquare>::kTypes, 0, Tier::kReference,
     "cpu.ReduceSumSquare", makeKernel<Reduce<Kind::kSumSquare>>},
};

}  // namespace

std::span<const KernelDef> reduceKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
