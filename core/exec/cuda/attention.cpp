// The attention family on the GPU: ai.passlab FusedAttention (Q, K, V, and
// the optional mask_mul, mask_add (float32) and mask_bool masks; scale,
// k_transposed, mask_subtract, mask_filter_value, mask_keep,
// mask_add_after_bool, causal as on the CPU, passlab_fused_attention.cpp) for
// float32, float16 and bfloat16 Q/K/V, one block per query row
// (attention.cu). Masks of another type are declined (the CPU takes float32
// masks only). com.microsoft Attention (packed QKV weights, mask_index forms,
// past/present) has no row: it runs on the CPU.
#include <cmath>
#include <string>

#include "core/exec/cuda/attention_launch.h"
#include "core/exec/cuda/cuda_check.h"
#include "core/exec/cuda/cuda_families.h"
#include "core/exec/cuda/float_type.h"
#include "core/exec/cuda/norm_reduce_plan.h"
#include "core/ir/passlab_ops.h"

namespace passlab::exec::cuda {

namespace {

// Shared memory per block: the query row (H floats), dynamic, beside the
// block reductions' static 256 bytes; all of it must stay within the 48 KiB a
// launch gets without opting in (12 Ki floats alone fill it: the launch
// would fail), so 8 Ki floats (32 KiB).
constexpr int64_t kMaxHeadSize = 8 * 1024;

class FusedAttentionKernel final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    const ir::Node& n = b.node();
    const char* names[3] = {"mask_mul", "mask_add", "mask_bool"};
    for (size_t i = 3; i < 6 && i < n.inputs().size(); ++i) {
      const ir::Value* in = n.input(i);
      if (!in || in->name().empty()) continue;
      const ir::DataType t = in->type().elemType();
      const ir::DataType want = i == 5 ? ir::DataType::kBool : ir::DataType::kFloat;
      if (t != ir::DataType::kUndefined && t != want)
        return unsupported(std::string("FusedAttention: ") + names[i - 3] + " is not " +
                           (i == 5 ? "bool" : "float32"));
    }
    auto k = std::make_unique<FusedAttentionKernel>();
    k->hasScale_ = n.hasAttr("scale");
    k->args_.scale = n.attrFloat("scale", 1.0f);
    k->args_.k_transposed = n.attrInt("k_transposed", 0) != 0;
    k->args_.subtract = n.attrInt("mask_subtract", 0) != 0;
    k->args_.filter = n.attrFloat("mask_filter_value", -10000.0f);
    k->args_.keep = n.attrInt("mask_keep", 1) != 0;
    k->args_.causal = n.attrInt("causal", 0) != 0;
    k->args_.add_after_bool = n.attrInt("mask_add_after_bool", 0) != 0;
    return std::unique_ptr<CudaKernel>(std::move(k));
  }

  Status run(CudaContext& ctx) override {
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor q, ctx.input(0));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor k, ctx.input(1));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor v, ctx.input(2));
    auto ft = launchFloat(q.dtype());
    if (!ft || k.dtype() != q.dtype() || v.dtype() != q.dtype())
      return invalidArgument("FusedAttention: Q " + q.describe() + ", K " + k.describe() +
                             " and V " + v.describe() + " must have one float type");
    DeviceTensor masks[3];
    const Dims* maskDims[3] = {nullptr, nullptr, nullptr};
    for (size_t i = 0; i < 3; ++i) {
      if (ctx.inputCount() <= 3 + i || !ctx.has(3 + i)) continue;
      PASSLAB_ASSIGN_OR_RETURN(masks[i], ctx.input(3 + i));
      const ir::DataType want = i == 2 ? ir::DataType::kBool : ir::DataType::kFloat;
      if (masks[i].dtype() != want)
        return invalidArgument(std::string("FusedAttention: ") +
                               (i == 0   ? "mask_mul"
                                : i == 1 ? "mask_add"
                                         : "mask_bool") +
                               " must be " + (i == 2 ? "bool" : "float32") + ", got " +
                               masks[i].describe());
      maskDims[i] = &masks[i].dims();
    }
    AttentionArgs a = args_;
    PASSLAB_ASSIGN_OR_RETURN(
        Dims outDims, planAttention(q.dims(), k.dims(), v.dims(), a.k_transposed, maskDims, a));
    if (a.H > kMaxHeadSize)
      return unsupported("FusedAttention: head size " + std::to_string(a.H) + " is above " +
                         std::to_string(kMaxHeadSize) + " on CUDA");
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, q.dtype(), outDims));
    if (y.numel() == 0) return Status::ok();
    if (!hasScale_) a.scale = 1.0f / std::sqrt(static_cast<float>(a.H));
    a.score_rows = attentionBlocks(a.batches * a.S);
    const size_t scoreBytes =
        static_cast<size_t>(a.score_rows) * static_cast<size_t>(std::max<int64_t>(a.T, 1)) * 4;
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor scratch, ctx.scratch(scoreBytes));
    a.scores = scratch.mutableData<float>();
    a.q = q.raw();
    a.k = k.raw();
    a.v = v.raw();
    a.y = y.mutableRaw();
    a.mask_mul = masks[0].defined() ? masks[0].data<float>() : nullptr;
    a.mask_add = masks[1].defined() ? masks[1].data<float>() : nullptr;
    a.mask_bool = masks[2].defined() ? masks[2].data<bool>() : nullptr;
    PASSLAB_CUDA_TRY(launchAttention(static_cast<int>(*ft), a, ctx.stream()));
    return Status::ok();
  }

 private:
  AttentionArgs args_;
  bool hasScale_ = false;
};

const CudaKernelDef kRows[] = {
    {ir::passlab_ops::kDomain, ir::passlab_ops::kFusedAttention, 1, kOpsetMax, kCudaFloats, 0,
     "cuda.passlab.FusedAttention", makeCudaKernel<FusedAttentionKernel>},
};

}  // namespace

std::span<const CudaKernelDef> attentionKernels() {
  return kRows;
}

}  // namespace passlab::exec::cuda
