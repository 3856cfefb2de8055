// The reference Conv and ConvTranspose rows: instances of the one
// sliding-window kernel (window_kernel.h), 1 or more spatial dims, groups,
// dilations, pads, float types. Slow and plain, for tests and for what
// oneDNN declines.
#include "core/exec/cpu/conv_ref.h"

#include "core/exec/cpu/families.h"
#include "core/exec/cpu/window_kernel.h"

namespace passlab::exec::cpu {

namespace {

const KernelDef kRows[] = {
    {"", "Conv", 1, kOpsetMax, types::kFloats, 0, Tier::kReference, "cpu.ref.Conv",
     makeWindowKernelOf<WindowOp::kConv>},
    {"", "ConvTranspose", 1, kOpsetMax, types::kFloats, 0, Tier::kReference,
     "cpu.ref.ConvTranspose", makeWindowKernelOf<WindowOp::kConvTranspose>},
};

}  // namespace

Expected<std::unique_ptr<Kernel>> makeConvRef(const KernelBuild& b) {
  return makeWindowKernel(b, WindowOp::kConv);
}
Expected<std::unique_ptr<Kernel>> makeConvTransposeRef(const KernelBuild& b) {
  return makeWindowKernel(b, WindowOp::kConvTranspose);
}

std::span<const KernelDef> convRefKernels() {
  return kRows;
}

}  // namespace passlab::exec::cpu
