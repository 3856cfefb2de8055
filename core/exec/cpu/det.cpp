// Det: the determinant of each square matrix in the last two dims, by LU
// decomposition with partial pivoting in double.
#include <cmath>
#include <utility>
#include <vector>

#include "core/exec/cpu/families.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

// The determinant of the n x n matrix in a (row-major, overwritten).
double luDeterminant(std::vector<double>& a, int64_t n) {
  double det = 1;
  for (int64_t c = 0; c < n; ++c) {
    int64_t pivot = c;
    for (int64_t r = c + 1; r < n; ++r)
      if (std::fabs(a[static_cast<size_t>(r * n + c)]) >
          std::fabs(a[static_cast<size_t>(pivot * n + c)]))
        pivot = r;
    const double p = a[static_cast<size_t>(pivot * n + c)];
    if (p == 0) return 0;
    if (pivot != c) {
      for (int64_t j = 0; j < n; ++j)
        std::swap(a[static_cast<size_t>(c * n + j)], a[static_cast<size_t>(pivot * n + j)]);
      det = -det;
    }
    det *= p;
    for (int64_t r = c + 1; r < n; ++r) {
      const double f = a[static_cast<size_t>(r * n + c)] / p;
      if (f == 0) continue;
      for (int64_t j = c + 1; j < n; ++j)
        a[static_cast<size_t>(r * n + j)] -= f * a[static_cast<size_t>(c * n + j)];
    }
  }
  return det;
}

class Det final : public Kernel {
 public:
  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2 || x.dim(x.rank() - 1) != x.dim(x.rank() - 2))
      return invalidArgument("the input must be square matrices [..., M, M], got " + x.describe());
    const int64_t n = x.dim(x.rank() - 1);
    Dims outDims(x.dims().begin(), x.dims().end() - 2);
    const int64_t batch = numelOf(outDims);
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), outDims));
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      parallelFor(batch, ctx.threads(), std::max<int64_t>(1, 65536 / (n * n * n + 1)),
                  [&](int64_t b, int64_t e) {
                    std::vector<double> a(static_cast<size_t>(n * n));
                    for (int64_t m = b; m < e; ++m) {
                      for (int64_t i = 0; i < n * n; ++i)
                        a[static_cast<size_t>(i)] = static_cast<double>(load(in[m * n * n + i]));
                      out[m] = store<S>(static_cast<ComputeT<S>>(luDeterminant(a, n)));
                    }
                  });
      return Status::ok();
    });
  }
};

const KernelDef kRows[] = {
    {"", "Det", 11, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.Det", makeKernel<Det>},
};

}  // namespace

std::span<const KernelDef> detKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
