// What the kernels of the blocked layout share (core/ir/passlab_ops.h, "the
// blocked activation layout": [N, ceil(C/b), H, W, b], nChw8c / nChw16c):
// the two reorder loops, and a context that lets an NCHW kernel run on blocked
// inputs and outputs (the reference kernels: unblock, run the plain kernel,
// block its result).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu::blocked {

// NCHW [N, C, S] (S = H * W) to blocked [N, ceil(C/b), S, b], the padding
// channels zero; and back (the padding dropped).
void toBlocked(const float* x, float* y, int64_t N, int64_t C, int64_t S, int64_t b, int threads);
void fromBlocked(const float* x, float* y, int64_t N, int64_t C, int64_t S, int64_t b, int threads);

// The NCHW dims of blocked dims [N, G, H, W, b] with C channels; and back.
Dims plainDims(const Dims& blockedDims, int64_t channels);
Dims blockedDims(const Dims& plainDims, int64_t b);

// Runs an NCHW kernel for a node whose inputs listed in `blockedInputs` and
// whose output 0 are blocked: unblocks those inputs (input i with
// channels[i] channels) into scratch tensors, gives the kernel a scratch
// NCHW output, and blocks it into the real output.
Status runUnblocked(Kernel& plain, KernelContext& ctx, int64_t b,
                    const std::vector<std::pair<size_t, int64_t>>& blockedInputs);

// Factories (passlab_blocked.cpp), rows in passlab_fused_kernels.cpp.
Expected<std::unique_ptr<Kernel>> makeReorderToBlocked(const KernelBuild& b);       // oneDNN
Expected<std::unique_ptr<Kernel>> makeReorderToBlockedRef(const KernelBuild& b);    // loops
Expected<std::unique_ptr<Kernel>> makeReorderFromBlocked(const KernelBuild& b);     // oneDNN
Expected<std::unique_ptr<Kernel>> makeReorderFromBlockedRef(const KernelBuild& b);  // loops
Expected<std::unique_ptr<Kernel>> makeBlockedPool(const KernelBuild& b);            // oneDNN
Expected<std::unique_ptr<Kernel>> makeBlockedPoolRef(const KernelBuild& b);         // NCHW pools

}  // namespace passlab::exec::cpu::blocked
