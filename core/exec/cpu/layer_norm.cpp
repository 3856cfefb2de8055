// LayerNormalization and RMSNormalization over the dims from `axis` on.
//
// LayerNormalization: y = (x - mean) / sqrt(var + epsilon) * scale + bias, with
// the optional Mean and InvStdDev outputs in the stash type (float by
// default). Besides opset 17+, the row covers opsets 1-16 in the default
// domain: onnxruntime's contrib LayerNormalization of the same signature,
// which exported models (BERT-style) use there.
// RMSNormalization (opset 23): y = x / sqrt(mean(x^2) + epsilon) * scale. The
// same row runs onnxruntime's SimplifiedLayerNormalization (default domain,
// any opset; optional output 1 inv_std_var = 1 / sqrt(mean(x^2) + epsilon)).
//
// Statistics are accumulated in double (two passes over each row); rows run in
// parallel. An optimized row takes float32 LayerNormalization with the default
// float stash type and only Y wanted: the vectorized kernel of FusedLayerNorm
// (float sums in 16 lanes, Scale and B read in place), as the spec's stash
// type asks (it sets the precision of the statistics).
#include <cmath>
#include <type_traits>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/families.h"
#include "core/exec/cpu/norm_util.h"
#include "core/exec/cpu/passlab_fused.h"
#include "core/exec/kernel.h"
#include "core/exec/parallel.h"

namespace passlab::exec::cpu {

namespace {

template <bool kRms>
class RowNorm final : public Kernel {
 public:
  static Expected<std::unique_ptr<Kernel>> create(const KernelBuild& b) {
    PASSLAB_ASSIGN_OR_RETURN(ir::DataType stash, stashType(b));
    return std::unique_ptr<Kernel>(
        new RowNorm(b.node().attrInt("axis", -1), b.node().attrFloat("epsilon", 1e-5f), stash));
  }

  Status run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const auto rank = static_cast<int64_t>(x.rank());
    if (rank == 0) return invalidArgument("the input must have at least one dim");
    PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axis_, rank));
    const Dims normDims(x.dims().begin() + axis, x.dims().end());
    const int64_t cols = numelOf(normDims);
    const int64_t rows = numelOf(Dims(x.dims().begin(), x.dims().begin() + axis));
    Dims statDims = x.dims();
    for (int64_t d = axis; d < rank; ++d) statDims[static_cast<size_t>(d)] = 1;
    const Tensor& scale = ctx.input(1);
    if (scale.dtype() != x.dtype())
      return invalidArgument("scale " + scale.describe() + " must have the type of X " +
                             x.describe());
    const bool hasBias = !kRms && ctx.has(2);
    if (hasBias && ctx.input(2).dtype() != x.dtype())
      return invalidArgument("bias " + ctx.input(2).describe() + " must have the type of X " +
                             x.describe());
    return dispatch<types::kFloats>(x.dtype(), [&](auto tag) -> Status {
      using S = typename decltype(tag)::type;
      using C = ComputeT<S>;
      PASSLAB_ASSIGN_OR_RETURN(std::vector<C> w, (broadcastParam<S, C>(scale, normDims, "scale")));
      std::vector<C> bias;
      if (hasBias) {
        PASSLAB_ASSIGN_OR_RETURN(bias, (broadcastParam<S, C>(ctx.input(2), normDims, "bias")));
      }
      PASSLAB_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate(0, x.dtype(), x.dims()));
      // Optional statistics outputs: LayerNormalization's Mean and InvStdDev;
      // SimplifiedLayerNormalization's inv_std_var (RMSNormalization has none).
      Tensor* meanOut = nullptr;
      Tensor* invOut = nullptr;
      const size_t invIndex = kRms ? 1 : 2;
      if (!kRms && ctx.outputCount() > 1 && ctx.wantsOutput(1)) {
        PASSLAB_ASSIGN_OR_RETURN(meanOut, ctx.allocate(1, stash_, statDims));
      }
      if (ctx.outputCount() > invIndex && ctx.wantsOutput(invIndex)) {
        PASSLAB_ASSIGN_OR_RETURN(invOut, ctx.allocate(invIndex, stash_, statDims));
      }
      std::vector<double> means(meanOut ? static_cast<size_t>(rows) : 0);
      std::vector<double> invs(invOut ? static_cast<size_t>(rows) : 0);
      const S* in = x.data<S>();
      S* out = y->mutableData<S>();
      const double eps = epsilon_;
      parallelFor(rows, ctx.threads(), std::max<int64_t>(1, kElementwiseGrain / (cols + 1)),
                  [&](int64_t b, int64_t e) {
                    for (int64_t r = b; r < e; ++r) {
                      const S* xr = in + r * cols;
                      S* yr = out + r * cols;
                      double mean = 0;
                      if constexpr (!kRms) {
                        for (int64_t i = 0; i < cols; ++i) mean += static_cast<double>(load(xr[i]));
                        mean /= static_cast<double>(cols);
                      }
                      double var = 0;
                      for (int64_t i = 0; i < cols; ++i) {
                        double d = static_cast<double>(load(xr[i])) - mean;
                        var += d * d;
                      }
                      var /= static_cast<double>(cols);
                      const double inv = 1.0 / std::sqrt(var + eps);
                      const C m = static_cast<C>(mean);
                      const C s = static_cast<C>(inv);
                      for (int64_t i = 0; i < cols; ++i) {
                        C v = (load(xr[i]) - m) * s * w[static_cast<size_t>(i)];
                        if (hasBias) v += bias[static_cast<size_t>(i)];
                        yr[i] = store<S>(v);
                      }
                      if (meanOut) means[static_cast<size_t>(r)] = mean;
                      if (invOut) invs[static_cast<size_t>(r)] = inv;
                    }
                  });
      if (meanOut) writeStats(*meanOut, means);
      if (invOut) writeStats(*invOut, invs);
      return Status::ok();
    });
  }

 private:
  RowNorm(int64_t axis, float epsilon, ir::DataType stash)
      : axis_(axis), epsilon_(epsilon), stash_(stash) {}

  static void writeStats(Tensor& t, const std::vector<double>& v) {
    (void)dispatch<types::kFloats>(t.dtype(), [&](auto tag) -> Status {
      using U = typename decltype(tag)::type;
      U* p = t.mutableData<U>();
      for (size_t i = 0; i < v.size(); ++i) p[i] = store<U>(static_cast<ComputeT<U>>(v[i]));
      return Status::ok();
    });
  }

  int64_t axis_;
  float epsilon_;
  ir::DataType stash_;
};

