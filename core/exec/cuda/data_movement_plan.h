// Host-side plans of the CUDA data-movement kernels (no device needed, unit
// tested in tests/core/exec/cuda/data_movement_plan_test.cpp): the strides a
// Transpose / Slice / Expand / Tile copy reads with, the Slice clamping, and
// Resize's per-axis index maps and linear taps. Each mirrors its CPU kernel
// (core/exec/cpu/transpose.cpp, indexing.cpp, expand.cpp, block_copy.cpp,
// resize.cpp) so both give the same elements.
#pragma once

#include <cstdint>
#include <vector>

#include "core/exec/cpu/resize_rules.h"
#include "core/exec/cuda/data_movement_launch.h"
#include "core/exec/kernel.h"
#include "core/exec/tensor.h"
#include "core/ir/node.h"
#include "core/support/error.h"

namespace passlab::exec::cuda {

// A gather from a contiguous source: output (row-major over `dims`) element
// at (c_0..c_{r-1}) = src[base + sum c_d * strides[d]] (c_d % mods[d] when
// mods is not empty).
struct StridedPlan {
  Dims dims;
  std::vector<int64_t> strides;
  std::vector<int64_t> mods;  // empty, or one per dim (Tile)
  int64_t base = 0;
};

// Row-major strides of `dims` (elements).
std::vector<int64_t> contiguousStrides(const Dims& dims);

// Merges neighbouring dims that stay contiguous in the source and drops
// size-1 dims (plans without mods); rank 0 becomes [1].
StridedPlan collapsePlan(const StridedPlan& p);

// Transpose of a contiguous `in` by `perm` (checked beforehand), collapsed.
StridedPlan transposePlan(const Dims& in, const std::vector<int64_t>& perm);

// Slice: the output dims and the strided plan, starts/ends clamped exactly as
// the CPU kernel does. `axes` and `steps` may be empty (all axes, steps 1).
struct SliceResult {
  Dims out;
  StridedPlan plan;  // collapsed
};
Expected<SliceResult> slicePlan(const Dims& in, const std::vector<int64_t>& starts,
                                const std::vector<int64_t>& ends, std::vector<int64_t> axes,
                                std::vector<int64_t> steps);

// Expand of `in` to the broadcast `out` (stride 0 on broadcast dims), collapsed.
StridedPlan expandPlan(const Dims& in, const Dims& out);

// Tile of `in` by `repeats` (same rank, checked beforehand): dims = in * repeats, mods = in.
StridedPlan tilePlan(const Dims& in, const std::vector<int64_t>& repeats);

// The plan as the launch function takes it; an error when its rank is above kMaxMoveRank.
Expected<MoveStrides> toMoveStrides(const StridedPlan& p);

// ---- Resize (the rules of core/exec/cpu/resize_rules.h) ----
using cpu::ResizeAttrs;
using cpu::ResizeAxis;
using cpu::ResizeCoord;
using cpu::ResizeMode;
using cpu::ResizeNearest;
using cpu::ResizePolicy;

// The attributes as the CPU reads them; kUnsupported for what the GPU kernels
// do not do (cubic, antialias).
Expected<ResizeAttrs> parseResizeAttrs(const ir::Node& n, int64_t opset);

// Every axis of `in` (resized or not) from the scales or the sizes (exactly
// one non-empty) and roi: cpu::resizeGeometry's dims.
Expected<std::vector<ResizeAxis>> resizeAxes(const ResizeAttrs& a, const Dims& in,
                                             const std::vector<double>& scales,
                                             const std::vector<int64_t>& sizes,
                                             const std::vector<double>& roi);

// Nearest: the input index of every output position of one axis, -1 for the
// extrapolation value.
std::vector<int64_t> nearestMap(const ResizeAttrs& a, const ResizeAxis& p);
// Linear: the two taps of every output position of one axis.
std::vector<LinearTap> linearTaps(const ResizeAttrs& a, const ResizeAxis& p);
// Upsample (opsets 7 to 9, as the CPU): in = float(o) / float(scale), taps
// floor(in) and the next (clamped) with weight in - floor(in) on the second
// when linear, else 0.
std::vector<LinearTap> upsampleTaps(const ResizeAxis& p, bool linear);

}  // namespace passlab::exec::cuda
