// The geometry of a reduction over a set of axes: the output dims (keepdims or
// not) and the input seen as few dims as possible. When the reduced axes form
// one block the input is [outer, reduced, inner] with `inner` contiguous;
// otherwise every reduced element's offset is listed (`reducedOffsets`) and
// output elements are walked with their base offsets.
#pragma once

#include <cstdint>
#include <vector>

#include "core/exec/tensor.h"
#include "core/support/error.h"

namespace passlab::exec::cpu {

struct ReducePlan {
  Dims outDims;
  int64_t outCount = 0;      // elements of the output
  int64_t reducedCount = 1;  // elements reduced into each output element
  // Block form: input = [outer, reduced, inner] (outer * inner == outCount).
  bool block = false;
  int64_t outer = 1, inner = 1;
  // General form: offset of each reduced element relative to its output's base,
  // and the kept dims with their input strides (for the base offsets).
  std::vector<int64_t> reducedOffsets;
  Dims keptDims;
  std::vector<int64_t> keptStrides;

  // Input offset of the first element reduced into output element `o` (general form).
  int64_t baseOffset(int64_t o) const;
  // Calls f(inputOffset) for every input element reduced into output element `o`.
  template <class F>
  void forEach(int64_t o, F&& f) const {
    if (block) {
      const int64_t base = (o / inner) * reducedCount * inner + o % inner;
      for (int64_t r = 0; r < reducedCount; ++r) f(base + r * inner);
    } else {
      const int64_t base = baseOffset(o);
      for (int64_t off : reducedOffsets) f(base + off);
    }
  }
};

// Axes of a rank-`rank` tensor, normalized and checked (in range, no repeats);
// errors name the bad axis.
Expected<std::vector<bool>> reducedAxes(const std::vector<int64_t>& axes, int64_t rank);

// The plan for reducing `dims` over the axes flagged in `reduced`.
ReducePlan planReduction(const Dims& dims, const std::vector<bool>& reduced, bool keepDims);

}  // namespace passlab::exec::cpu
