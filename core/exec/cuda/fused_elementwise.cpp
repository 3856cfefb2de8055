// ai.passlab FusedElementwise on the GPU: each node's program becomes one
// CUDA kernel generated at run time (fused_elementwise_codegen.h), compiled by
// NVRTC to PTX (cached on disk, ptx_cache.h), loaded and launched through the
// CUDA runtime API (nvrtc_program.h). The node's kernel object compiles and
// loads once per broadcast-plan signature (which input is read whole, as a
// scalar or through strides, and the rank) and keeps the handles: the dims
// travel as an argument, so other shapes with the same signature reuse it.
#include <mutex>
#include <unordered_map>

#include "core/exec/broadcast.h"
#include "core/exec/cuda/cuda_families.h"
#include "core/exec/cuda/float_type.h"
#include "core/exec/cuda/fused_elementwise_codegen.h"
#include "core/exec/cuda/nvrtc_api.h"
#include "core/exec/cuda/nvrtc_program.h"
#include "core/exec/cuda/ptx_cache.h"

namespace passlab::exec::cuda {

namespace {

// The most bytes of the shape argument (kernel parameters may take 4 KiB in all).
constexpr size_t kMaxShapeBytes = 3072;

class FusedElementwiseKernel final : public CudaKernel {
 public:
  static Expected<std::unique_ptr<CudaKernel>> create(const CudaBuild& b) {
    Expected<fused::EwProgram> p = fused::parseEwProgram(b.node());
    // A program the CPU kernel rejects too: it reports the error there.
    if (!p) return unsupported(p.error().message());
    if (p->inputs == 0) return unsupported("FusedElementwise without inputs");
    // Without NVRTC the node declines and runs on the CPU, saying why.
    PASSLAB_RETURN_IF_ERROR(loadNvrtc().status());
    const ir::DataType t = b.dtype();
    if (t != ir::DataType::kUndefined && !launchFloat(t))
      return unsupported("FusedElementwise on the GPU takes float32, float16 and bfloat16");
    return std::unique_ptr<CudaKernel>(
        new FusedElementwiseKernel(std::move(*p), nvrtc::targetArchitecture(&b.device())));
  }

  Status run(CudaContext& ctx) override {
    const size_t nin = prog_.inputs;
    if (ctx.inputCount() < nin) return invalidArgument("FusedElementwise: missing inputs");
    const ir::DataType t = ctx.inputType(0);
    const std::optional<LaunchFloat> lf = launchFloat(t);
    if (!lf)
      return invalidArgument("FusedElementwise on the GPU takes float32, float16 and bfloat16");
    std::vector<const Dims*> shapes;
    for (size_t i = 0; i < nin; ++i) {
      if (!ctx.has(i)) return invalidArgument("input " + std::to_string(i) + " is missing");
      if (ctx.inputType(i) != t)
        return invalidArgument("FusedElementwise: input " + std::to_string(i) + " is " +
                               std::string(ir::dtypeName(ctx.inputType(i))) + ", input 0 " +
                               std::string(ir::dtypeName(t)));
      shapes.push_back(&ctx.inputDims(i));
    }
    PASSLAB_ASSIGN_OR_RETURN(Dims out, broadcastShapes(shapes));
    PASSLAB_ASSIGN_OR_RETURN(DeviceTensor y, ctx.allocate(0, t, out));
    if (y.numel() == 0) return Status::ok();

    const fused::EwPlan plan = fused::planBroadcast(out, shapes);
    std::vector<int64_t> shape = fused::shapeArgument(plan);
    if (shape.size() * sizeof(int64_t) > kMaxShapeBytes)
      return unsupported("FusedElementwise: too many broadcast inputs for one kernel's parameters");
    std::vector<const void*> ptrs(nin);
    std::vector<DeviceTensor> xs(nin);
    for (size_t i = 0; i < nin; ++i) {
      PASSLAB_ASSIGN_OR_RETURN(xs[i], ctx.input(i));
      ptrs[i] = xs[i].raw();
    }
    void* yp = y.mutableRaw();
    // Four elements a thread where every whole input and Y are aligned for it.
    const bool vec = fused::vectorizable(plan, *lf, yp, ptrs);
    PASSLAB_ASSIGN_OR_RETURN(const void* kernel, kernelFor(*lf, plan, vec));
    std::vector<void*> args;
    args.push_back(&yp);
    for (size_t i = 0; i < nin; ++i) args.push_back(&ptrs[i]);
    args.push_back(shape.data());  // PassLabShape: int64s, as shapeArgument lays them out
    const int64_t threads = vec ? (y.numel() + 3) / 4 : y.numel();
    return nvrtc::launchGridStride(kernel, threads, args.data(), ctx.stream());
  }

 private:
  FusedElementwiseKernel(fused::EwProgram p, std::string arch)
      : prog_(std::move(p)), arch_(std::move(arch)) {}

  // The loaded kernel of this program for `type` and the plan's signature.
  Expected<const void*> kernelFor(LaunchFloat type, const fused::EwPlan& plan, bool vec) {
    const std::string sig =
        std::to_string(static_cast<int>(type)) + ":" + plan.signature() + (vec ? "/v4" : "");
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = kernels_.find(sig); it != kernels_.end()) return it->second;
    const fused::EwSource src = fused::generateSource(prog_, type, plan, vec);
    PASSLAB_ASSIGN_OR_RETURN(std::string ptx,
                             PtxCache::standard().ptxFor(src.code, src.entry + ".cu", arch_));
    PASSLAB_ASSIGN_OR_RETURN(const void* k, nvrtc::loadKernel(ptx, src.entry));
    kernels_.emplace(sig, k);
    return k;
  }

  fused::EwProgram prog_;
  std::string arch_;
  std::mutex mutex_;
  std::unordered_map<std::string, const void*> kernels_;
};

const CudaKernelDef kRows[] = {
    {"ai.passlab", "FusedElementwise", 1, kOpsetMax, kCudaFloats, 0, "nvrtc.FusedElementwise",
     makeCudaKernel<FusedElementwiseKernel>},
};

}  // namespace

std::span<const CudaKernelDef> fusedElementwiseKernels() {
  return kRows;
}

}  // namespace passlab::exec::cuda
