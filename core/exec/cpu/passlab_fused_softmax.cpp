// ai.passlab FusedSoftmax: Y = Softmax(scale * X [+/- M]) over the last axis,
// float32, one pass per row (docs/fused-kernels.md).
//
// Inputs: X, M (optional, float, broadcasting into X without widening it).
// Attributes: scale (default 1), mask_subtract (M is subtracted).
//
// Kernel: per row, x = scale * X (+/- M) into Y, its maximum, then exp(x -
// max) and the sum with the 4-lane polynomial exp of passlab_fused_math.h
// (the unfused Softmax calls libm's expf per element), then the normalization,
// all on the row in Y (in L1). X and M are read once, Y written
// once; the chain it replaces makes one pass per op. Rows run in parallel.
#include <algorithm>
#include <limits>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cpu/passlab_fused_math.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu::fused {

namespace {

class FusedSoftmaxKernel final : public Kernel {
 public:
  explicit FusedSoftmaxKernel(const KernelBuild& b)
      : scale_(b.node().attrFloat("scale", 1.0f)),
        subtract_(b.node().attrInt("mask_subtract", 0) != 0) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const size_t R = x.rank();
    if (R == 0) return invalidArgument("FusedSoftmax: X must have at least one dim");
    const int64_t len = x.dims().back();
    const int64_t rows = len == 0 ? 0 : x.numel() / len;
    const float* M = nullptr;
    std::vector<int64_t> ms;  // the mask's strides over X's dims (0 where broadcast)
    if (ctx.has(1)) {
      const Tensor& m = ctx.input(1);
      auto bc = broadcastShapes(m.dims(), x.dims());
      if (m.dtype() != ir::DataType::kFloat || !bc || *bc != x.dims() || m.rank() > R)
        return invalidArgument("FusedSoftmax: the mask " + m.describe() +
                               " is not float32 broadcasting into X " + x.describe());
      M = m.data<float>();
      ms.assign(R, 0);
      int64_t acc = 1;
      for (size_t i = 0; i < m.rank(); ++i) {
        const size_t j = m.rank() - 1 - i, o = R - 1 - i;
        ms[o] = m.dims()[j] == 1 ? 0 : acc;
        acc *= m.dims()[j];
      }
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, x.dims()));
    if (rows == 0) return Status::ok();
    const float* X = x.data<float>();
    float* Y = y->mutableData<float>();
    const float scale = scale_;
    const float sign = subtract_ ? -1.0f : 1.0f;
    const Dims& xd = x.dims();
    parallelFor(rows, ctx.threads(), std::max<int64_t>(1, 8192 / (len + 1)),
                [&](int64_t b0, int64_t e0) {
                  for (int64_t r = b0; r < e0; ++r) {
                    const float* xr = X + r * len;
                    float* yr = Y + r * len;
                    if (M) {
                      int64_t off = 0;
                      for (size_t d = R - 1, rem = static_cast<size_t>(r); d-- > 0;) {
                        off += static_cast<int64_t>(rem % static_cast<size_t>(xd[d])) * ms[d];
                        rem /= static_cast<size_t>(xd[d]);
                      }
                      const float* mr = M + off;
                      if (ms[R - 1] == 0) {
                        const float c = sign * mr[0];
#pragma omp simd
                        for (int64_t i = 0; i < len; ++i) yr[i] = scale * xr[i] + c;
                      } else {
#pragma omp simd
                        for (int64_t i = 0; i < len; ++i) yr[i] = scale * xr[i] + sign * mr[i];
                      }
                    } else {
#pragma omp simd
                      for (int64_t i = 0; i < len; ++i) yr[i] = scale * xr[i];
                    }
                    // A row of -inf (all masked out) gives NaN, as Softmax does.
                    const float mx = rowMax(yr, len);
                    const float sum = expShiftSum(yr, len, mx);
                    const float inv = 1.0f / sum;
#pragma omp simd
                    for (int64_t i = 0; i < len; ++i) yr[i] *= inv;
                  }
                });
    return Status::ok();
  }

 private:
  float scale_;
  bool subtract_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeFusedSoftmax(const KernelBuild& b) {
  return std::unique_ptr<Kernel>(std::make_unique<FusedSoftmaxKernel>(b));
}

}  // namespace passlab::exec::cpu::fused
