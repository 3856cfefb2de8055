// Host side of the pooling rows (pool_cudnn.cpp), testable without a GPU:
// the CPU's pool geometry (core/exec/cpu/pool_geometry.h: auto_pad, ceil_mode,
// dilations resolved) as the 3-axis window the direct kernels of pool.cu
// take, and BatchNormalization's per-channel scale and shift.
#pragma once

#include <vector>

#include "core/exec/cpu/batch_norm_fold.h"
#include "core/exec/cpu/pool_geometry.h"
#include "core/exec/cuda/pool_launch.h"
#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cuda {

// The geometry's window on 3 axes, the missing leading axes of extent 1;
// kUnsupported for more than 3 spatial axes.
Expected<PoolWindow3> poolWindow3(const cpu::PoolGeometry& g);

// BatchNormalization folded per channel as the CPU kernel folds it
// (core/exec/cpu/batch_norm_fold.h).
using cpu::foldBatchNorm;

}  // namespace passlab::exec::cuda