// Whether X, Scale and B are declared float32, or all of one half type
// (undeclared ones aside).
bool declaredFloatOrOneHalfType(const ir::Node& n) {
  ir::DataType common = ir::DataType::kUndefined;
  for (size_t i = 0; i < n.inputs().size() && i < 3; ++i) {
    const ir::DataType t = n.input(i) ? n.input(i)->type().elemType() : ir::DataType::kUndefined;
    if (t == ir::DataType::kUndefined) continue;
    if (common != ir::DataType::kUndefined && t != common) return false;
    common = t;
  }
  return common == ir::DataType::kUndefined || common == ir::DataType::kFloat ||
         common == ir::DataType::kFloat16 || common == ir::DataType::kBFloat16;
}

// float32 with stash_type float and neither Mean nor InvStdDev wanted: the
// FusedLayerNorm kernel (same inputs X, Scale, B; no Skip). Else declined.
// Inputs declared float16 or bfloat16 (all three alike) are taken too: the
// half-type row (half_as_float.h) widens them to float32 before this kernel
// reads them, as it does every input of the node's half type.
Expected<std::unique_ptr<Kernel>> makeFloatLayerNorm(const KernelBuild& b) {
  const ir::Node& n = b.node();
  if (n.attrInt("stash_type", 1) != static_cast<int64_t>(ir::DataType::kFloat))
    return Error(ErrorCode::kUnsupported, "stash_type is not float");
  for (size_t i = 1; i < n.outputs().size(); ++i)
    if (n.output(i) && !n.output(i)->name().empty())
      return Error(ErrorCode::kUnsupported, "Mean or InvStdDev is wanted");
  if (!declaredFloatOrOneHalfType(n))
    return Error(ErrorCode::kUnsupported, "the inputs are not all float32 or all one half type");
  return fused::makeFusedLayerNorm(b);
}

const KernelDef kRows[] = {
    {"", "LayerNormalization", 1, kOpsetMax, types::kFloat32, 0, Tier::kOptimized,
     "cpu.LayerNormalization.f32", makeFloatLayerNorm},
    {"", "LayerNormalization", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.LayerNormalization", makeKernel<RowNorm<false>>},
    {"", "RMSNormalization", 23, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.RMSNormalization", makeKernel<RowNorm<true>>},
    {"", "SimplifiedLayerNormalization", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.SimplifiedLayerNormalization", makeKernel<RowNorm<true>>},
};

}  // namespace

std::span<const KernelDef> layerNormKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
