// ai.passlab FusedLayerNorm: Y = LayerNorm(X [+ Skip]) * Scale [+ B] over the
// dims from `axis` on, float32, one row at a time (docs/fused-kernels.md).
//
// Inputs: X, Scale, B (optional), Skip (optional, X's dims). Scale and B
// broadcast to the normalized dims. Attributes: axis (default -1), epsilon
// (default 1e-5). Outputs: Y, and Sum = X + Skip (optional, with Skip).
//
// Kernel: per row, the residual sum is formed (into Sum, or into Y as
// scratch), then the mean and the variance (two passes over the row, which is
// in L1 by then; plane_moments.h: float lanes per 1024-element block, blocks
// added in double, AVX-512 when present; the SSE2 float sums before took
// 0.26 ms for [1, 512, 768], 1.4x onnxruntime, session 26), then one pass writes
// (s - mean) * rstd * Scale + B. X (and Skip) are read from memory once and Y
// (and Sum) written once; the chain it replaces (ReduceMean, Sub, Pow,
// ReduceMean, Add, Sqrt, Div, Mul, Add) makes nine passes, each with its own
// output. Rows run in parallel.
#include <cmath>
#include <vector>

#include "core/exec/broadcast.h"
#include "core/exec/cpu/norm_util.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/cpu/plane_moments.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu::fused {

namespace {

class FusedLayerNormKernel final : public Kernel {
 public:
  explicit FusedLayerNormKernel(const KernelBuild& b)
      : axis_(b.node().attrInt("axis", -1)), epsilon_(b.node().attrFloat("epsilon", 1e-5f)) {}

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const auto rank = static_cast<int64_t>(x.rank());
    if (rank == 0) return invalidArgument("FusedLayerNorm: X must have at least one dim");
    int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    if (axis < 0 || axis >= rank)
      return invalidArgument("FusedLayerNorm: axis " + std::to_string(axis_) +
                             " is out of range for X " + x.describe());
    const Dims normDims(x.dims().begin() + axis, x.dims().end());
    const int64_t cols = numelOf(normDims);
    const int64_t rows = cols == 0 ? 0 : x.numel() / cols;
    for (size_t i : {size_t{1}, size_t{2}, size_t{3}})
      if (ctx.has(i) && ctx.input(i).dtype() != ir::DataType::kFloat)
        return invalidArgument("FusedLayerNorm: input " + std::to_string(i) + " " +
                               ctx.input(i).describe() + " is not float32");
    // Scale and B: in place when they hold one value per normalized element.
    std::vector<float> wBuf, bBuf;
    auto param = [&](size_t i, std::vector<float>& buf,
                     const char* what) -> Expected<const float*> {
      const Tensor& t = ctx.input(i);
      if (t.numel() == cols) {
        auto bc = broadcastShapes(t.dims(), normDims);
        if (bc && *bc == normDims) return t.data<float>();
      }
      PASSLAB_ASSIGN_OR_RETURN(buf, (broadcastParam<float, float>(t, normDims, what)));
      return buf.data();
    };
    PASSLAB_ASSIGN_OR_RETURN(const float* w, param(1, wBuf, "scale"));
    const float* bias = nullptr;
    if (ctx.has(2)) {
      PASSLAB_ASSIGN_OR_RETURN(bias, param(2, bBuf, "bias"));
    }
    const float* skip = nullptr;
    if (ctx.has(3)) {
      const Tensor& z = ctx.input(3);
      if (z.dims() != x.dims())
        return invalidArgument("FusedLayerNorm: Skip " + z.describe() + " must have X's dims " +
                               x.describe());
      skip = z.data<float>();
    }
    PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, ir::DataType::kFloat, x.dims()));
    float* sum = nullptr;
    if (skip && ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
      PASSLAB_ASSIGN_OR_RETURN(Tensor * s, ctx.allocate(1, ir::DataType::kFloat, x.dims()));
      sum = s->mutableData<float>();
    }
    if (rows == 0) return Status::ok();
    const float* in = x.data<float>();
    float* out = y->mutableData<float>();
    const float eps = epsilon_;
    parallelFor(rows, ctx.threads(), std::max<int64_t>(1, kElementwiseGrain / (cols + 1)),
                [&](int64_t b, int64_t e) {
                  for (int64_t r = b; r < e; ++r) {
                    const float* xr = in + r * cols;
                    float* yr = out + r * cols;
                    const float* src = xr;
                    if (skip) {
                      const float* zr = skip + r * cols;
                      float* sr = sum ? sum + r * cols : yr;
#pragma omp simd
                      for (int64_t i = 0; i < cols; ++i) sr[i] = xr[i] + zr[i];
                      src = sr;
                    }
                    const PlaneMoments m = planeMoments(src, cols);
                    const auto mean = static_cast<float>(m.mean);
                    const auto var = static_cast<float>(m.variance);
                    const float rstd = 1.0f / std::sqrt(var + eps);
                    if (bias) {
#pragma omp simd
                      for (int64_t i = 0; i < cols; ++i)
                        yr[i] = (src[i] - mean) * rstd * w[i] + bias[i];
                    } else {
#pragma omp simd
                      for (int64_t i = 0; i < cols; ++i) yr[i] = (src[i] - mean) * rstd * w[i];
                    }
                  }
                });
    return Status::ok();
  }

 private:
  int64_t axis_;
  float epsilon_;
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeFusedLayerNorm(const KernelBuild& b) {
  return std::unique_ptr<Kernel>(std::make_unique<FusedLayerNormKernel>(b));
}

}  // namespace passlab::exec::cpu::fused
