// The one reference sliding-window kernel: every window op is an instance of
// a loop over (channel plane, grid position, tap) through the window's
// indirection buffer (window_indirection.h). Gathers: Conv (grouped,
// depthwise, dilated), MaxPool (with Indices), AveragePool, LpPool and the
// Global pools (a window the size of the image). Scatters: ConvTranspose,
// Col2Im; MaxUnpool takes its extent from the window and its taps from the
// Indices. Float types are computed in their compute type. It runs where no
// fast path applies, and tests compare the fast paths against it.
#pragma once

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

enum class WindowOp {
  kConv,
  kConvTranspose,
  kMaxPool,
  kAveragePool,
  kLpPool,
  kGlobalMaxPool,
  kGlobalAveragePool,
  kGlobalLpPool,
  kMaxUnpool,
  kCol2Im,
};

Expected<std::unique_ptr<Kernel>> makeWindowKernel(const KernelBuild& b, WindowOp op);

// makeKernel-style factory of one instance, for kernel rows.
template <WindowOp kOp>
Expected<std::unique_ptr<Kernel>> makeWindowKernelOf(const KernelBuild& b) {
  return makeWindowKernel(b, kOp);
}

}  // namespace passlab::exec::cpu
