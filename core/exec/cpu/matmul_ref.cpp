// Reference MatMul: the textbook triple loop per batch matrix, accumulating in
// the compute type. Slow; kept for tests and for the types oneDNN lacks.
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

const KernelDef kRows[] = {
    {"", "MatMul", 1, kOpsetMax, kMatMulTypes, 0, Tier::kReference, "cpu.ref.MatMul",
     makeKernel<MatMulRef>},
};

}  // namespace

std::span<const KernelDef> matmulRefKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
