// Reference Conv and ConvTranspose: direct loops over every output element,
// 1 to 3 spatial dims, groups, dilations, pads; float types computed in the
// compute type. Slow and plain, for tests and for types oneDNN lacks.
#include <array>

#include "core/exec/cpu/conv_geometry.h"
#include "core/exec/cpu/conv_ref.h"
#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// Spatial dims as three (leading dims 1, pads 0).
struct Geo3 {
  std::array<int64_t, 3> in{1, 1, 1}, k{1, 1, 1}, s{1, 1, 1}, d{1, 1, 1}, p{0, 0, 0}, out{1, 1, 1};
  explicit Geo3(const ConvGeometry& g) {
    size_t off = 3 - g.spatial();
    for (size_t i = 0; i < g.spatial(); ++i) {
      in[off + i] = g.in[i];
      k[off + i] = g.kernel[i];
      s[off + i] = g.stride[i];
      d[off + i] = g.dilation[i];
      p[off + i] = g.padBegin[i];
      out[off + i] = g.out[i];
    }
  }
  int64_t inSize() const { return in[0] * in[1] * in[2]; }
  int64_t kSize() const { return k[0] * k[1] * k[2]; }
  int64_t outSize() const { return out[0] * out[1] * out[2]; }
};

Status checkSpatial(const ConvGeometry& g) {
  if (g.spatial() > 3)
    return unsupported("convolutions with more than 3 spatial dims are not supported");
  return Status::ok();
}

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
    PASSLAB_ASSIGN_OR_RETURN(ConvGeometry g, convGeometry(attrs_, x.dims(), w.dims()));
    PASSLAB_RETURN_IF_ERROR(checkSpatial(g));
    if (bias && bias->numel() != g.M)
      return invalidArgument("B has " + std::to_string(bias->numel()) + " elements, expected " +
                             std::to_string(g.M));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), g.outDims));
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      Geo3 q(g);
      const S* X = x.data<S>();
      const S* W = w.data<S>();
      const S* B = bias ? bias->data<S>() : nullptr;
      S* Y = y->mutableData<S>();
      const int64_t cg = g.C / g.group, mg = g.M / g.group;
      parallelFor(g.N * g.M, ctx.threads(), 1, [&](int64_t begin, int64_t end) {
        for (int64_t nm = begin; nm < end; ++nm) {
          int64_t n = nm / g.M, m = nm % g.M, grp = m / mg;
          S* yOut = Y + nm * q.outSize();
          for (int64_t o0 = 0; o0 < q.out[0]; ++o0)
            for (int64_t o1 = 0; o1 < q.out[1]; ++o1)
              for (int64_t o2 = 0; o2 < q.out[2]; ++o2) {
                C acc = B ? load(B[m]) : C(0);
                for (int64_t c = 0; c < cg; ++c) {
                  const S* xIn = X + (n * g.C + grp * cg + c) * q.inSize();
                  const S* wK = W + (m * cg + c) * q.kSize();
                  for (int64_t k0 = 0; k0 < q.k[0]; ++k0) {
                    int64_t i0 = o0 * q.s[0] - q.p[0] + k0 * q.d[0];
                    if (i0 < 0 || i0 >= q.in[0]) continue;
                    for (int64_t k1 = 0; k1 < q.k[1]; ++k1) {
                      int64_t i1 = o1 * q.s[1] - q.p[1] + k1 * q.d[1];
                      if (i1 < 0 || i1 >= q.in[1]) continue;
                      for (int64_t k2 = 0; k2 < q.k[2]; ++k2) {
                        int64_t i2 = o2 * q.s[2] - q.p[2] + k2 * q.d[2];
                        if (i2 < 0 || i2 >= q.in[2]) continue;
                        acc += load(xIn[(i0 * q.in[1] + i1) * q.in[2] + i2]) *
                               load(wK[(k0 * q.k[1] + k1) * q.k[2] + k2]);
                      }
                    }
                  }
                }
                yOut[(o0 * q.out[1] + o1) * q.out[2] + o2] = store<S>(acc);
              }
        }
      });
      return Status::ok();
    });
  }

 private:
  explicit ConvRef(ConvAttrs a) : attrs_(std::move(a)) {}
  ConvAttrs attrs_;
};

