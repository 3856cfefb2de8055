// Run-time compiled CUDA kernels: CUDA C source -> PTX with NVRTC (no device
// needed), PTX -> a loaded kernel and its launch through the CUDA RUNTIME API
// only (cudaLibraryLoadData, cudaLibraryGetKernel, cudaLaunchKernel; never
// libcuda's driver API). The PTX cache on disk is ptx_cache.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/exec/cuda/cuda_kernel.h"
#include "core/support/error.h"

namespace passlab::exec::cuda::nvrtc {

// NVRTC's version, "13.0" ("unknown" when it cannot say).
std::string version();

// The virtual architecture to compile for: "compute_XY" of the device's
// compute capability (compute_90 without a device, computeMajor 0), clamped
// to the newest NVRTC supports (the driver JIT-compiles PTX of an older
// architecture for a newer GPU).
std::string targetArchitecture(const DeviceProperties* device);

// The PTX of `source` for `arch` ("compute_90"). `fileName` names the source in
// NVRTC's messages. A failed compile is an error carrying NVRTC's log.
Expected<std::string> compileToPtx(std::string_view source, std::string_view fileName,
                                   std::string_view arch);

// The kernel `entry` of `ptx`, loaded once per process for every device
// (cudaLibraryLoadData; the library stays loaded until the process ends).
// Returns a cudaKernel_t, usable as cudaLaunchKernel's function.
Expected<const void*> loadKernel(const std::string& ptx, const std::string& entry);

// Launches `kernel` on `stream` as a grid-stride loop over `n` elements
// (256 threads a block); `args` points at each argument, as cudaLaunchKernel takes them.
Status launchGridStride(const void* kernel, int64_t n, void** args, cudaStream_t stream);

}  // namespace passlab::exec::cuda::nvrtc
