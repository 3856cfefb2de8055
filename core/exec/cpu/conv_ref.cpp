// Reference Conv and ConvTranspose: direct loops over every output element,
// 1 to 3 spatial dims, groups, dilations, pads; float types computed in the
// compute type. Slow and plain, for tests and for types oneDNN lacks.
#include <array>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/conv_ref.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/window3.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

Status checkSpatial(const ConvGeometry& g) {
  if (g.spatial() > 3)
    return unsupported("convolutions with more than 3 spatial dims are not supported");
  return Status::ok();
}

// The typed operands of one call.
template <class S>
struct Operands {
  const S* X;
  const S* W;
  const S* B;  // nullptr: no bias
  S* Y;
};

// Output element (n, m, o) of Conv: the sum over the group's input channels
// and the kernel taps that fall inside the input.
template <class S>
ComputeT<S> directSum(const ConvGeometry& g, const Window3& q, const Operands<S>& op, int64_t n,
                      int64_t m, const std::array<int64_t, 3>& o) {
  using C = ComputeT<S>;
  const int64_t cg = g.C / g.group, grp = m / (g.M / g.group);
  C acc = op.B ? load(op.B[m]) : C(0);
  for (int64_t c = 0; c < cg; ++c) {
    const S* xIn = op.X + (n * g.C + grp * cg + c) * q.inSize();
    const S* wK = op.W + (m * cg + c) * q.kSize();
    for (int64_t k0 = 0; k0 < q.k[0]; ++k0) {
      int64_t i0 = o[0] * q.s[0] - q.pb[0] + k0 * q.d[0];
      if (i0 < 0 || i0 >= q.in[0]) continue;
      for (int64_t k1 = 0; k1 < q.k[1]; ++k1) {
        int64_t i1 = o[1] * q.s[1] - q.pb[1] + k1 * q.d[1];
        if (i1 < 0 || i1 >= q.in[1]) continue;
        for (int64_t k2 = 0; k2 < q.k[2]; ++k2) {
          int64_t i2 = o[2] * q.s[2] - q.pb[2] + k2 * q.d[2];
          if (i2 < 0 || i2 >= q.in[2]) continue;
          acc += load(xIn[(i0 * q.in[1] + i1) * q.in[2] + i2]) *
                 load(wK[(k0 * q.k[1] + k1) * q.k[2] + k2]);
        }
      }
    }
  }
  return acc;
}

// The input position that tap k of a ConvTranspose carries to output o
// (i * s - p + k * d == o), or -1.
int64_t transposedSource(int64_t o, int64_t k, int64_t s, int64_t p, int64_t d, int64_t n) {
  int64_t t = o + p - k * d;
  if (t < 0 || t % s != 0) return -1;
  t /= s;
  return t < n ? t : -1;
}

// Output element (n, m, o) of ConvTranspose, in gather form: y[o] sums
// x[i] * w[k] over i * s - p + k * d == o.
template <class S>
ComputeT<S> transposedSum(const ConvGeometry& g, const Window3& q, const Operands<S>& op, int64_t n,
                          int64_t m, const std::array<int64_t, 3>& o) {
  using C = ComputeT<S>;
  const int64_t cg = g.C / g.group, mg = g.M / g.group, grp = m / mg, ml = m % mg;
  C acc = op.B ? load(op.B[m]) : C(0);
  for (int64_t k0 = 0; k0 < q.k[0]; ++k0) {
    int64_t i0 = transposedSource(o[0], k0, q.s[0], q.pb[0], q.d[0], q.in[0]);
    if (i0 < 0) continue;
    for (int64_t k1 = 0; k1 < q.k[1]; ++k1) {
      int64_t i1 = transposedSource(o[1], k1, q.s[1], q.pb[1], q.d[1], q.in[1]);
      if (i1 < 0) continue;
      for (int64_t k2 = 0; k2 < q.k[2]; ++k2) {
        int64_t i2 = transposedSource(o[2], k2, q.s[2], q.pb[2], q.d[2], q.in[2]);
        if (i2 < 0) continue;
        int64_t xi = (i0 * q.in[1] + i1) * q.in[2] + i2;
        int64_t wi = (k0 * q.k[1] + k1) * q.k[2] + k2;
        for (int64_t c = 0; c < cg; ++c) {
          int64_t ci = grp * cg + c;
          acc += load(op.X[(n * g.C + ci) * q.inSize() + xi]) *
                 load(op.W[(ci * mg + ml) * q.kSize() + wi]);
        }
      }
    }
  }
  return acc;
}

// Conv (kTransposed false) or ConvTranspose: one output plane (n, m) a task.
template <bool kTransposed>
class ConvRef final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto a = parseConvAttrs(b.node());
    if (!a) return a.error();
    return std::unique_ptr<Kernel>(new ConvRef(*a));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Tensor* bias = ctx.has(2) ? &ctx.input(2) : nullptr;
    if (w.dtype() != x.dtype() || (bias && bias->dtype() != x.dtype()))
      return invalidArgument("X, W and B must have one element type");
    PASSLAB_ASSIGN_OR_RETURN(ConvGeometry g, kTransposed
                                                 ? convTransposeGeometry(attrs_, x.dims(), w.dims())
                                                 : convGeometry(attrs_, x.dims(), w.dims()));
    PASSLAB_RETURN_IF_ERROR(checkSpatial(g));
    if (bias && bias->numel() != g.M)
      return invalidArgument("B has " + std::to_string(bias->numel()) + " elements, expected " +
                             std::to_string(g.M));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), g.outDims));
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      const Operands<S> op{x.data<S>(), w.data<S>(), bias ? bias->data<S>() : nullptr,
                           y->mutableData<S>()};
      const Window3 q(g);
      parallelFor(g.N * g.M, ctx.threads(), 1, [&](int64_t begin, int64_t end) {
        for (int64_t nm = begin; nm < end; ++nm) computePlane(g, q, op, nm);
      });
      return Status::ok();
    });
  }

 private:
  explicit ConvRef(ConvAttrs a) : attrs_(std::move(a)) {}

  template <class S>
  static void computePlane(const ConvGeometry& g, const Window3& q, const Operands<S>& op,
                           int64_t nm) {
    const int64_t n = nm / g.M, m = nm % g.M;
    S* yOut = op.Y + nm * q.outSize();
    std::array<int64_t, 3> o{};
    for (o[0] = 0; o[0] < q.out[0]; ++o[0])
      for (o[1] = 0; o[1] < q.out[1]; ++o[1])
        for (o[2] = 0; o[2] < q.out[2]; ++o[2]) {
          const auto acc =
              kTransposed ? transposedSum(g, q, op, n, m, o) : directSum(g, q, op, n, m, o);
          yOut[(o[0] * q.out[1] + o[1]) * q.out[2] + o[2]] = store<S>(acc);
        }
  }

  ConvAttrs attrs_;
};

using DirectConvRef = ConvRef<false>;
using ConvTransposeRef = ConvRef<true>;

const KernelDef kRows[] = {
    {"", "Conv", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.ref.Conv",
     makeKernel<DirectConvRef>},
    {"", "ConvTranspose", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.ref.ConvTranspose", makeKernel<ConvTransposeRef>},
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeConvRef(const KernelBuild& b) {
  return makeKernel<DirectConvRef>(b);
}
Expected<std::unique_ptr<Kernel>> makeConvTransposeRef(const KernelBuild& b) {
  return makeKernel<ConvTransposeRef>(b);
}

std::span<const KernelDef> convRefKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
