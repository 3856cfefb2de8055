// Shared by the data-movement kernel files (data_movement.cpp, resize.cpp,
// shape_views.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/exec/cuda/cuda_kernel.h"

namespace passlab::exec::cuda {

// Input i read on the host as int64 values (int32 or int64 tensors).
Expected<std::vector<int64_t>> hostInts(CudaContext& ctx, size_t i, const char* what);
// A launch function's result as a Status naming the op.
Status launchStatus(int code, const char* what);
// Bytes per element of a type the copies move (1, 2, 4, 8), else kUnsupported.
Expected<int> moveSize(ir::DataType t, const char* op);
// `v` as an element of type t, in the low bytes (integers rounded half to
// even and saturated when roundInts, else converted as the CPU's store<S>).
Expected<uint64_t> valueBits(ir::DataType t, double v, bool roundInts);

// The views (shape_views.cpp).
Expected<std::unique_ptr<CudaKernel>> makeReshapeKernel(const CudaBuild& b);
Expected<std::unique_ptr<CudaKernel>> makeFlattenKernel(const CudaBuild& b);
Expected<std::unique_ptr<CudaKernel>> makeUnsqueezeKernel(const CudaBuild& b);
Expected<std::unique_ptr<CudaKernel>> makeSqueezeKernel(const CudaBuild& b);

// Resize (resize.cpp): 4-D (or fewer dims) nearest and linear.
Expected<std::unique_ptr<CudaKernel>> makeResizeKernel(const CudaBuild& b);
// Upsample (resize.cpp): opsets 7 to 9 on the same kernels.
Expected<std::unique_ptr<CudaKernel>> makeUpsampleKernel(const CudaBuild& b);

}  // namespace passlab::exec::cuda
