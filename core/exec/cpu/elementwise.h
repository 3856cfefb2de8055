// Generic elementwise kernels: one loop per arity, parameterized by an op
// functor. Adding an elementwise operator is a functor and a table row:
//
//   // y = max(x, 0)
//   struct ReluOp {
//     static constexpr TypeSet kTypes = types::kSignedNumeric;
//     template <class C> C operator()(C x) const { return x > C(0) ? x : C(0); }
//   };
//   unaryRow<ReluOp>("Relu", 14, kOpsetMax, "cpu.Relu"),
//
// Functors compute in ComputeT<S> (float for float16/bfloat16). A functor
// returning bool gives a bool output (comparisons, IsNaN). A functor with
// attributes has a constructor taking `const KernelBuild&`. A functor may add
// `void floatN(const float* x, float* y, int64_t n) const`, the same results
// for float32 in a vector loop.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/half_convert.h"
#include "core/exec/cpu/vector_rows.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

// float16 elements converted a block at a time.
inline constexpr int64_t kHalfBlock = 256;

template <class Op>
Op makeOp(const KernelBuild& b) {
  if constexpr (std::is_constructible_v<Op, const KernelBuild&>) {
    return Op(b);
  } else {
    return Op();
  }
}

// The output storage type for a functor result R on input storage S.
template <class S, class R>
using OutStorage = std::conditional_t<std::is_same_v<R, bool>, bool, S>;

template <class Out, class R>
inline Out storeOut(R r) {
  if constexpr (std::is_same_v<Out, bool>) {
    return static_cast<bool>(r);
  } else {
    return store<Out>(r);
  }
}

// op.floatN(x, y, n), called through a template whose arguments depend on
// the storage type: clang 14 checks a member call on the (already known)
// functor even in a discarded `if constexpr` branch of a generic lambda.
template <class Op, class S, class Out>
inline void callFloatN(const Op& op, const S* x, Out* y, int64_t n) {
  op.floatN(x, y, n);
}

// y = op(x), elementwise.
template <class Op>
class UnaryKernel final : public Kernel {
 public:
  explicit UnaryKernel(const KernelBuild& b) : op_(makeOp<Op>(b)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    return dispatch<Op::kTypes>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      using Out = OutStorage<S, decltype(op_(C{}))>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dtypeOf<Out>(), x.dims()));
      const S* in = x.data<S>();
      Out* out = y->mutableData<Out>();
      if constexpr (std::is_same_v<S, Half> && std::is_same_v<Out, Half>) {
        // float16: convert blocks in bulk (F16C when present), compute in float.
        parallelFor(x.numel(), ctx.threads(), kElementwiseGrain, [&](int64_t b, int64_t e) {
          float buf[kHalfBlock];
          for (int64_t i = b; i < e; i += kHalfBlock) {
            const int64_t m = std::min<int64_t>(kHalfBlock, e - i);
            halfToFloatN(&in[i].bits, buf, m);
            for (int64_t k = 0; k < m; ++k) buf[k] = op_(buf[k]);
            floatToHalfN(buf, &out[i].bits, m);
          }
        });
        return Status::ok();
      }
      if constexpr (std::is_same_v<S, float> && std::is_same_v<Out, float> &&
                    requires(const Op& op, const float* p, float* q) { op.floatN(p, q, 0); }) {
        // A vector loop the functor provides (the compiler does not vectorize its ?:).
        parallelFor(x.numel(), ctx.threads(), kElementwiseGrain,
                    [&](int64_t b, int64_t e) { callFloatN(op_, in + b, out + b, e - b); });
        return Status::ok();
      }
      parallelFor(x.numel(), ctx.threads(), kElementwiseGrain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) out[i] = storeOut<Out>(op_(load(in[i])));
      });
      return Status::ok();
    });
  }

 private:
  Op op_;
};

