// Reference MatMul and Gemm: the textbook loops, accumulating in the compute
// type. Slow; kept for tests and for the types oneDNN lacks.
#include "core/exec/cpu/matmul_ref.h"
#include "core/exec/broadcast.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/matmul_shape.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

constexpr TypeSet kMatMulTypes =
    types::kFloats | TypeSet{ir::DataType::kInt32, ir::DataType::kInt64, ir::DataType::kUInt32,
                             ir::DataType::kUInt64};

class MatMulRef final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (a.dtype() != b.dtype())
      return invalidArgument("inputs have different element types (" + a.describe() + " and " +
                             b.describe() + ")");
    PASSLAB_ASSIGN_OR_RETURN(MatMulShape s, matmulShape(a.dims(), b.dims()));
    return dispatch<kMatMulTypes>(a.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, a.dtype(), s.out));
      const S* pa = a.data<S>();
      const S* pb = b.data<S>();
      S* py = y->mutableData<S>();
      const int64_t M = s.M, K = s.K, N = s.N;
      parallelFor(s.batchCount() * M, ctx.threads(), 1 + 4096 / (K * N + 1),
                  [&](int64_t begin, int64_t end) {
                    std::vector<C> row(static_cast<size_t>(N));
                    for (int64_t r = begin; r < end; ++r) {
                      int64_t bi = r / M, m = r % M;
                      const S* A = pa + s.aMats[static_cast<size_t>(bi)] * M * K + m * K;
                      const S* B = pb + s.bMats[static_cast<size_t>(bi)] * K * N;
                      std::fill(row.begin(), row.end(), C(0));
                      for (int64_t k = 0; k < K; ++k) {
                        C av = load(A[k]);
                        const S* Bk = B + k * N;
                        for (int64_t n = 0; n < N; ++n)
                          row[static_cast<size_t>(n)] += av * load(Bk[n]);
                      }
                      S* Y = py + r * N;
                      for (int64_t n = 0; n < N; ++n) Y[n] = store<S>(row[static_cast<size_t>(n)]);
                    }
                  });
      return Status::ok();
    });
  }
};

// Y = alpha * A' * B' + beta * C (C broadcast to [M, N]).
class GemmRef final : public Kernel {
 public:
  explicit GemmRef(const KernelBuild& b)
      : transA_(b.node().attrInt("transA", 0) != 0),
        transB_(b.node().attrInt("transB", 0) != 0),
        alpha_(b.node().attrFloat("alpha", 1.0f)),
        beta_(b.node().attrFloat("beta", 1.0f)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    const Tensor* c = ctx.has(2) ? &ctx.input(2) : nullptr;
    if (a.rank() != 2 || b.rank() != 2)
      return invalidArgument("Gemm needs 2-D A and B (got " + a.describe() + " and " +
                             b.describe() + ")");
    if (b.dtype() != a.dtype() || (c && c->dtype() != a.dtype()))
      return invalidArgument("A, B and C must have one element type");
    const int64_t M = transA_ ? a.dim(1) : a.dim(0), K = transA_ ? a.dim(0) : a.dim(1);
    const int64_t Kb = transB_ ? b.dim(1) : b.dim(0), N = transB_ ? b.dim(0) : b.dim(1);
    if (K != Kb)
      return invalidArgument("Gemm inner dimensions differ (" + a.describe() + ", " + b.describe() +
                             ")");
    Dims out = {M, N};
    std::vector<int64_t> cStrides;
    if (c) {
      auto bc = broadcastShapes(c->dims(), out);
      if (!bc || *bc != out)
        return invalidArgument("C " + c->describe() + " does not broadcast to [" +
                               std::to_string(M) + "," + std::to_string(N) + "]");
      cStrides = broadcastStrides(c->dims(), out);
    }
    return dispatch<kMatMulTypes>(a.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, a.dtype(), out));
      const S* A = a.data<S>();
      const S* B = b.data<S>();
      S* Y = y->mutableData<S>();
      const C alpha = static_cast<C>(alpha_), beta = static_cast<C>(beta_);
      parallelFor(M, ctx.threads(), 1, [&](int64_t m0, int64_t m1) {
        for (int64_t m = m0; m < m1; ++m)
          for (int64_t n = 0; n < N; ++n) {
            C acc = 0;
            for (int64_t k = 0; k < K; ++k) {
              C av = load(transA_ ? A[k * M + m] : A[m * K + k]);
              C bv = load(transB_ ? B[n * K + k] : B[k * N + n]);
              acc += av * bv;
            }
            acc = alpha * acc;
            if (c) acc += beta * load(c->data<S>()[m * cStrides[0] + n * cStrides[1]]);
            Y[m * N + n] = store<S>(acc);
          }
      });
      return Status::ok();
    });
  }

 private:
  bool transA_, transB_;
  float alpha_, beta_;
};

const KernelDef kRows[] = {
    {"", "MatMul", 1, kOpsetMax, kMatMulTypes, 0, Tier::kReference, "cpu.ref.MatMul",
     makeKernel<MatMulRef>},
    {"", "Gemm", 6, kOpsetMax, kMatMulTypes, 0, Tier::kReference, "cpu.ref.Gemm",
     makeKernel<GemmRef>},
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeMatMulRef(const KernelBuild& b) {
  return makeKernel<MatMulRef>(b);
}
Expected<std::unique_ptr<Kernel>> makeGemmRef(const KernelBuild& b) {
  return makeKernel<GemmRef>(b);
}

std::span<const KernelDef> matmulRefKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
