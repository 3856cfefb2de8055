// The shape rules of the copying data-movement operators (Transpose,
// DepthToSpace / SpaceToDepth, Concat, Split, Slice), one contract for the CPU
// kernels (transpose.cpp, indexing.cpp, block_copy.cpp) and the CUDA ones
// (core/exec/cuda/data_movement.cpp, data_movement_plan.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/cpu/data_util.h"
#include "core/exec/cpu/shape_rules.h"
#include "core/exec/kernel.h"
#include "core/exec/tensor.h"
#include "core/ir/node.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

// Transpose of `in` by `perm` (empty: the dims reversed), checked.
struct TransposeShape {
  std::vector<int64_t> perm;
  Dims out;
};
Expected<TransposeShape> transposeShape(const Dims& in, std::vector<int64_t> perm,
                                        const DescribeInput& describe);

// DepthToSpace (toSpace; DCR or CRD) / SpaceToDepth of [N, C, H, W] by
// `block` (positive): the 6-D view of the input, its permutation and the
// output dims.
struct SpaceDepthShape {
  Dims view;
  std::vector<int64_t> perm;
  Dims out;
};
Expected<SpaceDepthShape> spaceDepthShape(bool toSpace, bool crd, int64_t N, int64_t C, int64_t H,
                                          int64_t W, int64_t block);

// Concat of `xs` (Tensor or DeviceTensor, at least one) along `axisAttr`.
struct ConcatShape {
  int64_t axis = 0;
  Dims out;
};
template <class X>
Expected<ConcatShape> concatShape(const std::vector<const X*>& xs, int64_t axisAttr) {
  const X& first = *xs[0];
  auto rank = static_cast<int64_t>(first.rank());
  PASSLAB_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(axisAttr, rank));
  Dims out = first.dims();
  out[static_cast<size_t>(axis)] = 0;
  for (const X* x : xs) {
    bool ok = x->dtype() == first.dtype() && x->rank() == first.rank();
    for (int64_t d = 0; ok && d < rank; ++d)
      ok = d == axis || x->dim(static_cast<size_t>(d)) == first.dim(static_cast<size_t>(d));
    if (!ok)
      return invalidArgument("inputs " + first.describe() + " and " + x->describe() +
                             " do not concatenate along axis " + std::to_string(axis));
    out[static_cast<size_t>(axis)] += x->dim(static_cast<size_t>(axis));
  }
  return ConcatShape{axis, std::move(out)};
}

// Expand of `in` to the int64 1-D `shape` (input 1): the broadcast dims.
Expected<Dims> expandDims(const Dims& in, const Tensor& shape);

// Split of an axis (`axis`, normalized) of length `n` into `outputs` parts:
// the lengths from `split` (attribute or input), else num_outputs chunks
// (opset 18; `numOutputs` > 0), else equal parts.
Expected<std::vector<int64_t>> splitLengths(int64_t n, int64_t axis, int64_t outputs,
                                            std::vector<int64_t> split, int64_t numOutputs,
                                            const DescribeInput& describe);

// Slice of `in`: per dim the first index, the step and the output length,
// starts/ends clamped as ONNX says. `axes` and `steps` may be empty (all
// axes, steps 1).
struct SliceWindow {
  Dims begin, step, out;
};
Expected<SliceWindow> sliceWindow(const Dims& in, const std::vector<int64_t>& starts,
                                  const std::vector<int64_t>& ends, std::vector<int64_t> axes,
                                  std::vector<int64_t> steps);

// Pad's mode attribute; the values are those of the CUDA launch's PadArgs::mode.
enum class PadMode { kConstant = 0, kReflect = 1, kEdge = 2, kWrap = 3 };
Expected<PadMode> parsePadMode(const ir::Node& n);

// Pad of `in` by `pads` (begins then ends, one pair per axis of `axes`, or of
// every dim when `axes` is null).
struct PadShape {
  Dims padBegin, out;
};
Expected<PadShape> padShape(const Dims& in, const std::vector<int64_t>& pads,
                            const std::vector<int64_t>* axes, PadMode mode,
                            const DescribeInput& describe);

}  // namespace passlab::exec::cpu