class ConvTransposeRef final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    auto a = parseConvAttrs(b.node());
    if (!a) return a.error();
    return std::unique_ptr<Kernel>(new ConvTransposeRef(*a));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Tensor* bias = ctx.has(2) ? &ctx.input(2) : nullptr;
    if (w.dtype() != x.dtype() || (bias && bias->dtype() != x.dtype()))
      return invalidArgument("X, W and B must have one element type");
    PASSLAB_ASSIGN_OR_RETURN(ConvGeometry g, convTransposeGeometry(attrs_, x.dims(), w.dims()));
    PASSLAB_RETURN_IF_ERROR(checkSpatial(g));
    if (bias && bias->numel() != g.M)
      return invalidArgument("B has " + std::to_string(bias->numel()) + " elements, expected " +
                             std::to_string(g.M));
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), g.outDims));
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      Geo3 q(g);
      const S* X = x.data<S>();
      const S* W = w.data<S>();
      const S* B = bias ? bias->data<S>() : nullptr;
      S* Y = y->mutableData<S>();
      const int64_t cg = g.C / g.group, mg = g.M / g.group;
      // Gather form: y[o] sums x[i] * w[k] over i * s - p + k * d == o.
      auto source = [](int64_t o, int64_t k, int64_t s, int64_t p, int64_t d, int64_t n) {
        int64_t t = o + p - k * d;
        if (t < 0 || t % s != 0) return int64_t{-1};
        t /= s;
        return t < n ? t : int64_t{-1};
      };
      parallelFor(g.N * g.M, ctx.threads(), 1, [&](int64_t begin, int64_t end) {
        for (int64_t nm = begin; nm < end; ++nm) {
          int64_t n = nm / g.M, m = nm % g.M, grp = m / mg, ml = m % mg;
          S* yOut = Y + nm * q.outSize();
          for (int64_t o0 = 0; o0 < q.out[0]; ++o0)
            for (int64_t o1 = 0; o1 < q.out[1]; ++o1)
              for (int64_t o2 = 0; o2 < q.out[2]; ++o2) {
                C acc = B ? load(B[m]) : C(0);
                for (int64_t k0 = 0; k0 < q.k[0]; ++k0) {
                  int64_t i0 = source(o0, k0, q.s[0], q.p[0], q.d[0], q.in[0]);
                  if (i0 < 0) continue;
                  for (int64_t k1 = 0; k1 < q.k[1]; ++k1) {
                    int64_t i1 = source(o1, k1, q.s[1], q.p[1], q.d[1], q.in[1]);
                    if (i1 < 0) continue;
                    for (int64_t k2 = 0; k2 < q.k[2]; ++k2) {
                      int64_t i2 = source(o2, k2, q.s[2], q.p[2], q.d[2], q.in[2]);
                      if (i2 < 0) continue;
                      int64_t xi = (i0 * q.in[1] + i1) * q.in[2] + i2;
                      int64_t wi = (k0 * q.k[1] + k1) * q.k[2] + k2;
                      for (int64_t c = 0; c < cg; ++c) {
                        int64_t ci = grp * cg + c;
                        acc += load(X[(n * g.C + ci) * q.inSize() + xi]) *
                               load(W[(ci * mg + ml) * q.kSize() + wi]);
                      }
                    }
                  }
                }
                yOut[(o0 * q.out[1] + o1) * q.out[2] + o2] = store<S>(acc);
              }
        }
      });
      return Status::ok();
    });
  }

 private:
  explicit ConvTransposeRef(ConvAttrs a) : attrs_(std::move(a)) {}
  ConvAttrs attrs_;
};

const KernelDef kRows[] = {
    {"", "Conv", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.ref.Conv",
     makeKernel<ConvRef>},
    {"", "ConvTranspose", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.ref.ConvTranspose", makeKernel<ConvTransposeRef>},
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeConvRef(const KernelBuild& b) {
  return makeKernel<ConvRef>(b);
}
Expected<std::unique_ptr<Kernel>> makeConvTransposeRef(const KernelBuild& b) {
  return makeKernel<ConvTransposeRef>(b);
}

std::span<const KernelDef> convRefKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
