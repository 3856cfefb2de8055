// Runs a compiled main graph on one GPU (docs/gpu.md): steps in the
// executor's order, each on its CUDA kernel when the table has one that
// accepts the node, else on its CPU kernel with the inputs copied to the host
// (counted in the run's DeviceRunSummary and shown in the profile as
// "cpu-fallback:<kernel>"). Values move between host and device only when a
// step needs them on the other side: shape arithmetic computed on the CPU
// stays there. Constants are uploaded once per runner; constant-only steps
// run once and keep their outputs. Device memory comes from the stream's
// pool, each value released after its last use. With a profile, each step is
// bracketed by CUDA events on the stream.
//
// PASSLAB_CUDA_SYNC=1 waits for the device after every step, so that a
// failing kernel is named (asynchronous errors otherwise surface at the end).
#pragma once

#include <memory>

#include "core/exec/backend.h"
#include "core/exec/cuda/cuda_device.h"

namespace passlab::exec::cuda {

Expected<std::unique_ptr<GraphRunner>> makeCudaRunner(std::shared_ptr<CudaDevice> device,
                                                      const CompiledGraph& plan,
                                                      Compiler& compiler);

}  // namespace passlab::exec::cuda