// y[i] = op(a[i], b[i]) over the broadcast of a and b's dims into y's dims.
template <class S, class Out, class Op>
void binaryLoop(const Tensor& a, const Tensor& b, Tensor& y, const Op& op, int threads) {
  const S* pa = a.data<S>();
  const S* pb = b.data<S>();
  Out* py = y.mutableData<Out>();
  if constexpr (!std::is_same_v<S, Half>) {
    if (auto rows = vectorRows(y.dims(), a.dims(), b.dims())) {
      vectorRowsLoop(
          *rows, rows->full == 0 ? pa : pb, rows->full == 0 ? pb : pa, py, op, threads,
          [](S v) { return load(v); }, [](auto r) { return storeOut<Out>(r); });
      return;
    }
  }
  BroadcastWalker<2> walker(y.dims(), {&a.dims(), &b.dims()});
  if constexpr (std::is_same_v<S, Half> && std::is_same_v<Out, Half>) {
    // float16: runs converted in bulk (F16C when present), computed in float.
    parallelFor(walker.total(), threads, kElementwiseGrain, [&](int64_t begin, int64_t end) {
      float xa[kHalfBlock], xb[kHalfBlock];
      walker.walk(begin, end,
                  [&](int64_t o, const std::array<int64_t, 2>& off, int64_t n,
                      const std::array<int64_t, 2>& st) {
                    for (int64_t i = 0; i < n; i += kHalfBlock) {
                      const int64_t m = std::min<int64_t>(kHalfBlock, n - i);
                      if (st[0] == 1)
                        halfToFloatN(&pa[off[0] + i].bits, xa, m);
                      else
                        std::fill(xa, xa + m, load(pa[off[0]]));
                      if (st[1] == 1)
                        halfToFloatN(&pb[off[1] + i].bits, xb, m);
                      else
                        std::fill(xb, xb + m, load(pb[off[1]]));
                      for (int64_t k = 0; k < m; ++k) xa[k] = op(xa[k], xb[k]);
                      floatToHalfN(xa, &py[o + i].bits, m);
                    }
                  });
    });
    return;
  }
  parallelFor(walker.total(), threads, kElementwiseGrain, [&](int64_t begin, int64_t end) {
    walker.walk(begin, end,
                [&](int64_t o, const std::array<int64_t, 2>& off, int64_t n,
                    const std::array<int64_t, 2>& st) {
                  const S* x = pa + off[0];
                  const S* z = pb + off[1];
                  Out* r = py + o;
                  if (st[0] == 1 && st[1] == 1) {
                    for (int64_t i = 0; i < n; ++i)
                      r[i] = storeOut<Out>(op(load(x[i]), load(z[i])));
                  } else if (st[0] == 1) {
                    auto zv = load(z[0]);
                    for (int64_t i = 0; i < n; ++i) r[i] = storeOut<Out>(op(load(x[i]), zv));
                  } else if (st[1] == 1) {
                    auto xv = load(x[0]);
                    for (int64_t i = 0; i < n; ++i) r[i] = storeOut<Out>(op(xv, load(z[i])));
                  } else {
                    Out v = storeOut<Out>(op(load(x[0]), load(z[0])));
                    for (int64_t i = 0; i < n; ++i) r[i] = v;
                  }
                });
  });
}

// y = op(a, b) with multidirectional broadcasting; a and b have one type.
// Before opset 7 broadcasting was asked for with broadcast=1 and aligned b at
// `axis` of a; a node carrying those attributes gets that rule when numpy's
// rule fails.
template <class Op>
class BinaryKernel final : public Kernel {
 public:
  explicit BinaryKernel(const KernelBuild& b) : op_(makeOp<Op>(b)) {
    if (b.node().attrInt("broadcast", 0) != 0) legacyAxis_ = b.node().attrInt("axis", -1);
  }

  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor* bp = &ctx.input(1);
    if (a.dtype() != bp->dtype())
      return invalidArgument("inputs have different element types (" + a.describe() + " and " +
                             bp->describe() + ")");
    auto shape = broadcastShapes(a.dims(), bp->dims());
    Tensor legacy;
    if (!shape && legacyAxis_ && *legacyAxis_ >= 0 &&
        *legacyAxis_ + static_cast<int64_t>(bp->rank()) <= static_cast<int64_t>(a.rank())) {
      Dims aligned = bp->dims();
      aligned.resize(a.rank() - static_cast<size_t>(*legacyAxis_), 1);
      legacy = bp->view(aligned);
      bp = &legacy;
      shape = broadcastShapes(a.dims(), bp->dims());
    }
    if (!shape) return shape.error();
    const Tensor& b = *bp;
    Dims dims = *shape;
    return dispatch<Op::kTypes>(a.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      using Out = OutStorage<S, decltype(op_(C{}, C{}))>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dtypeOf<Out>(), dims));
      binaryLoop<S, Out>(a, b, *y, op_, ctx.threads());
      return Status::ok();
    });
  }

 private:
  Op op_;
  std::optional<int64_t> legacyAxis_;
};

// Whether a and b have bytes in common (an output written over an input's
// memory when the step runs in place, kInPlace).
inline bool sharesBytes(const Tensor& a, const Tensor& b) {
  const auto* pa = static_cast<const std::byte*>(a.raw());
  const auto* pb = static_cast<const std::byte*>(b.raw());
  return a.byteSize() > 0 && b.byteSize() > 0 && pa < pb + b.byteSize() && pb < pa + a.byteSize();
}

// y = op(...op(op(x0, x1), x2)..., xn) with broadcasting (Sum, Max, Min, Mean).
// Op may define `C finish(C acc, int count) const` (Mean divides).
template <class Op>
class VariadicKernel final : public Kernel {
 public:
  explicit VariadicKernel(const KernelBuild& b) : op_(makeOp<Op>(b)) {}

  Status run(KernelContext& ctx) override {
    std::vector<const Tensor*> xs;
    std::vector<const Dims*> shapes;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
      if (!ctx.has(i)) continue;
      xs.push_back(&ctx.input(i));
      shapes.push_back(&xs.back()->dims());
    }
    if (xs.empty()) return invalidArgument("no inputs");
    for (const Tensor* x : xs)
      if (x->dtype() != xs[0]->dtype())
        return invalidArgument("inputs have different element types (" + xs[0]->describe() +
                               " and " + x->describe() + ")");
    PASSLAB_ASSIGN_OR_RETURN(Dims dims, broadcastShapes(shapes));
    return dispatch<Op::kTypes>(xs[0]->dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, dtypeOf<S>(), dims));
      const int count = static_cast<int>(xs.size());
      // In place (kInPlace) over an input after the first two, y would be
      // written before that input is read: it is read from a copy.
      std::vector<Tensor> copies;
      copies.reserve(xs.size());
      for (size_t i = 2; i < xs.size(); ++i) {
        if (!sharesBytes(*y, *xs[i])) continue;
        PASSLAB_ASSIGN_OR_RETURN(Tensor c, ctx.scratch(xs[i]->dtype(), xs[i]->dims()));
        std::memcpy(c.mutableRaw(), xs[i]->raw(), xs[i]->byteSize());
        copies.push_back(std::move(c));
        xs[i] = &copies.back();
      }
      auto finish = [&](C v) {
        if constexpr (requires { op_.finish(v, count); }) {
          return op_.finish(v, count);
        } else {
          return v;
        }
      };
      if (count == 1) {
        binaryLoop<S, S>(
            *xs[0], *xs[0], *y, [&](C a, C) { return finish(a); }, ctx.threads());
        return Status::ok();
      }
      // The accumulator is y itself: read through a view (same storage).
      binaryLoop<S, S>(
          *xs[0], *xs[1], *y, [&](C a, C b) { return count == 2 ? finish(op_(a, b)) : op_(a, b); },
          ctx.threads());
      for (int i = 2; i < count; ++i) {
        Tensor acc = *y;
        bool last = i == count - 1;
        binaryLoop<S, S>(
            acc, *xs[static_cast<size_t>(i)], *y,
            [&](C a, C b) { return last ? finish(op_(a, b)) : op_(a, b); }, ctx.threads());
      }
      return Status::ok();
    });
  }

 private:
  Op op_;
};

// The generic UnaryKernel builds its functor with a constructor; ops whose
// attributes can be invalid check them first.
template <class Op>
class CheckedUnary final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto op = Op::make(b);
    if (!op) return op.error();
    return std::unique_ptr<Kernel>(new CheckedUnary(std::move(op.value())));
  }
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    return dispatch<Op::kTypes>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      if constexpr (std::is_same_v<S, float> &&
                    requires(const Op& op, const float* p, float* q) { op.floatN(p, q, 0); }) {
        // The functor's vector loop, as UnaryKernel takes it (Gelu's rows).
        parallelFor(x.numel(), ctx.threads(), kElementwiseGrain,
                    [&](int64_t b, int64_t e) { callFloatN(op_, in + b, out + b, e - b); });
        return Status::ok();
      }
      parallelFor(x.numel(), ctx.threads(), kElementwiseGrain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) out[i] = store<S>(op_(load(in[i])));
      });
      return Status::ok();
    });
  }

 private:
  explicit CheckedUnary(Op op) : op_(std::move(op)) {}
  Op op_;
};

// Table rows for the generic kernels (domain ai.onnx, dispatch on input 0).
// The unary and binary loops write element i after reading element i of an
// input of the output's size, so they may run in place (kInPlace); the
// variadic loop too, reading a later input it would write over from a copy.
template <class Op>
constexpr KernelDef unaryRow(std::string_view op, int since, int until, std::string_view name) {
  KernelDef row{
      "", op, since, until, Op::kTypes, 0, Tier::kReference, name, makeKernel<UnaryKernel<Op>>};
  row.flags = kInPlace;
  return row;
}
template <class Op>
constexpr KernelDef binaryRow(std::string_view op, int since, int until, std::string_view name) {
  KernelDef row{
      "", op, since, until, Op::kTypes, 0, Tier::kReference, name, makeKernel<BinaryKernel<Op>>};
  row.flags = kInPlace;
  return row;
}
template <class Op>
constexpr KernelDef variadicRow(std::string_view op, int since, int until, std::string_view name) {
  KernelDef row{
      "", op, since, until, Op::kTypes, 0, Tier::kReference, name, makeKernel<VariadicKernel<Op>>};
  row.flags = kInPlace;
  return row;
}

}  // namespace passlab::exec::cpu
